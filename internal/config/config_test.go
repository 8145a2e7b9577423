package config

import (
	"testing"
)

func mustParse(t *testing.T, doc string) *Config {
	t.Helper()
	cfg, err := Parse([]byte(doc), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestPolicyFor(t *testing.T) {
	cfg := mustParse(t, `{"tools": {
		"github.*": {"policy": "ask"},
		"github.delete_repo": {"policy": "deny"},
		"*.delete_*": {"policy": "deny"},
		"github.get_*": {"policy": "allow"},
		"github.get_*_secret": {"policy": "deny"},
		"sh": {"policy": "ask"},
		"fs.*": {"policy": "allow"},
		"fs.write": {"policy": "ask"},
		"a*.x": {"policy": "allow"},
		"*a.x": {"policy": "ask"},
		"zz*": {"policy": "deny"},
		"z*z": {"policy": "allow"}
	}}`)
	for _, tc := range []struct {
		key, policy, pattern string
		ok                   bool
	}{
		// Exact beats everything.
		{"github.delete_repo", "deny", "github.delete_repo", true},
		{"sh", "ask", "sh", true},
		{"fs.write", "ask", "fs.write", true},
		// Fewer wildcards: "github.*" (one) beats "*.delete_*" (two).
		{"github.delete_user", "ask", "github.*", true},
		{"gitlab.delete_user", "deny", "*.delete_*", true},
		// Same number of wildcards: the longer pattern wins.
		{"github.get_issue", "allow", "github.get_*", true},
		// "github.get_*_secret" has one "*", like "github.get_*", and
		// more literal characters, so it wins.
		{"github.get_my_secret", "deny", "github.get_*_secret", true},
		{"fs.read", "allow", "fs.*", true},
		// Same wildcards and length: the stricter policy wins.
		{"aa.x", "ask", "*a.x", true},
		{"zzz", "deny", "zz*", true},
		// No match.
		{"fetch", "", "", false},
		{"slack.post", "", "", false},
	} {
		policy, ok := cfg.PolicyFor(tc.key)
		if policy != tc.policy || ok != tc.ok {
			t.Errorf("PolicyFor(%q) = %q, %v; want %q, %v", tc.key, policy, ok, tc.policy, tc.ok)
		}
		pattern, rule, ok := cfg.RuleFor(tc.key)
		if pattern != tc.pattern || rule.Policy != tc.policy || ok != tc.ok {
			t.Errorf("RuleFor(%q) = %q, %+v, %v; want %q", tc.key, pattern, rule, ok, tc.pattern)
		}
	}
}

// TestPolicyForDeterministic checks that the choice does not depend on map
// iteration order.
func TestPolicyForDeterministic(t *testing.T) {
	cfg := mustParse(t, `{"tools": {"a*.x": {"policy": "allow"}, "*a.x": {"policy": "allow"}, "*.x": {"policy": "deny"}}}`)
	for range 100 {
		if p, _, _ := cfg.RuleFor("aa.x"); p != "*a.x" {
			t.Fatalf("RuleFor picked %q", p)
		}
	}
}

func TestNilAndDefault(t *testing.T) {
	var nilCfg *Config
	if _, ok := nilCfg.PolicyFor("sh"); ok {
		t.Error("nil config has a policy")
	}
	if nilCfg.IsSource("fs.read") || nilCfg.IsSink("fetch") {
		t.Error("nil config has flows")
	}
	d := Default()
	if _, ok := d.PolicyFor("sh"); ok || d.IsSource("x") || d.IsSink("x") {
		t.Error("default config has rules")
	}
	if d.Limits != (Limits{}) || d.MCPServers != nil {
		t.Errorf("default = %+v", d)
	}
}

func TestFlows(t *testing.T) {
	cfg := mustParse(t, `{"flows": {"sources": ["github.get_*", "fs.read"], "sinks": ["slack.*", "fetch"]}}`)
	for key, want := range map[string][2]bool{
		"github.get_issue": {true, false},
		"github.list":      {false, false},
		"fs.read":          {true, false},
		"fs.write":         {false, false},
		"slack.post":       {false, true},
		"fetch":            {false, true},
		"fetch.x":          {false, false},
	} {
		if got := [2]bool{cfg.IsSource(key), cfg.IsSink(key)}; got != want {
			t.Errorf("%s: source, sink = %v, want %v", key, got, want)
		}
	}
}

func TestTransport(t *testing.T) {
	if got := (Server{Command: "npx"}).Transport(); got != "stdio" {
		t.Errorf("command server: %q", got)
	}
	for _, typ := range []string{"", "http", "streamable-http", "sse"} {
		if got := (Server{URL: "https://x", Type: typ}).Transport(); got != "http" {
			t.Errorf("url server type %q: %q", typ, got)
		}
	}
}
