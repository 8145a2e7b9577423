package tsdecl

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden .d.ts files")

// goldenCase is a testdata/*.json file: a toolbox and its globals.
type goldenCase struct {
	Globals []string `json:"globals"`
	Tools   []Tool   `json:"tools"`
}

// render is what a golden file holds: the declarations, each tool's
// standalone declaration checked separately, and the signatures as
// comments.
func render(t *testing.T, name string, tools []Tool, globals []string) string {
	t.Helper()
	out, err := Declarations(tools, globals)
	if err != nil {
		t.Fatalf("%s: Declarations: %v", name, err)
	}
	checkTS(t, name, out)
	var b strings.Builder
	b.WriteString(out)
	b.WriteString("\n// Signatures:\n")
	for _, tool := range tools {
		one, err := Declaration(tool)
		if err != nil {
			t.Fatalf("%s: Declaration(%s): %v", name, tool.label(), err)
		}
		checkTS(t, name+": "+tool.label(), one)
		b.WriteString("// " + Signature(tool) + "\n")
	}
	return b.String()
}

// compareGolden compares got with the file at path, or rewrites it with
// -update.
func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	checkTS(t, path, string(want))
	if string(want) != got {
		t.Errorf("%s differs (run go test ./internal/tsdecl -update to rewrite):\n--- got\n%s", path, got)
	}
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var c goldenCase
			if err := json.Unmarshal(data, &c); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			got := render(t, name, c.Tools, c.Globals)
			compareGolden(t, strings.TrimSuffix(f, ".json")+".d.ts", got)
		})
	}
}

// mcpList is a file written by scripts/capture-mcp-schemas.mjs.
type mcpList struct {
	Tools []struct {
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	} `json:"tools"`
}

// jsName maps a captured server or tool name to the identifier the
// toolbox gives it (toolbox.MapName, which imports this package, so the
// test cannot call it): the captured names are ASCII, with '-' the only
// character to map. A name that needs more fails the test.
func jsName(t *testing.T, name string) string {
	t.Helper()
	id := strings.ReplaceAll(name, "-", "_")
	if !isIdent(id) {
		t.Fatalf("captured name %q needs toolbox.MapName's full mapping", name)
	}
	return id
}

func TestMCPServers(t *testing.T) {
	files, err := filepath.Glob("../../testdata/mcp-schemas/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no captured MCP schemas: %v", err)
	}
	var all []Tool
	var servers []string
	for _, f := range files {
		server := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(server, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var list mcpList
			if err := json.Unmarshal(data, &list); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if len(list.Tools) == 0 {
				t.Fatalf("%s: no tools", f)
			}
			var tools []Tool
			for _, mt := range list.Tools {
				tools = append(tools, Tool{
					Namespace:    jsName(t, server),
					Name:         jsName(t, mt.Name),
					OriginalName: mt.Name,
					Description:  mt.Description,
					Input:        mt.InputSchema,
					Output:       mt.OutputSchema,
				})
			}
			all = append(all, tools...)
			servers = append(servers, jsName(t, server))
			got := render(t, server, tools, []string{jsName(t, server)})
			compareGolden(t, filepath.Join("testdata", "mcp", server+".d.ts"), got)
		})
	}
	// The servers together, as one toolbox, are valid too.
	out, err := Declarations(all, servers)
	if err != nil {
		t.Fatal(err)
	}
	checkTS(t, "all servers", out)
}
