//go:build linux

package mountfs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

// TestMain runs the helper processes of the multi-process tests when
// MOUNTFS_HELPER is set, and the tests otherwise.
func TestMain(m *testing.M) {
	if mode := os.Getenv("MOUNTFS_HELPER"); mode != "" {
		os.Exit(runHelper(mode))
	}
	os.Exit(m.Run())
}

// resolvers runs fn once with openat2 and once with the forced fallback.
func resolvers(t *testing.T, fn func(t *testing.T, fallback bool)) {
	t.Helper()
	for _, fb := range []bool{false, true} {
		name := "openat2"
		if fb {
			name = "fallback"
		}
		t.Run(name, func(t *testing.T) { fn(t, fb) })
	}
}

// mustFS opens an FS over the mounts, checking the resolver it got.
func mustFS(t testing.TB, cfg Config) *FS {
	t.Helper()
	f, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	want := "openat2"
	if cfg.Fallback {
		want = "fallback"
	}
	if f.Resolver() != want {
		if !cfg.Fallback && !probeOpenat2(f.mounts[0].fd) {
			if os.Getenv("CI") != "" {
				t.Fatal("openat2 is not available on this CI machine: the openat2 path would go untested")
			}
			t.Skip("openat2 is not available here")
		}
		t.Fatalf("Resolver() = %q, want %q", f.Resolver(), want)
	}
	return f
}

// rwFS makes a temporary host directory mounted read-write at /data and
// returns the FS and the host directory.
func rwFS(t testing.TB, fallback bool) (*FS, string) {
	t.Helper()
	dir := t.TempDir()
	return mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/data", Mode: ReadWrite}}, Fallback: fallback}), dir
}

// writeFile writes a host file, creating its directory.
func writeFile(t testing.TB, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readHost reads a host file.
func readHost(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantCode fails unless err is an *Error with code.
func wantCode(t testing.TB, err error, code codes.Code) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got error %v, want *Error with code %s", err, code)
	}
	if e.Code != code {
		t.Fatalf("got %v, want code %s", err, code)
	}
}

// noHostPath fails if err's text holds the host directory.
func noHostPath(t testing.TB, err error, host string) {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), host) {
		t.Fatalf("error names a host path: %v", err)
	}
}
