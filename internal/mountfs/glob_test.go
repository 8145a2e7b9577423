//go:build linux

package mountfs

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

func TestGlob(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		a, b := t.TempDir(), t.TempDir()
		for _, n := range []string{"x.txt", "y.md", ".hidden.txt", "d/z.txt", "d/e/w.txt", "d/e/v.md", "[x].txt"} {
			writeFile(t, filepath.Join(a, n), n)
		}
		writeFile(t, filepath.Join(b, "o.txt"), "o")
		f := mustFS(t, Config{Mounts: []Mount{{Host: a, Guest: "/m/a", Mode: ReadWrite}, {Host: b, Guest: "/m/b"}}, Fallback: fb})
		s := f.NewSession()
		s.Write("/m/a/d/staged.txt", []byte("s"))
		s.Remove("/m/a/x.txt")
		cases := map[string][]string{
			"/m/a/*.txt":      {"/m/a/.hidden.txt", "/m/a/[x].txt"},
			"/m/a/?.md":       {"/m/a/y.md"},
			"/m/a/[[]x].txt":  {"/m/a/[x].txt"},
			"/m/a/**/*.txt":   {"/m/a/.hidden.txt", "/m/a/[x].txt", "/m/a/d/e/w.txt", "/m/a/d/staged.txt", "/m/a/d/z.txt"},
			"/m/a/d/**":       {"/m/a/d/e", "/m/a/d/e/v.md", "/m/a/d/e/w.txt", "/m/a/d/staged.txt", "/m/a/d/z.txt"},
			"/m/*/*.txt":      {"/m/a/.hidden.txt", "/m/a/[x].txt", "/m/b/o.txt"},
			"/**/o.txt":       {"/m/b/o.txt"},
			"/m/*":            {"/m/a", "/m/b"},
			"/m/a/d/e/w.txt":  {"/m/a/d/e/w.txt"},
			"/m/a/x.txt":      {},
			"/m/a/d/*/w.txt":  {"/m/a/d/e/w.txt"},
			"/m/a/**/e/*.md":  {"/m/a/d/e/v.md"},
			"/m/a/**/**/v.md": {"/m/a/d/e/v.md"},
			"/nowhere/*":      {},
			"/m/c/*":          {},
			"/m/a/d":          {"/m/a/d"},
		}
		for pat, want := range cases {
			got, err := s.Glob(pat)
			if err != nil {
				t.Errorf("Glob(%q): %v", pat, err)
				continue
			}
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("Glob(%q) = %q, want %q", pat, got, want)
			}
		}
		for _, bad := range []string{"m/a/*", "/m/a/../*", "/m/a/[", `/m/a/\*`, "/m/a/\x00*"} {
			_, err := s.Glob(bad)
			wantCode(t, err, codes.FSInvalidPath)
		}
	})
}

func TestGlobSkipsUnreachable(t *testing.T) {
	f, dir := rwFS(t, false)
	for i := range 3 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("d%d", i), "f.txt"), "x")
	}
	writeFile(t, filepath.Join(dir, "bad\\name.txt"), "x")
	writeFile(t, filepath.Join(dir, "bad\xffname.txt"), "x")
	s := f.NewSession()
	got, err := s.Glob("/data/**/*.txt")
	if err != nil || len(got) != 3 {
		t.Fatalf("Glob = %q, %v", got, err)
	}
	list, err := s.List("/data")
	if err != nil || len(list) != 3 {
		t.Fatalf("List = %v, %v", names(list), err)
	}
}
