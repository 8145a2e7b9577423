package mountfs

import (
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

// Deny patterns that would match nothing are refused with FS_CONFIG:
// braces (literal in a glob, not alternatives) and a leading "~" (not
// expanded: patterns name paths beneath each mount). An escaped brace is
// a literal name and accepted.
func TestDenyPatternsMatchingNothingRefused(t *testing.T) {
	dir := t.TempDir()
	for pat, want := range map[string]string{
		"*.{db,json}": "braces",
		"secrets/{a}": "braces",
		"x}":          "braces",
		"~/.aws":      `"~"`,
		"~/.ssh/id_*": `"~"`,
		"~":           `"~"`,
	} {
		f, err := New(Config{Mounts: []Mount{{Host: dir, Guest: "/a"}}, Deny: []string{pat}})
		if err == nil {
			f.Close()
			t.Errorf("%q accepted", pat)
			continue
		}
		wantCode(t, err, codes.FSConfig)
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want it to say %s", pat, err, want)
		}
	}
	for _, pat := range []string{`a\{b\}`, "*.db", "a~b", "/build/key"} {
		f, err := New(Config{Mounts: []Mount{{Host: dir, Guest: "/a"}}, Deny: []string{pat}})
		if err != nil {
			t.Errorf("%q: %v", pat, err)
			continue
		}
		f.Close()
	}
}
