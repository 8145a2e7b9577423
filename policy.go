package modebox

import (
	"fmt"
	"sort"
	"strings"

	"github.com/modebox/modebox/internal/policy"
)

func compilePolicies(field string, policies map[string]Policy) (*policy.Rules, error) {
	r, err := policy.Compile(field, policies)
	return r, apiError(err)
}

// checkRulesMatch reports a rule (policy, flow source or sink) aimed at a
// namespace that has tools, none of which it matches: such a rule would
// silently protect nothing (a typo, or a tool the server renamed).
func checkRulesMatch(entries []*entry, policies map[string]Policy, flows Flows) error {
	namespaces := map[string]bool{}
	for _, e := range entries {
		if e.Namespace != "" {
			namespaces[e.Namespace], namespaces[e.ns] = true, true
		}
	}
	check := func(field, pattern string) error {
		ns, _, ok := strings.Cut(pattern, ".")
		if !ok || strings.Contains(ns, "*") || !namespaces[ns] {
			return nil
		}
		var names []string
		for _, e := range entries {
			if e.Namespace != ns && e.ns != ns {
				continue
			}
			if policy.Match(pattern, e.key) || policy.Match(pattern, e.original()) {
				return nil
			}
			names = append(names, e.Name)
		}
		sort.Strings(names)
		if len(names) > 20 {
			names = append(names[:20], "…")
		}
		return &ConfigError{Field: fmt.Sprintf("%s[%q]", field, pattern),
			Reason: fmt.Sprintf("matches no tool of %q (its tools: %s)", ns, strings.Join(names, ", "))}
	}
	keys := make([]string, 0, len(policies))
	for k := range policies {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := check("EngineConfig.Policies", k); err != nil {
			return err
		}
	}
	for _, p := range flows.Sources {
		if err := check("EngineConfig.Flows.Sources", p); err != nil {
			return err
		}
	}
	for _, p := range flows.Sinks {
		if err := check("EngineConfig.Flows.Sinks", p); err != nil {
			return err
		}
	}
	return nil
}
