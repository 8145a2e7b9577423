package tsdecl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// tsProblems parses src as TypeScript with esbuild and returns its syntax
// errors, or a complaint when src holds anything but declarations (esbuild
// must strip it to nothing).
func tsProblems(src string) []string {
	res := api.Transform(src, api.TransformOptions{Loader: api.LoaderTS})
	var out []string
	for _, e := range res.Errors {
		line, text := 0, ""
		if e.Location != nil {
			line, text = e.Location.Line, e.Location.LineText
		}
		out = append(out, fmt.Sprintf("line %d: %s\n\t%s", line, e.Text, text))
	}
	if len(out) == 0 && strings.TrimSpace(string(res.Code)) != "" {
		out = append(out, "declarations compile to code:\n"+string(res.Code))
	}
	return out
}

// checkTS fails t unless src is valid TypeScript holding only
// declarations.
func checkTS(t *testing.T, name, src string) {
	t.Helper()
	for _, p := range tsProblems(src) {
		t.Errorf("%s: not valid TypeScript declarations: %s", name, p)
	}
}

func TestTSProblemsRejects(t *testing.T) {
	for _, src := range []string{
		"declare const tools: { a(args: {x: string): Promise<unknown>; };",
		"interface A { b?: ; }",
		"type T = (string | number;",
		"const x = 1;",
	} {
		if len(tsProblems(src)) == 0 {
			t.Errorf("accepted %q", src)
		}
	}
	ok := "interface A { \"x-y\"?: (string | null)[]; [key: string]: unknown }\n" +
		"declare const tools: { ns: { f(args?: A): Promise<[number, string?]>; }; };\n" +
		"declare const ns: typeof tools.ns;\n"
	if p := tsProblems(ok); len(p) > 0 {
		t.Errorf("rejected valid declarations: %v", p)
	}
}
