package modebox

import (
	"fmt"
	"sort"
	"strings"

	"github.com/modebox/modebox/internal/config"
)

// policyRules resolves tool policies and flows by pattern, with the rules
// of modebox.json (internal/config): exact beats glob, fewer "*" beat more,
// longer beats shorter, stricter beats looser.
type policyRules struct {
	cfg *config.Config
}

func compilePolicies(field string, policies map[string]Policy) (*policyRules, error) {
	if len(policies) == 0 {
		return nil, nil
	}
	cfg := &config.Config{Tools: map[string]config.ToolRule{}}
	for pattern, p := range policies {
		if pattern == "" {
			return nil, &ConfigError{Field: field, Reason: "empty pattern"}
		}
		switch p {
		case PolicyAllow, PolicyAsk, PolicyDeny:
		default:
			return nil, &ConfigError{Field: fmt.Sprintf("%s[%q]", field, pattern), Reason: fmt.Sprintf("%q is not allow, ask or deny", p)}
		}
		cfg.Tools[pattern] = config.ToolRule{Policy: string(p)}
	}
	return &policyRules{cfg: cfg}, nil
}

// policyFor returns the policy of the most specific pattern matching key,
// or def when none does. Safe on a nil receiver.
func (r *policyRules) policyFor(key string, def Policy) Policy {
	if r == nil {
		return def
	}
	if p, ok := r.cfg.PolicyFor(key); ok {
		return Policy(p)
	}
	return def
}

// policyForNames returns the policy of a tool known by several names (its
// mapped key and the name the user sees): the stricter of the most
// specific rule for each name that has one, or def when no rule matches.
func (r *policyRules) policyForNames(def Policy, names ...string) Policy {
	if r == nil {
		return def
	}
	found := false
	var p Policy
	for _, n := range names {
		if q, ok := r.cfg.PolicyFor(n); ok {
			if !found {
				p, found = Policy(q), true
			} else {
				p = stricter(p, Policy(q))
			}
		}
	}
	if !found {
		return def
	}
	return p
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
			if config.Match(pattern, e.key) || config.Match(pattern, e.original()) {
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

// stricter returns the stricter of two policies: deny > ask > allow.
func stricter(a, b Policy) Policy {
	rank := func(p Policy) int {
		switch p {
		case PolicyDeny:
			return 2
		case PolicyAsk:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

func flowRules(f Flows) *config.Config {
	if len(f.Sources) == 0 && len(f.Sinks) == 0 {
		return nil
	}
	return &config.Config{Flows: config.Flows{Sources: f.Sources, Sinks: f.Sinks}}
}
