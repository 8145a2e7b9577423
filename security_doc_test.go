package modebox

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSecurityDocNamesRealTests keeps SECURITY.md honest: every test it
// cites as trying to break a guarantee must exist.
func TestSecurityDocNamesRealTests(t *testing.T) {
	doc, err := os.ReadFile("SECURITY.md")
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)[A-Za-z0-9_]*)\(`)
	err = filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != "." || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, "_test.go") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range decl.FindAllSubmatch(b, -1) {
				funcs[string(m[1])] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// a linked test must be in the file it links to
	links := regexp.MustCompile("\\[`((?:Test|Fuzz)[A-Za-z0-9_]*)`\\]\\(([^)]+)\\)").FindAllSubmatch(doc, -1)
	if len(links) < 50 {
		t.Fatalf("SECURITY.md links only %d tests", len(links))
	}
	for _, m := range links {
		b, err := os.ReadFile(string(m[2]))
		if err != nil || !strings.Contains(string(b), "func "+string(m[1])+"(") {
			t.Errorf("SECURITY.md links %s to %s, which does not hold it", m[1], m[2])
		}
	}
	cited := regexp.MustCompile("`((?:Test|Fuzz)[A-Za-z0-9_]*\\*?)`").FindAllSubmatch(doc, -1)
	if len(cited) < 50 {
		t.Fatalf("SECURITY.md cites only %d tests", len(cited))
	}
	for _, m := range cited {
		name := string(m[1])
		if prefix, ok := strings.CutSuffix(name, "*"); ok {
			found := false
			for f := range funcs {
				found = found || strings.HasPrefix(f, prefix)
			}
			if !found {
				t.Errorf("SECURITY.md cites %s, which matches no test", name)
			}
			continue
		}
		if !funcs[name] {
			t.Errorf("SECURITY.md cites %s, which does not exist", name)
		}
	}
}
