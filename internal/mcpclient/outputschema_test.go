package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modebox/modebox/internal/config"
)

// typedServerEnv makes the test binary a stdio MCP server (go-sdk) whose
// tools declare output schemas and return whatever their "send" argument
// names, conforming or not (see typedResults).
const typedServerEnv = "MODEBOX_TEST_TYPED_SERVER"

// typedSchema is the output schema of the typed tools: what a program
// is told the result is (Promise<{n: number; …}>).
const typedSchema = `{"type":"object","properties":{"n":{"type":"number"},"s":{"type":"string"},` +
	`"m":{"type":"object","additionalProperties":{"type":"number"}}},"required":["n"]}`

// typedResults are the results the typed server's tools send, by the
// "send" argument.
var typedResults = map[string]func() *mcp.CallToolResult{
	// conforming, with numbers and characters whose encoding must not change
	"good": func() *mcp.CallToolResult {
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: "ignored"}},
			StructuredContent: json.RawMessage(`{"s":"<b>&\u2028","n":1.50,"big":12345678901234567890,"e":1e-7}`),
		}
	},
	// what the tester's hostile server sent
	"bad": func() *mcp.CallToolResult {
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: `{"n":"not a number","injected":true}`}},
			StructuredContent: json.RawMessage(`{"n":"not a number","injected":true}`),
		}
	},
	// the same, in a shape only the SDK decodes (an annotated block)
	"bad-sdk": func() *mcp.CallToolResult {
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: "x", Annotations: &mcp.Annotations{Priority: 1}}},
			StructuredContent: json.RawMessage(`{"n":"not a number","injected":true}`),
		}
	},
	// many violations under long names: the message stays short
	"many": func() *mcp.CallToolResult {
		m := map[string]string{}
		for i := range 20 {
			m[fmt.Sprint(i)+strings.Repeat("k", 5000)] = "not a number"
		}
		return &mcp.CallToolResult{StructuredContent: map[string]any{"n": 1, "m": m}}
	},
	// a text result only: the spec requires structuredContent
	"missing": func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"n":1}`}}}
	},
	// an isError result is the server's failure, not checked
	"error": func() *mcp.CallToolResult {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "it broke"}},
			StructuredContent: json.RawMessage(`{"n":"x"}`)}
	},
}

// maybeRunTypedServer serves the typed tools over stdio when the test
// binary is started with typedServerEnv set, and exits.
func maybeRunTypedServer() {
	if os.Getenv(typedServerEnv) == "" {
		return
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "typed", Version: "1"}, nil)
	handler := func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args struct {
			Send string `json:"send"`
		}
		_ = json.Unmarshal(req.Params.Arguments, &args)
		f := typedResults[args.Send]
		if f == nil {
			return nil, fmt.Errorf("no result %q", args.Send)
		}
		return f(), nil
	}
	in := json.RawMessage(`{"type":"object","properties":{"send":{"type":"string"}}}`)
	var props []string
	for i := range 6000 { // over the schema limit of 5000 subschemas
		props = append(props, fmt.Sprintf(`"p%d":{"type":"string"}`, i))
	}
	for name, out := range map[string]string{
		"typed":   typedSchema,
		"untyped": "",
		// an output schema that does not compile, and one over the limits:
		// the tool has no output type and its results are not checked
		"broken": `{"type":"object","properties":{"n":{"pattern":"("}}}`,
		"huge":   `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`,
	} {
		t := &mcp.Tool{Name: name, InputSchema: in}
		if out != "" {
			t.OutputSchema = json.RawMessage(out)
		}
		srv.AddTool(t, handler)
	}
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// TestOutputSchemaChecked: a result of a tool with an output schema
// reaches the program only if its structuredContent conforms; otherwise
// the call fails with a *ToolError naming the first violations.
func TestOutputSchemaChecked(t *testing.T) {
	m := startManager(t, map[string]config.Server{
		"srv": {Command: os.Args[0], Env: map[string]string{typedServerEnv: "1"}},
	}, Options{})
	if f := m.Failures(); len(f) > 0 {
		t.Fatalf("failures: %v", f)
	}
	call := func(tool, send string) (json.RawMessage, error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		return m.Call(ctx, "srv", tool, json.RawMessage(`{"send":"`+send+`"}`))
	}

	// a conforming result passes through exactly as without a schema
	want, err := call("untyped", "good")
	if err != nil {
		t.Fatal(err)
	}
	got, err := call("typed", "good")
	if err != nil || string(got) != string(want) {
		t.Errorf("typed good: %s, %v; want %s as untyped", got, err, want)
	}
	t.Logf("good: %s", got)

	// "bad" is converted straight from the line, "bad-sdk" by the SDK
	if _, _, ok := convertLine([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x","annotations":{"priority":1}}],"structuredContent":{"n":"x"}}}`)); ok {
		t.Error("convertLine took an annotated block: bad-sdk does not test the SDK path")
	}
	for _, send := range []string{"bad", "bad-sdk"} {
		got, err := call("typed", send)
		var te *ToolError
		if !errors.As(err, &te) {
			t.Fatalf("typed %s: a result that does not match the output schema reached the program: %s, %v", send, got, err)
		}
		if !strings.Contains(te.Message, "output schema") || !strings.Contains(te.Message, "/n") || !strings.Contains(te.Message, "type") {
			t.Errorf("typed %s: message %q does not name the violation", send, te.Message)
		}
		t.Logf("%s: %v", send, err)
		// without a schema the same result is passed on
		if _, err := call("untyped", send); err != nil {
			t.Errorf("untyped %s: %v", send, err)
		}
	}

	_, err = call("typed", "many")
	var te *ToolError
	if !errors.As(err, &te) || len(te.Message) > maxResultMessage || !strings.Contains(te.Message, "(and 17 more)") {
		t.Errorf("typed many: %d bytes: %.300q", len(fmt.Sprint(err)), err)
	}
	t.Logf("many: %.400s", err)

	_, err = call("typed", "missing")
	if !errors.As(err, &te) || !strings.Contains(te.Message, "structuredContent") {
		t.Errorf("typed missing: %v, want a ToolError about structuredContent", err)
	}
	t.Logf("missing: %v", err)
	if got, err := call("untyped", "missing"); err != nil || string(got) != `"{\"n\":1}"` {
		t.Errorf("untyped missing: %s, %v", got, err)
	}

	// the server's own failure is reported as before
	_, err = call("typed", "error")
	if !errors.As(err, &te) || te.Message != "it broke" {
		t.Errorf("typed error: %v", err)
	}

	// schemas that cannot be used: no output type, results unchecked
	for _, tl := range m.Tools() {
		switch tl.Name {
		case "broken", "huge":
			if tl.OutputSchema != nil || tl.Output != nil || tl.OutputErr == nil {
				t.Errorf("%s: output schema %.40s, validator %v, error %v; want none and an error", tl.Name, tl.OutputSchema, tl.Output, tl.OutputErr)
			}
			if got, err := call(tl.Name, "bad"); err != nil || string(got) != `{"injected":true,"n":"not a number"}` {
				t.Errorf("%s bad: %s, %v; want it unchecked", tl.Name, got, err)
			}
		case "typed":
			if tl.Output == nil || tl.OutputErr != nil {
				t.Errorf("typed: validator %v, error %v", tl.Output, tl.OutputErr)
			}
		}
	}
}
