package tsx

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// tsGen generates TypeScript programs that cover the stripper's subset and
// its edges: every construct it strips, the constructs it must decline,
// ASI hazards (lines without semicolons that start with "(", "[" or "`"),
// regular expressions beside divisions, nested templates, comments and
// line breaks inside types, and JavaScript that TypeScript reads
// differently (a < b > (c)).
type tsGen struct {
	r     *rand.Rand
	depth int
}

func (g *tsGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *tsGen) chance(n int) bool { return g.r.IntN(n) == 0 }

// typ returns a random type.
func (g *tsGen) typ() string {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > 3 || g.chance(3) {
		return g.pick("number", "string", "boolean", "any", "unknown", "null", "undefined", "void", "never",
			"object", "bigint", "symbol", `"lit"`, "'a'", "42", "-1", "true", "Foo", "NS.Foo", "T", "this",
			"`tpl`", "Date", "RegExp")
	}
	switch g.r.IntN(22) {
	case 0:
		return "Array<" + g.typ() + ">"
	case 1:
		return "Map<" + g.typ() + ", " + g.typ() + ">"
	case 2:
		return "Record<string, " + g.typ() + ">"
	case 3:
		return g.typ() + "[]"
	case 4:
		return "{ a: " + g.typ() + "; b?: " + g.typ() + g.pick("", ";", ",") + " }"
	case 5:
		return "{ [k: string]: " + g.typ() + " }"
	case 6:
		return "[" + g.typ() + ", " + g.typ() + "?]"
	case 7:
		return "(a: " + g.typ() + ", b?: " + g.typ() + ") => " + g.typ()
	case 8:
		return "keyof " + g.typ()
	case 9:
		return "typeof " + g.pick("x", "x.y", "globalThis")
	case 10:
		return "readonly " + g.typ() + "[]"
	case 11:
		return g.typ() + " | " + g.typ()
	case 12:
		return g.typ() + " & " + g.typ()
	case 13:
		return "(" + g.typ() + " | " + g.typ() + ")[]"
	case 14:
		return "T extends " + g.typ() + " ? " + g.typ() + " : " + g.typ()
	case 15:
		return "{ [K in keyof T]" + g.pick("?", "-?", "+?", "") + ": T[K] }"
	case 16:
		return "Promise<" + g.typ() + ">"
	case 17:
		return "<U>(x: U) => " + g.typ()
	case 18:
		return "\n  | " + g.typ() + "\n  | " + g.typ()
	case 19:
		return g.typ() + " /* c */"
	case 20:
		return "new () => " + g.typ()
	default:
		return "T[" + g.pick(`"a"`, "number", "K") + "]"
	}
}

