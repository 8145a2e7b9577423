package tsx

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/modebox/modebox/internal/fuzzcorpus"
)

// fuzzStripSeeds are the hand-written seeds of FuzzStrip, also committed
// under testdata/fuzz/FuzzStrip; the corpus programs and some generated
// ones are added at run time.
var fuzzStripSeeds = map[string]string{
	"annotations": "const a: number = 1, b: Array<string> = [];\nlet c!: Map<string, number>;\nreturn a;",
	"functions":   "function f<T extends object = {}>(x: T, y?: number, ...z: string[]): x is T { return true }\nconst g = async (a: number): Promise<void> => {};",
	"as":          "const v = (x as any).y satisfies unknown;\nconst w = y! as const;\nreturn v as unknown as string;",
	"decls":       "interface A<T> extends B { a?: T; m(x: number): void; [k: string]: unknown }\ntype C = A<string> | { [K in keyof A<1>]-?: A<1>[K] };\nreturn 1;",
	"asi":         "const a = b\ntype T = number\n(c)()\nlet d = e as T\n[1].forEach(f)",
	"cond":        "const r = c ? (x) : y => z;\nconst s = c ? (x): number => x : 0;",
	"lt":          "return a < b > (c) + f<T>(x) + (i < n) + (2 << 3);",
	"regex":       "if (x) /re/.test(s);\nconst q = (a) / 2 / b;\nreturn `${`${/[/]/}`}`;",
	"decline":     "enum E { A }\nnamespace N {}\ndeclare const d: number;\nclass K { constructor(private p: number) {} }",
	"methods":     "const o = { m(a: number): number { return a }, get g(): string { return '' }, async *h<T>(x: T) {} };",
}

// FuzzStrip runs the oracle of checkStrip on arbitrary text: stripTypes
// never panics, keeps every line break and byte offset, and what it does
// not decline esbuild prints exactly as it prints the TypeScript.
func FuzzStrip(f *testing.F) {
	for _, s := range fuzzStripSeeds {
		f.Add(s)
	}
	for _, s := range corpus(f) {
		f.Add(prepare(s))
	}
	g := &tsGen{r: rand.New(rand.NewPCG(1, 2))}
	for i := 0; i < 50; i++ {
		f.Add(g.program())
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 16<<10 {
			return
		}
		checkStrip(t, fmt.Sprintf("%q", src), src)
	})
}

// TestFuzzStripSeeds keeps testdata/fuzz/FuzzStrip in step with
// fuzzStripSeeds.
func TestFuzzStripSeeds(t *testing.T) {
	files := map[string]string{}
	for name, s := range fuzzStripSeeds {
		files[name] = fuzzcorpus.Entry(s)
	}
	fuzzcorpus.Check(t, "FuzzStrip", files)
}
