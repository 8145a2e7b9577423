package integration_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/hostilemcp"

	"github.com/modebox/modebox"
)

// The tools a hostile server lists (see internal/hostilemcp, mode
// "names"): names that clash after mapping, a name listed twice,
// non-ASCII names, "then"; and a server named "search".
func hostileNameTools() []modebox.Tool {
	var out []modebox.Tool
	for _, n := range []string{"echo", "get-data", "get_data", "twice", "twice", "ü", "é", "then", "get-sum"} {
		out = append(out, echoTool("my-srv", n))
	}
	return append(out, echoTool("search", "find"), echoTool("good", "ok"))
}

func TestHostileNamesDoNotStopTheEngine(t *testing.T) {
	e, err := modebox.New(modebox.EngineConfig{Tools: hostileNameTools()})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if w := e.Warnings(); len(w) != 2 {
		t.Errorf("Warnings = %q, want the two renames", w)
	}
	r := run(t, e, `
		const ns = tools.my_srv;
		const awaited = await ns; // a namespace must not be a thenable
		return [
			awaited === ns, typeof ns.then, (await ns.then_({})).tool,
			(await ns.get_data({})).tool, (await ns.get_data_2({})).tool, (await ns["get-data"]({})).tool,
			(await ns.twice({})).tool, (await ns.twice_2({})).tool,
			(await ns._u00fc({})).tool, (await ns._u00e9({})).tool,
			(await tools.search_.find({})).tool, typeof tools.search,
			(await tools.good.ok({})).tool,
		]`, modebox.RunOptions{})
	want := `[true,"undefined","my-srv/then","my-srv/get_data","my-srv/get-data","my-srv/get-data","my-srv/twice","my-srv/twice","my-srv/ü","my-srv/é","search/find","function","good/ok"]`
	if r.Error != nil || string(r.Value) != want {
		t.Fatalf("got  %s\nwant %s\n%+v", r.Value, want, r.Error)
	}
	decl, err := e.Declarations()
	if err != nil {
		t.Fatal(err)
	}
	// tools.search is declared once, the server named search as search_
	if n := strings.Count(decl, " search("); n != 1 || !strings.Contains(decl, "search_: {") {
		t.Errorf("search declared %d times, search_ present: %v\n%s", n, strings.Contains(decl, "search_: {"), decl)
	}
}

func TestPolicyMatchesTheNamesTheUserSees(t *testing.T) {
	for _, pattern := range []string{"my-srv.get-sum", "my-srv.*", "my_srv.get_sum"} {
		e, err := modebox.New(modebox.EngineConfig{Tools: hostileNameTools(), Policies: map[string]modebox.Policy{pattern: modebox.PolicyDeny}})
		if err != nil {
			t.Fatalf("%s: New: %v", pattern, err)
		}
		r := run(t, e, `return await tools.my_srv.get_sum({})`, modebox.RunOptions{})
		if r.Error == nil || r.Error.Code != modebox.CodeToolDenied {
			t.Errorf("policy %q deny: the tool ran (%s, %+v)", pattern, r.Value, r.Error)
		}
	}
	// flows by the original names: the secret does not leave
	e, err := modebox.New(modebox.EngineConfig{Tools: hostileNameTools(), Flows: modebox.Flows{Sources: []string{"my-srv.get-data"}, Sinks: []string{"good.*"}}})
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, e, `await tools.my_srv["get-data"]({}); return await tools.good.ok({})`, modebox.RunOptions{})
	if r.Error == nil {
		t.Errorf("a sink after a source named by its original name ran: %s", r.Value)
	}
}

func TestRuleMatchingNoToolOfAServerIsAnError(t *testing.T) {
	for _, cfg := range []modebox.EngineConfig{
		{Policies: map[string]modebox.Policy{"my-srv.get-sums": modebox.PolicyDeny}},
		{Flows: modebox.Flows{Sources: []string{"my-srv.secret"}}},
		{Flows: modebox.Flows{Sinks: []string{"good.send*"}}},
	} {
		cfg.Tools = hostileNameTools()
		_, err := modebox.New(cfg)
		var ce *modebox.ConfigError
		if !errors.As(err, &ce) || !strings.Contains(ce.Error(), "matches no tool") {
			t.Errorf("New(%+v) = %v, want a ConfigError naming the rule", cfg.Policies, err)
		}
	}
}

func TestHostileSchemaValidationBounded(t *testing.T) {
	tool := echoTool("evil", "deep")
	tool.InputSchema = json.RawMessage(hostilemcp.RecursiveBomb)
	e, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{tool, echoTool("good", "ok")}})
	if err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat(`{"x":`, 40) + `{}` + strings.Repeat(`}`, 40)
	start := time.Now()
	r := run(t, e, `try { await tools.evil.deep(`+deep+`) } catch (e) { return [e.code, (await tools.good.ok({})).tool] }`, modebox.RunOptions{})
	if r.Error != nil || string(r.Value) != `["SCHEMA_TOO_COMPLEX","good/ok"]` {
		t.Fatalf("got %s %+v", r.Value, r.Error)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the run took %s", d)
	}
	// a schema exponential without the value's help is refused up front
	bomb := echoTool("evil", "bomb")
	bomb.InputSchema = json.RawMessage(`{"$ref":"#/$defs/a","$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"},{"$ref":"#/$defs/b"}]},"b":{"allOf":[{"$ref":"#/$defs/c"},{"$ref":"#/$defs/c"}]},"c":` +
		strings.Repeat(`{"allOf":[`, 1) + `{"$ref":"#/$defs/d"},{"$ref":"#/$defs/d"}]},"d":{}}}`)
	if _, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{bomb}}); err != nil {
		t.Fatalf("a small allOf tree is fine: %v", err)
	}
}
