package integration_test

import (
	"strings"
	"testing"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/tsx"
)

// TestTSFastPathErrorPositions: a TypeScript program whose types are
// stripped in Go (the fast path, no esbuild) reports a runtime error or a
// syntax error at the same line, column and source line, with the same
// message and stack, as the same program through esbuild (forced by a last
// line the fast path declines, which moves no line before it), and at the
// line expected.
func TestTSFastPathErrorPositions(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		direct bool // the fast path takes it
		line   int
		column int
		source string
	}{
		{
			name: "throw in a typed function",
			src: "interface P {\n  n: number;\n  tags?: string[];\n}\nfunction boom(p: P): never {\n" +
				"  throw new Error(`bad ${p.n}`);\n}\nconst x: P = { n: 1 };\nreturn boom(x);",
			direct: true, line: 6, source: "  throw new Error(`bad ${p.n}`);",
		},
		{
			name: "TypeError through non-null assertions",
			src: "type U = { name?: string } | undefined;\nconst users: U[] = [undefined];\n" +
				"const first = users[0]!;\nreturn first!.name!.length;",
			direct: true, line: 4, source: "return first!.name!.length;",
		},
		{
			name: "throw in a typed arrow callback",
			src: "const xs: number[] = [1, 2, 3];\nreturn xs.map((x: number): number => {\n" +
				"  if (x > 2) throw new RangeError('too big: ' + x);\n  return x * 2;\n});",
			direct: true, line: 3, source: "  if (x > 2) throw new RangeError('too big: ' + x);",
		},
		{
			name:   "fenced, with as",
			src:    "```ts\nlet n: number = 1;\nn = (n as any).foo.bar;\nreturn n;\n```",
			direct: true, line: 3, source: "n = (n as any).foo.bar;",
		},
		{
			name:   "syntax error QuickJS finds after stripping",
			src:    "const a: number = 1;\nconst b: Array<number> = ;\nreturn a;",
			direct: true, line: 2, column: 26, source: "const b: Array<number> = ;",
		},
		{
			name:   "syntax error the stripper declines",
			src:    "const a: number = 1;\nconst b: Array<number = [];\nreturn a;",
			direct: false, line: 2, column: 23, source: "const b: Array<number = [];",
		},
	}
	e := newEngine(t)
	opts := modebox.RunOptions{Lang: "ts"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := tsx.Transform(c.src, tsx.TS)
			if got := err == nil && p.Direct; got != c.direct {
				t.Fatalf("fast path %v, want %v (err %v)", got, c.direct, err)
			}
			fast := run(t, e, c.src, opts)
			slow := run(t, e, forced(c.src), opts)
			if fast.Error == nil || slow.Error == nil {
				t.Fatalf("errors: fast %+v, esbuild %+v", fast.Error, slow.Error)
			}
			// The frames of the stack below the first may differ: for a
			// call that spans lines QuickJS reports the line where the
			// call ends, which esbuild's reformatting moves (as for
			// JavaScript on the direct path).
			f, s := *fast.Error, *slow.Error
			if firstFrame(f.Stack) != firstFrame(s.Stack) {
				t.Errorf("first frame %q, through esbuild %q", firstFrame(f.Stack), firstFrame(s.Stack))
			}
			f.Stack, s.Stack = "", ""
			if f != s {
				t.Errorf("fast path error\n%+v\nthrough esbuild\n%+v", *fast.Error, *slow.Error)
			}
			if fast.Error.Line != c.line || fast.Error.Column != c.column || fast.Error.Source != c.source {
				t.Errorf("error at line %d column %d (%q), want line %d column %d (%q): %+v",
					fast.Error.Line, fast.Error.Column, fast.Error.Source, c.line, c.column, c.source, *fast.Error)
			}
		})
	}
}

// TestTSFastPathResults: programs that take the fast path give the results
// they give through esbuild.
func TestTSFastPathResults(t *testing.T) {
	e := newEngine(t, addTool)
	opts := modebox.RunOptions{Lang: "ts"}
	for _, src := range []string{
		scratchProgram(7, true),
		"interface Item { id: number; tags?: string[] }\nconst items: Item[] = [{ id: 1, tags: ['a'] }, { id: 2 }];\n" +
			"const by = new Map<number, Item>(items.map((i): [number, Item] => [i.id, i]));\n" +
			"const sum = (await tools.add({ a: by.get(1)!.id, b: 2 } satisfies { a: number; b: number })) as number;\n" +
			"function pick<T, K extends keyof T>(o: T, k: K): T[K] { return o[k]; }\n" +
			"return { sum, tags: pick(items[0], 'tags') ?? [], n: items.length as number };",
		"const s: string = `a${`b${(1 as number) + 1}`}c`;\nconst r: RegExp = /b(\\d)/;\nreturn r.exec(s)![1];",
	} {
		p, err := tsx.Transform(src, tsx.TS)
		if err != nil || !p.Direct {
			t.Fatalf("fast path declined (%v):\n%s", err, src)
		}
		fast := run(t, e, src, opts)
		slow := run(t, e, forced(src), opts)
		if fast.Error != nil || slow.Error != nil || string(fast.Value) != string(slow.Value) {
			t.Errorf("fast %s %+v, esbuild %s %+v\n%s", fast.Value, fast.Error, slow.Value, slow.Error, src)
		}
	}
}

// forced is src with forceEsbuild's line added at its end (inside a
// closing fence).
func forced(src string) string {
	if body, ok := strings.CutSuffix(src, "\n```"); ok {
		return body + forceEsbuild + "```"
	}
	return src + forceEsbuild
}

// firstFrame returns the first line of stack that names the program's
// file.
func firstFrame(stack string) string {
	for _, l := range strings.Split(stack, "\n") {
		if strings.Contains(l, "main.ts:") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}
