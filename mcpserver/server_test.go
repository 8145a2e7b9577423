package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestListTools(t *testing.T) {
	eng, _ := newEngine(t)
	for _, version := range []string{newVersion, legacyVersion} {
		cs := connect(t, New(eng, Options{}), clientOptions(nil), version)
		if got := toolNames(t, cs); !slices.Equal(slices.Sorted(slices.Values(got)), []string{"run", "search"}) {
			t.Errorf("%s: tools %v, want run, search", version, got)
		}
		cs2 := connect(t, New(eng, Options{ApproveTool: true}), clientOptions(nil), version)
		if got := toolNames(t, cs2); !contains(got, "approve") {
			t.Errorf("%s: with ApproveTool, tools %v lack approve", version, got)
		}
	}

	cs := connect(t, New(eng, Options{Name: "mb", Version: "9.9"}), clientOptions(nil), newVersion)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var run *mcp.Tool
	for _, tl := range res.Tools {
		if tl.Name == "run" {
			run = tl
		}
	}
	if run == nil {
		t.Fatal("no run tool")
	}
	// The essentials: the program's shape, calling and finding tools, how
	// a failure looks, the cut; then the index. The rest (every error
	// code, values, limits) is behind search (TestSearchAndDeclarations).
	mustContain(t, "run description", run.Description,
		"JavaScript/TypeScript", "async function body", "`return` a JSON value", "console.log",
		"`await tools.ns.name({...})`", `tools.search("words")`, "{full: true}",
		"Error with .code", `status "error"`, "24000 characters", strings.TrimRight(eng.Index(), "\n"))
	for _, tl := range res.Tools {
		if tl.OutputSchema != nil || tl.Title != "" {
			t.Errorf("%s has an output schema or a title: the model reads them on every turn", tl.Name)
		}
	}
	if got := cs.InitializeResult().ServerInfo; got.Name != "mb" || got.Version != "9.9" {
		t.Errorf("server info %+v", got)
	}
}

func TestRunOK(t *testing.T) {
	eng, _ := newEngine(t)
	for _, version := range []string{newVersion, legacyVersion, oldVersion} {
		t.Run(version, func(t *testing.T) {
			cs := connect(t, New(eng, Options{}), clientOptions(nil), version)
			res, o := runCode(t, cs, "```ts\nconst s: number = await tools.add({a: 1, b: 2});\nconst p = await math.mul({a: s, b: 7});\nconsole.log(\"sum\", s);\nreturn {s, p};\n```")
			if res.IsError {
				t.Fatalf("isError: %s", text(t, res))
			}
			wantResult(t, o, `{"p":21,"s":3}`)
			if len(o.Logs) != 1 || o.Logs[0].Message != "sum 3" {
				t.Errorf("logs %+v", o.Logs)
			}
			if o.Stats["hostCalls"] != float64(2) {
				t.Errorf("stats %+v", o.Stats)
			}
			// The text mirror is the same JSON.
			var mirror, sc any
			if err := json.Unmarshal([]byte(text(t, res)), &mirror); err != nil {
				t.Fatalf("text mirror is not JSON: %v", err)
			}
			b, _ := json.Marshal(res.StructuredContent)
			_ = json.Unmarshal(b, &sc)
			mb, _ := json.Marshal(mirror)
			sb, _ := json.Marshal(sc)
			if string(mb) != string(sb) {
				t.Errorf("mirror %s\nstructured %s", mb, sb)
			}
		})
	}
}

func TestRunJSAndUndefined(t *testing.T) {
	eng, _ := newEngine(t)
	cs := connect(t, New(eng, Options{}), clientOptions(nil), newVersion)
	res := call(t, cs, "run", map[string]any{"code": "console.log('x')", "lang": "js"})
	o := structured(t, res)
	if res.IsError || o.Status != "ok" || string(o.Result) != "null" {
		t.Fatalf("isError %v, %+v", res.IsError, o)
	}
}

func TestRunErrors(t *testing.T) {
	eng, _ := newEngine(t)
	cs := connect(t, New(eng, Options{}), clientOptions(nil), newVersion)
	for _, c := range []struct {
		code string
		want modebox.Code
	}{
		{`throw new Error("boom")`, "UNCAUGHT_EXCEPTION"},
		{`return (`, "SYNTAX_ERROR"},
		{`return await tools.add({a: "x", b: 1})`, "INVALID_ARGUMENT"},
		{`return await tools.nope.nothing({})`, ""},
	} {
		res, o := runCode(t, cs, c.code)
		if !res.IsError || o.Status != "error" || o.Error == nil {
			t.Errorf("%s: isError %v, %+v", c.code, res.IsError, o)
			continue
		}
		if c.want != "" && o.Error.Code != c.want {
			t.Errorf("%s: code %s, want %s", c.code, o.Error.Code, c.want)
		}
		mustContain(t, "text mirror", text(t, res), `"status":"error"`, string(o.Error.Code))
	}
	res, o := runCode(t, cs, `throw new Error("boom")`)
	if !strings.Contains(o.Error.Message, "boom") || o.Error.Line != 1 {
		t.Errorf("error %+v", o.Error)
	}
	_ = res

	// Bad arguments are error results, not protocol errors.
	for _, args := range []any{map[string]any{}, map[string]any{"code": "return 1", "lang": "py"}, map[string]any{"code": "return 1", "extra": true}} {
		res := call(t, cs, "run", args)
		if o := structured(t, res); !res.IsError || o.Error.Code != "INVALID_ARGUMENT" {
			t.Errorf("%v: isError %v, %+v", args, res.IsError, o)
		}
	}
	// An unknown tool is a protocol error.
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}}); err == nil {
		t.Error("calling an unknown tool succeeded")
	}
}

