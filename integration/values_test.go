package integration_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

// How values cross the boundary (documented in docs/values.md).
func TestValuesCrossAsJSON(t *testing.T) {
	var seen atomic.Value
	echo := modebox.Tool{Name: "echo", Handler: func(_ context.Context, args json.RawMessage) (any, error) {
		seen.Store(string(args))
		return args, nil
	}}
	e := newEngine(t, echo)
	cases := []struct{ code, want string }{
		{`return undefined`, ``},
		{`return`, ``},
		{`return null`, `null`},
		{`return 12345678901234567890n`, `"12345678901234567890"`},
		{`return new Date(0)`, `"1970-01-01T00:00:00.000Z"`},
		{`return new Map([["a", 1], ["b", new Set([1, 2])]])`, `{"a":1,"b":[1,2]}`},
		{`return {f() {}, s: Symbol("x"), u: undefined, n: NaN, i: -Infinity}`, `{"n":null,"i":null}`},
		{`return [undefined, () => 1, Symbol("y")]`, `[null,null,null]`},
		{`return () => 1`, ``},
		{`return "naïve ✓ 😀"`, `"naïve ✓ 😀"`},
		{`return await tools.echo({d: new Date(1000), big: 5n, m: new Map([[1, "one"]])})`, `{"d":"1970-01-01T00:00:01.000Z","big":"5","m":{"1":"one"}}`},
		{`return await tools.echo()`, `{}`},
		{`return await tools.echo(null)`, `null`},
	}
	for _, c := range cases {
		r := run(t, e, c.code, modebox.RunOptions{Lang: "js"})
		if r.Error != nil || string(r.Value) != c.want {
			t.Errorf("%s: got %q %+v, want %q", c.code, r.Value, r.Error, c.want)
		}
	}
	// cycles in tool arguments are a TypeError the program can catch
	r := run(t, e, `const a = {}; a.a = a; try { await tools.echo(a) } catch (e) { return e.name + ": " + e.message }`, modebox.RunOptions{})
	if r.Error != nil || !bytes.Contains(r.Value, []byte("TypeError")) {
		t.Fatalf("cycle: %s %+v", r.Value, r.Error)
	}
	// a getter that throws while the result is serialised
	r = run(t, e, `return {get x() { throw new Error("no") }}`, modebox.RunOptions{})
	if r.Error == nil || r.Error.Code != modebox.CodeValueNotSerializable {
		t.Fatalf("getter: %+v", r.Error)
	}
}

