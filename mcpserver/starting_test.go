package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server made by NewStarting holds tools/list until Ready, telling a
// request with a progress token that it is starting; here the client
// makes it ready when it hears that, so the request surely waited. The
// list is then New's, at each protocol version.
func TestStartingWaitsThenListsNewsTools(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			eng, _ := newEngine(t)
			want, err := connect(t, New(eng, Options{ApproveTool: true}), nil, version).ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			s := NewStarting(Options{ApproveTool: true}, "starting MCP servers (slow)")
			heard := make(chan string, 100)
			cs := connect(t, s, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
				heard <- r.Params.Message
				s.Ready(eng, nil) // later calls do nothing
			}}, version)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			p := &mcp.ListToolsParams{}
			p.SetProgressToken("t")
			got, err := cs.ListTools(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			if m := <-heard; !strings.HasPrefix(m, "starting MCP servers (slow): ") {
				t.Fatalf("progress %q", m)
			}
			gb, _ := json.Marshal(got.Tools)
			wb, _ := json.Marshal(want.Tools)
			if string(gb) != string(wb) {
				t.Fatalf("tools after Ready:\n%s\nwant\n%s", gb, wb)
			}
			if _, out := runCode(t, cs, `return await tools.math.mul({a: 2, b: 3})`); out.Status != "ok" {
				t.Fatalf("run: %+v", out)
			}
		})
	}
}

// After Fail, waiting and later tools/ requests fail with the error.
func TestStartingFail(t *testing.T) {
	s := NewStarting(Options{}, "starting MCP servers (bad)")
	cs := connect(t, s, &mcp.ClientOptions{ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
		s.Fail(errors.New("boom"))
	}}, "2025-11-25")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := &mcp.ListToolsParams{}
	p.SetProgressToken(1)
	if _, err := cs.ListTools(ctx, p); err == nil || !strings.Contains(err.Error(), "modebox did not start: boom") {
		t.Fatalf("waiting list: %v", err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": "return 1"}}); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("later call: %v", err)
	}
}
