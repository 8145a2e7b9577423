package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// rawHost answers every call with the JSON text in its arguments' "r"
// field, or fails with its "fail" field as the error code.
type rawHost struct{}

func (rawHost) Gate(Call, bool) Verdict { return Verdict{} }

type codedErr struct{ code string }

func (e codedErr) Error() string     { return "failed with " + e.code }
func (e codedErr) ErrorCode() string { return e.code }

func (rawHost) Call(_ context.Context, c Call) (json.RawMessage, error) {
	var a struct {
		R    *string `json:"r"`
		Fail string  `json:"fail"`
	}
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return nil, err
	}
	if a.Fail != "" {
		return nil, codedErr{a.Fail}
	}
	if a.R == nil {
		return json.RawMessage(c.Args), nil
	}
	return json.RawMessage(*a.R), nil
}

func mustRun(t *testing.T, src string, lim Limits, host Host) string {
	t.Helper()
	res := runJS(t, src, lim, host)
	if res.Err != nil {
		t.Fatalf("%s: %s", res.Err.Code, res.Err.Message)
	}
	return string(res.Value)
}

// The glue reads small integer results without the JSON parser: every
// other text, -0 among them, must still read as JSON.parse reads it.
func TestHostCallNumberResults(t *testing.T) {
	texts := []string{"0", "-0", "7", "-7", "10", "999999999", "-999999999", "1000000000", "-1000000000",
		"2147483647", "-2147483648", "4294967296", "1.5", "-0.0", "1e3", "0.1", "9007199254740993", "1E-7", "-0e0"}
	// and generated integers of 1 to 12 digits, either sign
	rng := rand.New(rand.NewPCG(19, 4))
	for range 300 {
		d := 1 + rng.IntN(12)
		s := strconv.Itoa(1 + rng.IntN(9))
		for range d - 1 {
			s += strconv.Itoa(rng.IntN(10))
		}
		if rng.IntN(2) == 0 {
			s = "-" + s
		}
		texts = append(texts, s)
	}
	var b strings.Builder
	b.WriteString("const out = [];\n")
	for _, s := range texts {
		fmt.Fprintf(&b, "{ const v = await tools.add({r: %q}); out.push([typeof v, Object.is(v, -0), String(v), v === JSON.parse(%q) || Object.is(v, JSON.parse(%q))]); }\n", s, s, s)
	}
	b.WriteString("return out;")
	got := mustRun(t, b.String(), Limits{}, rawHost{})
	var rows [][4]any
	if err := json.Unmarshal([]byte(got), &rows); err != nil {
		t.Fatal(err)
	}
	for i, s := range texts {
		r := rows[i]
		negZero := s == "-0" || s == "-0.0" || s == "-0e0"
		if r[0] != "number" || r[1] != negZero || r[3] != true {
			t.Errorf("%s: got %v", s, r)
		}
	}
}

// A result that is an object is resolved as a promise's resolve function
// would: a then the program put on Object.prototype is looked up and
// called (as Node does for any promise resolved with such an object), and
// a then getter that throws rejects the call.
func TestHostCallResultThenable(t *testing.T) {
	got := mustRun(t, `
let seen = 0;
Object.prototype.then = function (resolve) { seen++; delete Object.prototype.then; resolve("via then"); };
const a = await tools.add({r: '{"x":1}'});
const b = await tools.add({r: '{"x":2}'});
Object.defineProperty(Object.prototype, "then", { configurable: true, get() { delete Object.prototype.then; throw new Error("getter"); } });
let c;
try { c = await tools.add({r: '{"x":3}'}); } catch (e) { c = "rejected: " + e.message; }
const d = await tools.add({r: "5"});
return [a, b, c, d, seen];`, Limits{}, rawHost{})
	if want := `["via then",{"x":2},"rejected: getter",5,1]`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// Failures reject with ToolError and the host's code, in a loop that
// alternates with successes, and the call ids stay in sequence.
func TestHostCallFailuresInALoop(t *testing.T) {
	got := mustRun(t, `
const out = [];
for (let i = 0; i < 40; i++) {
  try {
    out.push(await tools.add(i % 3 === 0 ? {fail: "CODE_" + i} : {r: String(i)}));
  } catch (e) {
    out.push(e instanceof ToolError ? e.code + "/" + e.name + "/" + e.tool : "not a ToolError");
  }
}
// started together, settled in any order
const all = await Promise.allSettled([tools.add({r: "1"}), tools.add({fail: "X"}), tools.add({r: "[3]"})]);
return [out.join(","), all.map((s) => s.status + ":" + JSON.stringify(s.value ?? s.reason.code)).join(",")];`, Limits{}, rawHost{})
	var want []string
	for i := 0; i < 40; i++ {
		if i%3 == 0 {
			want = append(want, fmt.Sprintf("CODE_%d/ToolError/add", i))
		} else {
			want = append(want, fmt.Sprint(i))
		}
	}
	if w := fmt.Sprintf(`[%q,"fulfilled:1,rejected:\"X\",fulfilled:[3]"]`, strings.Join(want, ",")); got != w {
		t.Fatalf("got %s\nwant %s", got, w)
	}
}

// Arguments that are not plain data take the prelude's encoder (a Map, a
// BigInt, a toJSON), and what cannot be encoded rejects the call without
// making it; a missing argument is {}.
func TestHostCallArgumentsOutsideTheFastPath(t *testing.T) {
	h := &echoHost{}
	got := mustRun(t, `
const out = [];
out.push(await tools.add());
out.push(await tools.add(undefined));
out.push(await tools.add(new Map([["k", 1n]])));
out.push(await tools.add({d: {toJSON() { return "j"; }}}));
out.push(await tools.add(Symbol("s")));
try { await tools.add({f: 1n, self: (() => { const o = {}; o.o = o; return o; })()}); } catch (e) { out.push(e.name); }
const p = tools.add({c: (() => { const o = {}; o.o = o; return o; })()});
out.push(p instanceof Promise);
try { await p; } catch (e) { out.push(e.name); }
return [out, typeof tools.add, tools.add.name, tools.add.length];`, Limits{}, h)
	if want := `[[{},{},{"k":"1"},{"d":"j"},null,"TypeError",true,"TypeError"],"function","add",1]`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if want := []string{`{}`, `{}`, `{"k":"1"}`, `{"d":"j"}`, `null`}; fmt.Sprint(h.args) != fmt.Sprint(want) {
		t.Fatalf("the host saw %q, want %q", h.args, want)
	}
}

// An async function suspended on a promise nothing can settle keeps the
// functions its awaits resume with, which refer back to it: the cycle
// collector must free it. 100,000 of them, under a 16 MB cap, fit only if
// they are freed.
func TestAbandonedAsyncFunctionsAreFreed(t *testing.T) {
	got := mustRun(t, `
for (let round = 0; round < 100; round++) {
  for (let i = 0; i < 1000; i++) {
    (async () => { const big = new Array(16).fill(i); await 1; await new Promise(() => {}); return big; })();
  }
  await tools.add({r: "1"}); // the awaits of 1 run; each function is left on its last await
}
return "done";`, Limits{Memory: 16 << 20}, rawHost{})
	if got != `"done"` {
		t.Fatal(got)
	}
}
