package tsx

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeVLQ(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"A", 0}, {"C", 1}, {"D", -1}, {"E", 2}, {"F", -2}, {"e", 15}, {"f", -15},
		{"gB", 16}, {"hB", -16}, {"2H", 123}, {"qxmvrH", 123456789},
	}
	for _, tt := range tests {
		got, next, err := decodeVLQ(tt.in, 0)
		if err != nil || got != tt.want || next != len(tt.in) {
			t.Errorf("decodeVLQ(%q) = %d, %d, %v; want %d", tt.in, got, next, err, tt.want)
		}
	}
	for _, bad := range []string{"", "g", "!", "gggggggggggggA"} {
		if _, _, err := decodeVLQ(bad, 0); err == nil {
			t.Errorf("decodeVLQ(%q): no error", bad)
		}
	}
}

func TestDecodeMappings(t *testing.T) {
	// Line 1: col 1 -> 0:1, col 16 -> 0:16. Line 2: empty. Line 3: col 0
	// -> 1:0, col 4 unmapped, col 6 -> 1:8 (with a name index).
	got, err := decodeMappings("CAAC,eAAe;;AAChB,I,EAAQA")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]segment{
		{{1, 0, 1}, {16, 0, 16}},
		nil,
		{{0, 1, 0}, {4, -1, 0}, {6, 1, 8}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decodeMappings = %v, want %v", got, want)
	}
	for _, bad := range []string{"AA", "AAA", "AAAAAA", "D", "A$"} {
		if _, err := decodeMappings(bad); err == nil {
			t.Errorf("decodeMappings(%q): no error", bad)
		}
	}
	if _, err := decodeSourceMap([]byte(`{"version":2,"mappings":""}`)); err == nil {
		t.Error("version 2 accepted")
	}
	if _, err := decodeSourceMap([]byte(`{`)); err == nil {
		t.Error("bad JSON accepted")
	}
}

func TestOriginalThrowLine(t *testing.T) {
	tests := []struct {
		name      string
		lang      Lang
		src       string
		line, col int
	}{
		{"js", JS, "const a = 1;\n\nfunction f() {\n  if (a) {\n    throw new Error('x');\n  }\n}\nreturn f();", 5, 5},
		{"ts types above", TS, "interface A {\n  x: number;\n}\ntype B = A[];\nconst b: B = [];\n\tthrow new Error(String(b.length as number));", 6, 2},
		{"ts enum above", TS, "enum E { A, B }\nconst e: E = E.B;\nif (e) throw new Error('e');", 3, 8},
		{"js fenced", JS, "```js\nlet a = 1;\nthrow new Error('x');\n```", 3, 1},
		{"ts class fields", TS, "class K {\n  static s = 1;\n  #p = 2;\n  get() { throw new Error('' + this.#p); }\n}\nnew K().get();", 4, 11},
		{"non-ascii before", JS, "const s = 'é😀'; throw new Error(s);", 1, 21},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Transform(tt.src, tt.lang)
			if err != nil {
				t.Fatal(err)
			}
			gl, gc := findInCode(t, p, "throw new")
			line, col, ok := p.Original(gl, gc)
			if !ok || line != tt.line || col != tt.col {
				t.Errorf("Original(%d, %d) = %d, %d, %v; want %d, %d\n%s", gl, gc, line, col, ok, tt.line, tt.col, p.Code)
			}
			// Line only: the first mapping on the line, here the throw or
			// the if that guards it, on the same original line.
			if line, _, ok := p.Original(gl, 0); !ok || line != tt.line {
				t.Errorf("Original(%d, 0) = line %d, %v; want %d", gl, line, ok, tt.line)
			}
			if got := p.LineText(line); !strings.Contains(got, "throw") {
				t.Errorf("LineText(%d) = %q", line, got)
			}
		})
	}
}

func TestOriginalOutside(t *testing.T) {
	// a brand check is lowered (the engine has none), with helpers
	p, err := Transform("class K { #x = 1; static has(o: K) { return #x in o; } }\nreturn new K();", TS)
	if err != nil {
		t.Fatal(err)
	}
	helper, _ := findInCode(t, p, "var __privateAdd")
	wrapper, _ := findInCode(t, p, "(async function __modebox_main")
	last := strings.Count(p.Code, "\n") // the closing "});"
	for _, c := range [][2]int{{0, 0}, {-1, 0}, {helper, 0}, {helper, 5}, {wrapper, 0}, {wrapper, 3}, {last, 0}, {last + 5, 0}} {
		if l, col, ok := p.Original(c[0], c[1]); ok {
			t.Errorf("Original(%d, %d) = %d, %d, true; want false", c[0], c[1], l, col)
		}
	}
	if p.LineText(0) != "" || p.LineText(3) != "" || p.LineText(2) != "return new K();" {
		t.Error("LineText out of range")
	}
}

func TestRewriteStack(t *testing.T) {
	src := "```ts\n" + `function inner(n: number): number {
  if (n > 2) throw new Error("too big");
  return n;
}
const xs: number[] = [1, 2, 3];
return xs.map(inner);
` + "```"
	p, err := Transform(src, TS)
	if err != nil {
		t.Fatal(err)
	}
	throwLine, _ := findInCode(t, p, "throw new")
	mapLine, mapCol := findInCode(t, p, "xs.map")
	helperLine, _ := findInCode(t, p, "async function __modebox_main")
	// QuickJS 2021 prints line numbers only.
	stack := fmt.Sprintf("Error: too big\n    at inner (main.js:%d)\n    at map (native)\n"+
		"    at __modebox_main (main.js:%d)\n    at <anonymous> (main.js:%d)\n    at <eval> (other.js:%d)\n"+
		"    at x (xmain.js:%d)\n    at y (main.js:%d:%d)\n",
		throwLine, mapLine, helperLine, throwLine, throwLine, mapLine, mapCol)
	want := "Error: too big\n    at inner (main.js:3)\n    at map (native)\n" +
		fmt.Sprintf("    at __modebox_main (main.js:7)\n    at <anonymous> (main.js:%d)\n    at <eval> (other.js:%d)\n", helperLine, throwLine) +
		fmt.Sprintf("    at x (xmain.js:%d)\n    at y (main.js:7:8)\n", throwLine)
	if got := p.RewriteStack(stack, "main.js"); got != want {
		t.Errorf("RewriteStack:\n%s\nwant:\n%s", got, want)
	}
	if got := p.RewriteStack(stack, ""); got != stack {
		t.Error("empty filename changed the stack")
	}
	if got := p.RewriteStack("no frames here", "main.js"); got != "no frames here" {
		t.Error("stack without frames changed")
	}
}

func TestByteColumn(t *testing.T) {
	line := "aé😀b"
	for _, c := range []struct{ col16, want int }{{0, 0}, {1, 1}, {2, 3}, {4, 7}, {5, 8}, {99, 8}} {
		if got := byteColumn(line, c.col16); got != c.want {
			t.Errorf("byteColumn(%q, %d) = %d, want %d", line, c.col16, got, c.want)
		}
	}
}
