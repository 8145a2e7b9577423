// Package policy is tool-policy and data-flow matching: patterns such as
// "github.*" or "*.delete_*" against tool keys, the most specific rule
// winning, and the order of policies (deny > ask > allow). The engine's
// toolbox, a run's narrowing policies and the modebox.json checker all
// resolve rules here.
package policy

import (
	"fmt"
	"strings"

	"github.com/modebox/modebox/internal/errs"
)

// Policy says whether a tool may run: allow (the default), ask (a person
// must approve each call) or deny (every call is refused before it runs).
type Policy string

// Policies.
const (
	Allow Policy = "allow"
	Ask   Policy = "ask"
	Deny  Policy = "deny"
)

// Valid reports whether p is allow, ask or deny.
func (p Policy) Valid() bool { return p == Allow || p == Ask || p == Deny }

// Rank orders policies by strictness: deny 2, ask 1, anything else 0.
func Rank(p Policy) int {
	switch p {
	case Deny:
		return 2
	case Ask:
		return 1
	}
	return 0
}

// Stricter returns the stricter of two policies: deny > ask > allow.
func Stricter(a, b Policy) Policy {
	if Rank(b) > Rank(a) {
		return b
	}
	return a
}

// Match reports whether a tool pattern matches a tool key. A tool key is
// "namespace.tool" for the tools of an MCP server or a Go tool namespace
// ("github.get_issue", "fs.read") or a bare name for a built-in ("sh",
// "fetch"). In a pattern, "*" matches any run of characters, including
// none and including dots: "github.*" matches every tool of github,
// "*.delete_*" every delete_ tool of every namespace, "*" everything.
// Everything else matches itself, case-sensitively.
func Match(pattern, key string) bool {
	// Classic linear wildcard matching: on a mismatch, retry from the
	// last star, letting it swallow one more character.
	p, k := 0, 0
	star, starK := -1, 0
	for k < len(key) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, starK = p, k
			p++
		case p < len(pattern) && pattern[p] == key[k]:
			p++
			k++
		case star >= 0:
			starK++
			p, k = star+1, starK
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// MatchAny reports whether any of patterns matches key.
func MatchAny(patterns []string, key string) bool {
	for _, p := range patterns {
		if Match(p, key) {
			return true
		}
	}
	return false
}

// MoreSpecific reports whether pattern a (with policy pa) beats pattern b
// (with policy pb) when both match a key:
//
//  1. an exact pattern (no "*") wins; otherwise
//  2. the pattern with fewer "*" wins; otherwise
//  3. the longer pattern (more literal characters) wins; otherwise
//  4. the stricter policy wins (deny over ask over allow).
//
// Equal patterns cannot occur (they are map keys); the final comparison
// of the pattern text only makes the order total.
func MoreSpecific(a string, pa Policy, b string, pb Policy) bool {
	sa, sb := strings.Count(a, "*"), strings.Count(b, "*")
	if sa != sb {
		return sa < sb
	}
	if la, lb := len(a)-sa, len(b)-sb; la != lb {
		return la > lb
	}
	if ra, rb := Rank(pa), Rank(pb); ra != rb {
		return ra > rb
	}
	return a < b
}

// Best returns the most specific pattern of rules matching key (see
// [MoreSpecific]) and its policy, and false if none matches.
func Best(rules map[string]Policy, key string) (pattern string, p Policy, ok bool) {
	for pat, q := range rules {
		if !Match(pat, key) {
			continue
		}
		if !ok || MoreSpecific(pat, q, pattern, p) {
			pattern, p, ok = pat, q, true
		}
	}
	return pattern, p, ok
}

// Rules are compiled tool policies by pattern. The nil *Rules has no
// rules.
type Rules struct {
	m map[string]Policy
}

// Compile checks policies (patterns not empty, policies valid) and returns
// their rules; field names the input in errors ("EngineConfig.Policies").
// No policies give nil rules.
func Compile(field string, policies map[string]Policy) (*Rules, error) {
	if len(policies) == 0 {
		return nil, nil
	}
	m := make(map[string]Policy, len(policies))
	for pattern, p := range policies {
		if pattern == "" {
			return nil, &errs.Config{Field: field, Reason: "empty pattern"}
		}
		if !p.Valid() {
			return nil, &errs.Config{Field: fmt.Sprintf("%s[%q]", field, pattern), Reason: fmt.Sprintf("%q is not allow, ask or deny", p)}
		}
		m[pattern] = p
	}
	return &Rules{m: m}, nil
}

// For returns the policy of the most specific pattern matching key, or
// def when none does.
func (r *Rules) For(key string, def Policy) Policy {
	if r == nil {
		return def
	}
	if _, p, ok := Best(r.m, key); ok {
		return p
	}
	return def
}

// ForNames returns the policy of a tool known by several names (its
// mapped key and the name the user sees): the stricter of the most
// specific rule for each name that has one, or def when no rule matches.
func (r *Rules) ForNames(def Policy, names ...string) Policy {
	if r == nil {
		return def
	}
	found := false
	var p Policy
	for _, n := range names {
		if _, q, ok := Best(r.m, n); ok {
			if !found {
				p, found = q, true
			} else {
				p = Stricter(p, q)
			}
		}
	}
	if !found {
		return def
	}
	return p
}

// Flows lists tool patterns that are data-flow sources (their results may
// carry data to protect) and sinks (they can send data out).
type Flows struct {
	Sources []string
	Sinks   []string
}

// IsSource reports whether any of names matches a source pattern.
func (f Flows) IsSource(names ...string) bool {
	for _, n := range names {
		if MatchAny(f.Sources, n) {
			return true
		}
	}
	return false
}

// IsSink reports whether any of names matches a sink pattern.
func (f Flows) IsSink(names ...string) bool {
	for _, n := range names {
		if MatchAny(f.Sinks, n) {
			return true
		}
	}
	return false
}
