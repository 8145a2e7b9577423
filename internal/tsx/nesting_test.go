package tsx

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// deepPrograms are programs that nest n levels in one way each: the
// shapes that took esbuild's or the type stripper's goroutine past Go's
// 1 GB stack (a fatal error: the whole process ended) or cost esbuild
// seconds to minutes (nested functions, blocks and arrows).
func deepPrograms(n int) map[string]string {
	r := strings.Repeat
	labels := func() string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "l%d:", i)
		}
		return b.String()
	}
	return map[string]string{
		"parens":      "return " + r("(", n) + "1" + r(")", n),
		"arrays":      "return " + r("[", n) + r("]", n),
		"objects":     "return " + r("{a:", n) + "1" + r("}", n),
		"blocks":      r("{", n) + r("}", n),
		"arrows":      "return " + r("a=>", n) + "1",
		"asyncarrows": "return " + r("async a=>", n) + "1",
		"parenarrows": "return " + r("(a)=>", n) + "1",
		"arrowblocks": "return " + r("a=>{return ", n) + "1" + r("}", n),
		"functions":   "return " + r("(function(){return ", n) + "1" + r("})()", n),
		"methods":     "return " + r("{m(){return ", n) + "1" + r("}}", n),
		"not":         "return " + r("!", n) + "1",
		"minus":       "return " + r("- ", n) + "1",
		"typeof":      "return " + r("typeof ", n) + "1",
		"void":        "return " + r("void ", n) + "1",
		"await":       "return " + r("await ", n) + "1",
		"new":         "return " + r("new ", n) + "X",
		"ternary":     "return " + r("a?b:", n) + "c",
		"ternary2":    "return " + r("a?", n) + "b" + r(":c", n),
		"assign":      "let a; " + r("a=", n) + "1",
		"pow":         "return " + r("2**", n) + "1",
		"spread":      "return [" + r("[...", n) + "[]" + r("]", n) + "]",
		"template":    "return " + r("`${", n) + "1" + r("}`", n),
		"calls":       "return " + r("f(", n) + "1" + r(")", n),
		"classext":    "return " + r("class extends ", n) + "Object{}" + r("{}", n),
		"elseif":      "if(a)b;" + r("else if(a)b;", n),
		"ifif":        r("if(a)", n) + "b;",
		"whiles":      r("while(a)", n) + "b;",
		"fors":        r("for(;;)", n) + "b;",
		"dos":         r("do ", n) + "b;" + r("while(a);", n),
		"withs":       r("with(a)", n) + "b;",
		"labels":      labels() + "b;",
		"yield":       "function* g(){ return " + r("yield ", n) + "1 }",
		"typesParens": "let x: " + r("(", n) + "number" + r(")", n) + " = 1; return x",
		"typesCond":   "type T<X> = " + r("X extends 1 ? 2 : ", n) + "3; return 1",
		// the readings of "/" that a lexer could confuse: a division read
		// as a regular expression must not hide what it divides by
		"divAfterFunc":   "let x = function(){} / " + r("(", n) + "1" + r(")", n) + " / 2",
		"divAfterPublic": "var public = 1; let x = public / " + r("(", n) + "1" + r(")", n) + " / 2",
		"divAfterIncr":   "let a = 1, x = a++ / " + r("(", n) + "1" + r(")", n) + " / 2",
		"regexAfterFor":  "for await (const x of y) /'`/.test(x); return " + r("(", n) + "1" + r(")", n) + " + `",
		"divAfterOf":     "let of = 1; let x = of / " + r("[", n) + r("]", n) + " / 2",
		// a second round of attacks on the check (esbuild's HTML-like
		// comments, TypeScript's ends of types before "/", and levels a
		// ";" or "," once ended too early)
		"htmlOpen":     "return " + r(r("(", n/200)+"\n<!-- "+r(")", n/200)+"\n", 200) + "1" + r(")", n),
		"htmlClose":    "return " + r(r("(", n/200)+"\n--> "+r(")", n/200)+"\n", 200) + "1" + r(")", n),
		"typesDivGT":   "let y = 1 as Array<number> / 2\nreturn " + r("(", n) + "y" + r(")", n),
		"typesDivAs":   "let y = [1] as const / 2\nreturn " + r("(", n) + "y" + r(")", n),
		"typesDivVoid": "let f = (g as () => void) / 2\nreturn " + r("(", n) + "y" + r(")", n),
		"typesArgs":    "return (" + r("f<a, ", n) + "1)",
		"typesKeyof":   "let x: " + r("keyof ", n) + "number; return 1",
		"typesArgs2":   "let x: " + r("A<0,", n) + "0" + r(">", n) + " = 1; return 1",
		"doWhileFuncs": "class A{}; while(" + doWhiles(n) + ");",
		// a third round: a line break that ends a statement where
		// JavaScript inserts a ";" (nestScan.asi) must end nothing that goes on
		"asiElseIf":       "if(a)b\n" + r("else if(a)b\n", n),
		"asiReturnElseIf": "function f(){if(a)return\n" + r("else if(a)return\n", n) + "}",
		"asiBraceElseIf":  "if(a){}\n" + r("else if(a){}\n", n),
		"asiDos":          r("do ", n) + "b\n" + r("while(a)\n", n),
		"asiCatch":        r(r("if(a)", 1000)+"try{}\ncatch{", n/1000) + r("}", n/1000),
		"asiFinally":      r(r("if(a)", 1000)+"try{}\nfinally{", n/1000) + r("}", n/1000),
		"asiIfs":          r("if(a)\n", n) + "b",
		"asiAssign":       "let a\n" + r("a=\n", n) + "1",
		"asiTernaryIn":    "x = " + r("a?b:c\nin d?", n) + "e:f",
		"asiInstanceof":   "x = " + r("a?b:c\ninstanceof d?", n) + "e:f",
		"asiDoFuncs":      "class A{}\nwhile(" + strings.NewReplacer(";", "\n").Replace(doWhiles(n)) + ")\n",
		"typesAsiCond":    "type T<X> = " + r("X\nextends 1 ? 2 : ", n) + "3\nreturn 1",
		// the attack on that rule (helper review): what a decorator
		// decorates may start on the next line, inside an expression that
		// goes on nesting; TypeScript's "abstract⏎new () => T" is one type
		"asiDecorator":         "return " + r("@d\nclass extends "+r("new ", 1900), n/2000) + "Object" + r("{}", n/2000),
		"asiDecoratorAbstract": "return " + r("@d\nabstract\nclass extends "+r("new ", 1900), n/2000) + "Object" + r("{}", n/2000),
		"asiDecoratorChain":    "return " + r("class extends @d\nclass extends ", n/15) + "Object" + r("{}", 2*(n/15)),
		"typesAsiAbstract":     "return " + r("():abstract\nnew()=>X=>", n/3) + "1",
		"asiDecoratorDotClass": "return " + r("@d.\nclass\nclass extends "+r("new ", 1900), n/2000) + "Object" + r("{}", n/2000),
		// a second attack: a type parameter's variance, "<out⏎T>"
		"typesAsiOutClass": "x = " + r(r("new ", 1900)+"class<out\nT> extends ", n/1900) + "Object" + r("{}", n/1900),
		"typesAsiOutFunc":  "x = " + r(r("new ", 1000)+"function<out\nT>() { return ", n/1000) + "1" + r("}", n/1000),
		// a third review: TypeScript's modifiers, each a recursion in
		// esbuild however many are repeated (an undercount since the
		// sixth round, not the line-break rule's)
		"typesPublic":    "class C { " + r("public ", n) + "x }",
		"typesPrivate":   "class C { " + r("private ", n) + "x }",
		"typesProtected": "class C { " + r("protected ", n) + "x }",
		"typesOverride":  "class C { " + r("override ", n) + "x }",
		"typesReadonly":  "class C { " + r("readonly ", n) + "x }",
		"typesDeclare":   r("declare ", n) + "const x: number\nreturn 1",
	}
}

