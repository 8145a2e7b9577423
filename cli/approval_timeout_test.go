package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// modebox.json "limits": {"approvalTimeout": ...} bounds the wait for the
// MCP client's user: a form nobody answers ends the call with
// APPROVAL_TIMEOUT (through `modebox mcp` on stdio, in process).
func TestApprovalTimeoutFromConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := `{"limits": {"approvalTimeout": "300ms"}, "tools": {"fs.read": {"policy": "ask"}},
		"fs": {"mounts": [{"host": ` + jsonQ(dir) + `, "guest": "/d"}]}}`
	path := filepath.Join(t.TempDir(), "modebox.json")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := Run([]string{"mcp", "--config", path}, Streams{Stdin: inR, Stdout: outW, Stderr: io.Discard})
		outW.Close()
		done <- code
	}()
	never := make(chan struct{})
	client := mcp.NewClient(&mcp.Implementation{Name: "slow-person", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			select { // nobody answers
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-never:
				return nil, io.EOF
			}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": `try { return await fs.read("/d/a.txt") } catch (e) { return e.code }`}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(b), `"result":"APPROVAL_TIMEOUT"`) {
		t.Fatalf("%s", b)
	}
	close(never)
	cs.Close()
	inW.Close()
	<-done
}

func jsonQ(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
