// Package shtest helps tests that run sh(): it makes workspaces the
// sandbox's commands may write.
package shtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Workspace returns a directory sh() may write. As root, commands run as
// the workspace's owner (never host uid 0), so the workspace is given to
// nobody under a parent nobody can traverse; otherwise it is t.TempDir().
func Workspace(t testing.TB) string {
	t.Helper()
	if os.Geteuid() != 0 {
		return t.TempDir()
	}
	base, err := os.MkdirTemp("", "mbxsh-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(ws, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	return ws
}
