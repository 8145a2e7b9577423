package integration_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

func echoTool(ns, name string) modebox.Tool {
	return modebox.Tool{Namespace: ns, Name: name, Description: "Echoes " + name + ".", Handler: func(_ context.Context, args json.RawMessage) (any, error) {
		return map[string]any{"tool": ns + "/" + name, "args": args}, nil
	}}
}

func TestMapName(t *testing.T) {
	for in, want := range map[string]string{
		"get-sum": "get_sum", "create_issue": "create_issue", "files.read": "files_read",
		"2fa": "_2fa", "": "_", "a b/c": "a_b_c", "$ok": "$ok", "naïve": "na_u00efve", "ü": "_u00fc", "é": "_u00e9",
	} {
		if got := modebox.MapName(in); got != want {
			t.Errorf("MapName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestToolboxNamesAndGlobals(t *testing.T) {
	e := newEngine(t,
		echoTool("everything", "get-sum"),
		echoTool("everything", "echo"),
		echoTool("my-server", "files.read"),
		echoTool("JSON", "parse"), // clashes with a JS global: tools.JSON only
		echoTool("", "root_tool"),
	)
	r := run(t, e, `return [
		(await tools.everything.get_sum({a: 1})).tool,
		(await tools.everything["get-sum"]({a: 1})).tool,
		(await everything.echo({})).tool,
		(await tools.my_server.files_read({})).tool,
		(await my_server["files.read"]({})).tool,
		(await tools.JSON.parse({})).tool,
		typeof JSON.parse, JSON.parse("[1]")[0],
		(await tools.root_tool()).tool,
		Object.keys(tools).sort().join(","),
	]`, modebox.RunOptions{})
	want := `["everything/get-sum","everything/get-sum","everything/echo","my-server/files.read","my-server/files.read","JSON/parse","function",1,"/root_tool","JSON,everything,my_server,root_tool"]`
	if r.Error != nil || string(r.Value) != want {
		t.Fatalf("got  %s\nwant %s\n%+v", r.Value, want, r.Error)
	}
}

func TestToolboxCollisions(t *testing.T) {
	cases := [][]modebox.Tool{
		{echoTool("", "get-sum"), echoTool("", "get_sum")},
		{echoTool("", "x"), echoTool("", "x")},
		{echoTool("my-ns", "x"), echoTool("my_ns", "y")},
		{echoTool("", "a"), echoTool("a", "b")},
		{echoTool("", "search")},
		{{Name: "nohandler"}},
		{{Name: "bad", Handler: echoTool("", "x").Handler, Policy: "maybe"}},
		{{Name: "schema", Handler: echoTool("", "x").Handler, InputSchema: json.RawMessage(`{"type": 12}`)}},
	}
	for i, tools := range cases {
		_, err := modebox.New(modebox.EngineConfig{Tools: tools})
		var ce *modebox.ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("case %d: err %v, want a ConfigError", i, err)
		}
	}
}

func TestPoliciesRefuseBeforeRunning(t *testing.T) {
	ran := 0
	mk := func(name string, p modebox.Policy) modebox.Tool {
		return modebox.Tool{Namespace: "p", Name: name, Policy: p, Handler: func(context.Context, json.RawMessage) (any, error) {
			ran++
			return "ran", nil
		}}
	}
	e := newEngine(t, mk("allowed", ""), mk("denied", modebox.PolicyDeny), mk("asked", modebox.PolicyAsk))
	r := run(t, e, `const out = [];
		for (const f of [tools.p.allowed, tools.p.denied, tools.p.asked]) {
			try { out.push(await f({})) } catch (e) { out.push(e.code) }
		}
		return out`, modebox.RunOptions{})
	if r.Error != nil || string(r.Value) != `["ran","TOOL_DENIED","APPROVAL_UNAVAILABLE"]` || ran != 1 {
		t.Fatalf("%s %+v ran=%d", r.Value, r.Error, ran)
	}
	infos := e.Tools()
	if len(infos) != 3 || infos[0].Policy != modebox.PolicyAllow || infos[1].Policy != modebox.PolicyAsk || infos[2].Policy != modebox.PolicyDeny {
		t.Fatalf("%+v", infos)
	}
}

func TestCallsOnlyReachTheToolbox(t *testing.T) {
	e := newEngine(t, echoTool("a", "b"))
	// forged keys through the public surface: property lookups on tools,
	// prototype tricks and calling the internal search with odd input
	r := run(t, e, `const out = [];
		out.push(typeof __modebox_send, typeof tools.constructor.prototype.__modebox_send);
		try { await tools["a.b"]() } catch (e) { out.push(e.code) }
		try { await tools.search({toString() { return "b" }}) ; out.push("ok") } catch (e) { out.push(e.code) }
		return out`, modebox.RunOptions{})
	// tools["a.b"] is not tools.a.b: it rejects in the guest without a call
	if r.Error != nil || !strings.HasPrefix(string(r.Value), `["undefined","undefined","TOOL_NOT_FOUND"`) || r.Stats.HostCalls != 1 {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
}

func TestPolicyPatternsAndRunNarrowing(t *testing.T) {
	e, err := modebox.New(modebox.EngineConfig{
		Tools: []modebox.Tool{echoTool("gh", "get_issue"), echoTool("gh", "delete_repo"), echoTool("gh", "create_issue"), echoTool("slack", "post")},
		Policies: map[string]modebox.Policy{
			"gh.*":           modebox.PolicyAllow,
			"gh.delete_repo": modebox.PolicyDeny,
			"slack.*":        modebox.PolicyAsk,
		},
		Flows: modebox.Flows{Sources: []string{"gh.get_*"}, Sinks: []string{"slack.*"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]modebox.ToolInfo{}
	for _, ti := range e.Tools() {
		got[ti.Key] = ti
	}
	if got["gh.get_issue"].Policy != modebox.PolicyAllow || got["gh.delete_repo"].Policy != modebox.PolicyDeny || got["slack.post"].Policy != modebox.PolicyAsk {
		t.Fatalf("%+v", got)
	}
	if !got["gh.get_issue"].Source || got["gh.create_issue"].Source || !got["slack.post"].Sink {
		t.Fatalf("flows: %+v", got)
	}
	code := `const out = [];
		for (const f of [gh.get_issue, gh.create_issue, gh.delete_repo]) {
			try { await f({}); out.push("ran") } catch (e) { out.push(e.code) }
		}
		return out`
	r := run(t, e, code, modebox.RunOptions{})
	if string(r.Value) != `["ran","ran","TOOL_DENIED"]` {
		t.Fatalf("engine: %s %+v", r.Value, r.Error)
	}
	// a run narrows: create_issue denied; it cannot widen delete_repo
	r = run(t, e, code, modebox.RunOptions{Policies: map[string]modebox.Policy{"gh.create_*": modebox.PolicyDeny, "gh.delete_repo": modebox.PolicyAllow}})
	if string(r.Value) != `["ran","TOOL_DENIED","TOOL_DENIED"]` {
		t.Fatalf("run: %s %+v", r.Value, r.Error)
	}
	if _, err := e.Run(t.Context(), "return 1", modebox.RunOptions{Policies: map[string]modebox.Policy{"x": "sometimes"}}); err == nil {
		t.Fatal("a bad run policy was accepted")
	}
}

func TestRunCannotWidenLimits(t *testing.T) {
	e, err := modebox.New(modebox.EngineConfig{Limits: modebox.Limits{Timeout: time.Second, MaxCalls: 5}})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []modebox.Limits{{Timeout: 2 * time.Second}, {MaxCalls: 6}} {
		var ce *modebox.ConfigError
		if _, err := e.Run(t.Context(), "return 1", modebox.RunOptions{Limits: l}); !errors.As(err, &ce) {
			t.Errorf("%+v: err %v", l, err)
		}
	}
	r := run(t, e, "let i = 0; while (true) i++", modebox.RunOptions{Limits: modebox.Limits{Timeout: 50 * time.Millisecond, MaxCalls: 2, Memory: 8 << 20}})
	if r.Error == nil || r.Error.Code != modebox.CodeTimeout {
		t.Fatalf("narrowed: %+v", r.Error)
	}
}
