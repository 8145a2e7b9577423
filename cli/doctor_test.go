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
	bwrapOK := false
	for _, c := range checks {
		names[c.Name] = c.OK || c.Optional
		bwrapOK = bwrapOK || c.Name == "sh: bwrap" && c.OK
	}
	want := []string{"engine", "config", "token key", "used tokens", "sh: bwrap", "fs"}
	if bwrapOK {
		// with bubblewrap there, doctor goes on to run the sandbox
		want = append(want, "sh: preflight")
	}
	for _, n := range want {
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

// TestDoctorWithoutBubblewrap runs doctor where bwrap is not on PATH:
// the sandbox checks are optional without a shell in the configuration,
// so doctor passes and says what to install.
func TestDoctorWithoutBubblewrap(t *testing.T) {
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_CONFIG", "")
	t.Setenv("PATH", t.TempDir())
	t.Chdir(t.TempDir())
	code, out, errs := runCLI(t, "", "doctor")
	if code != ExitOK || !strings.Contains(out, "--   sh: bwrap") || !strings.Contains(out, "install bubblewrap") || strings.Contains(out, "FAIL") {
		t.Fatalf("doctor without bwrap: %d %q %q", code, out, errs)
	}
}
