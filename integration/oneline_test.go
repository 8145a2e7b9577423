package integration_test

import (
	"strings"
	"testing"

	"github.com/modebox/modebox"
)

// An error thrown in a function written on one line is placed on that
// line, in the error's line and in its stack: QuickJS kept no line table
// for such a function and printed its frame as "(main.js)", with no line
// and the engine's own file name, and the error's line was the caller's.
func TestErrorInOneLineFunction(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct {
		lang, src, frame, source string
	}{
		{"ts", "function f(){ null.x }\nf()\n", "at f (main.ts:1)", "function f(){ null.x }"},
		{"ts", "const g = () => null.x;\ng()\n", "at g (main.ts:1)", "const g = () => null.x;"},
		{"js", "\n\nfunction h() { throw new Error('x') }\nh()\n", "at h (main.js:3)", "function h() { throw new Error('x') }"},
	} {
		r := run(t, e, c.src, modebox.RunOptions{Lang: modebox.Lang(c.lang)})
		if r.Error == nil {
			t.Fatalf("%q: no error", c.src)
		}
		if !strings.Contains(r.Error.Stack, c.frame) || r.Error.Source != c.source {
			t.Errorf("%q: line %d source %q stack %q, want frame %q and source %q", c.src, r.Error.Line, r.Error.Source, r.Error.Stack, c.frame, c.source)
		}
	}
	// in the program's own e.stack too
	r := run(t, e, "try { (function f(){ null.x })() } catch (e) { return e.stack }", modebox.RunOptions{Lang: "js"})
	if !strings.Contains(string(r.Value), "at f (main.js:") {
		t.Errorf("e.stack %s", r.Value)
	}
}
