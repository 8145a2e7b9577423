package codes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// notCodes are the code-shaped string literals of modebox's Go source that
// are not error codes, each with what it is. Keep it short: a literal that
// is a code goes in the registry, and the source uses its constant.
var notCodes = map[string]string{
	"ALL_PROXY":          "an environment variable set in the shell sandbox",
	"HTTP_PROXY":         "an environment variable set in the shell sandbox",
	"HTTPS_PROXY":        "an environment variable set in the shell sandbox",
	"NO_PROXY":           "an environment variable set in the shell sandbox",
	"NODE_USE_ENV_PROXY": "an environment variable set in the shell sandbox",
	"HOME":               "an environment variable passed on",
	"LANG":               "an environment variable set in the shell sandbox",
	"LOGNAME":            "an environment variable set in the shell sandbox",
	"PATH":               "an environment variable passed on; a CLI argument's placeholder",
	"TERM":               "an environment variable set in the shell sandbox",
	"TMPDIR":             "an environment variable set in the shell sandbox",
	"USER":               "an environment variable set in the shell sandbox",
	"BIND":               "a SOCKS5 command's name in a message",
	"DENY":               "the X-Frame-Options header's value",
	"FAIL":               "modebox doctor's mark for a failed check",
	"NAT64":              "an address class's name",
	"UTF8":               "initdb's encoding (test database)",
}

// skippedDirs hold data, not code: CLDR patterns and time zone names.
var skippedDirs = map[string]bool{"internal/intl": true}

// codeLiteral is a string literal written as a code: upper-case words of
// letters and digits joined by single underscores, four characters or more.
var codeLiteral = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`)

// moduleRoot is the directory of modebox's go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(b), "module github.com/modebox/modebox\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod of github.com/modebox/modebox above the test's directory")
		}
		dir = parent
	}
}

// goLiterals returns the code-shaped string literals of the Go file that
// are not environment variable names (arguments of Getenv, Setenv,
// LookupEnv or Unsetenv, or the value of a constant named after one), with
// their positions.
func goLiterals(t *testing.T, fset *token.FileSet, path string) map[string][]string {
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	env := map[*ast.BasicLit]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
				switch sel.Sel.Name {
				case "Getenv", "Setenv", "LookupEnv", "Unsetenv":
					if len(x.Args) > 0 {
						if lit, ok := x.Args[0].(*ast.BasicLit); ok {
							env[lit] = true
						}
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range x.Names {
				if lit, ok := valueAt(x, i).(*ast.BasicLit); ok && strings.Contains(strings.ToLower(name.Name), "env") {
					env[lit] = true
				}
			}
		}
		return true
	})
	out := map[string][]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING || env[lit] {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err == nil && len(s) >= 4 && codeLiteral.MatchString(s) {
			out[s] = append(out[s], fset.Position(lit.Pos()).String())
		}
		return true
	})
	return out
}

func valueAt(vs *ast.ValueSpec, i int) ast.Expr {
	if i < len(vs.Values) {
		return vs.Values[i]
	}
	return nil
}

// TestNoCodeOutsideTheRegistry scans every non-test Go file of modebox
// (outside this package) for string literals written as codes. A literal
// that is a registry code must be its constant instead (no coupling by
// string value); any other must be in notCodes, so that a code added to a
// package and not to the registry fails here.
func TestNoCodeOutsideTheRegistry(t *testing.T) {
	for s := range notCodes {
		if _, ok := Lookup(Code(s)); ok {
			t.Errorf("notCodes lists %s, which is a code of the registry", s)
		}
	}
	root := moduleRoot(t)
	fset := token.NewFileSet()
	files, used := 0, map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" || skippedDirs[rel] || rel == "internal/codes") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		for s, where := range goLiterals(t, fset, path) {
			if _, ok := Lookup(Code(s)); ok {
				t.Errorf("%s: %q is a code: use codes.%s (or the package's constant for it)", strings.Join(where, ", "), s, goName(s))
				continue
			}
			if _, ok := notCodes[s]; !ok {
				t.Errorf("%s: %q is written as an error code but is not in internal/codes: add it to the registry (codes.go), or to notCodes in scan_test.go if it is not a code", strings.Join(where, ", "), s)
			}
			used[s] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("scanned only %d Go files under %s", files, root)
	}
	for s := range notCodes {
		if !used[s] {
			t.Errorf("notCodes lists %q, which no Go file holds any more: remove it", s)
		}
	}
}

// guestLiteral is a quoted literal of the guest's JavaScript or C written
// as a code with an underscore.
var guestLiteral = regexp.MustCompile("['\"`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['\"`]")

// TestGuestCodesInRegistry checks that every code the guest's own sources
// (the prelude and the other JavaScript the engine image embeds, and the C
// glue) produce is in the registry. The ERR_ codes are Node's, set as a
// thrown error's own code (Result.Error.JSCode), as Node sets them.
func TestGuestCodesInRegistry(t *testing.T) {
	dir := filepath.Join(moduleRoot(t), "internal", "guest")
	var sources []string
	for _, pat := range []string{"*.js", "src/*.c", "src/*.h"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, m...)
	}
	found := map[Code]bool{}
	for _, p := range sources {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range guestLiteral.FindAllStringSubmatch(string(b), -1) {
			c := Code(m[1])
			if strings.HasPrefix(m[1], "ERR_") {
				continue
			}
			if _, ok := Lookup(c); !ok {
				t.Errorf("%s: the guest produces %s, which is not in internal/codes", filepath.Base(p), c)
			}
			found[c] = true
		}
	}
	// The scan sees the codes the prelude is known to produce.
	for _, c := range []Code{ToolError, ToolNotFound, ValueNotSerializable} {
		if !found[c] {
			t.Errorf("the scan of %v did not find %s", sources, c)
		}
	}
}
