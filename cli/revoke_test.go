package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// modebox revoke spends a paused run's token: its write never happens,
// a resume or a second revoke is refused with TOKEN_USED (exit 5), with
// the envelope under --output json; a configuration changed since the
// pause does not stop the revoke.
func TestRevokeCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "modebox.json")
	write := func(body string) {
		if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"fs": {"mounts": [{"host": "out", "guest": "/out", "mode": "rw"}]}, "tools": {"fs.write": {"policy": "ask"}}}`)
	pause := func() string {
		t.Helper()
		code, out, errs := runCLI(t, `await fs.write("/out/x.txt", "x"); return "wrote"`, "run", "--config", cfg, "--no-prompt", "-")
		if code != ExitPaused || strings.TrimSpace(out) == "" {
			t.Fatalf("run: exit %d %q %q", code, out, errs)
		}
		return strings.TrimSpace(out)
	}

	token := pause()
	if code, out, errs := runCLI(t, token, "revoke", "--config", cfg, "-"); code != ExitOK || out != "revoked: the token will not resume\n" {
		t.Fatalf("revoke: exit %d %q %q", code, out, errs)
	}
	if code, _, errs := runCLI(t, token, "resume", "--config", cfg, "--approve", "-"); code != ExitToken || !strings.Contains(errs, "TOKEN_USED") {
		t.Fatalf("resume after revoke: exit %d %q", code, errs)
	}
	code, out, _ := runCLI(t, "", "revoke", "--config", cfg, "-o", "json", token)
	if code != ExitToken {
		t.Fatalf("second revoke: exit %d", code)
	}
	wantCommandError(t, "second revoke", out, "TOKEN_USED")
	if _, err := os.Stat(filepath.Join(dir, "out", "x.txt")); err == nil {
		t.Fatal("the revoked token's write happened")
	}

	// the configuration changed after the pause: resume refuses the
	// binding, revoke spends the token all the same
	token = pause()
	write(`{"fs": {"mounts": [{"host": "out", "guest": "/elsewhere", "mode": "rw"}]}, "tools": {"fs.write": {"policy": "ask"}}}`)
	if code, _, errs := runCLI(t, token, "resume", "--config", cfg, "--approve", "-"); code != ExitToken || !strings.Contains(errs, "TOKEN_BINDING") {
		t.Fatalf("resume under a changed configuration: exit %d %q", code, errs)
	}
	if code, out, errs := runCLI(t, "", "revoke", "--config", cfg, "-o", "json", token); code != ExitOK || strings.TrimSpace(out) != `{"revoked":true}` {
		t.Fatalf("revoke under a changed configuration: exit %d %q %q", code, out, errs)
	}
	write(`{"fs": {"mounts": [{"host": "out", "guest": "/out", "mode": "rw"}]}, "tools": {"fs.write": {"policy": "ask"}}}`)
	if code, _, errs := runCLI(t, token, "resume", "--config", cfg, "--approve", "-"); code != ExitToken || !strings.Contains(errs, "TOKEN_USED") {
		t.Fatalf("resume of a token revoked under another configuration: exit %d %q", code, errs)
	}

	// not a token; no argument
	code, out, _ = runCLI(t, "", "revoke", "-o", "json", "mbx1.AAAA")
	if code != ExitToken {
		t.Fatalf("revoke of garbage: exit %d", code)
	}
	wantCommandError(t, "garbage", out, "TOKEN_MALFORMED")
	if code, out, _ := runCLI(t, "", "revoke"); code != ExitUsage || out != "" {
		t.Fatalf("revoke without a token: exit %d %q", code, out)
	}
}
