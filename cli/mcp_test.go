package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// everythingConfig writes a modebox.json that runs the npm reference
// server "everything" (from $MODEBOX_MCP_SERVERS_DIR, as .ci/run installs
// it) with its echo tool under the "ask" policy.
func everythingConfig(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MODEBOX_MCP_SERVERS_DIR")
	main := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	node, err := exec.LookPath("node")
	if dir == "" || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("MODEBOX_MCP_SERVERS_DIR and node are required in CI (.ci/run installs them)")
		}
		t.Skip("set MODEBOX_MCP_SERVERS_DIR to a directory with the npm reference MCP servers")
	}
	if _, err := os.Stat(main); err != nil {
		t.Fatalf("server-everything is not installed in %s: %v", dir, err)
	}
	cfg := map[string]any{
		"mcpServers": map[string]any{"everything": map[string]any{"command": node, "args": []string{main, "stdio"}}},
		"tools":      map[string]any{"everything.echo": map[string]string{"policy": "ask"}},
	}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(t.TempDir(), "modebox.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	return path
}

// The whole approval path on the CLI against a real MCP server: a call
// under "ask" pauses the run (exit 3, token), resume --approve finishes it
// without calling the first tool again, and the token is single use.
func TestCLIPauseResumeWithRealServer(t *testing.T) {
	cfg := everythingConfig(t)
	code, out, errs := runCLI(t, "", "types", "--config", cfg)
	if code != ExitOK || !strings.Contains(out, "everything: {") || !strings.Contains(out, "get_sum(") {
		t.Fatalf("types: %d %q", code, errs)
	}
	prog := `const sum = await everything.get_sum({a: 2, b: 3});
		const echo = await tools.everything.echo({message: "hello"});
		return {sum, echo};`
	code, out, errs = runCLI(t, prog, "run", "--config", cfg, "--no-prompt", "--output", "json", "-")
	var env struct {
		Status  string
		Token   string
		Result  json.RawMessage
		Pending []struct {
			ID     int
			Tool   string
			Reason string
		}
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != ExitPaused {
		t.Fatalf("run: exit %d %q %q", code, out, errs)
	}
	if env.Status != "paused" || env.Token == "" || len(env.Pending) != 1 || env.Pending[0].Tool != "everything.echo" {
		t.Fatalf("paused envelope: %+v", env)
	}
	code, out, errs = runCLI(t, "", "resume", "--config", cfg, "--approve", "--output", "json", env.Token)
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != ExitOK || env.Status != "ok" {
		t.Fatalf("resume: exit %d %q %q", code, out, errs)
	}
	if !strings.Contains(string(env.Result), "hello") || !strings.Contains(string(env.Result), "5") {
		t.Fatalf("result %s", env.Result)
	}
	// env.Token still holds the paused run's token (the ok envelope has none)
	code, _, errs = runCLI(t, "", "resume", "--config", cfg, "--approve", env.Token)
	if code != ExitToken || !strings.Contains(errs, "TOKEN_USED") {
		t.Fatalf("a second resume: exit %d %q", code, errs)
	}
	// deny: the program sees APPROVAL_DENIED
	code, out, _ = runCLI(t, `try { await everything.echo({message: "x"}) } catch (e) { return e.code }`, "run", "--config", cfg, "--no-prompt", "-")
	if code != ExitPaused {
		t.Fatalf("second pause: %d", code)
	}
	code, out, errs = runCLI(t, "", "resume", "--config", cfg, "--deny", strings.TrimSpace(out))
	if code != ExitOK || !strings.Contains(out, "APPROVAL_DENIED") {
		t.Fatalf("deny: %d %q %q", code, out, errs)
	}
}

// A server whose "command" is a relative path starts from the
// configuration file's directory, not from the directory modebox runs
// in (the test's, which has no such script).
func TestCLIServerCommandBesideConfig(t *testing.T) {
	cfg := everythingConfig(t)
	var m map[string]any
	b, err := os.ReadFile(cfg)
	if err != nil || json.Unmarshal(b, &m) != nil {
		t.Fatal(err)
	}
	srv := m["mcpServers"].(map[string]any)["everything"].(map[string]any)
	args := srv["args"].([]any)
	script := "#!/bin/sh\nexec '" + srv["command"].(string) + "' '" + args[0].(string) + "' stdio\n"
	dir := filepath.Dir(cfg)
	if err := os.WriteFile(filepath.Join(dir, "srv.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	m["mcpServers"] = map[string]any{"everything": map[string]any{"command": "./srv.sh"}}
	b, _ = json.Marshal(m)
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("srv.sh"); err == nil {
		t.Fatal("the test's directory has a srv.sh")
	}
	code, out, errs := runCLI(t, "", "types", "--config", cfg)
	if code != ExitOK || !strings.Contains(out, "get_sum(") {
		t.Fatalf("types: %d %q %q", code, out, errs)
	}
}
