package cli

import (
	"encoding/json"
	"github.com/modebox/modebox/internal/shtest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// copyTree copies the example directory so the test writes elsewhere.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if d.Name() == "report.json" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The capabilities example end to end through the CLI: fs over mounts with
// a hidden .env, a staged write committed at the end, sh() in bubblewrap.
func TestCapabilitiesExample(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bubblewrap is required in CI")
		}
		t.Skip("bubblewrap not installed")
	}
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "examples", "capabilities"), dir)
	if os.Geteuid() == 0 {
		// As root, commands run as the workspace's owner: give "out" to
		// nobody, as README.md says to do as root.
		for _, d := range []string{filepath.Dir(dir), dir} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chown(filepath.Join(dir, "out"), 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runCLI(t, "", "run", "--config", filepath.Join(dir, "modebox.json"), filepath.Join(dir, "report.ts"))
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v struct {
		Words  map[string]int
		Hidden bool
		Shell  []string
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if v.Words["/data/notes/plan.md"] != 12 || v.Hidden || len(v.Shell) != 2 || v.Shell[0] != "Linux" || !strings.Contains(v.Shell[1], "Permission denied") {
		t.Fatalf("%s", out)
	}
	if !strings.Contains(errs, "[modebox] wrote /out/report.json") {
		t.Fatalf("stderr %q", errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "out", "report.json"))
	if err != nil || !strings.Contains(string(b), `"/data/notes/ideas.md": 8`) {
		t.Fatalf("report %q %v", b, err)
	}
	// the declarations tell the model about the built-ins
	code, out, errs = runCLI(t, "", "types", "--config", filepath.Join(dir, "modebox.json"))
	if code != ExitOK || !strings.Contains(out, "declare function sh(") || !strings.Contains(out, "declare const fs:") || strings.Contains(out, "declare function fetch(") {
		t.Fatalf("types: exit %d %s %s", code, out, errs)
	}
}

// shWorkspace returns a directory sh() may write (shtest.Workspace).
func shWorkspace(t testing.TB) string { t.Helper(); return shtest.Workspace(t) }