// expr returns a random expression.
func (g *tsGen) expr() string {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > 3 || g.chance(3) {
		return g.pick("x", "1", "'s'", "null", "a.b", "f()", "[1, 2]", "{ k: 1 }", "/re[/]x/g", "`t${x}`", "this", "arr[0]", "(a, b)")
	}
	switch g.r.IntN(26) {
	case 0:
		return g.expr() + " as " + g.typ()
	case 1:
		return "(" + g.expr() + " as " + g.typ() + ")"
	case 2:
		return g.expr() + " satisfies " + g.typ()
	case 3:
		return g.pick("x", "f()", "a[0]", "(y)") + "!" + g.pick("", ".p", "[1]", "()")
	case 4:
		return "f<" + g.typ() + ">(" + g.expr() + ")"
	case 5:
		return "new Map<string, " + g.typ() + ">()"
	case 6:
		return "(" + g.params() + ")" + g.pick("", ": "+g.typ()) + " => " + g.expr()
	case 7:
		return "async (" + g.params() + ") => { return " + g.expr() + "; }"
	case 8:
		return g.expr() + " ? " + g.expr() + " : " + g.expr()
	case 9:
		return "c ? (x) : y => z"
	case 10:
		return "a < b > (c)"
	case 11:
		return "a < b " + g.pick("&&", "||", ",") + " c > (d)"
	case 12:
		return g.expr() + " " + g.pick("+", "-", "*", "/", "<", ">", "<<", ">>", "==", "&&", "??", "<=", ">=") + " " + g.expr()
	case 13:
		return "`a${`b${" + g.expr() + "}`}c`"
	case 14:
		return "function " + g.pick("", "n") + g.pick("", "<T>") + "(" + g.params() + ")" + g.pick("", ": "+g.typ()) + " { return " + g.expr() + "; }"
	case 15:
		return "{ m(" + g.params() + ")" + g.pick("", ": "+g.typ()) + " { return 1; }, get g()" + g.pick("", ": number") + " { return 2; }, k: " + g.expr() + ", ...x }"
	case 16:
		return "<" + g.typ() + ">" + g.expr()
	case 17:
		return g.pick("", "async ") + g.pick("<T,>", "<T>", "<T extends object = {}>", "<T, U>") + "(x: T" + g.pick("", ", y?: U") + ")" + g.pick("", ": T") + " => " + g.pick("x", "{ return x; }", "(y as any)")
	case 18:
		return "f<" + g.typ() + ">"
	case 19:
		return "x as const"
	case 20:
		return "(" + g.expr() + ") / 2"
	case 21:
		return "f(" + g.expr() + ", " + g.expr() + ")"
	case 22:
		return "[" + g.expr() + ", ..." + g.expr() + "]"
	case 23:
		return "await " + g.expr()
	case 24:
		return "typeof " + g.expr() + " === 'string'"
	default:
		return "!" + g.expr()
	}
}

// params returns a random parameter list.
func (g *tsGen) params() string {
	var ps []string
	for i := g.r.IntN(4); i > 0; i-- {
		p := g.pick("a", "b", "{ a, b: c = 1 }", "[d, , e]", "...rest", "this", "public p")
		if !strings.HasPrefix(p, "...") && g.chance(3) {
			p += "?"
		}
		if g.chance(2) {
			p += ": " + g.typ()
		}
		if !strings.HasSuffix(p, "?") && !strings.HasPrefix(p, "...") && g.chance(4) {
			p += " = " + g.expr()
		}
		ps = append(ps, p)
	}
	return strings.Join(ps, ", ")
}

// typeParams returns a random type parameter list, or "".
func (g *tsGen) typeParams() string {
	switch g.r.IntN(5) {
	case 0:
		return "<T>"
	case 1:
		return "<T extends " + g.typ() + " = " + g.typ() + ", U>"
	case 2:
		return "<const T>"
	}
	return ""
}

