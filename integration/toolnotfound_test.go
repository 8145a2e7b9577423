package integration_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modebox/modebox"
)

// TestToolNotFound calls tools and namespaces that do not exist: each
// call rejects with TOOL_NOT_FOUND, names what was called and suggests the
// closest names (camelCase, kebab-case and snake_case spellings of the
// same words are closest).
func TestToolNotFound(t *testing.T) {
	noop := func(ctx context.Context, in struct{}) (int, error) { return 1, nil }
	getSum := modebox.MustTool("get-sum", "Adds.", noop)
	getSum.Namespace = "everything"
	echo := modebox.MustTool("echo", "Echoes.", noop)
	echo.Namespace = "everything"
	printEnv := modebox.MustTool("printEnv", "Prints.", noop)
	printEnv.Namespace = "everything"
	add := modebox.MustTool("add", "Adds.", noop)
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{getSum, echo, printEnv, add}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ call, want string }{
		{`tools.everything.getSum({a: 1})`, "tools.everything.getSum is not a tool; did you mean tools.everything.get_sum?"},
		{`everything.getSum({a: 1})`, "did you mean tools.everything.get_sum?"},
		{`tools.everything.GET_SUM()`, "did you mean tools.everything.get_sum?"},
		{`tools.everything.print_env()`, "did you mean tools.everything.printEnv?"},
		{`tools.everything.ech()`, "did you mean tools.everything.echo?"},
		{`tools.everything.zzzzzzzzz()`, "tools.everything.zzzzzzzzz is not a tool; tools.everything has echo, get_sum, printEnv"},
		{`tools.everythin.echo()`, "tools.everythin is not a tool namespace, so tools.everythin.echo is not a tool either. tools.everythin is not a tool; did you mean tools.everything?"},
		{`tools.ad({})`, "did you mean tools.add?"},
		{`tools["no such"]()`, `tools["no such"] is not a tool`},
		{`fetch("http://127.0.0.1/")`, `fetch is not enabled: modebox.json "fetch": {"enabled": true, "allow": [...]} (EngineConfig.Fetch in the library) turns it on`},
		{`sh("ls")`, `sh is not enabled: modebox.json "shell": {"enabled": true}`},
		{`fs.read("/x")`, `fs is not enabled: modebox.json "fs": {"mounts": [...]}`},
	} {
		prog := `try { await ` + c.call + `; return "resolved" } catch (e) { return [e.code, e.message, e instanceof ToolError] }`
		res, err := eng.Run(context.Background(), prog, modebox.RunOptions{})
		if err != nil || res.Error != nil {
			t.Fatalf("%s: %v %+v", c.call, err, res.Error)
		}
		var got []any
		if err := json.Unmarshal(res.Value, &got); err != nil || len(got) != 3 {
			t.Fatalf("%s: %s", c.call, res.Value)
		}
		if msg, _ := got[1].(string); got[0] != string(modebox.CodeToolNotFound) || !strings.Contains(msg, c.want) || got[2] != true {
			t.Errorf("%s:\n got %s\nwant it to contain %q", c.call, res.Value, c.want)
		}
	}
	// uncaught, it is the run's code
	res, err := eng.Run(context.Background(), `await tools.everything.getSum({})`, modebox.RunOptions{})
	if err != nil || res.Error == nil || res.Error.Code != modebox.CodeToolNotFound || !strings.Contains(res.Error.Message, "get_sum") {
		t.Fatalf("uncaught: %v %+v", err, res.Error)
	}
	// what exists is untouched: real tools, aliases, Object methods,
	// awaiting a namespace, listing the toolbox
	res, err = eng.Run(context.Background(), `
		const ns = await tools.everything;
		return [await tools.everything.get_sum(), await tools.everything["get-sum"](), await ns.echo(),
			typeof tools.toString, typeof tools.everything.then, Object.keys(tools.everything).join(","), "add" in tools, "nope" in tools]`, modebox.RunOptions{})
	if err != nil || res.Error != nil || string(res.Value) != `[1,1,1,"function","undefined","echo,get_sum,printEnv",true,false]` {
		t.Fatalf("existing names: %v %+v %s", err, res.Error, res.Value)
	}
}