// doWhiles nests statements in do-while conditions: a ";" inside a do
// does not end it, and its while's condition holds a function whose body
// nests again (n levels in all, 1,000 at a time).
func doWhiles(n int) string {
	inner := "0"
	for range n / 1000 {
		inner = "function(){" + strings.Repeat("do ", 1000) + "b;while(" + inner + ")" + strings.Repeat(";while(a)", 999) + "}"
	}
	return inner
}

// TestDeepNestingRefused compiles each deep shape, 300,000 levels deep,
// through esbuild (TransformFull) and, as TypeScript, through the type
// stripper (Transform): each is refused with a syntax error that says so.
// Without the check the test process ends ("goroutine stack exceeds
// 1000000000-byte limit") or runs for minutes.
func TestDeepNestingRefused(t *testing.T) {
	for name, src := range deepPrograms(300_000) {
		for _, c := range []struct {
			lang Lang
			fn   func(string, Lang) (*Program, error)
		}{{JS, TransformFull}, {TS, Transform}, {TS, TransformFull}} {
			if strings.HasPrefix(name, "types") && c.lang == JS {
				continue
			}
			_, err := c.fn(src, c.lang)
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Error(), "nests too deeply") && !strings.Contains(e.Error(), "cannot tell whether") {
				t.Errorf("%s (%v): %.300v", name, c.lang, err)
				continue
			}
			if d := e.Diagnostics[0]; d.Line < 1 || d.Column < 1 || d.LineText == "" || !strings.Contains(src, d.LineText) {
				t.Errorf("%s (%v): at %d:%d", name, c.lang, d.Line, d.Column)
			}
		}
	}
}

