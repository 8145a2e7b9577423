package integration_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modebox/modebox"
)

// mixedToolbox is every tool of the captured npm reference MCP servers
// (testdata/mcp-schemas, namespaces everything, filesystem and memory),
// the hand-written schemas of internal/tsdecl's golden tests, and Go tools.
// Handlers answer {"called": key}. It also returns the raw tools/list
// bytes an MCP client would put in the model's context for the same tools.
func mixedToolbox(t testing.TB) ([]modebox.Tool, int) {
	t.Helper()
	var tools []modebox.Tool
	raw := 0
	handler := func(key string) modebox.Handler {
		return func(context.Context, json.RawMessage) (any, error) { return map[string]string{"called": key}, nil }
	}
	for _, server := range []string{"everything", "filesystem", "memory"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "mcp-schemas", server+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		for _, rt := range f.Tools {
			raw += len(rt)
			var mt struct {
				Name         string          `json:"name"`
				Description  string          `json:"description"`
				InputSchema  json.RawMessage `json:"inputSchema"`
				OutputSchema json.RawMessage `json:"outputSchema"`
			}
			if err := json.Unmarshal(rt, &mt); err != nil {
				t.Fatal(err)
			}
			tools = append(tools, modebox.Tool{Namespace: server, Name: mt.Name, Description: mt.Description,
				InputSchema: mt.InputSchema, OutputSchema: mt.OutputSchema, Handler: handler(server + "." + mt.Name)})
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "internal", "tsdecl", "testdata", "*.json"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Tools []struct {
				Namespace    string          `json:"namespace"`
				Name         string          `json:"name"`
				OriginalName string          `json:"originalName"`
				Description  string          `json:"description"`
				Input        json.RawMessage `json:"input"`
				Output       json.RawMessage `json:"output"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		for _, gt := range f.Tools {
			name := gt.Name
			if gt.OriginalName != "" {
				name = gt.OriginalName
			}
			ns := gt.Namespace
			if ns == "" {
				ns = strings.TrimSuffix(filepath.Base(file), ".json")
			}
			if _, err := schemaOK(gt.Input); err != nil {
				continue // tsdecl's edge cases include schemas a validator refuses
			}
			tools = append(tools, modebox.Tool{Namespace: ns, Name: name, Description: gt.Description,
				InputSchema: gt.Input, OutputSchema: gt.Output, Handler: handler(ns + "." + name)})
			m, _ := json.Marshal(map[string]any{"name": name, "description": gt.Description, "inputSchema": gt.Input, "outputSchema": gt.Output})
			raw += len(m)
		}
	}
	tools = append(tools, addTool)
	m, _ := json.Marshal(map[string]any{"name": addTool.Name, "description": addTool.Description, "inputSchema": addTool.InputSchema})
	raw += len(m)
	return tools, raw
}

func schemaOK(raw json.RawMessage) (bool, error) {
	_, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{{Name: "probe", InputSchema: raw, Handler: func(context.Context, json.RawMessage) (any, error) { return nil, nil }}}})
	return err == nil, err
}

var (
	declNS   = regexp.MustCompile(`^  ([A-Za-z_$][\w$]*): \{$`)
	declFn   = regexp.MustCompile(`^    ([A-Za-z_$][\w$]*)\(`)
	declRoot = regexp.MustCompile(`^  ([A-Za-z_$][\w$]*)\(`)
)

// declaredFunctions parses the function paths out of the tools object of
// the declarations.
func declaredFunctions(t *testing.T, d string) []string {
	t.Helper()
	var out []string
	in, ns := false, ""
	for _, line := range strings.Split(d, "\n") {
		switch {
		case line == "declare const tools: {":
			in = true
		case in && line == "};":
			in = false
		case !in:
		case declNS.MatchString(line):
			ns = declNS.FindStringSubmatch(line)[1]
		case line == "  };":
			ns = ""
		case ns != "" && declFn.MatchString(line):
			out = append(out, ns+"."+declFn.FindStringSubmatch(line)[1])
		case ns == "" && declRoot.MatchString(line):
			out = append(out, declRoot.FindStringSubmatch(line)[1])
		}
	}
	slices.Sort(out)
	return out
}

// The declarations match what is callable exactly: every declared function
// exists in the guest and reaches its own tool, and nothing else is there.
func TestEveryDeclaredFunctionIsCallable(t *testing.T) {
	tools, _ := mixedToolbox(t)
	e, err := modebox.New(modebox.EngineConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.Declarations()
	if err != nil {
		t.Fatal(err)
	}
	declared := declaredFunctions(t, d)
	var keys []string
	for _, ti := range e.Tools() {
		keys = append(keys, ti.Key)
	}
	keys = append(keys, "search")
	slices.Sort(keys)
	if !slices.Equal(declared, keys) {
		t.Fatalf("declared %d functions, toolbox has %d\ndeclared: %v\ntoolbox: %v", len(declared), len(keys), declared, keys)
	}
	if len(keys) < 50 {
		t.Fatalf("the mixed toolbox has only %d tools", len(keys))
	}
	// one program calls every declared function by its declared path
	paths, _ := json.Marshal(declared)
	code := fmt.Sprintf(`const out = {};
		for (const path of %s) {
			const parts = path.split(".");
			let f = tools;
			for (const p of parts) f = f[p];
			if (typeof f !== "function") { out[path] = "missing"; continue }
			if (path === "search") { out[path] = Array.isArray(await f("echo")) ? "ok" : "bad"; continue }
			try { const r = await f({}); out[path] = r.called } catch (e) { out[path] = e.code || e.name }
		}
		out.globals = [typeof everything.echo, typeof filesystem.read_file, typeof memory.read_graph].join();
		return out`, paths)
	r := run(t, e, code, modebox.RunOptions{Limits: modebox.Limits{MaxCalls: 1000}})
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	var out map[string]string
	if err := json.Unmarshal(r.Value, &out); err != nil {
		t.Fatal(err)
	}
	byKey := map[string]modebox.ToolInfo{}
	for _, ti := range e.Tools() {
		byKey[ti.Key] = ti
	}
	for _, path := range declared {
		got := out[path]
		if path == "search" {
			if got != "ok" {
				t.Errorf("search: %s", got)
			}
			continue
		}
		en := byKey[path]
		want := en.Namespace + "." + en.Name
		// a tool whose schema requires properties refuses {} before running
		if got != want && got != string(modebox.CodeInvalidArgument) {
			t.Errorf("%s: got %q, want %q or INVALID_ARGUMENT", path, got, want)
		}
	}
	if out["globals"] != "function,function,function" {
		t.Errorf("globals: %q", out["globals"])
	}
}

// Context economy: what a model needs up front with modebox (the compact
// index) against the raw tools/list an MCP client would send.
func TestContextEconomy(t *testing.T) {
	tools, raw := mixedToolbox(t)
	e, err := modebox.New(modebox.EngineConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	index := e.Index()
	hits := e.Search("read a file", modebox.SearchOptions{Limit: 5})
	var sigs strings.Builder
	for _, h := range hits {
		sigs.WriteString(h.Signature + "\n")
	}
	d, _ := e.Declarations()
	upfront := len(index)
	withSearch := upfront + sigs.Len()
	// ~4 bytes per token for English and JSON (a stated estimate)
	t.Logf("%d tools: raw tools/list %d B (~%d tokens); modebox index %d B (~%d tokens, %.1f%%); index + one search %d B (%.1f%%); full declarations %d B (%.1f%%)",
		len(tools), raw, raw/4, upfront, upfront/4, 100*float64(upfront)/float64(raw), withSearch, 100*float64(withSearch)/float64(raw), len(d), 100*float64(len(d))/float64(raw))
	if float64(upfront) > 0.05*float64(raw) {
		t.Fatalf("index is %.1f%% of tools/list, over the 5%% target", 100*float64(upfront)/float64(raw))
	}
}

func TestSearchFromHostAndGuest(t *testing.T) {
	tools, _ := mixedToolbox(t)
	e, err := modebox.New(modebox.EngineConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"read a text file":           "filesystem.read_text_file",
		"list files in a directory":  "filesystem.list_directory",
		"add two numbers":            "everything.get_sum",
		"create entities in a graph": "memory.create_entities",
		"echo a message back":        "everything.echo",
	} {
		hits := e.Search(q, modebox.SearchOptions{Limit: 3})
		var keys []string
		for _, h := range hits {
			keys = append(keys, h.Key)
		}
		if !slices.Contains(keys, want) {
			t.Errorf("%q: top 3 %v, want %s", q, keys, want)
		}
	}
	r := run(t, e, `const hits = await tools.search("echo a message back", {limit: 2, full: true});
		const top = hits[0];
		return [hits.length, top.key, top.signature.startsWith("tools.everything.echo("), top.declaration.includes("declare const tools")]`, modebox.RunOptions{})
	if r.Error != nil || string(r.Value) != `[2,"everything.echo",true,true]` {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
}
