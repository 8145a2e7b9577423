package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/mcpclient"
)

type addIn struct {
	A, B float64
}

type addOut struct {
	Sum float64 `json:"sum"`
}

// goServer serves a go-sdk MCP server over Streamable HTTP on loopback:
// "add", a tool whose schema is over the schema limits ("deep") and one
// whose schema does not compile ("loose").
func goServer(t testing.TB) string {
	srv := mcp.NewServer(&mcp.Implementation{Name: "calc", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "add", Description: "Adds."},
		func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B}, nil
		})
	var props []string
	for i := range 6000 { // over the schema limit of 5000 subschemas
		props = append(props, fmt.Sprintf(`"p%d":{"type":"string"}`, i))
	}
	deep := `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	raw := func(string, json.RawMessage) mcp.ToolHandler {
		return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "raw"}}}, nil
		}
	}
	srv.AddTool(&mcp.Tool{Name: "deep", InputSchema: json.RawMessage(deep)}, raw("deep", nil))
	srv.AddTool(&mcp.Tool{Name: "loose", InputSchema: json.RawMessage(`{"type":"object","properties":{"p":{"pattern":"("}}}`)}, raw("loose", nil))
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL
}

func TestStartToolsFailuresClose(t *testing.T) {
	ctx := t.Context()
	c, err := mcpclient.Start(ctx, map[string]mcpclient.Server{
		"calc":   {URL: goServer(t)},
		"broken": {Command: filepath.Join(t.TempDir(), "no-such-server")},
		"off":    {Command: "never-started", Disabled: true},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var names []string
	for _, tl := range c.Tools() {
		names = append(names, tl.Namespace+"."+tl.Name)
	}
	if strings.Join(names, " ") != "calc.add calc.loose" {
		t.Errorf("tools = %v, want calc.add calc.loose", names)
	}
	if f := c.Failures(); len(f) != 1 || f[0].Server != "broken" {
		t.Errorf("failures = %v, want broken", f)
	}
	if s := c.Skipped(); len(s) != 1 || s[0].Server != "calc" || s[0].Tool != "deep" {
		t.Errorf("skipped = %+v, want calc/deep", s)
	}
	if u := c.Unchecked(); len(u) != 1 || u[0].Tool != "loose" || u[0].Err == nil {
		t.Errorf("unchecked = %+v, want calc/loose", u)
	}

	ec := modebox.EngineConfig{Tools: c.Tools(), Policies: map[string]modebox.Policy{"calc.*": modebox.PolicyAllow}}
	eng, err := modebox.New(ec)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Run(ctx, `return [(await tools.calc.add({A: 40, B: 2})).sum, await tools.calc.loose({p: 1})]`, modebox.RunOptions{})
	if err != nil || res.Status != modebox.StatusOK || string(res.Value) != `[42,"raw"]` {
		t.Fatalf("run: %v %+v %s", err, res.Error, res.Value)
	}
	// after Close the servers are gone: a call fails
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	res, err = eng.Run(ctx, `return await tools.calc.add({A: 1, B: 1})`, modebox.RunOptions{})
	if err != nil || res.Status != modebox.StatusError {
		t.Fatalf("call after Close: %v %+v", err, res)
	}
}

func TestStartEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := mcpclient.Start(ctx, map[string]mcpclient.Server{"calc": {URL: goServer(t)}}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Start with an ended context: %v", err)
	}
}

// A stdio server: the npm reference server-memory, started as a child
// process and stopped by Close.
func TestStdioServerStopsOnClose(t *testing.T) {
	dir := os.Getenv("MODEBOX_MCP_SERVERS_DIR")
	node, nerr := exec.LookPath("node")
	if dir == "" || nerr != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("MODEBOX_MCP_SERVERS_DIR and node are required in CI (.ci/run installs the servers)")
		}
		t.Skip("set MODEBOX_MCP_SERVERS_DIR (scripts/test.sh installs the npm reference servers)")
	}
	main := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-memory", "dist", "index.js")
	mem := filepath.Join(t.TempDir(), "memory.json")
	c, err := mcpclient.Start(t.Context(), map[string]mcpclient.Server{
		"memory": {Command: node, Args: []string{main}, Env: map[string]string{"MEMORY_FILE_PATH": mem}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if f := c.Failures(); len(f) > 0 {
		t.Fatal(f[0])
	}
	eng, err := modebox.New(modebox.EngineConfig{Tools: c.Tools(), Policies: map[string]modebox.Policy{"memory.*": modebox.PolicyAllow}})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Run(t.Context(), `
		await tools.memory.create_entities({entities: [{name: "modebox", entityType: "project", observations: ["embeds"]}]});
		const g = await tools.memory.read_graph({});
		return g.entities.map(e => e.name)`, modebox.RunOptions{})
	if err != nil || res.Status != modebox.StatusOK || string(res.Value) != `["modebox"]` {
		t.Fatalf("run: %v %+v %s", err, res.Error, res.Value)
	}
	_ = c.Close()
	res, err = eng.Run(t.Context(), `return await tools.memory.read_graph({})`, modebox.RunOptions{})
	if err != nil || res.Status != modebox.StatusError {
		t.Fatalf("call after Close: %v %+v", err, res)
	}
}
