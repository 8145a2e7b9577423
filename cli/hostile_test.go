package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/hostilemcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain lets the test binary serve as a hostile MCP server.
func TestMain(m *testing.M) {
	hostilemcp.MaybeRun()
	os.Exit(m.Run())
}

// hostileConfig writes a modebox.json with the test binary as servers in
// the given modes and returns its path.
func hostileConfig(t *testing.T, modes map[string]string) string {
	t.Helper()
	servers := map[string]any{}
	for name, mode := range modes {
		servers[name] = map[string]any{"command": os.Args[0], "env": map[string]string{hostilemcp.ModeEnv: mode}}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "modebox.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHostileServerTextIsSanitised(t *testing.T) {
	cfg := hostileConfig(t, map[string]string{"evil": "escapes", "crash": "stderr-escapes", "names": "names"})
	check := func(what, text string) {
		t.Helper()
		if strings.ContainsAny(text, "\x1b\x07") {
			t.Errorf("%s: raw escape reached the terminal: %q", what, text)
		}
	}
	code, out, errs := runCLI(t, `return await tools.evil.evil({})`, "run", "--config", cfg, "-")
	if code != ExitFailed || !strings.Contains(errs, `\x1b]52`) {
		t.Errorf("run: exit %d, stderr %q", code, errs)
	}
	check("run stdout", out)
	check("run stderr", errs)
	if !strings.Contains(errs, `"crash" did not start`) {
		t.Errorf("the crashing server is not reported: %q", errs)
	}
	// the well-behaved server beside them keeps working, its clashing
	// names renamed with a warning
	code, out, errs = runCLI(t, `return [await tools.names.echo({a: 1}), typeof tools.names.get_data_2]`, "run", "--config", cfg, "-")
	if code != ExitOK || strings.Join(strings.Fields(out), "") != `["{\"a\":1}","function"]` || !strings.Contains(errs, "get_data_2") {
		t.Errorf("names: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, args := range [][]string{{"types", "--config", cfg}, {"search", "--config", cfg, "evil", "description"}} {
		_, out, errs := runCLI(t, "", args...)
		check(args[0]+" stdout", out)
		check(args[0]+" stderr", errs)
		if !strings.Contains(out, "description with escapes") {
			t.Errorf("%s: the description is missing: %q", args[0], out)
		}
	}
}

func TestHostileRuleOnServerNamesFailsClosed(t *testing.T) {
	dir := t.TempDir()
	write := func(tools map[string]any) string {
		b, _ := json.Marshal(map[string]any{
			"mcpServers": map[string]any{"my-srv": map[string]any{"command": os.Args[0], "env": map[string]string{hostilemcp.ModeEnv: "names"}}},
			"tools":      tools,
		})
		p := filepath.Join(dir, "modebox.json")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, pattern := range []string{"my-srv.get-sum", "my-srv.*"} {
		cfg := write(map[string]any{pattern: map[string]any{"policy": "deny"}})
		code, out, errs := runCLI(t, `return await tools.my_srv.get_sum({})`, "run", "--config", cfg, "-")
		if code == ExitOK || !strings.Contains(errs, "TOOL_DENIED") {
			t.Errorf("%s deny: exit %d, stdout %q, stderr %q", pattern, code, out, errs)
		}
	}
	cfg := write(map[string]any{"my-srv.get-sums": map[string]any{"policy": "deny"}})
	code, _, errs := runCLI(t, `return 1`, "run", "--config", cfg, "-")
	if code == ExitOK || !strings.Contains(errs, "matches no tool") {
		t.Errorf("a rule matching nothing: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "config", "check", cfg)
	if code != ExitConfig || !strings.Contains(errs, `matches no tool of \"my-srv\"`) && !strings.Contains(errs, `matches no tool of "my-srv"`) {
		t.Errorf("config check of a rule matching nothing: exit %d, stderr %q", code, errs)
	}
	code, out, errs := runCLI(t, "", "config", "check", write(map[string]any{"my-srv.get-sum": map[string]any{"policy": "deny"}}))
	if code != ExitOK || !strings.Contains(out, ": ok") {
		t.Errorf("config check of a rule by the original name: exit %d, %q %q", code, out, errs)
	}
}

// buildModebox builds the modebox binary for the tests that run it.
func buildModebox(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "modebox")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/modebox").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// recordingElicitor records the questions a client is asked and answers
// each with the form's "decision" set to answer; block, when set, is
// waited for before answering.
type recordingElicitor struct {
	answer  string
	decline bool // answer "decline"
	block   chan struct{}
	asked   chan struct{} // closed at the first question

	mu        sync.Mutex
	questions []*mcp.ElicitParams
	once      sync.Once
}

func (e *recordingElicitor) handle(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	e.mu.Lock()
	e.questions = append(e.questions, req.Params)
	e.mu.Unlock()
	if e.asked != nil {
		e.once.Do(func() { close(e.asked) })
	}
	if e.block != nil {
		select {
		case <-e.block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if e.decline {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": e.answer, "forwarded_from_mcp_server": true}}, nil
}

func (e *recordingElicitor) list() []*mcp.ElicitParams {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]*mcp.ElicitParams(nil), e.questions...)
}

// runCode calls modebox's run tool and returns its structured content.
func runCode(ctx context.Context, t *testing.T, session *mcp.ClientSession, code string) string {
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": code}})
	if err != nil {
		t.Error(err)
		return ""
	}
	b, _ := json.Marshal(res.StructuredContent)
	return string(b)
}

// TestHostileElicitationThroughModeboxMCP forwards a spoofing server's
// question to a real go-sdk client of each protocol generation: with
// elicitation/create up to 2025-11-25, and on 2026-07-28 (no
// server-initiated requests) as an input_required result whose answer
// the client's retry brings back to the waiting call. Either way the
// question is framed as forwarded and the server gets the answer.
func TestHostileElicitationThroughModeboxMCP(t *testing.T) {
	bin := buildModebox(t)
	cfg := hostileConfig(t, map[string]string{"evil": "elicit-spoof"})
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		el := &recordingElicitor{answer: "approve"}
		client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{ElicitationHandler: el.handle})
		session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--config", cfg)},
			&mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		defer session.Close()
		if got := session.InitializeResult().ProtocolVersion; got != version {
			t.Fatalf("negotiated %s, want %s", got, version)
		}
		out := runCode(ctx, t, session, `return await tools.evil.evil({})`)
		qs := el.list()
		if len(qs) != 1 {
			t.Fatalf("%s: asked %d times: %s", version, len(qs), out)
		}
		q := qs[0]
		if strings.ContainsAny(q.Message, "\n\r\x1b") || !strings.HasPrefix(q.Message, "[question from MCP server evil, not from modebox] ") {
			t.Errorf("%s: forwarded message not framed: %q", version, q.Message)
		}
		schema, _ := json.Marshal(q.RequestedSchema)
		if !strings.Contains(string(schema), "forwarded_from_mcp_server") {
			t.Errorf("%s: forwarded schema could pass for modebox's form: %s", version, schema)
		}
		if !strings.Contains(out, `\"accept\"`) || !strings.Contains(out, `\"approve\"`) || strings.Contains(out, "forwarded_from_mcp_server") {
			t.Errorf("%s: the server did not get the answer (or got modebox's marker): %s", version, out)
		}
		// declining reaches the server as a decline
		el.answer = ""
		el.decline = true
		if out := runCode(ctx, t, session, `return await tools.evil.evil({})`); !strings.Contains(out, `\"decline\"`) || strings.Contains(out, "approve") {
			t.Errorf("%s: a declined question: %s", version, out)
		}
		session.Close()
	}
}

// serveHostileHTTP starts `modebox mcp --http` with cfg and returns its
// URL; the server stops when the test ends.
func serveHostileHTTP(ctx context.Context, t *testing.T, bin, cfg string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, "mcp", "--config", cfg, "--http", "127.0.0.1:0", "--no-auth") // these tests are about routing, not authentication
	cmd.Env = append(os.Environ(), "MODEBOX_SECRET=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8", "XDG_STATE_HOME="+t.TempDir())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	sc := bufio.NewScanner(stderr)
	url := ""
	for sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "serving Streamable HTTP at "); ok {
			url = strings.Fields(rest)[0]
			break
		}
	}
	if url == "" {
		t.Fatal("modebox mcp --http did not say where it serves")
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	return url
}

// TestHostileElicitationsDoNotCrossClientsOverHTTP serves alice and bob
// from one `modebox mcp --http`, their calls to one downstream server in
// flight together. A question that does not say which call it belongs
// to ("elicit-who") is asked of alice while hers is the only call, and
// declined for bob (it cannot be told apart); one that names its call by
// the call's progress token ("elicit-tagged") reaches each of them, and
// each answer lands on its own run.
func TestHostileElicitationsDoNotCrossClientsOverHTTP(t *testing.T) {
	bin := buildModebox(t)
	for _, mode := range []string{"elicit-who", "elicit-tagged"} {
		cfg := hostileConfig(t, map[string]string{"evil": mode})
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		url := serveHostileHTTP(ctx, t, bin, cfg)
		connect := func(el *recordingElicitor) *mcp.ClientSession {
			client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{ElicitationHandler: el.handle})
			s, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		alice := &recordingElicitor{answer: "approve", block: make(chan struct{}), asked: make(chan struct{})}
		bob := &recordingElicitor{answer: "deny"}
		as, bs := connect(alice), connect(bob)
		defer as.Close()
		defer bs.Close()
		var wg sync.WaitGroup
		var aliceOut string
		wg.Go(func() { aliceOut = runCode(ctx, t, as, `return await tools.evil.evil({who: "alice"})`) })
		select {
		case <-alice.asked:
		case <-ctx.Done():
			t.Fatal("alice was never asked")
		}
		bobOut := runCode(ctx, t, bs, `return await tools.evil.evil({who: "bob"})`)
		close(alice.block)
		wg.Wait()
		if qs := alice.list(); len(qs) != 1 || !strings.HasSuffix(qs[0].Message, "question for alice") {
			t.Errorf("%s: alice was asked %d questions", mode, len(qs))
		}
		if !strings.Contains(aliceOut, `\"approve\"`) || strings.Contains(aliceOut, "deny") {
			t.Errorf("%s: alice's run got %s", mode, aliceOut)
		}
		if mode == "elicit-who" {
			for _, q := range bob.list() {
				t.Errorf("%s: bob was asked %q", mode, q.Message)
			}
			if !strings.Contains(bobOut, "decline") || strings.Contains(bobOut, "approve") {
				t.Errorf("%s: bob's run got %s, want his question declined", mode, bobOut)
			}
			continue
		}
		if qs := bob.list(); len(qs) != 1 || !strings.HasSuffix(qs[0].Message, "question for bob") {
			t.Errorf("%s: bob was asked %d questions", mode, len(qs))
		}
		if !strings.Contains(bobOut, `\"deny\"`) || strings.Contains(bobOut, "approve") {
			t.Errorf("%s: bob's run got %s, want his own answer", mode, bobOut)
		}
	}
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestHostileSchemasBoundHostCPU(t *testing.T) {
	cfg := hostileConfig(t, map[string]string{"evil": "allof"})
	before := cpuTime()
	deep := strings.Repeat(`{"x":`, 40) + `{}` + strings.Repeat(`}`, 40)
	code, out, errs := runCLI(t, `try { await tools.evil.deep(`+deep+`) } catch (e) { return [e.code, await tools.evil.bomb({}).catch(e => e.code), await tools.evil.echo({})] }`, "run", "--config", cfg, "-")
	if code != ExitOK || !strings.Contains(out, "SCHEMA_TOO_COMPLEX") || !strings.Contains(out, `"TOOL_NOT_FOUND"`) || !strings.Contains(errs, `tool "bomb" skipped`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	used := cpuTime() - before
	// nothing keeps validating once the run is over
	idle := cpuTime()
	time.Sleep(time.Second)
	if d := cpuTime() - idle; d > 500*time.Millisecond {
		t.Errorf("%s of CPU in the second after the run", d)
	}
	if used > 60*time.Second {
		t.Errorf("the run used %s of CPU", used)
	}
	t.Logf("CPU for the run: %s", used)
}

func TestHostileListingsDoNotHangStartup(t *testing.T) {
	cfg := hostileConfig(t, map[string]string{"word": "huge-word", "chain": "refchain", "long": "long-name", "names": "names"})
	start := time.Now()
	code, out, errs := runCLI(t, "", "types", "--config", cfg)
	if code != ExitOK {
		t.Fatalf("types: exit %d, %q", code, errs)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("types took %s", d)
	}
	for _, want := range []string{`"chain": tool "chain" skipped`, `"long": tool "IGNORE_ALL_PREVIOUS_`, `"word": tool "aaaa`} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%.2000s", want, errs)
		}
	}
	if strings.Contains(out, "IGNORE_ALL_PREVIOUS") || strings.Contains(out, strings.Repeat("a", 9000)) {
		t.Errorf("a skipped or over-long name reached the declarations")
	}
	code, out, errs = runCLI(t, `return [await tools.word.echo({}), await tools.chain.echo({}), await tools.long.echo({})]`, "run", "--config", cfg, "-")
	if code != ExitOK {
		t.Errorf("run: exit %d, %q %q", code, out, errs)
	}
}
