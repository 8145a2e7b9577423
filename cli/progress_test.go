//lint:file-ignore SA1019 tests the starting log notification (a deprecated MCP feature still served)

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modebox/modebox/config"
	"github.com/modebox/modebox/internal/syncbuf"
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
	path := slowEverythingConfig(t)
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

// slowEverythingConfig writes a configuration whose server "everything"
// is the reference server behind a shell that first sleeps 3 s.
func slowEverythingConfig(t *testing.T) string {
	t.Helper()
	cfg, err := config.Load(everythingConfig(t))
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
	return path
}

// TestSlowServerStartIsMCPProgress drives modebox mcp over stdio while
// its downstream server takes 3 s to start: the client connects at once,
// its tools/list with a progress token hears notifications/progress naming
// the starting server before the list arrives, a client that set a
// logging level gets a log message too, and the list and a run are then
// those of a server that started normally.
func TestSlowServerStartIsMCPProgress(t *testing.T) {
	path := slowEverythingConfig(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncbuf.Buffer
	done := make(chan int, 1)
	go func() {
		code := Run([]string{"mcp", "--config", path}, Streams{Stdin: inR, Stdout: outW, Stderr: &stderr})
		outW.Close()
		done <- code
	}()
	var mu sync.Mutex
	var events []string // progress and log messages
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, fmt.Sprintf("progress %v %s", r.Params.ProgressToken, r.Params.Message))
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, fmt.Sprintf("log %s %v", r.Params.Logger, r.Params.Data))
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// wire records what modebox wrote, in the order it wrote it
	wire := &syncbuf.Buffer{}
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: io.NopCloser(io.TeeReader(outR, wire)), Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	// (protocol 2026-07-28 carries the logging level in each request)
	p := &mcp.ListToolsParams{Meta: mcp.Meta{mcp.MetaKeyLogLevel: "info"}}
	p.SetProgressToken("start-1")
	tools, err := cs.ListTools(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	// on the wire, the progress and the log message come before the list
	w := wire.String()
	list := strings.Index(w, `"tools":[`)
	prog := strings.Index(w, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"start-1","message":"starting MCP servers (everything): `)
	logm := strings.Index(w, `"method":"notifications/message","params":{"data":"starting MCP servers (everything): `)
	if list < 0 || prog < 0 || prog > list || logm < 0 || logm > list {
		t.Fatalf("modebox wrote %s", w)
	}
	// and the client's handlers got them
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		joined := strings.Join(events, "\n")
		mu.Unlock()
		if strings.Contains(joined, "progress start-1 starting MCP servers (everything): ") && strings.Contains(joined, "log modebox starting MCP servers (everything): ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("client got %q", joined)
		}
		time.Sleep(10 * time.Millisecond)
	}
	names := map[string]string{}
	for _, tl := range tools.Tools {
		names[tl.Name] = tl.Description
	}
	if len(names) != 2 || !strings.Contains(names["run"], "everything") || names["search"] == "" {
		t.Fatalf("tools: %v", names)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": `return await everything.get_sum({a: 40, b: 2})`}})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(res.StructuredContent); res.IsError || !strings.Contains(string(b), "42") {
		t.Fatalf("run: %s %+v", b, res.Content)
	}
	cs.Close()
	inW.Close()
	if code := <-done; code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "modebox: MCP servers started in ") {
		t.Fatalf("stderr %q", stderr.String())
	}
}

// TestStartFailureEndsMCP: when the engine cannot be built (here the
// token key is bad) modebox mcp, already serving while its downstream
// servers start, stops serving and exits with the configuration error's
// code, whether its stdin has ended or is still open.
func TestStartFailureEndsMCP(t *testing.T) {
	path := slowEverythingConfig(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_SECRET", "not-a-key")
	if code, _, errs := runCLI(t, "", "mcp", "--config", path); code != ExitConfig || !strings.Contains(errs, "key") {
		t.Fatalf("stdin ended: exit %d %q", code, errs)
	}
	inR, inW := io.Pipe()
	defer inW.Close()
	var stderr syncbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- Run([]string{"mcp", "--config", path}, Streams{Stdin: inR, Stdout: io.Discard, Stderr: &stderr})
	}()
	select {
	case code := <-done:
		if code != ExitConfig {
			t.Fatalf("stdin open: exit %d %q", code, stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("modebox mcp kept serving without an engine")
	}
}
