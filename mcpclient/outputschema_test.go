package mcpclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/mcpclient"
)

// typedServerEnv makes the test binary a stdio MCP server whose tool
// "typed" declares an output schema and returns, by its "send" argument,
// a conforming structuredContent or the hostile one a tester saw.
const typedServerEnv = "MODEBOX_TEST_TYPED_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(typedServerEnv) != "" {
		serveTyped()
		return
	}
	os.Exit(m.Run())
}

func serveTyped() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "typed", Version: "1"}, nil)
	in := json.RawMessage(`{"type":"object","properties":{"send":{"type":"string"}}}`)
	handler := func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args struct {
			Send string `json:"send"`
		}
		_ = json.Unmarshal(req.Params.Arguments, &args)
		sc := `{"n":"not a number","injected":true}`
		if args.Send == "good" {
			sc = `{"n":1.50,"s":"<b>"}`
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: sc}}, StructuredContent: json.RawMessage(sc)}, nil
	}
	srv.AddTool(&mcp.Tool{Name: "typed", InputSchema: in,
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"},"s":{"type":"string"}},"required":["n"]}`)}, handler)
	srv.AddTool(&mcp.Tool{Name: "broken", InputSchema: in,
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"pattern":"("}}}`)}, handler)
	// "die" is a server failing the way servers do: a traceback on stderr
	// that holds its credentials, then exit
	srv.AddTool(&mcp.Tool{Name: "die", InputSchema: in}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "Traceback: request to upstream failed with Authorization: Bearer "+os.Getenv("SVC_SECRET"))
		os.Exit(1)
		return nil, nil
	})
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// A result that does not conform to the tool's output schema reaches the
// program as a failed call it can catch (TOOL_ERROR), not as a value of
// the declared type.
func TestOutputSchemaCheckedInTheProgram(t *testing.T) {
	ctx := t.Context()
	c, err := mcpclient.Start(ctx, map[string]mcpclient.Server{
		"srv": {Command: os.Args[0], Env: map[string]string{typedServerEnv: "1"}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if f := c.Failures(); len(f) > 0 {
		t.Fatalf("failures: %v", f)
	}
	if u := c.UncheckedResults(); len(u) != 1 || u[0].Tool != "broken" || u[0].Err == nil {
		t.Errorf("unchecked results = %+v, want srv/broken", u)
	}
	for _, tl := range c.Tools() {
		if (tl.Name == "typed") != (tl.OutputSchema != nil) {
			t.Errorf("%s: output schema %s", tl.Name, tl.OutputSchema)
		}
	}
	eng, err := modebox.New(modebox.EngineConfig{Tools: c.Tools(), Policies: map[string]modebox.Policy{"srv.*": modebox.PolicyAllow}})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Run(ctx, `
const good = await tools.srv.typed({send: "good"});
let bad;
try { bad = await tools.srv.typed({send: "bad"}); } catch (e) { bad = {code: e.code, message: e.message}; }
const loose = await tools.srv.broken({send: "bad"});
return {good, bad, loose};`, modebox.RunOptions{})
	if err != nil || res.Status != modebox.StatusOK {
		t.Fatalf("run: %v %+v", err, res.Error)
	}
	var got struct {
		Good, Loose json.RawMessage
		Bad         struct{ Code, Message string }
	}
	if err := json.Unmarshal(res.Value, &got); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", res.Value)
	if string(got.Good) != `{"n":1.5,"s":"<b>"}` {
		t.Errorf("good: %s", got.Good)
	}
	if got.Bad.Code != string(modebox.CodeToolError) || !strings.Contains(got.Bad.Message, "output schema") || !strings.Contains(got.Bad.Message, "at /n: type") {
		t.Errorf("bad: the non-conforming result reached the program as %+v", got.Bad)
	}
	if string(got.Loose) != `{"injected":true,"n":"not a number"}` {
		t.Errorf("broken (no output type): %s", got.Loose)
	}
}

// A server's stderr is the operator's: when a call makes a stdio server
// exit, the program's error says that it exited, not what it wrote on
// stderr (a traceback holding the server's own credentials reached the
// program and the model).
func TestServerStderrNotInProgramErrors(t *testing.T) {
	ctx := t.Context()
	const secret = "svc-downstream-secret-42"
	c, err := mcpclient.Start(ctx, map[string]mcpclient.Server{
		"srv": {Command: os.Args[0], Env: map[string]string{typedServerEnv: "1", "SVC_SECRET": secret}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	eng, err := modebox.New(modebox.EngineConfig{Tools: c.Tools(), Policies: map[string]modebox.Policy{"srv.*": modebox.PolicyAllow}})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Run(ctx, `try { await tools.srv.die({}); return "no error"; } catch (e) { return {code: e.code, message: e.message, stack: String(e.stack)}; }`, modebox.RunOptions{})
	if err != nil || res.Status != modebox.StatusOK {
		t.Fatalf("run: %v %+v", err, res.Error)
	}
	if strings.Contains(string(res.Value), secret) || strings.Contains(string(res.Value), "Traceback") || !strings.Contains(string(res.Value), "exited") {
		t.Fatalf("the program saw %s", res.Value)
	}
}
