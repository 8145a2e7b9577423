package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// errorEnvelope is the part of a failed run's --output json envelope the
// tests below look at.
type errorEnvelope struct {
	Status string
	Result json.RawMessage
	Logs   []any
	Error  *struct{ Code, Message string }
}

// wantErrorEnvelope checks that out is one JSON envelope of a failed run
// with the error code want.
func wantErrorEnvelope(t *testing.T, what, out, want string) {
	t.Helper()
	var env errorEnvelope
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Errorf("%s: stdout is not a JSON envelope (%v): %q", what, err, out)
		return
	}
	if env.Status != "error" || env.Error == nil || env.Error.Code != want || env.Error.Message == "" || env.Logs == nil || string(env.Result) != "null" {
		t.Errorf("%s: envelope %s, want status error and code %s", what, out, want)
	}
}

// Ctrl-C while the MCP servers start ends the run as a Ctrl-C after
// startup does: CANCELLED, exit 1, the envelope with -o json. It was
// "modebox run: context canceled" with an empty stdout.
func TestCancelWhileServersStart(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	cfg := filepath.Join(t.TempDir(), "modebox.json")
	if err := os.WriteFile(cfg, []byte(`{"mcpServers": {"slow": {"command": "sleep", "args": ["61.5"], "timeout": "5s"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "--config", cfg, "-o", "json", "-"},
		{"run", "--config", cfg, "-"},
		{"resume", "--config", cfg, "--approve", "-o", "json", "mbx1.not-a-token"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(300*time.Millisecond, cancel)
		var out, errb bytes.Buffer
		start := time.Now()
		code := runContext(ctx, args, Streams{Stdin: strings.NewReader("return 1"), Stdout: &out, Stderr: &errb})
		cancel()
		if took := time.Since(start); took > 4*time.Second {
			t.Errorf("%v: took %s after a cancel at 300ms", args, took)
		}
		if code != ExitFailed {
			t.Errorf("%v: exit %d, want %d; stdout %q stderr %q", args, code, ExitFailed, out.String(), errb.String())
			continue
		}
		if args[len(args)-1] == "-" && args[len(args)-2] != "json" {
			if !strings.Contains(errb.String(), "CANCELLED: ") || out.Len() != 0 {
				t.Errorf("%v: stdout %q stderr %q, want CANCELLED on stderr", args, out.String(), errb.String())
			}
			continue
		}
		wantErrorEnvelope(t, strings.Join(args, " "), out.String(), "CANCELLED")
	}
}

// With -o json, a run, resume or config check that fails before running
// still prints JSON on stdout, with the exit status of the failure.
func TestJSONBeforeTheRun(t *testing.T) {
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_CONFIG", "")
	dir := t.TempDir()
	t.Chdir(dir)
	nope := filepath.Join(dir, "nope.json")

	code, out, errs := runCLI(t, "return 1", "run", "--config", nope, "-o", "json", "-")
	if code != ExitConfig {
		t.Errorf("run with a missing config: exit %d %q", code, errs)
	}
	wantErrorEnvelope(t, "run with a missing config", out, "CONFIG_NOT_FOUND")

	code, out, errs = runCLI(t, "", "resume", "--approve", "-o", "json", "mbx1.not-a-token")
	if code != ExitToken {
		t.Errorf("resume of a bad token: exit %d %q", code, errs)
	}
	wantErrorEnvelope(t, "resume of a bad token", out, "TOKEN_MALFORMED")

	code, out, errs = runCLI(t, "", "config", "check", nope, "-o", "json")
	var rep checkReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != ExitConfig || rep.OK || rep.Code != "CONFIG_NOT_FOUND" || rep.File != nope {
		t.Errorf("config check of a missing file: exit %d %q %q", code, out, errs)
	}

	cfg := filepath.Join(dir, "cfg.json")
	code, out, errs = runCLI(t, "", "init", cfg, "-o", "json")
	var wrote struct{ Wrote string }
	if err := json.Unmarshal([]byte(out), &wrote); err != nil || code != ExitOK || wrote.Wrote != cfg {
		t.Errorf("init -o json: exit %d %q %q", code, out, errs)
	}

	if code, out, errs := runCLI(t, "", "search", "zzz", "--json"); code != ExitOK || strings.TrimSpace(out) != "[]" {
		t.Errorf("search --json with no hit: exit %d %q %q", code, out, errs)
	}

	code, out, errs = runCLI(t, "", "types", "-o", "json")
	var types struct{ Declarations string }
	if err := json.Unmarshal([]byte(out), &types); err != nil || code != ExitOK || !strings.Contains(types.Declarations, "declare const tools: {") {
		t.Errorf("types -o json: exit %d %q %q", code, out, errs)
	}
}

// A program over 4 MiB is the documented PROGRAM_TOO_LARGE of a failed
// run (exit 1, the envelope with -o json), not a usage error.
func TestProgramTooLarge(t *testing.T) {
	t.Setenv("MODEBOX_CONFIG", "")
	big := "return 1 //" + strings.Repeat("x", maxProgram)
	path := filepath.Join(t.TempDir(), "big.js")
	if err := os.WriteFile(path, []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		stdin string
		args  []string
	}{{"", []string{"run", path}}, {big, []string{"run", "-"}}} {
		code, out, errs := runCLI(t, c.stdin, c.args...)
		if code != ExitFailed || !strings.HasPrefix(errs, "PROGRAM_TOO_LARGE: ") || strings.Contains(errs, "Usage:") || out != "" {
			t.Errorf("%v: exit %d %q %.300q", c.args, code, out, errs)
		}
		code, out, errs = runCLI(t, c.stdin, append(c.args, "-o", "json")...)
		if code != ExitFailed {
			t.Errorf("%v -o json: exit %d %.300q", c.args, code, errs)
		}
		wantErrorEnvelope(t, strings.Join(c.args, " ")+" -o json", out, "PROGRAM_TOO_LARGE")
	}
}
