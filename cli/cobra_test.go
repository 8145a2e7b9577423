package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagsAnywhere checks that flags may follow the positional arguments,
// that "--" ends the flags, and that --config and --output are taken by
// every command.
func TestFlagsAnywhere(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.ts")
	if err := os.WriteFile(prog, []byte("return 6 * 7"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "modebox.json")
	if err := os.WriteFile(cfg, []byte(`{"limits": {"fuel": 20}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", prog, "--timeout", "5s"},
		{"run", prog, "--config", cfg},
		{"--config", cfg, "run", prog},
		{"run", "--", prog},
	} {
		if code, out, errs := runCLI(t, "", args...); code != ExitOK || strings.TrimSpace(out) != "42" {
			t.Errorf("%v: exit %d %q %q", args, code, out, errs)
		}
	}
	// after "--", a dash-led word is the file, not a flag
	if code, _, errs := runCLI(t, "", "run", "--", "--timeout"); code != ExitFailed || !strings.Contains(errs, "open --timeout: no such file") {
		t.Errorf("-- then a dash-led file: exit %d %q", code, errs)
	}
	if code, out, _ := runCLI(t, "", "run", prog, "--output", "json"); code != ExitOK || !strings.Contains(out, `"result":42`) {
		t.Errorf("--output json after the file: %d %q", code, out)
	}
	for _, args := range [][]string{{"version", "--output", "json"}, {"version", "-o", "json"}, {"version", "--json"}} {
		if code, out, _ := runCLI(t, "", args...); code != ExitOK || !strings.Contains(out, `"imageHash"`) {
			t.Errorf("%v: %d %q", args, code, out)
		}
	}
	if code, out, errs := runCLI(t, "", "config", "check", "--config", cfg); code != ExitOK || !strings.Contains(out, cfg+": ok") {
		t.Errorf("config check --config: %d %q %q", code, out, errs)
	}
	if code, out, errs := runCLI(t, "", "config", "check", cfg, "--output", "json"); code != ExitOK || !strings.Contains(out, `"ok": true`) {
		t.Errorf("config check --output json: %d %q %q", code, out, errs)
	}
}

// TestHelpEverywhere runs -h and --help on every command: exit 0, the
// command's usage on stdout.
func TestHelpEverywhere(t *testing.T) {
	root := newRoot(Streams{})
	var paths [][]string
	for _, c := range root.Commands() {
		paths = append(paths, []string{c.Name()})
		for _, sub := range c.Commands() {
			paths = append(paths, []string{c.Name(), sub.Name()})
		}
	}
	paths = append(paths, []string{})
	if len(paths) < 12 {
		t.Fatalf("only %d commands found", len(paths))
	}
	for _, p := range paths {
		for _, h := range []string{"-h", "--help"} {
			args := append(append([]string{}, p...), h)
			code, out, errs := runCLI(t, "", args...)
			if code != ExitOK || !strings.Contains(out, "Usage:") || errs != "" {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
			}
		}
	}
}

// TestUsageErrorLine checks that a usage error prints one error line that
// names the command, then the command's usage, and exits 2.
func TestUsageErrorLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		line string
	}{
		{[]string{"run"}, "modebox run: expected one FILE or - (stdin), got 0 arguments"},
		{[]string{"run", "--bogus", "-"}, "modebox run: unknown flag: --bogus"},
		{[]string{"run", "--timeout", "5", "-"}, `modebox run: invalid argument "5" for "--timeout" flag`},
		{[]string{"run", "--output", "yaml", "-"}, `modebox run: --output must be text or json, not "yaml"`},
		{[]string{"resume", "tok"}, "modebox resume: say what to do with the pending calls"},
		{[]string{"nope"}, `modebox: unknown command "nope" for "modebox"`},
		{[]string{}, "modebox: a command is required"},
		{[]string{"config"}, "modebox config: a subcommand is required: check or schema"},
		{[]string{"init", "a", "b"}, "modebox init: expected at most 1 PATH, got 2 arguments"},
	} {
		code, out, errs := runCLI(t, "return 1", c.args...)
		first, rest, _ := strings.Cut(errs, "\n")
		if code != ExitUsage || !strings.HasPrefix(first, c.line) || !strings.Contains(rest, "Usage:") || out != "" {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errs)
		}
	}
}

// TestCompletion checks that the completion scripts are printed and that
// bash, zsh and fish (where installed) accept them.
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, errs := runCLI(t, "", "completion", sh)
		if code != ExitOK || !strings.Contains(out, "modebox") {
			t.Fatalf("completion %s: %d %q", sh, code, errs)
		}
		path, err := exec.LookPath(sh)
		if err != nil || sh == "powershell" {
			continue
		}
		f := filepath.Join(t.TempDir(), "c."+sh)
		if err := os.WriteFile(f, []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
		check := exec.Command(path, "-n", f)
		if sh == "fish" {
			check = exec.Command(path, "--no-execute", f)
		}
		if b, err := check.CombinedOutput(); err != nil {
			t.Errorf("%s rejects its completion script: %v %s", sh, err, b)
		}
	}
	// the completion of a command's flags, as a shell asks for it
	code, out, _ := runCLI(t, "", "__complete", "resume", "x", "--appr")
	if code != ExitOK || !strings.Contains(out, "--approve") || !strings.Contains(out, "--approve-id") {
		t.Fatalf("__complete: %d %q", code, out)
	}
}
