//lint:file-ignore SA1019 tests the log notifications (a deprecated MCP feature still served)
package mcpserver

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notes collects what the client is sent.
type notes struct {
	mu       sync.Mutex
	progress []*mcp.ProgressNotificationParams
	logs     []*mcp.LoggingMessageParams
}

func (n *notes) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			n.mu.Lock()
			defer n.mu.Unlock()
			n.progress = append(n.progress, r.Params)
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			n.mu.Lock()
			defer n.mu.Unlock()
			n.logs = append(n.logs, r.Params)
		},
	}
}

// TestRunProgress checks that a run sends notifications/progress for its
// tool calls when the request carries a progress token, and its console
// lines as log messages once the client has set a logging level; all of
// them before the result.
func TestRunProgress(t *testing.T) {
	eng, _ := newEngine(t)
	var n notes
	cs := connect(t, New(eng, Options{}), n.options(), legacyVersion)
	ctx := context.Background()
	code := `console.log("one"); const s = await tools.add({a: 1, b: 2}); console.warn("two"); try { await tools.nope() } catch {} ; return await tools.math.mul({a: s, b: 2})`

	// no token, no level: nothing
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": code}}); err != nil {
		t.Fatal(err)
	}
	n.mu.Lock()
	if len(n.progress) != 0 || len(n.logs) != 0 {
		t.Fatalf("unasked notifications: %d progress, %d logs", len(n.progress), len(n.logs))
	}
	n.mu.Unlock()

	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	p := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": code}}
	p.SetProgressToken("tok-1")
	res, err := cs.CallTool(ctx, p)
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	// the notifications were sent before the result; the client may
	// still be handing them to its handlers
	deadline := time.Now().Add(30 * time.Second)
	for {
		n.mu.Lock()
		if len(n.progress) >= 4 && len(n.logs) >= 2 || time.Now().After(deadline) {
			break
		}
		n.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	defer n.mu.Unlock()
	var msgs []string
	last := 0.0
	for _, pr := range n.progress {
		if pr.ProgressToken != "tok-1" || pr.Progress <= last {
			t.Errorf("progress %+v after %v", pr, last)
		}
		last = pr.Progress
		msgs = append(msgs, pr.Message)
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"call #1 tools.add started", "call #1 tools.add done", "call #2 tools.math.mul started", "call #2 tools.math.mul done"} {
		if !strings.Contains(joined, want) {
			t.Errorf("progress lacks %q:\n%s", want, joined)
		}
	}
	if len(n.logs) != 2 || n.logs[0].Data != "one" || n.logs[0].Level != "info" || n.logs[1].Data != "two" || n.logs[1].Level != "warning" || n.logs[0].Logger != "modebox.run" {
		t.Errorf("logs %+v", n.logs)
	}
}