func TestTruncation(t *testing.T) {
	eng, _ := newEngine(t)
	cs := connect(t, New(eng, Options{MaxResultText: 300}), clientOptions(nil), newVersion)
	res, o := runCode(t, cs, `return "é".repeat(5000)`)
	if res.IsError {
		t.Fatal(text(t, res))
	}
	var s string
	if err := json.Unmarshal(o.Result, &s); err != nil || len([]rune(s)) != 5000 {
		t.Fatalf("structuredContent result is cut: %d runes, %v", len([]rune(s)), err)
	}
	txt := text(t, res)
	head, note, ok := strings.Cut(txt, "\n[modebox: cut at 300 of ")
	if !ok {
		t.Fatalf("no truncation note:\n%s", txt)
	}
	if n := len([]rune(head)); n != 300 {
		t.Errorf("mirror keeps %d characters, want 300", n)
	}
	mustContain(t, "note", note, "structuredContent has all of it", "filter, slice or summarize in the program")
	if !strings.HasPrefix(head, `{"status":"ok"`) {
		t.Errorf("mirror starts %q", head[:40])
	}

	// Under the cap nothing is added.
	res, _ = runCode(t, cs, `return "short"`)
	if strings.Contains(text(t, res), "[modebox: cut") {
		t.Error("short result has a truncation note")
	}
}

func TestSearchAndDeclarations(t *testing.T) {
	eng, _ := newEngine(t)
	cs := connect(t, New(eng, Options{}), clientOptions(nil), newVersion)

	res := call(t, cs, "search", map[string]any{"query": "delete file", "full": true})
	var sr struct {
		Hits []struct {
			Key, Signature, Declaration string
		} `json:"hits"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &sr); err != nil || len(sr.Hits) == 0 {
		t.Fatalf("search: %s %v", b, err)
	}
	if h := sr.Hits[0]; h.Key != "files.delete" || !strings.Contains(h.Signature, "path: string") || !strings.Contains(h.Declaration, "Deletes a file by path.") {
		t.Errorf("first hit %+v", h)
	}
	if res.IsError || !strings.Contains(text(t, res), "files.delete") {
		t.Errorf("search text: %s", text(t, res))
	}
	// The text mirror keeps < and > as written.
	res = call(t, cs, "search", map[string]any{"query": "multiply", "limit": 1})
	mustContain(t, "search text", text(t, res), "Promise<number>")
	// A query within one namespace.
	res = call(t, cs, "search", map[string]any{"query": "delete file", "namespace": "math"})
	b, _ = json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &sr); err != nil || res.IsError || len(sr.Hits) != 0 {
		t.Errorf("search in math for delete: %s", b)
	}
	res = call(t, cs, "search", map[string]any{"query": "multiply numbers", "namespace": "math"})
	b, _ = json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &sr); err != nil || len(sr.Hits) != 1 || sr.Hits[0].Key != "math.mul" {
		t.Errorf("search in math for multiply: %s", b)
	}

	// Without a query: declarations, after the reference the manual leaves
	// out (every error code, values, limits).
	res = call(t, cs, "search", map[string]any{})
	all, _ := eng.Declarations()
	ref := New(eng, Options{}).reference()
	if text(t, res) != ref+all {
		t.Errorf("declarations:\n%s\nwant:\n%s", text(t, res), ref+all)
	}
	mustContain(t, "reference", text(t, res), "TOOL_ERROR", "TOOL_NOT_FOUND", "INVALID_ARGUMENT", "VALUE_TOO_LARGE",
		"TOOL_DENIED", "APPROVAL_DENIED", "APPROVAL_UNAVAILABLE", "SYNTAX_ERROR", "UNCAUGHT_EXCEPTION", "TIMEOUT",
		"MEMORY_LIMIT", "FUEL_EXHAUSTED", "HOST_CALL_LIMIT", "STACK_OVERFLOW", "VALUE_NOT_SERIALIZABLE", "NEVER_SETTLED",
		"{code, message, line, stack}", "BigInt", "Date", "interface ToolError extends Error",
		"Limits: 30s wall time, 64 MiB of memory, 1000 tool calls, 16 at once, 4 MiB a value, 256 KiB of logs, 1000000 clock readings, 100000 timers.")
	res = call(t, cs, "search", map[string]any{"namespace": "math"})
	d := text(t, res)
	mustContain(t, "math declarations", d, "APPROVAL_DENIED", "interface Math_MulInput", "declare const tools: {\n  math: {\n", "mul(args: Math_MulInput): Promise<number>;", "declare const math: typeof tools.math;")
	if strings.Contains(d, "files") || strings.Contains(d, "add(") {
		t.Errorf("math declarations hold other namespaces:\n%s", d)
	}
	for _, args := range []map[string]any{{"namespace": "nope"}, {"namespace": "nope", "query": "x"}} {
		res = call(t, cs, "search", args)
		if o := structured(t, res); !res.IsError || !strings.Contains(o.Error.Message, "files, math") {
			t.Errorf("unknown namespace %v: %v %+v", args, res.IsError, o)
		}
	}
}

// TestReferenceLimits: the reference states the engine's limits.
func TestReferenceLimits(t *testing.T) {
	eng, err := modebox.New(modebox.EngineConfig{Limits: modebox.Limits{Timeout: 5 * time.Second, MaxCalls: 10, MaxValue: 1000, Fuel: 7, MaxClockReads: 300, MaxTimers: 40}})
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "reference", New(eng, Options{}).reference(),
		"Limits: 5s wall time, 64 MiB of memory, 10 tool calls, 16 at once, 1000 B a value, 256 KiB of logs, 300 clock readings, 40 timers, 7 fuel (about 10,000 branches each).\n")
}
