package tsx

import (
	"strings"
	"testing"
)

func TestDirect(t *testing.T) {
	src := "let s = 0;\r\nfor (const x of [1, 2]) s += x;\n\treturn s ?? 0;"
	p, err := Transform(src, JS)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Direct {
		t.Fatal("plain JavaScript went through esbuild")
	}
	want := directHead + normalizeNewlines(src) + directTail
	if p.Code != want {
		t.Errorf("Code = %q, want %q", p.Code, want)
	}
	if !strings.HasPrefix(p.Code, "0, async function __modebox_main() {\n") || !strings.HasSuffix(p.Code, "\n};\n") {
		t.Errorf("Code is not wrapped as the second operand of a comma: %q", p.Code)
	}
	// Positions map one to one, a line down.
	for _, c := range []struct{ genLine, genCol, line, col int }{
		{2, 5, 1, 5}, {3, 1, 2, 1}, {4, 0, 3, 2}, {4, 9, 3, 9},
	} {
		line, col, ok := p.Original(c.genLine, c.genCol)
		if !ok || line != c.line || col != c.col {
			t.Errorf("Original(%d, %d) = %d, %d, %v; want %d, %d", c.genLine, c.genCol, line, col, ok, c.line, c.col)
		}
	}
	for _, gl := range []int{1, 5} { // the wrapper's lines
		if _, _, ok := p.Original(gl, 1); ok {
			t.Errorf("Original(%d, 1) maps into the program", gl)
		}
	}
	// A fenced program keeps the fence's line offset.
	f, err := Transform("```js\nreturn 1;\n```", JS)
	if err != nil || !f.Direct {
		t.Fatalf("fenced: %v, direct %v", err, f != nil && f.Direct)
	}
	if line, _, ok := f.Original(2, 1); !ok || line != 2 {
		t.Errorf("fenced Original(2, 1) = %d, %v; want line 2", line, ok)
	}
}

func TestNotDirect(t *testing.T) {
	for _, src := range []string{
		"class A { x = 1 }\nreturn new A().x;",
		"const t = `#${1}`;\nclass A { #x = 1; static has(o) { return #x in o; } }\nreturn t;",
		"const m = import('x');\nreturn 1;",
		"const m = import.meta;\nreturn 1;",
		"const using = 1;\nreturn using;",
		"const o = { class: 1 };\nreturn o.class;",
		"return '<!--';",
		"return '-->';",
	} {
		p, err := Transform(src, JS)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if p.Direct {
			t.Errorf("%q skipped esbuild", src)
		}
	}
	// TransformFull always goes through esbuild, and TypeScript that
	// stripTypes declines does.
	for _, lang := range []Lang{JS, TS} {
		p, err := TransformFull("return 1;", lang)
		if err != nil || p.Direct {
			t.Errorf("TransformFull %v: %v, direct %v", lang, err, p != nil && p.Direct)
		}
	}
	p, err := Transform("enum E { A }\nreturn E.A;", TS)
	if err != nil || p.Direct {
		t.Errorf("TS enum: %v, direct %v", err, p != nil && p.Direct)
	}
}

// TestDirectLooksAtTokens: the words and characters that send a program to
// esbuild count only in code, not in strings, templates, comments or
// regular expressions, nor as property names after a dot.
func TestDirectLooksAtTokens(t *testing.T) {
	for _, src := range []string{
		"const o = { '#': 1, at: '@x' };\nreturn o;",
		"return 1 /* export */; // import class",
		"return `#${1}` + /@static/.source + x.class + x?.import;",
	} {
		for _, lang := range []Lang{JS, TS} {
			p, err := Transform(src, lang)
			if err != nil {
				t.Fatalf("%q: %v", src, err)
			}
			if !p.Direct {
				t.Errorf("%q (%v) went through esbuild", src, lang)
			}
		}
	}
}
