package tsx

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// esbuildPrint is what esbuild prints for a wrapped body with loader, as
// compile runs it (without the source map), or the error texts. It prints
// without whitespace: esbuild keeps some of the source's line breaks (a
// call's arguments stay on lines of their own if a line break came before
// its ")"), and blanking a type that spans lines moves them.
func esbuildPrint(body string, loader api.Loader) (string, error) {
	res := api.Transform(wrapperHead+body+wrapperTail, api.TransformOptions{
		LogLevel:         api.LogLevelSilent,
		LogLimit:         maxDiagnostics,
		Target:           api.ES2020,
		Loader:           loader,
		MinifyWhitespace: true,
	})
	if len(res.Errors) > 0 {
		var msgs []string
		for _, m := range res.Errors {
			msgs = append(msgs, m.Text)
		}
		return "", fmt.Errorf("%s", strings.Join(msgs, "; "))
	}
	return string(res.Code), nil
}

// prepare turns a program as sent into the body stripTypes sees, as
// compile does.
func prepare(src string) string {
	body, _ := stripFence(normalizeNewlines(src))
	body, _ = dropLeadingImports(body, TS)
	return body
}

// checkStrip is the differential oracle of the fast path: either
// stripTypes declines body, or it keeps every line break and byte offset
// and esbuild's JavaScript transform of what it returns prints exactly what
// esbuild's TypeScript transform of body prints (or both fail). It returns
// whether the fast path took the program (stripped and direct).
func checkStrip(t testing.TB, name, body string) bool {
	t.Helper()
	out, isDirect, ok := stripTypes(body)
	if !ok {
		return false
	}
	if len(out) != len(body) {
		t.Fatalf("%s: stripped text is %d bytes, body %d", name, len(out), len(body))
	}
	for i := 0; i < len(body); i++ {
		if (body[i] == '\n') != (out[i] == '\n') || (out[i] != body[i] && out[i] != ' ') {
			t.Fatalf("%s: byte %d changed from %q to %q", name, i, body[i], out[i])
		}
	}
	want, errTS := esbuildPrint(body, api.LoaderTS)
	got, errJS := esbuildPrint(out, api.LoaderJS)
	switch {
	case errTS != nil && errJS != nil:
	case errTS != nil:
		t.Errorf("%s: esbuild rejects the TypeScript (%v) but takes the stripped JavaScript:\n--- source\n%s\n--- stripped\n%s", name, errTS, body, out)
	case errJS != nil:
		t.Errorf("%s: the stripped JavaScript does not compile (%v):\n--- source\n%s\n--- stripped\n%s", name, errJS, body, out)
	case got != want:
		t.Errorf("%s: esbuild prints the stripped JavaScript differently\n--- source\n%s\n--- stripped\n%s\n--- TS transform\n%s\n--- JS transform of stripped\n%s", name, body, out, want, got)
	}
	if isDirect != direct(out) {
		t.Errorf("%s: stripTypes says direct %v, direct of the stripped text %v", name, isDirect, direct(out))
	}
	return isDirect
}

// corpus returns the programs of the repository's corpora, by name: the
// hostile corpus, the Node.js difference programs, the benchmark programs,
// the examples, and the TypeScript programs in testdata/strip (written the
// way models write them).
func corpus(t testing.TB) map[string]string {
	t.Helper()
	progs := map[string]string{"benchProgram": benchProgram}
	for _, glob := range []string{
		"../../testdata/hostile/*.[jt]s", "../../testdata/node/*.js", "../../bench/programs/*.js",
		"../../examples/*.ts", "../../examples/*/*.ts", "testdata/strip/*.ts",
	} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no files match %s", glob)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			progs[strings.TrimPrefix(f, "../../")] = string(b)
		}
	}
	return progs
}

// TestStripCorpus runs the oracle on every corpus program, each as
// TypeScript (JavaScript is TypeScript too, and esbuild's TypeScript
// parser reads some JavaScript differently, such as f<a>(b)).
func TestStripCorpus(t *testing.T) {
	progs := corpus(t)
	fast, ts, tsFast := 0, 0, 0
	for name, src := range progs {
		took := checkStrip(t, name, prepare(src))
		isTS := strings.HasSuffix(name, ".ts") || name == "benchProgram"
		if took {
			fast++
		}
		if isTS {
			ts++
			if took {
				tsFast++
			} else {
				t.Logf("declined: %s", name)
			}
		}
	}
	t.Logf("fast path: %d of %d corpus programs; %d of %d TypeScript programs", fast, len(progs), tsFast, ts)
	// The model-style programs of testdata/strip take the fast path, but
	// for the two written to be declined (an enum, a class).
	for name, src := range progs {
		if !strings.HasPrefix(name, "testdata/strip/") {
			continue
		}
		_, isDirect, ok := stripTypes(prepare(src))
		declines := name == "testdata/strip/enum-status.ts" || name == "testdata/strip/class-cache.ts"
		if ok && isDirect == declines {
			t.Errorf("%s: fast path %v, want %v", name, ok && isDirect, !declines)
		}
		if !ok && !declines {
			t.Errorf("%s: declined", name)
		}
	}
}

// TestSourceMapLater: compile transforms without a source map and makes
// the map only when a position is asked for, by transforming again. That
// holds only if esbuild prints the same code with a map and without: check
// it on every corpus program, in both languages, and that the map is made
// once for concurrent callers.
func TestSourceMapLater(t *testing.T) {
	for name, src := range corpus(t) {
		for _, lang := range []Lang{JS, TS} {
			p, err := TransformFull(src, lang)
			if err != nil {
				continue // not valid as this language
			}
			m, lines := p.sourceMap()
			if len(m) == 0 || len(lines) == 0 {
				t.Errorf("%s (%v): no source map: esbuild printed other code with a map", name, lang)
			}
		}
	}
	p, err := TransformFull("interface Q { n: number }\nconst q: Q = { n: 1 };\nthrow new Error('x' + q.n);", TS)
	if err != nil {
		t.Fatal(err)
	}
	lines := make(chan int, 8)
	for range 8 {
		go func() {
			l, _, _ := p.Original(3, 0) // the throw's line in esbuild's code
			lines <- l
		}()
	}
	for range 8 {
		if l := <-lines; l != 3 {
			t.Errorf("Original(3, 0) = line %d, want 3\n%s", l, p.Code)
		}
	}
}

// TestScanNumber: numeric literals are read as JavaScript reads them, and
// what is not one (or is legacy octal) declines.
func TestScanNumber(t *testing.T) {
	for _, n := range []string{"0", "1_000", ".5", "1.", "1e-7", "2E+3", "1.5e3", "0xFF_ff", "0o17", "0b101", "10n", "0x1fn"} {
		if j, ok := scanNumber(n+" ", 0); !ok || j != len(n) {
			t.Errorf("scanNumber(%q) = %d, %v", n, j, ok)
		}
	}
	for _, n := range []string{"017", "08", "1_", "1__0", "3in", "0x", "0x_1", "1e", "1e+", "1.5n", "000000A", "1$"} {
		if j, ok := scanNumber(n, 0); ok {
			t.Errorf("scanNumber(%q) = %d, true", n, j)
		}
	}
	if toks, ok := tokenize("x = 1..toString() + 1.5.toFixed(1)", nil); !ok || len(toks) != 15 {
		t.Errorf("tokenize: %d tokens, %v", len(toks), ok)
	}
}
