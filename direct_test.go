package modebox

import (
	"context"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/tsx"
)

// TestDirectJavaScript runs plain JavaScript that skips esbuild (tsx
// Program.Direct) and checks that what a user sees is what the esbuild
// path gives: results, mapped error lines and stacks, and esbuild's syntax
// diagnostics for a program QuickJS does not parse.
func TestDirectJavaScript(t *testing.T) {
	add := MustTool("add", "Adds two numbers.", func(_ context.Context, in struct{ A, B float64 }) (float64, error) {
		return in.A + in.B, nil
	})
	e, err := New(EngineConfig{Tools: []Tool{add}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	run := func(t *testing.T, e *Engine, code string, opts RunOptions) *Result {
		t.Helper()
		r, err := e.Run(t.Context(), code, opts)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	js := RunOptions{Lang: "js"}

	ok := "let s = 0;\nfor (let i = 0; i < 3; i++) s += await tools.add({ A: i, B: 1 });\nreturn s;"
	if p, err := tsx.Transform(ok, tsx.JS); err != nil || !p.Direct {
		t.Fatalf("the test program does not take the direct path: %v", err)
	}
	r := run(t, e, ok, js)
	if r.Error != nil || string(r.Value) != "6" {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}

	thrower := "function f(n) {\n  if (n > 1) {\n    throw new Error(`bad ${n}`);\n  }\n  return n;\n}\nreturn f(2);\n"
	r = run(t, e, thrower, RunOptions{Lang: "js", Filename: "job.js"})
	if r.Error == nil || r.Error.Code != CodeUncaughtException || r.Error.Line != 3 ||
		r.Error.Source != "    throw new Error(`bad ${n}`);" {
		t.Fatalf("thrower: %+v", r.Error)
	}
	if !strings.Contains(r.Error.Stack, "job.js:3") {
		t.Fatalf("stack should name job.js:3: %q", r.Error.Stack)
	}

	// Syntax errors come from esbuild, exactly as without the direct path.
	for _, bad := range []string{"let x y", "const a = 1;\nconst b = a +;\n", "return f(;", "let a = 1;\nlet a = 2;", "const s = 'abc\nreturn s;"} {
		p, err := tsx.Transform(bad, tsx.JS)
		if err != nil || !p.Direct {
			t.Fatalf("%q does not take the direct path: %v", bad, err)
		}
		_, ferr := tsx.TransformFull(bad, tsx.JS)
		if ferr == nil {
			t.Fatalf("esbuild accepts %q", bad)
		}
		want := syntaxResult(ferr, "main.js").Error
		r := run(t, e, bad, js)
		if r.Error == nil || *r.Error != *want {
			t.Errorf("%q: got %+v, want %+v", bad, r.Error, want)
		}
	}
}
