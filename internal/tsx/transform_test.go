package tsx

import (
	"errors"
	"strings"
	"testing"
)

// findInCode returns the 1-based line and byte column of the first
// occurrence of sub in p.Code.
func findInCode(t *testing.T, p *Program, sub string) (int, int) {
	t.Helper()
	i := strings.Index(p.Code, sub)
	if i < 0 {
		t.Fatalf("%q not in output:\n%s", sub, p.Code)
	}
	before := p.Code[:i]
	return strings.Count(before, "\n") + 1, i - strings.LastIndexByte(before, '\n')
}

// checkShape verifies that the script's last statement is the wrapper
// function expression, so that it is the script's completion value.
// A program that skips esbuild has the function as the second operand of
// a comma (directHead), not in parentheses.
func checkShape(t *testing.T, p *Program) {
	t.Helper()
	code := p.Code
	head, tail := strings.TrimSuffix(wrapperHead, "\n"), "});"
	if p.Direct {
		head, tail = strings.TrimSuffix(directHead, "\n"), "};"
	}
	lines := strings.Split(strings.TrimSuffix(code, "\n"), "\n")
	if lines[len(lines)-1] != tail {
		t.Errorf("last line is %q, want %q\n%s", lines[len(lines)-1], tail, code)
	}
	start := -1
	for i, l := range lines {
		if l == head {
			if start >= 0 {
				t.Errorf("wrapper opens twice:\n%s", code)
			}
			start = i
		}
	}
	if start < 0 {
		t.Fatalf("no wrapper line:\n%s", code)
	}
	// Before the wrapper only helper declarations may appear.
	for _, l := range lines[:start] {
		if l != "" && !strings.HasPrefix(l, "var __") && !strings.HasPrefix(l, " ") && l != "};" {
			t.Errorf("unexpected line before wrapper: %q\n%s", l, code)
		}
	}
	// Inside the wrapper every line is indented or part of a template.
	for _, l := range lines[start+1 : len(lines)-1] {
		if strings.HasPrefix(l, "})") {
			t.Errorf("wrapper closed early at %q:\n%s", l, code)
		}
	}
}

// tsFeatures uses TypeScript syntax that must be stripped and ES2022
// syntax that QuickJS 2021 lacks and esbuild must lower.
const tsFeatures = `import type { Shape } from "./shapes";
import { type Color as C2, type Size } from "./more";
interface Point { x: number; y?: number }
type Pair<T> = [T, T];
enum Color { Red, Green = 5, Blue }
const enum Dir { Up = 1, Down }
declare const DEBUG: boolean;
const NS = { k: 2 };
function first<T>(xs: T[], fallback?: T): T | undefined {
  return xs.length ? xs[0] : fallback;
}
abstract class Base { abstract area(): number; }
class Box extends Base implements Point {
  #w: number;
  static made = 0;
  static { Box.made = 10; }
  readonly x = 1;
  constructor(private h: number, public y?: number) { super(); this.#w = h * 2; }
  area(): number { return this.#w * this.h; }
  static isBox(o: unknown): boolean { return #w in (o as object); }
}
const p = { x: 3 } as Point;
const q = <Point>{ x: 4 };
const len = (p!.x as number) satisfies number;
const pair: Pair<string> = ["a", "b"];
let maybe: string | undefined;
maybe ??= "set";
const n = await Promise.resolve(first<number>([7, 8])!);
return {
  color: Color.Blue, name: Color[Color.Green], dir: Dir.Down, ns: NS.k,
  area: new Box(3).area(), made: Box.made, isBox: Box.isBox(new Box(1)),
  notBox: Box.isBox({}), x: p.x + q.x + len, pair, maybe, n,
};
`

// tsFeaturesResult is tsFeatures' result, as JSON.
const tsFeaturesResult = `{"color":6,"name":"Green","dir":2,"ns":2,"area":18,"made":10,` +
	`"isBox":true,"notBox":false,"x":10,"pair":["a","b"],"maybe":"set","n":7}`

