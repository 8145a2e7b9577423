package scaletest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A pause served by replica A, resumed through replica B, retried
// through replica C: the call runs once and the retry gets the first
// result. Both ways of pausing: a 2026-07-28 client's input_required
// round trip (stateless), and an older client's approve tool.
func TestResumeAcrossReplicas(t *testing.T) {
	d := newDeployment(t)
	a, b, c := d.start(), d.start(), d.start()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()

	t.Run("input_required", func(t *testing.T) {
		code := d.cnt.program("hit", "mrtr")
		args := map[string]any{"code": code}
		ca := client(t, a.Addr, newVersion, "approve", false)
		first, err := ca.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args})
		if err != nil || !first.NeedsInput() || first.RequestState == "" {
			t.Fatalf("A: %v, needsInput %v", err, first != nil && first.NeedsInput())
		}
		// B knows the pause (the shared store) and asks again when the
		// answer is missing.
		cb := client(t, b.Addr, newVersion, "approve", false)
		again, err := cb.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState})
		if err != nil || !again.NeedsInput() || again.InputRequests["call-1"] == nil {
			t.Fatalf("B without answers: %v, needsInput %v", err, again != nil && again.NeedsInput())
		}
		// B refuses the state with other code: the pause's arguments are
		// shared too.
		if _, err := cb.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": "return 1"}, RequestState: first.RequestState}); err == nil {
			t.Error("B accepted the requestState with other code")
		}
		res, err := cb.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState, InputResponses: approveAnswer("call-1")})
		if got := resultString(res, err); got != "hit:mrtr" {
			t.Fatalf("B: %s", got)
		}
		cc := client(t, c.Addr, newVersion, "approve", false)
		retry, err := cc.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState, InputResponses: approveAnswer("call-1")})
		if got := resultString(retry, err); got != "hit:mrtr" {
			t.Fatalf("C: %s", got)
		}
		if textOf(res) != textOf(retry) {
			t.Errorf("the retry's result differs from the first:\n%s\n%s", textOf(res), textOf(retry))
		}
		if n := d.cnt.count("mrtr"); n != 1 {
			t.Fatalf("the approved fetch ran %d times, want 1", n)
		}
	})

	t.Run("approve tool", func(t *testing.T) {
		ca := client(t, a.Addr, oldVersion, "", true)
		res, err := callRun(ctx, ca, d.cnt.program("hit", "tool"))
		if err != nil {
			t.Fatal(err)
		}
		o, _ := outputOf(res)
		if o.Status != "paused" || o.Token == "" {
			t.Fatalf("A: %s", resultString(res, err))
		}
		approve := &mcp.CallToolParams{Name: "approve", Arguments: map[string]any{"token": o.Token, "decisions": "approve"}}
		cb := client(t, b.Addr, oldVersion, "", true)
		first, err := cb.CallTool(ctx, approve)
		if got := resultString(first, err); got != "hit:tool" {
			t.Fatalf("B: %s", got)
		}
		cc := client(t, c.Addr, legacyVersion, "", true)
		approve.Arguments = map[string]any{"token": o.Token, "decisions": "approve"}
		retry, err := cc.CallTool(ctx, approve)
		if got := resultString(retry, err); got != "hit:tool" {
			t.Fatalf("C: %s", got)
		}
		if textOf(first) != textOf(retry) {
			t.Errorf("the retry's result differs from the first:\n%s\n%s", textOf(first), textOf(retry))
		}
		if n := d.cnt.count("tool"); n != 1 {
			t.Fatalf("the approved fetch ran %d times, want 1", n)
		}
	})
}

func textOf(res *mcp.CallToolResult) string {
	if res == nil || len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// A replica killed in the middle of a resume: the client's retry on
// another replica waits while the dead replica's lease lasts, then is
// refused (the token was claimed and no result was recorded); the call
// never runs a second time.
func TestReplicaKilledMidResume(t *testing.T) {
	d := newDeployment(t)
	a, b, c := d.start(), d.start(), d.start()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	code := d.cnt.program("block", "killed")
	args := map[string]any{"code": code}
	first, err := client(t, a.Addr, newVersion, "approve", false).CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args})
	if err != nil || !first.NeedsInput() {
		t.Fatalf("A: %v", err)
	}
	cb := client(t, b.Addr, newVersion, "approve", false)
	errc := make(chan error, 1)
	go func() {
		_, err := cb.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState, InputResponses: approveAnswer("call-1")})
		errc <- err
	}()
	select {
	case <-d.cnt.blocked: // B runs the approved fetch and is stuck in it
	case <-ctx.Done():
		t.Fatal("the resume on B never reached the fetch")
	}
	b.kill()
	if err := <-errc; err == nil {
		t.Error("the call to the killed replica succeeded")
	}
	d.cnt.unblock()
	cc := client(t, c.Addr, newVersion, "approve", false)
	retry, err := cc.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState, InputResponses: approveAnswer("call-1")})
	if err == nil || !strings.Contains(err.Error(), "TOKEN_USED") {
		t.Fatalf("retry on C after B died: %s; want refused with TOKEN_USED", resultString(retry, err))
	}
	if n := d.cnt.count("killed"); n != 1 {
		t.Fatalf("the approved fetch ran %d times, want 1", n)
	}
}
