package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modebox/modebox/internal/config"
	"github.com/modebox/modebox/mcpserver"
)

const longOp = `return await tools.everything["trigger-long-running-operation"]({duration: 1, steps: 2})`

// TestDownstreamProgress runs the reference server's long-running tool,
// which reports progress when asked: on the terminal each report is a
// line, and through modebox mcp each is forwarded to the client as
// notifications/progress of its run.
func TestDownstreamProgress(t *testing.T) {
	cfgPath := everythingConfig(t)
	code, out, errs := runCLI(t, longOp, "run", "--config", cfgPath, "-")
	if code != ExitOK || !strings.Contains(out, "Long running operation completed") {
		t.Fatalf("exit %d %q %q", code, out, errs)
	}
	// (the last report may reach modebox after the result: only the
	// first is sure to be shown)
	for _, want := range []string{"[modebox] tools.everything.trigger_long_running_operation: 1/2\n"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q: %q", want, errs)
		}
	}

	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	eng, stop, err := engineFor(context.Background(), cfg, Streams{Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	var mu sync.Mutex
	var msgs []string
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(eng, mcpserver.Options{}).MCPServer().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			msgs = append(msgs, r.Params.Message)
		},
	})
	cs, err := client.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	p := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": longOp}}
	p.SetProgressToken(7)
	res, err := cs.CallTool(context.Background(), p)
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	want := []string{"call #1 tools.everything.trigger_long_running_operation started", "tools.everything.trigger_long_running_operation: 1/2", "call #1 tools.everything.trigger_long_running_operation done"}
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		joined := strings.Join(msgs, "\n")
		mu.Unlock()
		missing := ""
		for _, w := range want {
			if !strings.Contains(joined, w) {
				missing = w
			}
		}
		if missing == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("progress lacks %q:\n%s", missing, joined)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSlowServerStartIsShown starts a server that takes 3 s to come up
// (a shell that sleeps, then runs the reference server): the CLI says it
// is starting it, then how long it took, and the run works.
func TestSlowServerStartIsShown(t *testing.T) {
	cfgPath := everythingConfig(t)
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	srv := cfg.MCPServers["everything"]
	script := "sleep 3; exec \"$0\" \"$@\""
	slowCfg := map[string]any{"mcpServers": map[string]any{"everything": map[string]any{
		"command": "/bin/sh", "args": append([]string{"-c", script, srv.Command}, srv.Args...)}}}
	b, _ := json.Marshal(slowCfg)
	path := filepath.Join(t.TempDir(), "slow.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, `return await everything.get_sum({a: 1, b: 2})`, "run", "--config", path, "-")
	if code != ExitOK || !strings.Contains(out, "3") {
		t.Fatalf("exit %d %q %q", code, out, errs)
	}
	i := strings.Index(errs, "modebox: starting MCP servers (everything); a first start with npx may be fetching packages...\n")
	j := strings.Index(errs, "modebox: MCP servers started in ")
	if i < 0 || j < i {
		t.Fatalf("stderr %q", errs)
	}
}
