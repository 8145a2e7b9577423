package toolbox

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/builtin"
	"github.com/modebox/modebox/internal/policy"
)

func noop(context.Context, json.RawMessage) (any, error) { return nil, nil }

// Names that map alike are renamed, deterministically: whatever order the
// tools come in (a server may list them in any order), every tool gets the
// same key, keys are unique, and each is a JS identifier path.
func TestRenamesAreDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	parts := []string{"get", "-", "_", "data", "ü", "1", ".", "then", "search", "x"}
	for range 500 {
		var tools []Tool
		for range 1 + r.IntN(8) {
			var b strings.Builder
			for range 1 + r.IntN(3) {
				b.WriteString(parts[r.IntN(len(parts))])
			}
			tools = append(tools, Tool{Namespace: "ns", Name: b.String(), Handler: noop})
		}
		keysOf := func(ts []Tool) map[string]string {
			box, err := New(ts, nil, nil, policy.Flows{})
			if err != nil {
				t.Fatalf("%v: %v", ts, err)
			}
			out := map[string]string{}
			seen := map[string]bool{}
			for _, e := range box.Tools() {
				if seen[e.Key] {
					t.Fatalf("key %q twice", e.Key)
				}
				seen[e.Key] = true
				out[e.Name] += e.Key + ","
			}
			return out
		}
		dedup := map[string]bool{}
		var unique []Tool
		for _, tl := range tools {
			if !dedup[tl.Name] {
				dedup[tl.Name] = true
				unique = append(unique, tl)
			}
		}
		want := keysOf(unique)
		shuffled := slices.Clone(unique)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if got := keysOf(shuffled); !equalMaps(got, want) {
			t.Fatalf("order changed the keys: %v vs %v", got, want)
		}
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A built-in's entries take the toolbox's policies, flows and checks like
// tools: a pattern rule overrides its default policy, a tool cannot take
// its key or namespace, and a denied built-in is left out of the
// declarations.
func TestBuiltinsAreEntries(t *testing.T) {
	c := (&builtin.Capability{Name: "zz", Decl: "declare function zz(): void;\n", Funcs: []*builtin.Func{{
		Key: "zz", Description: "test", Schema: json.RawMessage(`{"type":"object"}`), Policy: policy.Allow,
		Handler: func(context.Context, builtin.Call, json.RawMessage) (any, error) { return "ok", nil },
	}}}).Compile()
	box, err := New(nil, []*builtin.Capability{c}, map[string]policy.Policy{"zz": policy.Ask}, policy.Flows{Sinks: []string{"zz"}})
	if err != nil {
		t.Fatal(err)
	}
	e := box.Lookup("zz")
	if e == nil || e.Policy != policy.Ask || !e.Sink || e.Label() != "zz()" {
		t.Fatalf("entry: %+v", e)
	}
	if d, _ := box.Declarations(); !strings.Contains(d, "declare function zz") {
		t.Fatalf("declarations lack the built-in:\n%s", d)
	}
	box, err = New(nil, []*builtin.Capability{c}, map[string]policy.Policy{"zz": policy.Deny}, policy.Flows{})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := box.Declarations(); strings.Contains(d, "zz") {
		t.Fatalf("a denied built-in is declared:\n%s", d)
	}
	if _, err := New([]Tool{{Name: "zz", Handler: noop}}, []*builtin.Capability{c}, nil, policy.Flows{}); err == nil {
		t.Fatal("a tool took a built-in's key")
	}
	out, err := box.Lookup("zz").Call(context.Background(), builtin.Call{}, nil)
	if err != nil || string(out) != `"ok"` {
		t.Fatalf("call: %s %v", out, err)
	}
}