func TestTransformTSFeatures(t *testing.T) {
	p, err := Transform(tsFeatures, TS)
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, p)
	for _, gone := range []string{
		"import", "interface", "type Pair", ": number", "<T>", "<Point>", " as ",
		"satisfies", "declare", "abstract", "implements", "readonly", "private h",
		"#w in", "static {", "??=", "p!", "enum ",
	} {
		if strings.Contains(p.Code, gone) {
			t.Errorf("output still contains %q:\n%s", gone, p.Code)
		}
	}
	for _, kept := range []string{"await Promise.resolve", "return {"} {
		if !strings.Contains(p.Code, kept) {
			t.Errorf("output lacks %q:\n%s", kept, p.Code)
		}
	}
	// The return statement is on line 29 of the source.
	gl, gc := findInCode(t, p, "return {")
	if line, col, ok := p.Original(gl, gc); !ok || line != 29 || col != 1 {
		t.Errorf("return maps to %d:%d %v, want 29:1", line, col, ok)
	}
	if got := runNode(t, p); got != "" && got != tsFeaturesResult {
		t.Errorf("result = %s\nwant     %s", got, tsFeaturesResult)
	}
}

func TestTransformTopLevelAwaitReturn(t *testing.T) {
	tests := []struct {
		name string
		lang Lang
		src  string
		want string
	}{
		{"js", JS, "const v = await Promise.resolve(41);\nreturn v + 1;", "42"},
		{"ts", TS, "const v: number = await Promise.resolve(41);\nreturn v + 1;", "42"},
		{"js for await", JS, "let s = 0;\nfor await (const x of [1, 2]) s += x;\nreturn s;", "3"},
		{"js no return", JS, "const a = 1;", ""},
		{"js trailing comment", JS, "return 5 // done", "5"},
		{"ts early return", TS, "if (true) return 'a' as string;\nreturn 'b';", `"a"`},
		{"js bigint optional chain", JS, "const o = {a: {b: 2n}};\nreturn String(o?.a?.b ** 2n) + (o.z ?? '!');", `"4!"`},
		{"ts shadowing wrapper name", TS, "const __modebox_main: number = 3;\nreturn __modebox_main;", "3"},
		{"js use strict", JS, "'use strict';\nreturn typeof this;", `"undefined"`},
		{"empty", JS, "", ""},
		{"hashbang", JS, "#!/usr/bin/env node\nreturn 1;", "1"},
		{"benchmark program", TS, benchProgram, `{"total":7,"names":["one","two"],"kind":"b"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Transform(tt.src, tt.lang)
			if err != nil {
				t.Fatal(err)
			}
			checkShape(t, p)
			if got := runNode(t, p); got != "" && got != tt.want && !(tt.want == "" && got == "undefined") {
				t.Errorf("result = %s, want %s\n%s", got, tt.want, p.Code)
			}
		})
	}
}

func TestTransformImports(t *testing.T) {
	// Type-only imports vanish and keep positions; value imports fail.
	src := "#!/usr/bin/env -S deno run\n/* c */ import type X from 'x';\n// note\nimport type { A, B } from \"y\"; import type * as NS from 'n';\nimport { type C } from 'z'\nthrow new Error('x' as X);"
	p, err := Transform(src, TS)
	if err != nil {
		t.Fatal(err)
	}
	gl, gc := findInCode(t, p, "throw new")
	if line, col, ok := p.Original(gl, gc); !ok || line != 6 || col != 1 {
		t.Errorf("throw maps to %d:%d %v, want 6:1", line, col, ok)
	}
	for _, src := range []string{
		"import fs from 'fs';\nreturn 1;",
		"import type from 'x';\nreturn 1;",
		"import { type A, b } from 'x';\nreturn 1;",
		"import type, { a } from 'x';\nreturn 1;",
		"import 'side-effect';",
		"import * as ns from 'x'",
	} {
		for _, lang := range []Lang{JS, TS} {
			_, err := Transform(src, lang)
			var se *Error
			if !errors.As(err, &se) || !strings.Contains(se.Diagnostics[0].Message, "import declarations are not supported") ||
				se.Diagnostics[0].Line != 1 || se.Diagnostics[0].Column != 1 {
				t.Errorf("Transform(%q, %v) error = %v", src, lang, err)
			}
		}
	}
	// Dynamic import and import.meta are expressions, left to esbuild.
	if _, err := Transform("const m = import('x');\nreturn 1;", JS); err != nil {
		t.Errorf("dynamic import: %v", err)
	}
}

func TestTransformWarnings(t *testing.T) {
	p, err := TransformFull("const x = 1;\nif (x === NaN) return 1;", JS)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 1 || p.Warnings[0].Line != 2 || p.Warnings[0].Column != 7 {
		t.Errorf("warnings = %+v", p.Warnings)
	}
}

func TestTransformBadLang(t *testing.T) {
	if _, err := Transform("return 1", Lang(9)); err == nil {
		t.Error("no error for Lang(9)")
	}
}
