package cli

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioElicitor answers the approval form with a fixed action and
// decision, and counts the questions it was asked.
type stdioElicitor struct {
	action, decision string

	mu       sync.Mutex
	messages []string
}

func (e *stdioElicitor) handle(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	e.mu.Lock()
	e.messages = append(e.messages, req.Params.Message)
	e.mu.Unlock()
	if e.action != "accept" {
		return &mcp.ElicitResult{Action: e.action}, nil
	}
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": e.decision}}, nil
}

func (e *stdioElicitor) asked() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.messages...)
}

// Approvals through `modebox mcp` over stdio against the reference server
// "everything" (everything.echo is under policy "ask"): elicitation for a
// 2025-11-25 client, approving and declining, and the input_required round
// (MRTR) for a 2026-07-28 client, which the SDK client answers with its
// elicitation handler and retries.
func TestMCPServerApprovalsOverStdio(t *testing.T) {
	cfg := everythingConfig(t)
	bin := filepath.Join(t.TempDir(), "modebox")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/modebox").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	const prog = `try {
  return {echo: await everything.echo({message: "hi"})};
} catch (e) {
  return {code: e.code};
}`
	type runOut struct {
		Status string          `json:"status"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}

	for _, c := range []struct {
		name, version    string
		action, decision string
		want             string // in the result
		wantNot          string
	}{
		{"elicit approve", "2025-11-25", "accept", "approve", `"echo":"Echo: hi"`, "APPROVAL_DENIED"},
		{"elicit decline", "2025-11-25", "decline", "", `"code":"APPROVAL_DENIED"`, `"echo"`},
		{"elicit deny", "2025-06-18", "accept", "deny", `"code":"APPROVAL_DENIED"`, `"echo"`},
		{"mrtr approve", "2026-07-28", "accept", "approve", `"echo":"Echo: hi"`, "APPROVAL_DENIED"},
		{"mrtr decline", "2026-07-28", "decline", "", `"code":"APPROVAL_DENIED"`, `"echo"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			el := &stdioElicitor{action: c.action, decision: c.decision}
			client := mcp.NewClient(&mcp.Implementation{Name: "approval-client", Version: "1"}, &mcp.ClientOptions{
				Capabilities:       &mcp.ClientCapabilities{},
				ElicitationHandler: el.handle,
			})
			session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--config", cfg)},
				&mcp.ClientSessionOptions{ProtocolVersion: c.version})
			if err != nil {
				t.Fatal(err)
			}
			defer session.Close()
			if got := session.InitializeResult().ProtocolVersion; got != c.version {
				t.Fatalf("protocol %s, want %s", got, c.version)
			}
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": prog}})
			if err != nil {
				t.Fatal(err)
			}
			if res.NeedsInput() {
				t.Fatalf("input_required reached the caller: %+v", res.InputRequests)
			}
			b, _ := json.Marshal(res.StructuredContent)
			var o runOut
			if err := json.Unmarshal(b, &o); err != nil {
				t.Fatalf("structuredContent %s: %v", b, err)
			}
			if res.IsError || o.Status != "ok" {
				t.Fatalf("run: isError %v, %s", res.IsError, b)
			}
			if r := string(o.Result); !strings.Contains(r, c.want) || strings.Contains(r, c.wantNot) {
				t.Fatalf("result %s: want %s, not %s", r, c.want, c.wantNot)
			}
			asked := el.asked()
			if len(asked) != 1 {
				t.Fatalf("asked %d times, want once: %q", len(asked), asked)
			}
			if !strings.Contains(asked[0], "everything.echo") || !strings.Contains(asked[0], "hi") {
				t.Errorf("approval message: %q", asked[0])
			}
		})
	}

	// The input_required round by hand (the SDK client's automatic retry
	// turned off): the first call returns the question and the continuation
	// token as requestState; the retry with the answer finishes the run.
	t.Run("mrtr by hand", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		el := &stdioElicitor{action: "accept", decision: "approve"}
		client := mcp.NewClient(&mcp.Implementation{Name: "approval-client", Version: "1"}, &mcp.ClientOptions{
			Capabilities:       &mcp.ClientCapabilities{},
			ElicitationHandler: el.handle,
			MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		})
		session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--config", cfg)},
			&mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
		if err != nil {
			t.Fatal(err)
		}
		defer session.Close()
		args := map[string]any{"code": prog}
		first, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		if !first.NeedsInput() || first.RequestState == "" || len(first.InputRequests) != 1 {
			t.Fatalf("first call: needsInput %v, %d requests, state %q", first.NeedsInput(), len(first.InputRequests), first.RequestState)
		}
		ep, ok := first.InputRequests["call-1"].(*mcp.ElicitParams)
		if !ok || !strings.Contains(ep.Message, "everything.echo") {
			t.Fatalf("input requests %+v", first.InputRequests)
		}
		if n := len(el.asked()); n != 0 {
			t.Fatalf("a 2026-07-28 client got %d elicitation requests", n)
		}
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState,
			InputResponses: mcp.InputResponseMap{"call-1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "approve"}}}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var o runOut
		_ = json.Unmarshal(b, &o)
		if res.IsError || res.NeedsInput() || o.Status != "ok" || !strings.Contains(string(o.Result), `"echo":"Echo: hi"`) {
			t.Fatalf("answered: isError %v, needsInput %v, %s", res.IsError, res.NeedsInput(), b)
		}
	})

	// Uncaught, a denial fails the run with APPROVAL_DENIED.
	t.Run("uncaught denial", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		el := &stdioElicitor{action: "decline"}
		client := mcp.NewClient(&mcp.Implementation{Name: "approval-client", Version: "1"}, &mcp.ClientOptions{
			Capabilities:       &mcp.ClientCapabilities{},
			ElicitationHandler: el.handle,
		})
		session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--config", cfg)},
			&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		defer session.Close()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{
			"code": `return await everything.echo({message: "hi"})`,
		}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var o runOut
		_ = json.Unmarshal(b, &o)
		if !res.IsError || o.Error == nil || o.Error.Code != "APPROVAL_DENIED" {
			t.Fatalf("uncaught denial: isError %v, %s", res.IsError, b)
		}
	})
}
