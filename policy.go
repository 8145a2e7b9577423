package modebox

import (
	"fmt"

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
