package all

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/modebox/modebox/internal/builtin/fs"
	"github.com/modebox/modebox/internal/builtin/sh"
	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/mountfs"
)

// TestNewOrderAndOff checks New makes only what the configuration
// enables, in List's order, and nothing for an empty configuration.
func TestNewOrderAndOff(t *testing.T) {
	caps, err := New(Config{})
	if err != nil || len(caps) != 0 {
		t.Fatalf("empty configuration: %v, %v", caps, err)
	}
	dir := t.TempDir()
	caps, err = New(Config{FS: &fs.Config{Mounts: []mountfs.Mount{{Host: dir, Guest: "/data"}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = Close(caps) }()
	if len(caps) != 1 || caps[0].Name != "fs" {
		t.Fatalf("fs only: got %d capabilities", len(caps))
	}
}

// TestSourceMountsRefused checks what would let a source mount's data
// skip the flow check is refused before anything is made: a plain mount
// over the same files, and a shell workspace inside the source.
func TestSourceMountsRefused(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(filepath.Join(src, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		cfg   Config
		field string
	}{
		{"plain mount inside the source", Config{FS: &fs.Config{Mounts: []mountfs.Mount{
			{Host: src, Guest: "/src", Source: true}, {Host: filepath.Join(src, "sub"), Guest: "/sub"}}}}, "FS.Mounts"},
		{"plain mount around the source", Config{FS: &fs.Config{Mounts: []mountfs.Mount{
			{Host: src, Guest: "/src", Source: true}, {Host: dir, Guest: "/all"}}}}, "FS.Mounts"},
		{"workspace inside the source", Config{
			FS:    &fs.Config{Mounts: []mountfs.Mount{{Host: src, Guest: "/src", Source: true}}},
			Shell: &sh.Config{Workspace: []string{filepath.Join(src, "sub")}}}, "Shell.Workspace"},
	} {
		caps, err := New(tc.cfg)
		var ce *errs.Config
		if !errors.As(err, &ce) || ce.Field != tc.field || caps != nil {
			t.Errorf("%s: %v (%d made), want a ConfigError on %s", tc.name, err, len(caps), tc.field)
		}
	}
}

// TestGlobEscape checks a source directory hidden from sh() matches only
// itself as a pattern.
func TestGlobEscape(t *testing.T) {
	for _, p := range []string{"/a/b", "/a*b", "/a?b/[c]", `/a\b`} {
		ok, err := filepath.Match(globEscape(p), p)
		if err != nil || !ok {
			t.Errorf("%q: pattern %q does not match it (%v)", p, globEscape(p), err)
		}
		if ok, _ := filepath.Match(globEscape(p), p+"x"); ok {
			t.Errorf("%q: pattern %q matches more", p, globEscape(p))
		}
	}
}