// TestModerateNestingCompiles: every shape at 100 levels is well within
// the limits and compiles as before (the shapes that are not valid
// programs give esbuild's own error, not the nesting one).
func TestModerateNestingCompiles(t *testing.T) {
	for name, src := range deepPrograms(100) {
		lang := JS
		if strings.HasPrefix(name, "types") {
			lang = TS
		}
		_, err := TransformFull(src, lang)
		if err != nil && (strings.Contains(err.Error(), "nests too deeply") || strings.Contains(err.Error(), "cannot tell whether")) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestNestingAmbiguousSlashRefused: where the two readings of a "/" after
// "}" would lex what follows differently (a quote inside), the program is
// refused rather than guessed; where they agree, it compiles.
func TestNestingAmbiguousSlashRefused(t *testing.T) {
	for _, src := range []string{
		"let x = function(){} /'/; let y = '`/; return 1",
		"let x = function(){} /}/; return 1",
		"x = a++ /\"/; y = \"/",
	} {
		if err := scanAll(src); err == nil || !strings.Contains(err.msg, "cannot tell whether") {
			t.Errorf("%q: %v", src, err)
		}
	}
	for _, src := range []string{
		"function f(){}\n/re/.test('x'); return 1",
		"let x = function(){} / 2 / 3; return x",
		"if (a) /re'/.test(s); return 1",
		"for await (const x of y) /'/.test(x)",
	} {
		if err := scanAll(src); err != nil {
			t.Errorf("%q: %v", src, err.msg)
		}
	}
}

// scanAll runs checkNesting's scan on body whatever its size.
func scanAll(body string) *nestingError {
	n := nestScan{body: body, stack: make([]nestFrame, 1, 16), nest: 1, maxNesting: MaxNesting, maxScopes: MaxScopes}
	return n.run()
}

// TestNestingEstimateCoversDepth generates programs of a known depth from
// random shapes (expressions and statements inside one another, with
// siblings that hold brackets in strings, comments, templates and regular
// expressions, and commas and semicolons that end the siblings' levels),
// checks that esbuild compiles each, and that the estimate is never below
// the depth built: the estimate is what bounds esbuild's recursion.
func TestNestingEstimateCoversDepth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 400 {
		g := &nestGen{rng: rng}
		depth := 1 + rng.IntN(150)
		body := g.stmt(depth)
		n := nestScan{body: body, stack: make([]nestFrame, 1, 16), nest: 1, maxNesting: 1 << 30, maxScopes: 1 << 30}
		if err := n.run(); err != nil {
			t.Fatalf("refused: %v\n%s", err.msg, body)
		}
		res := api.Transform(wrapperHead+body+wrapperTail, esbuildOptions(JS, false))
		if len(res.Errors) > 0 {
			t.Fatalf("generated program does not compile: %s\n%s", res.Errors[0].Text, body)
		}
		if n.peakNest < g.levels || n.peakScopes < g.scopes {
			t.Fatalf("estimate %d nesting, %d scopes, below the %d and %d built:\n%s", n.peakNest, n.peakScopes, g.levels, g.scopes, body)
		}
		// the quick bound that lets checkNesting skip the scan is above it
		if levels, scopes := nestingCounts(body); levels < n.peakNest || scopes < n.peakScopes {
			t.Fatalf("quick bound %d, %d below the estimate %d, %d:\n%s", levels, scopes, n.peakNest, n.peakScopes, body)
		}
	}
}

// nestGen builds programs of a known depth for the property test.
type nestGen struct {
	rng            *rand.Rand
	levels, scopes int // the deepest nesting built, and the scopes on that path
	depth, scope   int // on the current path
}

// noise returns a sibling expression whose brackets do not nest.
func (g *nestGen) noise() string {
	n := []string{
		`")]}"`, `'([{'`, "`)}]`", `/[)\]}]/g`, `/\)/`, `1 /* ) } ] */`, `x++`, `a / b / c`, `(x = y)`, `f(a, [b], {c: d})`,
		"`${a}}`", `-1`, `!a`, `a ? b : c`, `(a, b)`, `(a => b)`, `(function(){ return a })`, "f(/'/, /`/)", `"\"'"`,
	}
	return n[g.rng.IntN(len(n))]
}

func (g *nestGen) enter(scope bool) {
	g.depth++
	if scope {
		g.scope++
	}
	if g.depth > g.levels {
		g.levels, g.scopes = g.depth, g.scope
	}
}

// expr returns an expression of d more levels.
func (g *nestGen) expr(d int) string {
	if d == 0 {
		if g.rng.IntN(2) == 0 {
			return "a"
		}
		return g.noise()
	}
	k := g.rng.IntN(24)
	scope := k >= 18
	g.enter(scope)
	inner := ""
	if k == 23 {
		inner = g.stmt(d - 1)
	} else {
		inner = g.expr(d - 1)
	}
	g.depth--
	if scope {
		g.scope--
	}
	sib := g.noise()
	switch k {
	case 0:
		return "(" + sib + ", " + inner + ")"
	case 1:
		return "[" + sib + ", " + inner + "]"
	case 2:
		return "{a: " + sib + ", b: " + inner + "}"
	case 3:
		return "`x${" + sib + "}y${" + inner + "}`"
	case 4:
		return "f(" + sib + ", " + inner + ")"
	case 5:
		return "!" + inner
	case 6:
		return "- " + inner
	case 7:
		return "typeof " + inner
	case 8:
		return "await (" + inner + ")" // "await /re/" may divide: see TestNestingAmbiguousSlashRefused
	case 9:
		return "a ? " + inner + " : " + sib
	case 10:
		return "a ? " + sib + " : " + inner
	case 11:
		return "(x = " + inner + ")"
	case 12:
		return "(2 ** " + inner + ")"
	case 13:
		return "[..." + inner + "]"
	case 14:
		return "void (" + inner + ")" // "void /re/" may be TypeScript's "=> void / 2"
	case 15:
		return "~" + inner
	case 16:
		return "new X(" + inner + ")"
	case 17:
		return "(x += " + inner + ")"
	case 18:
		return "(async a => [" + inner + "])"
	case 19:
		return "(async (a) => [" + inner + "])"
	case 20:
		return "(async function(){ return " + inner + " })"
	case 21:
		return "({async m() { return " + inner + " }})"
	case 22:
		return "(async a => { " + sib + "; return " + inner + " })"
	default:
		return "(async () => { " + inner + " })"
	}
}

// end returns what ends a statement: a ";", or a line break where
// JavaScript inserts one (nestScan.asi), each with spaces around.
func (g *nestGen) end() string {
	return [...]string{";", " ;", "\n", " \n ", "\n\n"}[g.rng.IntN(5)]
}

// stmt returns a statement of d more levels.
func (g *nestGen) stmt(d int) string {
	if d == 0 {
		return g.noise() + g.end()
	}
	k := g.rng.IntN(11)
	scope := k == 6 || k == 7
	if k == 10 {
		return g.noise() + ", " + g.expr(d) + ";" // an expression statement: no level of its own
	}
	g.enter(scope)
	var inner string
	if k == 9 {
		inner = g.expr(d - 1)
	} else {
		inner = g.stmt(d - 1)
	}
	g.depth--
	if scope {
		g.scope--
	}
	switch k {
	case 0:
		return "if (a) " + inner
	case 1:
		return "if (a) b" + g.end() + " else " + inner
	case 2:
		return "while (a) " + inner
	case 3:
		return "for (;;) " + inner
	case 4:
		return "do " + inner + " while (a)" + g.end()
	case 5:
		return "l" + fmt.Sprint(d) + ": " + inner
	case 6:
		end := ";"
		if c := inner[0]; 'a' <= c && c <= 'z' {
			end = g.end() // a line break ends the noise only before a word
		}
		return "{ " + g.noise() + end + " " + inner + " }"
	case 7:
		return "try { " + inner + " }" + [...]string{"", "\n"}[g.rng.IntN(2)] + " catch { }"
	case 8:
		return "with (a) " + inner
	default:
		return "x = " + inner + ";"
	}
}

// TestImportFloodBounded: a program of 100,000 import declarations is
// refused with esbuild's number of diagnostics (10), not one per import:
// each cost a scan of the body before it (35 s of processor time for 1.9
// MB, outside the run's time limit).
func TestImportFloodBounded(t *testing.T) {
	_, err := Transform(strings.Repeat("import x from 'y'; ", 100_000)+"return 1", JS)
	var e *Error
	if !errors.As(err, &e) || len(e.Diagnostics) != maxDiagnostics {
		t.Fatalf("%T with %v", err, err)
	}
}

// TestNestingCommaKeepsStatements: a "," ends the expression's levels of
// its bracket, not the statement's: "if (a) x, a => { ... }" is still
// inside the if. Two hundred such levels of 100 ifs each nest 20,000 deep
// (under the scopes limit), and are refused.
func TestNestingCommaKeepsStatements(t *testing.T) {
	src := strings.Repeat(strings.Repeat("if(a)", 100)+"x, a => {", 200) + "1" + strings.Repeat("}", 200)
	_, err := TransformFull(src, JS)
	if err == nil || !strings.Contains(err.Error(), "more than 2000 levels") {
		t.Fatalf("%.300v", err)
	}
}

// TestNestingLinesWithoutSemicolons: a program written without
// semicolons, as many style guides ask, ends its statements at line
// breaks; the estimate did not, and refused 1,000 lines of "const v:
// number = i + 1" as nesting 2,000 levels deep.
func TestNestingLinesWithoutSemicolons(t *testing.T) {
	var b strings.Builder
	b.WriteString("let x: number = 0\nconst a: number[] = []\nfor (;;) {\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "const v%d: number = %d + 1\n", i, i)
		fmt.Fprintf(&b, "x = x + v%d\n", i)
		fmt.Fprintf(&b, "x += (v%d)\n", i)
		fmt.Fprintf(&b, "a.push(x, [x], `${x}`)\n")
		fmt.Fprintf(&b, "const o%d = { k: v%d, f: () => { return x } }\n", i, i)
		fmt.Fprintf(&b, "if (x > %d) x = 0\nelse x = x - 1\n", i)
		fmt.Fprintf(&b, "try { x++ }\ncatch { x-- }\n")
		fmt.Fprintf(&b, "do x--\nwhile (x > 1e9)\n")
		fmt.Fprintf(&b, "switch (x) {\ncase 1:\ncase 2: break\ncase 3: x = 1\ndefault: continue\n}\n")
		fmt.Fprintf(&b, "if (x < 0) return\nif (x < 0) debugger\n")
	}
	b.WriteString("break\n}\nreturn x\n")
	src := b.String()
	for _, c := range []struct {
		lang Lang
		fn   func(string, Lang) (*Program, error)
	}{{TS, Transform}, {TS, TransformFull}} {
		if _, err := c.fn(src, c.lang); err != nil {
			t.Errorf("%v: %.300v", c.lang, err)
		}
	}
	if err := scanAll(src); err != nil || nestingBound(src) {
		t.Fatalf("the scan did not run, or refused: %v", err)
	}
	// after break, continue, return and debugger a line break ends the
	// statement whatever follows
	b.Reset()
	b.WriteString("let x = 0\nfor (;;) {\nswitch (x) {\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "case %d:\ncase -%d: break\ncase %d.5: continue\n", i, i, i)
	}
	b.WriteString("}\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "if (x === %d) debugger\nif (x === %d) return\n", i, i)
	}
	b.WriteString("}\n")
	if _, err := TransformFull(b.String(), JS); err != nil {
		t.Errorf("%.300v", err)
	}
}
