package mcpclient

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestProgressRouting checks that a server's progress reaches only the
// call it was given the token for: another server using the token, or a
// token never given, is ignored; messages are bounded and lose control
// characters (they end up on terminals and in MCP clients).
func TestProgressRouting(t *testing.T) {
	a, b := &server{name: "a"}, &server{name: "b"}
	var got []Progress
	ctx := WithProgress(context.Background(), func(p Progress) { got = append(got, p) })
	params := &mcp.CallToolParams{Name: "slow"}
	token, stop := a.watchProgress(ctx, params)
	defer stop()
	if sent, ok := params.GetProgressToken().(string); !ok || sent != token || token == "" {
		t.Fatalf("no token set: %v", params.GetProgressToken())
	}
	send := func(s *server, tok any, msg string) {
		s.progress(context.Background(), &mcp.ProgressNotificationClientRequest{Params: &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: msg}})
	}
	send(b, token, "spoofed by another server")
	send(a, "mbx-999999999", "a token never given")
	send(a, 12, "not a string")
	send(a, token, "step\x1b[31m one\nnext"+strings.Repeat("x", 2000))
	if len(got) != 1 {
		t.Fatalf("delivered %d: %+v", len(got), got)
	}
	p := got[0]
	if p.Server != "a" || p.Tool != "slow" || p.Progress != 1 || p.Total != 2 || !strings.HasPrefix(p.Message, "step [31m one next") ||
		strings.ContainsAny(p.Message, "\x1b\n") || len(p.Message) > maxProgressMessage+len("…") {
		t.Fatalf("%+v", p)
	}
	// without WithProgress a call still has its own token (results and
	// elicitations are attributed by it), but its progress goes nowhere
	plain := &mcp.CallToolParams{Name: "x"}
	other, stopPlain := a.watchProgress(context.Background(), plain)
	stopPlain()
	if plain.GetProgressToken() != other || other == token {
		t.Fatalf("token %v, want a new one", plain.GetProgressToken())
	}
	send(a, other, "to a call without WithProgress")
	if len(got) != 1 {
		t.Fatalf("progress of a call without WithProgress delivered: %+v", got)
	}
}
