package cli

import (
	"context"
	"encoding/json"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modebox/modebox/mcpserver"
)

// A real MCP client (the Go SDK) drives `modebox mcp` over stdio: it lists
// the tools and runs code that calls the reference server "everything".
func TestMCPServerOverStdio(t *testing.T) {
	cfg := everythingConfig(t)
	bin := filepath.Join(t.TempDir(), "modebox")
	build := exec.Command("go", "build", "-o", bin, "../cmd/modebox")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--config", cfg)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, tl := range tools.Tools {
		names[tl.Name] = tl.Description
	}
	if _, ok := names["run"]; !ok || !strings.Contains(names["run"], "everything") || names["search"] == "" {
		t.Fatalf("tools: %v", names)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{
		"code": "const s: string = await everything.get_sum({a: 40, b: 2}); return s",
	}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if res.IsError || !strings.Contains(string(b), "42") || !strings.Contains(string(b), `"status":"ok"`) {
		t.Fatalf("run: %s %+v", b, res.Content)
	}
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": "throw new Error('nope')"}})
	if err != nil || !res.IsError {
		t.Fatalf("a failing program must be an isError result: %v %+v", err, res)
	}
}

// TestHTTPUsageEveryInterface: served on the unspecified address, the
// printed URL is loopback's (the only Host accepted without
// --allow-host), and a line says so and how to open it to others.
func TestHTTPUsageEveryInterface(t *testing.T) {
	var b strings.Builder
	printHTTPUsage(&b, &net.TCPAddr{IP: net.IPv4zero, Port: 8085}, mcpserver.HTTPOptions{NoAuth: true}, false)
	if out := b.String(); !strings.Contains(out, "http://127.0.0.1:8085/mcp") || !strings.Contains(out, "add --allow-host NAME") {
		t.Errorf("%s", out)
	}
	b.Reset()
	printHTTPUsage(&b, &net.TCPAddr{IP: net.IPv4zero, Port: 8085}, mcpserver.HTTPOptions{NoAuth: true, AllowedHosts: []string{"box.lan"}}, false)
	if out := b.String(); strings.Contains(out, "--allow-host") {
		t.Errorf("with an allowed host: %s", out)
	}
	b.Reset()
	printHTTPUsage(&b, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8085}, mcpserver.HTTPOptions{NoAuth: true}, false)
	if out := b.String(); strings.Contains(out, "--allow-host") {
		t.Errorf("loopback: %s", out)
	}
}
