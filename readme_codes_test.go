package modebox

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

// TestReadmeListsEveryCode checks that README's "Error codes" section
// lists every code of the registry (internal/codes), and names no code
// the registry does not have.
func TestReadmeListsEveryCode(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Error codes\n")
	if !ok {
		t.Fatal(`README.md has no "## Error codes" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	listed := map[codes.Code]bool{}
	for _, m := range regexp.MustCompile("`([A-Z][A-Z0-9_]+)`").FindAllStringSubmatch(section, -1) {
		listed[codes.Code(m[1])] = true
	}
	all := codes.All()
	if len(all) < 90 {
		t.Fatalf("the registry has only %d codes", len(all))
	}
	for _, i := range all {
		if !listed[i.Code] {
			t.Errorf("README's error codes miss %s (%s)", i.Code, i.Summary)
		}
	}
	for c := range listed {
		if _, ok := codes.Lookup(c); !ok {
			t.Errorf("README lists %s, which is not in internal/codes", c)
		}
	}
}

// TestEveryCodeExported checks that errors.go re-exports every code of the
// registry as Code<Name> = codes.<Name>, with the registry's description
// as its doc comment, and declares no other code. With
// MODEBOX_UPDATE_CODES=1 it first rewrites errors.go's list from the
// registry.
func TestEveryCodeExported(t *testing.T) {
	if os.Getenv("MODEBOX_UPDATE_CODES") != "" {
		writeCodeList(t)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	exported := map[string]string{} // Code<Name> -> doc
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			for i, n := range vs.Names {
				sel, ok := vs.Values[i].(*ast.SelectorExpr)
				if x, _ := sel.X.(*ast.Ident); !ok || x == nil || x.Name != "codes" || "Code"+sel.Sel.Name != n.Name {
					t.Errorf("errors.go: %s must be codes.%s", n.Name, strings.TrimPrefix(n.Name, "Code"))
					continue
				}
				exported[n.Name] = strings.Join(strings.Fields(vs.Doc.Text()), " ")
			}
		}
	}
	for _, i := range codes.All() {
		name := "Code" + i.Name
		doc, ok := exported[name]
		switch {
		case !ok:
			t.Errorf("errors.go does not export %s (%s = codes.%s)", i.Code, name, i.Name)
		case doc != name+": "+i.Doc:
			t.Errorf("errors.go: %s's doc comment is not the registry's:\n got %q\nwant %q", name, doc, name+": "+i.Doc)
		}
		delete(exported, name)
	}
	for name := range exported {
		t.Errorf("errors.go exports %s, which is not in internal/codes", name)
	}
}

// codeListStart and codeListEnd delimit the list writeCodeList writes.
const (
	codeListStart = "// ones may be added. A test checks that this list is the registry's.\nconst (\n"
	codeListEnd   = "\n)\n"
)

// writeCodeList rewrites errors.go's list of codes from the registry, by
// area, each with the registry's doc comment.
func writeCodeList(t *testing.T) {
	src, err := os.ReadFile("errors.go")
	if err != nil {
		t.Fatal(err)
	}
	head, rest, ok := strings.Cut(string(src), codeListStart)
	_, tail, ok2 := strings.Cut(rest, codeListEnd)
	if !ok || !ok2 {
		t.Fatal("errors.go: cannot find the list of codes")
	}
	var b strings.Builder
	area := codes.Area("")
	for _, i := range codes.All() {
		if i.Area != area {
			if area != "" {
				b.WriteString("\n")
			}
			area = i.Area
			fmt.Fprintf(&b, "\t// %s: %s\n\n", area, area.Doc())
		}
		line := "\t//"
		for _, w := range strings.Fields("Code" + i.Name + ": " + i.Doc) {
			if len(line)+1+len(w) > 76 {
				b.WriteString(line + "\n")
				line = "\t//"
			}
			line += " " + w
		}
		fmt.Fprintf(&b, "%s\n\tCode%s = codes.%s\n", line, i.Name, i.Name)
	}
	out, err := format.Source([]byte(head + codeListStart + b.String() + codeListEnd + tail))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("errors.go", out, 0o644); err != nil {
		t.Fatal(err)
	}
}
