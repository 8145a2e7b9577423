package modebox

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// codePackages are the packages whose Code* constants can reach a user:
// as a run's error code, a rejected call's e.code, or a TokenError's code.
// (internal/netguard and internal/netproxy codes are mapped onto FETCH_*
// codes or answered inside the sandbox's proxy, and never reach a run.)
var codePackages = []string{".", "internal/engine", "internal/schema", "internal/tsx",
	"internal/sandbox", "internal/webfetch", "internal/mountfs", "internal/seal"}

// TestReadmeListsEveryCode checks that every error code the engine can
// return is in the README's "Error codes" list, and that the list names
// no code that does not exist.
func TestReadmeListsEveryCode(t *testing.T) {
	codes := map[string]string{} // code -> where it is defined
	fset := token.NewFileSet()
	for _, dir := range codePackages {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range af.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, sp := range gd.Specs {
					vs := sp.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if !strings.HasPrefix(name.Name, "Code") || i >= len(vs.Values) {
							continue
						}
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							v, _ := strconv.Unquote(lit.Value)
							codes[v] = f + ": " + name.Name
						}
					}
				}
			}
		}
	}
	if len(codes) < 50 {
		t.Fatalf("found only %d codes: %v", len(codes), codes)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Error codes\n")
	if !ok {
		t.Fatal(`README.md has no "## Error codes" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("`([A-Z][A-Z0-9_]+)`").FindAllStringSubmatch(section, -1) {
		listed[m[1]] = true
	}
	for code, where := range codes {
		if !listed[code] {
			t.Errorf("README's error codes miss %s (%s)", code, where)
		}
	}
	for code := range listed {
		if _, ok := codes[code]; !ok {
			t.Errorf("README lists %s, which no package defines", code)
		}
	}
}
