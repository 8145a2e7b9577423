//go:build linux

package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// envUnpriv marks the re-run of the test binary as the unprivileged user.
const envUnpriv = "MBX_SANDBOX_UNPRIV"

// TestMain does not call MaybeBridge: the package's init answers the
// bridge and seal re-executions of this test binary (see reexec.go), as it
// does for any program that imports it.
func TestMain(m *testing.M) {
	code := m.Run()
	if createdTestUser.Load() {
		_ = exec.Command("userdel", testUser).Run()
	}
	os.Exit(code)
}

// skipOrFail skips, or fails when CI is set (the sandbox must work there).
func skipOrFail(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

var (
	sandboxOnce sync.Once
	sandboxMsg  string
)

// requireSandbox skips (or fails under CI) when bubblewrap or user
// namespaces are missing.
func requireSandbox(t testing.TB) {
	t.Helper()
	sandboxOnce.Do(func() {
		bw, err := exec.LookPath("bwrap")
		if err != nil {
			sandboxMsg = "bubblewrap not installed"
			return
		}
		if out, err := exec.Command(bw, "--unshare-user", "--ro-bind", "/", "/", "/bin/true").CombinedOutput(); err != nil {
			sandboxMsg = "user namespaces unavailable: " + err.Error() + " " + string(out)
		}
	})
	if sandboxMsg != "" {
		skipOrFail(t, sandboxMsg)
	}
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// scratch makes a directory under /var/tmp, which is visible (read-only)
// inside the sandbox, unlike /tmp; so a write or read that fails there
// fails because of the sandbox, not because the path is missing.
func scratch(t testing.TB) string {
	t.Helper()
	d, err := os.MkdirTemp("/var/tmp", "mbxtest-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func mkdir(t testing.TB, p string) string {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeFile(t testing.TB, p, content string, mode os.FileMode) {
	t.Helper()
	mkdir(t, filepath.Dir(p))
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// newSB makes a sandbox, with a fresh workspace if cfg has none. As root,
// unless cfg.User says otherwise, the workspaces are given to the test
// user, so that commands run as that user (the default when modebox is
// root and the workspace belongs to someone else).
func newSB(t testing.TB, cfg Config) *Sandbox {
	t.Helper()
	requireSandbox(t)
	if len(cfg.Workspace) == 0 {
		cfg.Workspace = []string{mkdir(t, filepath.Join(scratch(t), "ws"))}
	}
	if os.Geteuid() == 0 && cfg.User == "" {
		uid, gid := ensureTestUser(t)
		for _, w := range cfg.Workspace {
			chownTree(t, w, uid, gid)
		}
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// chownTree gives a directory tree to uid:gid (symlinks themselves).
func chownTree(t testing.TB, dir string, uid, gid int) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// run runs a command and fails the test on a sandbox error.
func run(t testing.TB, s *Sandbox, c Command) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := s.Run(ctx, c)
	if err != nil {
		t.Fatalf("Run(%q): %v", c.Script, err)
	}
	return res
}

// sh runs a script with default settings.
func sh(t testing.TB, s *Sandbox, script string) Result {
	t.Helper()
	return run(t, s, Command{Script: script})
}

// py runs a Python program (given on stdin) in the sandbox.
func py(t testing.TB, s *Sandbox, code string) Result {
	t.Helper()
	return run(t, s, Command{Script: "/usr/bin/python3 -", Stdin: []byte(code)})
}

// hostPy runs a Python program on the host, unconfined (controls).
func hostPy(t testing.TB, code string) string {
	t.Helper()
	cmd := exec.Command("/usr/bin/python3", "-")
	cmd.Stdin = strings.NewReader(code)
	out, err := cmd.CombinedOutput()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("host python: %v", err)
		}
	}
	return string(out)
}

func asError(t testing.TB, err error, code codes.Code) *Error {
	t.Helper()
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not an *Error", err, err)
	}
	if se.Code != code {
		t.Fatalf("error code %s, want %s: %v", se.Code, code, se)
	}
	return se
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
