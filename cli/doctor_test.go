package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDoctor(t *testing.T) {
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_CONFIG", "")
	t.Chdir(t.TempDir())
	code, out, errs := runCLI(t, "", "doctor", "--json")
	var checks []check
	if err := json.Unmarshal([]byte(out), &checks); err != nil || code != ExitOK {
		t.Fatalf("doctor: %d %q %q", code, out, errs)
	}
	names := map[string]bool{}
	for _, c := range checks {
		names[c.Name] = c.OK || c.Optional
	}
	for _, n := range []string{"engine", "config", "token key", "used tokens", "sh: bwrap", "sh: preflight", "fs"} {
		if !names[n] {
			t.Errorf("check %q missing or failing: %s", n, out)
		}
	}
	bad := filepath.Join(t.TempDir(), "modebox.json")
	if err := os.WriteFile(bad, []byte(`{"limts": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "", "doctor", "--config", bad)
	if code != ExitFailed || !strings.Contains(out, "FAIL config") {
		t.Fatalf("bad config: %d %q", code, out)
	}
	t.Setenv("MODEBOX_SECRET", "not-a-key")
	if code, out, _ := runCLI(t, "", "doctor"); code != ExitFailed || !strings.Contains(out, "FAIL token key") {
		t.Fatalf("bad key: %d %q", code, out)
	}
}
