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
	want := wrapperHead + normalizeNewlines(src) + wrapperTail + ";\n"
	if p.Code != want {
		t.Errorf("Code = %q, want %q", p.Code, want)
	}
	if !strings.HasSuffix(p.Code, codeTail) {
		t.Errorf("Code does not end with %q", codeTail)
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
		"const o = { '#': 1 };\nreturn o;",
		"const m = import('x');\nreturn 1;",
		"return 1 /* export */;",
		"const using = 1;\nreturn using;",
		"return '<!--';",
	} {
		p, err := Transform(src, JS)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if p.Direct {
			t.Errorf("%q skipped esbuild", src)
		}
	}
	// TypeScript always goes through esbuild, and TransformFull always does.
	for _, f := range []func(string, Lang) (*Program, error){Transform, TransformFull} {
		p, err := f("return 1;", TS)
		if err != nil || p.Direct {
			t.Errorf("TS: %v, direct %v", err, p != nil && p.Direct)
		}
	}
	p, err := TransformFull("return 1;", JS)
	if err != nil || p.Direct {
		t.Errorf("TransformFull JS: %v, direct %v", err, p != nil && p.Direct)
	}
}
