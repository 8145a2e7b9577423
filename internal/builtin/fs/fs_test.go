package fs

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"syscall"
	"testing"

	"github.com/modebox/modebox/internal/mountfs"
)

// TestDeclKinds checks FileInfo.kind in the declaration programs get
// lists every kind fs.list and fs.stat return: it lists a directory
// holding a file, a directory, a symlink and a named pipe through
// mountfs, and compares the kinds it got, and mountfs's four kinds, with
// the declared union.
func TestDeclKinds(t *testing.T) {
	m := regexp.MustCompile(`kind: ((?:"[a-z]+"(?: \| )?)+);`).FindStringSubmatch(decl)
	if m == nil {
		t.Fatalf("no kind union in the declaration:\n%s", decl)
	}
	var declared []string
	for _, k := range regexp.MustCompile(`"([a-z]+)"`).FindAllStringSubmatch(m[1], -1) {
		declared = append(declared, k[1])
	}
	all := []string{mountfs.KindFile, mountfs.KindDir, mountfs.KindSymlink, mountfs.KindOther}
	slices.Sort(declared)
	slices.Sort(all)
	if !slices.Equal(declared, all) {
		t.Errorf("declared kinds %q, mountfs has %q", declared, all)
	}
	if runtime.GOOS != "linux" {
		return
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "p"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := mountfs.New(mountfs.Config{Mounts: []mountfs.Mount{{Host: dir, Guest: "/d"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := f.NewSession()
	list, err := s.List("/d")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range list {
		st, err := s.Stat(e.Path)
		if err != nil || st.Kind != e.Kind {
			t.Errorf("Stat(%s) = %+v, %v; listed as %s", e.Path, st, err, e.Kind)
		}
		got = append(got, e.Kind)
	}
	slices.Sort(got)
	if !slices.Equal(got, all) {
		t.Errorf("listed kinds %q, want %q", got, all)
	}
}