func TestToolErrorsAreCatchable(t *testing.T) {
	fail := modebox.Tool{Name: "fail", Handler: func(context.Context, json.RawMessage) (any, error) {
		return nil, &modebox.ToolError{Code: "NOPE", Message: "it failed"}
	}}
	e := newEngine(t, fail, addTool)
	r := run(t, e, `try { await tools.fail() } catch (e) { return [e.name, e.code, e.message, e.tool, e instanceof Error] }`, modebox.RunOptions{})
	if string(r.Value) != `["ToolError","NOPE","it failed","fail",true]` {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
	r = run(t, e, `await tools.add({a: 1})`, modebox.RunOptions{})
	if r.Error == nil || r.Error.Code != modebox.CodeInvalidArgument || !bytes.Contains([]byte(r.Error.Message), []byte("tools.add")) {
		t.Fatalf("uncaught invalid argument: %+v", r.Error)
	}
	r = run(t, e, `try { await tools.add({a: "x", b: 1}) } catch (e) { return e.message }`, modebox.RunOptions{})
	if !bytes.Contains(r.Value, []byte("/a")) || !bytes.Contains(r.Value, []byte("type")) {
		t.Fatalf("validation message should name path and rule: %s", r.Value)
	}
}

func TestDeterminismAndReplay(t *testing.T) {
	var calls atomic.Int32
	slowAdd := modebox.MustTool("add", "", func(_ context.Context, in addIn) (float64, error) {
		calls.Add(1)
		time.Sleep(time.Duration(int(in.A)%3) * time.Millisecond)
		return in.A + in.B, nil
	})
	label := modebox.MustTool("label", "", func(_ context.Context, in struct {
		N float64 `json:"n"`
	}) (string, error) {
		calls.Add(1)
		return fmt.Sprintf("n=%v", in.N), nil
	})
	label.Namespace = "util"
	e := newEngine(t, slowAdd, label)
	code := `
		const t0 = Date.now();
		const sums = await Promise.all([1, 2, 3, 4, 5].map(i => tools.add({a: i, b: Math.random()})));
		const labels = await Promise.all(sums.map(n => tools.util.label({n})));
		await new Promise(r => setTimeout(r, 5));
		return {t0, t1: Date.now(), r: Math.random(), sums, labels, perf: performance.now() >= 0};`
	first := run(t, e, code, modebox.RunOptions{})
	if first.Error != nil {
		t.Fatal(first.Error)
	}
	made := calls.Load()
	if made != 10 || first.Journal == nil || len(first.Journal.Calls) != 11 {
		t.Fatalf("calls %d journal %+v", made, first.Journal)
	}
	// the journal survives JSON (tokens carry it)
	b, _ := json.Marshal(first.Journal)
	var j modebox.Journal
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	again := run(t, e, code, modebox.RunOptions{Journal: &j})
	if again.Error != nil || !bytes.Equal(again.Value, first.Value) {
		t.Fatalf("replay: %s %+v\nfirst: %s", again.Value, again.Error, first.Value)
	}
	if calls.Load() != made {
		t.Fatalf("replay called %d tools", calls.Load()-made)
	}
	// a program that diverges from its journal is refused
	other := run(t, e, `return await tools.add({a: 100, b: 1})`, modebox.RunOptions{Journal: &j})
	if other.Error == nil || other.Error.Code != modebox.CodeReplayMismatch {
		t.Fatalf("divergent replay: %+v", other.Error)
	}
	// same seed, same clock: bit-identical without a journal too
	fixed := `return [Math.random(), Math.random(), new Date(0).toString()]`
	a := run(t, e, fixed, modebox.RunOptions{Seed: 7})
	c := run(t, e, fixed, modebox.RunOptions{Seed: 7})
	if !bytes.Equal(a.Value, c.Value) {
		t.Fatalf("seeded: %s vs %s", a.Value, c.Value)
	}
}

func TestTypeScript(t *testing.T) {
	e := newEngine(t, addTool)
	code := "interface Point { x: number; y: number }\n" +
		"enum Color { Red, Green = 5, Blue }\n" +
		"type Pair<T> = [T, T];\n" +
		"function swap<T>(p: Pair<T>): Pair<T> { return [p[1], p[0]]; }\n" +
		"class Box<T> { #v: T; constructor(v: T) { this.#v = v } get(): T { return this.#v } static { } }\n" +
		"const p: Point = { x: 1, y: 2 };\n" +
		"const sum = await tools.add({ a: p.x, b: p.y }) as number;\n" +
		"return { sum, swapped: swap<number>([1, 2]), color: Color.Blue, box: new Box('b').get() };\n"
	r := run(t, e, code, modebox.RunOptions{})
	if r.Error != nil || string(r.Value) != `{"sum":3,"swapped":[2,1],"color":6,"box":"b"}` {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
	thrower := "type N = number;\nfunction f(n: N): N {\n  if (n > 1) {\n    throw new Error(`bad ${n}`);\n  }\n  return n;\n}\nreturn f(2);\n"
	r = run(t, e, thrower, modebox.RunOptions{Filename: "job.ts"})
	if r.Error == nil || r.Error.Code != modebox.CodeUncaughtException || r.Error.Line != 4 {
		t.Fatalf("line: %+v", r.Error)
	}
	if !bytes.Contains([]byte(r.Error.Stack), []byte("job.ts:4")) {
		t.Fatalf("stack should name job.ts:4: %q", r.Error.Stack)
	}
	r = run(t, e, "const a: number = 1;\nconst b = a +;\n", modebox.RunOptions{})
	if r.Error == nil || r.Error.Code != modebox.CodeSyntaxError || r.Error.Line != 2 || r.Error.Column == 0 {
		t.Fatalf("syntax: %+v", r.Error)
	}
}

func TestPrelude(t *testing.T) {
	e := newEngine(t)
	r := run(t, e, `return [
		[1,2,3].at(-1), "abc".at(-1), Object.hasOwn({a:1}, "a"), [1,2,3].findLast(x => x < 3),
		[3,1,2].toSorted(), [1,2].toReversed(), [1,2].with(0, 9), Object.keys(Object.groupBy([1,2,3], x => x % 2 ? "odd" : "even")),
		new Error("x", {cause: "c"}).cause, structuredClone({a: [1, {b: 2}]}), btoa("hi"), atob("aGk="),
		new TextDecoder().decode(new TextEncoder().encode("é✓")), (2.5).toFixed(0), (1.005).toFixed(2), (-2.5).toFixed(0),
		(1.45).toFixed(1), (0.000001).toPrecision(2), new Date(0).getTimezoneOffset(), typeof setTimeout, typeof queueMicrotask,
		[(2.5).toPrecision(1), (2.5).toFixed(0), (238.5).toFixed(0)],
	]`, modebox.RunOptions{})
	want := `[3,"c",true,2,[1,2,3],[2,1],[9,2],["odd","even"],"c",{"a":[1,{"b":2}]},"aGk=","hi","é✓","3","1.00","-3","1.4","0.0000010",0,"function","function",["3","3","239"]]`
	if r.Error != nil || string(r.Value) != want {
		t.Fatalf("got  %s\nwant %s\n%+v", r.Value, want, r.Error)
	}
}

// Number formatting and parsing must match native QuickJS exactly; the
// golden file is native QuickJS's output for the same program.
func TestNumbersMatchNative(t *testing.T) {
	src, err := os.ReadFile("../testdata/numbers.js")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("../testdata/numbers.golden")
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t)
	r := run(t, e, string(src), modebox.RunOptions{Lang: "js"})
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	var got string
	if err := json.Unmarshal(r.Value, &got); err != nil {
		t.Fatal(err)
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(golden), "\n")
	if len(gl) != len(wl) {
		t.Fatalf("%d lines, want %d", len(gl), len(wl))
	}
	bad := 0
	for i := range wl {
		if gl[i] != wl[i] {
			if bad < 5 {
				t.Errorf("line %d:\n got  %s\n want %s", i+1, gl[i], wl[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Fatalf("%d lines differ", bad)
	}
}
