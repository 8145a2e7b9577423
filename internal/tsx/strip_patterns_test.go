package tsx

import "testing"

// TestStripBindingPatterns checks destructuring patterns of declarations,
// parameters, arrow functions and catch clauses that hold TypeScript's
// "!" or "?" where esbuild takes or rejects them: what the stripper does
// not decline, esbuild must print as it prints the TypeScript.
func TestStripBindingPatterns(t *testing.T) {
	for _, src := range []string{
		"function f({a!}) {}",
		"function f([a!]) {}",
		"const f = ({a!}) => a",
		"const f = ([a!]) => a",
		"for (const {a!} of x) {}",
		"try {} catch ({a!}) {}",
		"const [a!] = x",
		"let {a: b!} = x",
		"const f = function ({...r!}) {}",
		"class K { m({a!}) {} }",
		"const o = { m({a!}) {} }",
		"for (let [a!] of x) {}",
		"const {a = !b} = o",
		"function f(a = x!) {}",
		"const f = (a = x!) => a",
		"x = {a!} = y",
		"[a!] = y",
		"({a: b!} = y)",
		"function f({a?}) {}",
		"function f([a?]) {}",
		"const {a?} = o",
		"const [a?] = o",
		"const f = ({a?}) => a",
		"const f = ([a?]) => a",
		"function f({a}?: T) {}",
		"function f({a}!: T) {}",
		"const f = async ({a!}) => a",
		"const f = async ([a!]) => a",
		"const f = <T,>([a!]: T) => a",
		"function f(this: T, [a!]) {}",
		"for (const [a!] in x) {}",
		"const {a: [b!]} = o",
		"const {a = x!} = o",
		"const [a = x!] = o",
		"function f({a = x!}) {}",
		"const {[k!]: v} = o",
		"function f({[k!]: v}) {}",
	} {
		checkStrip(t, src, src)
	}
}

// TestStripDeclarationAs: "as" and "satisfies" right after a declared
// binding are no assertions (esbuild rejects let A as 0), where after an
// initializer they are.
func TestStripDeclarationAs(t *testing.T) {
	for _, src := range []string{
		"let A as 0",
		"let A as T",
		"const a satisfies T = 1",
		"var a as const",
		"let {a} as T = o",
		"let [a] as T = o",
		"let a: T as U",
		"let a, b as T",
		"for (let a as T of x) {}",
		"let a = b as T",
		"let a = b satisfies T, c = d as U",
		"for (const a of b as T[]) {}",
		"let a\nas\n0",
	} {
		checkStrip(t, src, src)
	}
}
