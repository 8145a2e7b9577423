package tsx

import (
	"strconv"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// asiWords are the words tried after a line break: the keywords that
// start or continue a declaration, an expression or a type in JavaScript
// or TypeScript, the contextual words, and an identifier (the helper
// review tried 88; these are the ones that differ in kind).
var asiWords = strings.Fields(`abstract accessor as async await class const declare default delete enum function get
if implements import in infer is keyof let namespace new override private readonly satisfies set static this type
typeof unique var void yield out x`)

// TestASIAgreesWithEsbuild is a differential test of nestScan.asi: in
// each context, after each token, before each word, wherever the rule
// ends the levels at a line break, esbuild must read the program as it
// reads the same program with a ";" there (or refuse the line break),
// so that nothing the rule ended goes on nesting in esbuild. The
// helper review found "@d⏎class" and TypeScript's "abstract⏎new" this way.
func TestASIAgreesWithEsbuild(t *testing.T) {
	prevs := append([]string{"1", `"s"`, "x()", "x[0]", "`t`", "x!", "x as any", "() => {}", "function(){}", "class{}", "/r/", "@d", "@d.e", "@d()", "@d x"}, asiWords...)
	ctxs := []struct{ pre, post string }{
		{"", " x"}, {"", ""}, {"", " () {}"}, {"", " x = 1"}, {"", " x {}"}, {"", " class {}"}, {"", " () => 1"}, {"", " x: 1"},
		{"y = ", ""}, {"y = ", " x"}, {"y = ", " () => 1"}, {"y = ", " class {}"}, {"y = ", " () {}"},
		{"let v: ", ""}, {"let v: ", " x"}, {"let v: ", " () => 1"}, {"let v: ", " () => X"}, {"let v: ", " X<T>"},
		{"class C { ", " }"}, {"class C { ", " x() {} }"}, {"class C { x = ", " x }"}, {"class C { x: ", " x }"},
		{"y = { a: ", " x }"}, {"interface I { a: ", " x: 1 }"}, {"let v: { a: ", " x: 1 }"},
		{"y = (): ", " => 1"}, {"y = (): ", " () => X => 1"}, {"enum E { A = ", " B }"},
		{"if (a) ", " x"}, {"if (a) x = ", " else x"}, {"y = class extends ", " {}"}, {"function f(): ", " {}"},
		{"label: ", " x"}, {"for (const k ", " y) {}"}, {"declare ", " const x: 1"}, {"type T = ", " X"}, {"type T<X> = X ", " 1 ? 2 : 3"},
		// type parameter lists (the second attack: "<out⏎T>")
		{"y = class<", " T> {}"}, {"y = function<", " T>() {}"}, {"type T<", " X> = 1"}, {"interface I<", " X> {}"},
		{"y = <", " T>() => 1"}, {"class C { m<", " T>() {} }"}, {"function f<", " T>() {}"},
	}
	compile := func(src string, lang Lang) (string, bool) {
		res := api.Transform(wrapperHead+src+wrapperTail, esbuildOptions(lang, false))
		return string(res.Code), len(res.Errors) == 0
	}
	// errorsOf lists esbuild's errors for src, with their lines
	errorsOf := func(src string, lang Lang) string {
		var b strings.Builder
		for _, e := range api.Transform(wrapperHead+src+wrapperTail, esbuildOptions(lang, false)).Errors {
			if e.Location != nil {
				b.WriteString(strconv.Itoa(e.Location.Line))
			}
			b.WriteString(": " + e.Text + "\n")
		}
		return b.String()
	}
	// readsOn reports whether esbuild parsed on past an error in src (some
	// of its errors are logged and the parse goes on): a line after it
	// that can never parse is reported too
	readsOn := func(src string, lang Lang) bool {
		const sentinel = "\n@@@ )))"
		res := api.Transform(wrapperHead+src+sentinel+wrapperTail, esbuildOptions(lang, false))
		last := strings.Count(wrapperHead+src+sentinel, "\n") + 1
		for _, e := range res.Errors {
			if e.Location != nil && e.Location.Line == last {
				return true
			}
		}
		return false
	}
	fired := 0
	for _, c := range ctxs {
		for _, a := range prevs {
			prefix := c.pre + a
			n := nestScan{body: prefix, stack: make([]nestFrame, 1, 16), nest: 1, maxNesting: 1 << 30, maxScopes: 1 << 30}
			if n.run() != nil {
				continue
			}
			for _, b := range asiWords {
				if !n.asiEnds(b) {
					continue
				}
				fired++
				src := prefix + "\n" + b + c.post + "\nreturn 1"
				semi := prefix + ";\n" + b + c.post + "\nreturn 1"
				for _, lang := range []Lang{JS, TS} {
					out, ok := compile(src, lang)
					if !ok {
						// esbuild stops at the line break, or its errors are
						// those it gives with a ";" there; otherwise it must
						// not read on past them (some errors are only logged)
						if errorsOf(src, lang) != errorsOf(semi, lang) && readsOn(src, lang) && !strings.HasPrefix(c.pre, "class C {") {
							t.Errorf("%v: the rule ends the levels before %q, and esbuild reads on past its error: %q", lang, b, src)
						}
						continue
					}
					if out2, ok2 := compile(semi, lang); !ok2 || out != out2 {
						// TypeScript's override before a class member: the
						// member is not nested in anything the rule ended
						if a == "override" && strings.HasPrefix(c.pre, "class C {") {
							continue
						}
						t.Errorf("%v: the rule ends the levels before %q, and esbuild reads on: %q", lang, b, src)
					}
				}
			}
		}
	}
	if fired < 1000 {
		t.Fatalf("the rule fired %d times: the test reaches too little", fired)
	}
}
