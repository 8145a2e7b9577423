package modebox

import (
	"testing"
)

// TestCallbackThrowFailsTheRun: a throw that a timer's or a microtask's
// callback does not catch fails the run with that error, as an uncaught
// exception ends a Node process; before, it was swallowed, so a program
// returned as if nothing had happened, or waited for ever on what the
// callback never settled (NEVER_SETTLED, the real error lost).
func TestCallbackThrowFailsTheRun(t *testing.T) {
	e, err := New(EngineConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	cases := []struct {
		name, src    string
		errName, msg string
		line         int
	}{
		{"timeout", "setTimeout(() => { throw new Error('late'); }, 0);\nawait new Promise((r) => setTimeout(r, 5));\nreturn 'finished';", "Error", "late", 1},
		{"what the program waits for", "const v = await new Promise((res) => setTimeout(() => {\n  res(JSON.parse('{bad'));\n}, 0));\nreturn v;", "SyntaxError", "expecting property name", 2},
		{"interval, second tick", "let n = 0;\nconst id = setInterval(() => { if (++n === 2) throw new TypeError('tick ' + n); }, 1);\nawait new Promise((r) => setTimeout(r, 50));\nclearInterval(id);\nreturn n;", "TypeError", "tick 2", 2},
		{"microtask", "queueMicrotask(() => { throw new RangeError('micro'); });\nawait null;\nawait null;\nreturn 'after';", "RangeError", "micro", 1},
		{"a thrown string", "setTimeout(() => { throw 'plain'; }, 0);\nawait new Promise((r) => setTimeout(r, 5));\nreturn 1;", "", "uncaught string: plain", 0},
	}
	for _, c := range cases {
		res, err := e.Run(t.Context(), c.src, RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusError || res.Error == nil || res.Error.Code != CodeUncaughtException || res.Error.Name != c.errName || res.Error.Message != c.msg || (c.line > 0 && res.Error.Line != c.line) {
			t.Errorf("%s: %+v %+v", c.name, res, res.Error)
		}
	}
	// caught inside the callback, or never thrown: the run goes on
	for _, src := range []string{
		"const r = [];\nsetTimeout(() => { try { throw new Error('in'); } catch (e) { r.push(e.message); } }, 0);\nawait new Promise((res) => setTimeout(res, 5));\nreturn r[0];",
		"queueMicrotask(() => {});\nawait null;\nreturn 'in';",
	} {
		res, err := e.Run(t.Context(), src, RunOptions{})
		if err != nil || res.Status != StatusOK || string(res.Value) != `"in"` {
			t.Errorf("%q: %v %+v %+v", src, err, res, res.Error)
		}
	}
}
