package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// init, types and search with --output json print an error envelope on
// stdout when they fail with a stable code (they printed text only), and
// init's refusals have codes of their own.
func TestCommandErrorsAsJSON(t *testing.T) {
	t.Setenv("MODEBOX_CONFIG", "")
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("modebox.json", []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nope.json")
	for _, c := range []struct {
		args []string
		exit int
		code string
	}{
		{[]string{"init", "-o", "json"}, ExitFailed, "CONFIG_EXISTS"},
		{[]string{"init", "-o", "json", filepath.Join(dir, "no", "such", "dir.json")}, ExitFailed, "CONFIG_WRITE_FAILED"},
		{[]string{"types", "-o", "json", "--config", missing}, ExitConfig, "CONFIG_NOT_FOUND"},
		{[]string{"search", "-o", "json", "--config", missing, "file"}, ExitConfig, "CONFIG_NOT_FOUND"},
	} {
		code, out, errs := runCLI(t, "", c.args...)
		if code != c.exit {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.exit, errs)
		}
		wantCommandError(t, strings.Join(c.args, " "), out, c.code)
		if !strings.Contains(errs, c.code+": ") {
			t.Errorf("%v: stderr %q does not name %s", c.args, errs, c.code)
		}
	}
	// text output: the code on stderr, nothing on stdout; the file is kept
	code, out, errs := runCLI(t, "", "init")
	if b, _ := os.ReadFile("modebox.json"); code != ExitFailed || out != "" || !strings.Contains(errs, "CONFIG_EXISTS: modebox.json exists (use --force to overwrite)") || string(b) != "{}" {
		t.Errorf("init over a file: exit %d %q %q, file %q", code, out, errs, b)
	}
	// a usage error prints no envelope
	if code, out, _ := runCLI(t, "", "init", "-o", "json", "a.json", "b.json"); code != ExitUsage || out != "" {
		t.Errorf("init with two paths: exit %d, stdout %q", code, out)
	}
}

// A syntax error is said once: the code, name and message, then where.
// The compiler's "file:line:column: message" line repeated it below.
func TestSyntaxErrorSaidOnce(t *testing.T) {
	code, _, errs := runCLI(t, "const x = ;\nreturn 1\n", "run", "-")
	if code != ExitFailed || strings.Count(errs, `Unexpected ";"`) != 1 || !strings.Contains(errs, "SYNTAX_ERROR: SyntaxError: Unexpected \";\"\n  at line 1, column 11: const x = ;\n") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
	// a thrown error keeps its frames
	code, _, errs = runCLI(t, "function f() { null.x }\nf()\n", "run", "-")
	if code != ExitFailed || !strings.Contains(errs, "at f (") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
}

// A server that did not start is said in one line (then its stderr's
// tail), not "did not start:     mcp server "x" could not be started";
// after the slow-start line, the CLI does not say the servers started
// when none did.
func TestServerStartFailuresSaid(t *testing.T) {
	t.Setenv("MODEBOX_CONFIG", "")
	dir := t.TempDir()
	script := filepath.Join(dir, "crash.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nsleep 2.5\necho 'bad token' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "modebox.json")
	if err := os.WriteFile(cfg, []byte(`{"mcpServers": {"crash": {"command": "./crash.sh"}, "gone": {"command": "./no-such-server"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "return 1", "run", "--config", cfg, "-")
	if code != ExitOK || strings.TrimSpace(out) != "1" {
		t.Fatalf("exit %d %q %q", code, out, errs)
	}
	for _, want := range []string{
		"modebox: starting MCP servers (crash, gone)",
		"modebox: no MCP server started (after ",
		"modebox: MCP server \"crash\" did not start: it exited during startup (exit status 3)\n    stderr: bad token\n",
		"modebox: MCP server \"gone\" did not start: it could not be started: ",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "MCP servers started in") || strings.Contains(errs, "mcp server") {
		t.Errorf("stderr:\n%s", errs)
	}
}

// wantCommandError checks that out is the --output json error envelope of
// a command other than run and resume, with code want.
func wantCommandError(t *testing.T, what, out, want string) {
	t.Helper()
	var env struct {
		Status string
		Error  struct{ Code, Message string }
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil || env.Status != "error" || env.Error.Code != want || env.Error.Message == "" {
		t.Errorf("%s: stdout %q (%v); want an error envelope with %s", what, out, err, want)
	}
}
