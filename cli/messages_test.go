package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Messages say what happens.
func TestMessagesMatchWhatHappens(t *testing.T) {
	t.Setenv("MODEBOX_CONFIG", "")
	dir := t.TempDir()
	t.Chdir(dir)

	// init's help describes the file it writes
	_, help, _ := runCLI(t, "", "init", "--help")
	starter := string(mustStarter(t))
	if strings.Contains(help, "$comment") && !strings.Contains(starter, "$comment") {
		t.Errorf("init --help mentions a $comment the file does not have:\n%s", help)
	}
	if strings.Contains(help, "no MCP server") || !strings.Contains(help, "disabled") {
		t.Errorf("init --help should say the example server is disabled:\n%s", help)
	}

	// a positional path is not "given by --config"
	code, _, errs := runCLI(t, "", "config", "check", "x.json")
	if code != ExitConfig || strings.Contains(errs, "--config") || !strings.Contains(errs, "x.json") {
		t.Errorf("config check x.json: exit %d %q", code, errs)
	}

	// init --config writes that file, not ./modebox.json
	code, out, errs := runCLI(t, "", "init", "--config", "cfg2.json")
	if _, err := os.Stat("cfg2.json"); code != ExitOK || err != nil || !strings.Contains(out, "cfg2.json") {
		t.Errorf("init --config cfg2.json: exit %d %q %q (%v)", code, out, errs, err)
	}
	if _, err := os.Stat("modebox.json"); err == nil {
		t.Errorf("init --config cfg2.json wrote ./modebox.json")
	}
	if code, _, _ := runCLI(t, "", "init", "a.json", "--config", "b.json"); code != ExitUsage {
		t.Errorf("init PATH --config OTHER: exit %d, want %d", code, ExitUsage)
	}
}

func mustStarter(t *testing.T) []byte {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "s.json")
	if code, _, errs := runCLI(t, "", "init", p); code != ExitOK {
		t.Fatalf("init: %d %q", code, errs)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A token resumed without the configuration its run used fails
// TOKEN_BINDING; with no --config and no ./modebox.json, the message says
// to pass the file.
func TestResumeHintsAtConfig(t *testing.T) {
	t.Setenv("MODEBOX_CONFIG", "")
	cfg, token := pausedRead(t)
	t.Chdir(t.TempDir())
	code, _, errs := runCLI(t, "", "resume", "--approve", token)
	if code != ExitToken || !strings.Contains(errs, "TOKEN_BINDING") || !strings.Contains(errs, "pass it with --config") {
		t.Errorf("resume elsewhere without --config: exit %d %q", code, errs)
	}
	code, out, _ := runCLI(t, "", "resume", "--approve", "-o", "json", token)
	if code != ExitToken || !strings.Contains(out, "pass it with --config") {
		t.Errorf("resume elsewhere without --config, -o json: exit %d %q", code, out)
	}
	if code, out, errs := runCLI(t, "", "resume", "--approve", "--config", cfg, token); code != ExitOK || !strings.Contains(out, "hello") {
		t.Errorf("resume with --config: exit %d %q %q", code, out, errs)
	}
}