// stmt returns a random statement; semi is the statement end.
func (g *tsGen) stmt() string {
	semi := g.pick(";", ";", "")
	n := g.r.IntN(34)
	for n >= 17 && n <= 22 && !g.chance(4) {
		n = g.r.IntN(34) // what the fast path declines, less often
	}
	switch n {
	case 0:
		return "const v" + g.pick("", "1") + ": " + g.typ() + " = " + g.expr() + semi
	case 1:
		return "let w!: " + g.typ() + semi
	case 2:
		return "let u: " + g.typ() + g.pick(", u2 = 1", "") + semi
	case 3:
		return "function f" + g.typeParams() + "(" + g.params() + ")" + g.pick("", ": "+g.typ(), ": x is string", ": asserts x", ": asserts x is number") + " { " + g.stmt() + " }"
	case 4:
		return "const fn = (" + g.params() + ")" + g.pick("", ": "+g.typ()) + " => " + g.expr() + semi
	case 5:
		return "interface I" + g.typeParams() + g.pick("", " extends A, B<"+g.typ()+">") + " { a: " + g.typ() + "; m(x: number): void; readonly r?: string }"
	case 6:
		return "type A" + g.typeParams() + " = " + g.typ() + semi
	case 7:
		return "x = " + g.expr() + " as " + g.typ() + semi
	case 8:
		return g.expr() + semi
	case 9:
		return "try { " + g.stmt() + " } catch (e" + g.pick("", ": unknown", ": any") + ") { " + g.stmt() + " }"
	case 10:
		return "for (let i" + g.pick("", ": number") + " = 0; i < n; i++) { " + g.stmt() + " }"
	case 11:
		return "for (const [k, v] of Object.entries(o" + g.pick("", " as Record<string, number>") + ")) " + g.stmt()
	case 12:
		return "(" + g.expr() + ")" + g.pick("()", ".p", "") + semi
	case 13:
		return "[1, 2].forEach((n" + g.pick("", ": number") + ") => n)" + semi
	case 14:
		return "`t${" + g.expr() + "}`.length" + semi
	case 15:
		return "if (x) /re/.test(s)" + semi
	case 16:
		return "const r = /a[/]b\\/c/g.test(" + g.expr() + ")" + semi
	case 17:
		return "enum E { A, B }"
	case 18:
		return "class K<T> { p: T; constructor(private q: number) {} }"
	case 19:
		return "declare const d: number" + semi
	case 20:
		return "namespace N { export const a = 1 }"
	case 21:
		return "function over(x: number): void" + semi
	case 22:
		return "abstract class Q {}"
	case 23:
		return "const o = { type: 1, interface: 2, as: 3, get: 4, set: 5, async: 6 }" + semi
	case 24:
		return "type" + semi
	case 25:
		return "label: for (;;) { break label; }"
	case 26:
		return "switch (x) { case (1): " + g.stmt() + " break; default: " + g.stmt() + " }"
	case 27:
		return "return " + g.expr() + semi
	case 28:
		return "const { a, b: [c] = [], ...d }: " + g.typ() + " = " + g.expr() + semi
	case 29:
		return "async function* gen" + g.typeParams() + "(): AsyncGenerator<number> { yield 1; }"
	case 30:
		return "x = y / z / w" + semi
	case 31:
		return "let type = 1, as = 2" + semi
	case 32:
		return "{ " + g.stmt() + " }"
	default:
		return "const q = c ? (a) : (b)" + semi
	}
}

// program returns a random program, its spaces sometimes turned into line
// breaks or comments.
func (g *tsGen) program() string {
	var b strings.Builder
	for i := 1 + g.r.IntN(6); i > 0; i-- {
		b.WriteString(g.stmt())
		b.WriteString(g.pick("\n", "\n", " ", "\n\n"))
	}
	src := b.String()
	if g.chance(2) {
		var out strings.Builder
		for _, c := range src {
			if c == ' ' && g.chance(8) {
				out.WriteString(g.pick("\n", "\n  ", " /* c */ ", " // c\n"))
				continue
			}
			out.WriteRune(c)
		}
		src = out.String()
	}
	return src
}

// TestStripGenerated runs the oracle on generated programs.
func TestStripGenerated(t *testing.T) {
	n, seed := 3000, uint64(19)
	if testing.Short() {
		n = 300
	}
	// MODEBOX_STRIP_PROGRAMS=N[,SEED] runs more (or other) programs.
	if v := os.Getenv("MODEBOX_STRIP_PROGRAMS"); v != "" {
		a, b, _ := strings.Cut(v, ",")
		var err error
		if n, err = strconv.Atoi(a); err != nil {
			t.Fatalf("MODEBOX_STRIP_PROGRAMS: %v", err)
		}
		if b != "" {
			if seed, err = strconv.ParseUint(b, 10, 64); err != nil {
				t.Fatalf("MODEBOX_STRIP_PROGRAMS: %v", err)
			}
		}
	}
	g := &tsGen{r: rand.New(rand.NewPCG(seed, 2026))}
	took, valid := 0, 0
	for i := 0; i < n; i++ {
		src := g.program()
		if _, err := esbuildPrint(src, api.LoaderTS); err == nil {
			valid++
		}
		if checkStrip(t, fmt.Sprintf("generated %d", i), src) {
			took++
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("%d generated programs: %d valid TypeScript for esbuild, %d took the fast path", n, valid, took)
	if took < n/10 {
		t.Errorf("only %d of %d generated programs took the fast path: the generator no longer covers the subset", took, n)
	}
}
