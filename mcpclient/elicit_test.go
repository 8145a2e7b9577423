package mcpclient_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/mcpclient"
)

// askingServer serves a tool that asks its client a question (an MCP
// elicitation) before answering, and reports what the client said.
func askingServer(t *testing.T, schema string) string {
	srv := mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "deploy", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Deploy to\nproduction?", RequestedSchema: json.RawMessage(schema)})
			if err != nil {
				return nil, err
			}
			out, _ := json.Marshal(map[string]any{"action": res.Action, "content": res.Content})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL
}

// By default a server's question goes to the approver of the run whose
// call caused it, framed as the server's, not modebox's: approving accepts
// with the form's defaults, denying declines; a form with a required field
// without a default is declined without asking.
func TestElicitationGoesToTheRunsApprover(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		decision     modebox.Decision
		asked        bool
		want         string
	}{
		{"approve", `{"type":"object","properties":{"env":{"type":"string","default":"prod"}}}`, modebox.Approve, true, `{"action":"accept","content":{"env":"prod"}}`},
		{"deny", `{"type":"object","properties":{"env":{"type":"string","default":"prod"}}}`, modebox.Deny, true, `{"action":"decline"`},
		{"required without default", `{"type":"object","properties":{"env":{"type":"string"}},"required":["env"]}`, modebox.Approve, false, `{"action":"decline"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := mcpclient.Start(t.Context(), map[string]mcpclient.Server{"ops": {URL: askingServer(t, tc.schema)}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			eng, err := modebox.New(modebox.EngineConfig{Tools: c.Tools(), Policies: map[string]modebox.Policy{"ops.*": modebox.PolicyAllow}})
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			var mu sync.Mutex
			var asked []modebox.ApprovalRequest
			approver := modebox.ApproverFunc(func(_ context.Context, req modebox.ApprovalRequest) (modebox.Decision, error) {
				mu.Lock()
				defer mu.Unlock()
				asked = append(asked, req)
				return tc.decision, nil
			})
			res, err := eng.Run(t.Context(), `return await tools.ops.deploy({})`, modebox.RunOptions{Approver: approver})
			if err != nil || res.Status != modebox.StatusOK {
				t.Fatalf("%v %+v", err, res.Error)
			}
			var got string
			if err := json.Unmarshal(res.Value, &got); err != nil || !strings.HasPrefix(got, tc.want) {
				t.Fatalf("the server heard %s, want %s...", res.Value, tc.want)
			}
			mu.Lock()
			defer mu.Unlock()
			if !tc.asked {
				if len(asked) != 0 {
					t.Fatalf("asked %+v", asked)
				}
				return
			}
			if len(asked) != 1 || !strings.Contains(asked[0].Reason, "[question from MCP server ops, not from modebox] Deploy to production?") {
				t.Fatalf("asked %+v", asked)
			}
		})
	}
}

// NoElicitation tells servers the client cannot answer: the question
// fails on the server's side and nobody is asked.
func TestNoElicitation(t *testing.T) {
	c, err := mcpclient.Start(t.Context(), map[string]mcpclient.Server{"ops": {URL: askingServer(t, `{"type":"object"}`)}}, &mcpclient.Options{NoElicitation: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	eng, err := modebox.New(modebox.EngineConfig{Tools: c.Tools(), Policies: map[string]modebox.Policy{"ops.*": modebox.PolicyAllow}})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	approver := modebox.ApproverFunc(func(context.Context, modebox.ApprovalRequest) (modebox.Decision, error) {
		t.Error("the approver was asked")
		return modebox.Deny, nil
	})
	res, err := eng.Run(t.Context(), `return await tools.ops.deploy({}).then(() => "answered", e => e.code)`, modebox.RunOptions{Approver: approver})
	if err != nil || string(res.Value) != `"TOOL_ERROR"` {
		t.Fatalf("%v %s %+v", err, res.Value, res.Error)
	}
}
