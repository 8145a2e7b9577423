package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/builtin"
	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/policy"
)

func testCaps() []*builtin.Capability {
	h := func(context.Context, builtin.Call, json.RawMessage) (any, error) { return nil, nil }
	sh := (&builtin.Capability{Name: "sh", Funcs: []*builtin.Func{{Key: "sh", Schema: json.RawMessage(`{}`), Policy: policy.Ask, Handler: h}}}).Compile()
	fs := (&builtin.Capability{Name: "fs", Funcs: []*builtin.Func{
		{Key: "fs.read", Namespace: "fs", Schema: json.RawMessage(`{}`), Policy: policy.Allow, Handler: h},
		{Key: "fs.write", Namespace: "fs", Schema: json.RawMessage(`{}`), Policy: policy.Allow, Handler: h},
	}}).Compile()
	return []*builtin.Capability{sh, fs}
}

func testTools() []Tool {
	return []Tool{
		{Name: "transfer", Handler: noop},
		{Namespace: "bank", Name: "pay", Handler: noop},
		{Namespace: "memory", Name: "create_entities", Handler: noop},
		{Namespace: "filesystem", Name: "write_file", Handler: noop},
	}
}

// A rule that would silently protect nothing is refused: a misspelt or
// miscased root tool, a "tools." prefix, a near miss of a namespace, a
// built-in's namespace or key misspelt; in policies and in flows, and in
// a run's policies.
func TestRulesMatchingNothingAreRefused(t *testing.T) {
	bad := map[string]string{
		"transfr":              `did you mean "transfer"`,
		"Transfer":             `did you mean "transfer"`,
		"tools.transfer":       `write "transfer"`,
		"tools.bank.pay":       `write "bank.pay"`,
		"pay":                  `matches no tool (did you mean "bank.pay"?)`,
		"bank.Pay":             `matches no tool of "bank"`,
		"memroy.*":             `did you mean "memory"`,
		"Memory.*":             `did you mean "memory"`,
		"filesystm.write_file": `did you mean "filesystem"`,
		"sh.*":                 `"sh" is a tool, not a namespace`,
		"fetch.get":            `"fetch" is a tool, not a namespace`,
		"fs.writ":              `matches no tool of "fs"`,
		"fs.Write":             `matches no tool of "fs"`,
		"memory":               `write "memory.*"`,
	}
	for pat, want := range bad {
		for _, tc := range []struct {
			name     string
			policies map[string]policy.Policy
			flows    policy.Flows
		}{
			{"policy", map[string]policy.Policy{pat: policy.Deny}, policy.Flows{}},
			{"sink", nil, policy.Flows{Sinks: []string{pat}}},
		} {
			_, err := New(testTools(), testCaps(), tc.policies, tc.flows)
			var ce *errs.Config
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s %q: got %v, want a config error saying %s", tc.name, pat, err, want)
			}
		}
		box, err := New(testTools(), testCaps(), nil, policy.Flows{})
		if err != nil {
			t.Fatal(err)
		}
		err = box.CheckRules("RunOptions.Policies", map[string]policy.Policy{pat: policy.Deny})
		if err == nil || !strings.Contains(err.Error(), "RunOptions.Policies") || !strings.Contains(err.Error(), want) {
			t.Errorf("run policy %q: got %v, want an error saying %s", pat, err, want)
		}
	}
}

// Rules that match, wildcards aimed at no one namespace, built-ins the
// configuration leaves off and namespaces of servers that are not running
// (disabled, or did not start) are accepted.
func TestRulesAccepted(t *testing.T) {
	good := []string{"transfer", "bank.pay", "bank.*", "*", "*.write_*", "memory.*", "sh", "fs.write",
		"filesystem.write_file", "github.*", "slack.post_message", "fetch"}
	for _, pat := range good {
		if _, err := New(testTools(), testCaps(), map[string]policy.Policy{pat: policy.Deny}, policy.Flows{Sources: []string{pat}}); err != nil {
			t.Errorf("%q: %v", pat, err)
		}
	}
	// built-ins left off: their names are still rule targets
	for _, pat := range []string{"sh", "fetch", "fs.write", "fs.*"} {
		if _, err := New(testTools(), nil, map[string]policy.Policy{pat: policy.Deny}, policy.Flows{}); err != nil {
			t.Errorf("without built-ins, %q: %v", pat, err)
		}
	}
	if _, err := New(nil, nil, map[string]policy.Policy{"*": policy.Ask}, policy.Flows{}); err != nil {
		t.Errorf("no tools, \"*\": %v", err)
	}
}

// A rule stays on the tool it was written for when another tool takes
// its mapped name: the server lists "get-data" (mapped to srv.get_data,
// denied by the rule srv.get_data), then adds "get_data", which takes
// srv.get_data and renames "get-data" to srv.get_data_2. The rule applies
// to every tool whose mapped name before the _N suffix is its name, so
// both are denied (and flows mark both); without the clash, as before.
func TestRuleFollowsRenamedTool(t *testing.T) {
	rules := map[string]policy.Policy{"srv.get_data": policy.Deny}
	flows := policy.Flows{Sinks: []string{"srv.get_data"}}
	box, err := New([]Tool{{Namespace: "srv", Name: "get-data", Handler: noop}}, nil, rules, flows)
	if err != nil {
		t.Fatal(err)
	}
	if e := box.Lookup("srv.get_data"); e == nil || e.Name != "get-data" || e.Policy != policy.Deny || !e.Sink {
		t.Fatalf("alone: %+v", e)
	}
	box, err = New([]Tool{
		{Namespace: "srv", Name: "get-data", Handler: noop},
		{Namespace: "srv", Name: "get_data", Handler: noop},
		{Namespace: "srv", Name: "other", Handler: noop},
	}, nil, rules, flows)
	if err != nil {
		t.Fatal(err)
	}
	for key, name := range map[string]string{"srv.get_data": "get_data", "srv.get_data_2": "get-data"} {
		e := box.Lookup(key)
		if e == nil || e.Name != name {
			t.Fatalf("%s: %+v", key, e)
		}
		if e.Policy != policy.Deny || !e.Sink {
			t.Errorf("%s (%q): policy %s, sink %v; want deny and a sink", key, name, e.Policy, e.Sink)
		}
	}
	if e := box.Lookup("srv.other"); e.Policy != policy.Allow || e.Sink {
		t.Errorf("srv.other: policy %s, sink %v", e.Policy, e.Sink)
	}
	if d, _ := box.Declarations(); strings.Contains(d, "get_data") {
		t.Errorf("a denied tool is declared:\n%s", d)
	}
	// a rule naming the renamed key itself still applies to it alone
	box, err = New([]Tool{
		{Namespace: "srv", Name: "get-data", Handler: noop},
		{Namespace: "srv", Name: "get_data", Handler: noop},
	}, nil, map[string]policy.Policy{"srv.get_data_2": policy.Ask}, policy.Flows{})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := box.Lookup("srv.get_data").Policy, box.Lookup("srv.get_data_2").Policy; a != policy.Allow || b != policy.Ask {
		t.Errorf("srv.get_data_2 rule: %s, %s", a, b)
	}
}
