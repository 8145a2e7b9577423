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

// A downstream server's elicitation reaches the human through the same
// route as modebox's own approvals: here the MCP client's elicitation.
func TestDownstreamElicitationReachesTheUser(t *testing.T) {
	cfg := everythingConfig(t)
	bin := filepath.Join(t.TempDir(), "modebox")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/modebox").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var mu sync.Mutex
	var asked []string
	answer := "approve"
	client := mcp.NewClient(&mcp.Implementation{Name: "elicit-client", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, req.Params.Message)
			if answer == "deny" {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
			// the downstream form arrives as it is: fill it in
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada Lovelace"}}, nil
		},
	})
	// a client that elicits during calls (2025-11-25); 2026-07-28 clients
	// are asked with input_required results instead
	// (TestHostileElicitationThroughModeboxMCP)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--config", cfg)},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	call := func() string {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{
			"code": `try { return await everything.trigger_elicitation_request({}) } catch (e) { return e.code + ": " + e.message }`,
		}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		return string(b)
	}
	out := call()
	mu.Lock()
	if len(asked) == 0 || !strings.Contains(strings.Join(asked, "\n"), "[question from MCP server everything, not from modebox] ") {
		t.Fatalf("the user was not asked: %q (result %s)", asked, out)
	}
	answer = "deny"
	mu.Unlock()
	if strings.Contains(out, "forwarded_from_mcp_server") {
		t.Errorf("modebox's marker field reached the server: %s", out)
	}
	if !strings.Contains(out, "accept") || !strings.Contains(out, "Ada Lovelace") {
		t.Fatalf("approved elicitation: %s", out)
	}
	if out := call(); !strings.Contains(out, "decline") {
		t.Fatalf("denied elicitation: %s", out)
	}
}
