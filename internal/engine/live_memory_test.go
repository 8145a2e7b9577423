package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/tetratelabs/wazero/api"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/tsx"
)

// callStack is the call stack of f's wazero call engine: test-only
// reading of an unexported field (wazero v1.12, compiler engine). It fails
// the test when the field is not there (wazero changed).
func callStack(t *testing.T, f api.Function) []byte {
	t.Helper()
	v := reflect.ValueOf(f)
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		t.Fatalf("wazero's function is a %s, not a call engine", v.Kind())
	}
	s := v.FieldByName("stack")
	if !s.IsValid() || s.Kind() != reflect.Slice || s.Type().Elem().Kind() != reflect.Uint8 {
		t.Fatal("wazero's call engine has no stack []byte field: read the call stack another way")
	}
	return unsafe.Slice((*byte)(s.UnsafePointer()), s.Len())
}

// highWater is how deep a call stack was ever used: its bytes are zeroed
// when made, and it grows down from its end.
func highWater(stack []byte) int {
	for i, c := range stack {
		if c != 0 {
			return len(stack) - i
		}
	}
	return 0
}

// oneGrowth bounds mb_run's call stack after one growth: wazero starts it
// at 10240 bytes and grows it to 2*len + the frame that did not fit + 16,
// so one growth stays under 27 KiB and a second is over 40 KiB.
const oneGrowth = 32 << 10

// TestSmallRunStackGrowsOnce: a small run's mb_run goes less than ~20 KiB
// deep, so its call stack grows once (to ~20.6 KiB, a 21,760-byte block),
// not twice (a 48 KiB block), as it did when every call of a C function
// from JS entered the interpreter's ~6 KiB frame (patch zm2) and the
// prelude's start, tools, built-ins and result encoding nested in one
// another (mb_run calls them one after the other). (A console.log at the
// top level goes 20.4 KiB deep, at the edge: not here.)
func TestSmallRunStackGrowsOnce(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	old := reuseInstances.Load()
	reuseInstances.Store(false) // a fresh instance, a fresh call stack, each run
	defer reuseInstances.Store(old)
	for _, src := range []string{
		liveProgram,
		"return 1",
		"const r = await Promise.resolve(3); return r + 1;",
		"function f() { return 1; } return f();",
		"return [1, 2, 3].map((x) => x * 2).join();",
		"const o = { a: 1, b: [1, 2] }; return JSON.parse(JSON.stringify(o)).b[1];",
	} {
		p, err := tsx.Transform(src, tsx.JS)
		if err != nil {
			t.Fatal(err)
		}
		var run api.Function
		acquiredHook.set(func(in *instance) { run = in.run })
		r := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Host: addHost{}})
		acquiredHook.set(nil)
		if r.Err != nil {
			t.Fatalf("%q: %+v", src, r.Err)
		}
		stack := callStack(t, run)
		t.Logf("%q: mb_run's call stack %d bytes, %d used", src, len(stack), highWater(stack))
		if len(stack) > oneGrowth {
			t.Errorf("%q: mb_run's call stack grew to %d bytes (used %d): more than once", src, len(stack), highWater(stack))
		}
	}
}

// TestWaitingRunHoldsNoCallEngine: a run waiting in its first host call
// while many runs are live (more than shareThreshold: here 0), with inputs
// that fit on the guest's stack, holds no wazero call engine: mb_alloc's
// was never made, mb_settle's not yet, mb_run's was dropped when the run
// went on to wait. The run then finishes, its instance is reused, and the
// next run on it makes what it needs again. With few runs live, mb_run's
// is kept.
func TestWaitingRunHoldsNoCallEngine(t *testing.T) {
	noSpares(t) // the idle instance, or the one restored, is the run's
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	if r := runReuse(t, e, "return await tools.add({a: 1, b: 2}) + 1"); r.Err != nil || string(r.Value) != "4" {
		t.Fatalf("%s %+v", r.Value, r.Err)
	}
	for _, in := range takeIdle(e) {
		if in.run == nil {
			t.Error("a run that waited while one run was live dropped mb_run's call engine")
		}
		in.mod.Close(context.Background())
	}
	old := shareThreshold.Load()
	shareThreshold.Store(0)
	defer shareThreshold.Store(old)
	for _, in := range takeIdle(e) {
		in.mod.Close(context.Background())
	}
	var in *instance
	whileWaiting(t, e, liveProgram, func(waiting *instance, _, _ []byte) {
		// the driver set these before it called the host
		in = waiting
		if in.run != nil || in.alloc != nil || in.settle != nil {
			t.Errorf("a waiting run holds call engines: mb_run %v, mb_alloc %v, mb_settle %v", in.run != nil, in.alloc != nil, in.settle != nil)
		}
	})
	idle := takeIdle(e)
	if len(idle) != 1 || idle[0] != in {
		t.Fatalf("the instance was not kept for reuse (%d idle)", len(idle))
	}
	e.idleMu.Lock()
	e.idle = idle
	e.idleMu.Unlock()
	for i := range 3 { // on the reused instance: it makes mb_run's call engine again
		if r := runReuse(t, e, "return await tools.add({a: 1, b: 2}) + 1"); r.Err != nil || string(r.Value) != "4" {
			t.Fatalf("run %d on the reused instance: %s %+v", i, r.Value, r.Err)
		}
	}
	if in.run != nil || in.settle == nil || in.alloc != nil {
		t.Errorf("after runs that waited: mb_run %v (want dropped), mb_settle %v (want kept), mb_alloc %v (want never made)", in.run != nil, in.settle != nil, in.alloc != nil)
	}
}

// valuesHost answers call i with the JSON text values[i].
type valuesHost struct{ values []string }

func (valuesHost) Gate(Call, bool) Verdict { return Verdict{} }

func (h valuesHost) Call(_ context.Context, c Call) (json.RawMessage, error) {
	return json.RawMessage(h.values[c.ID-1]), nil
}

// randomText is text whose JSON encoding (encoding/json's) is n bytes at
// most, and as close to n as one rune allows: runes from every Unicode
// plane, with what JSON must escape (quote, backslash, control
// characters, NUL) and < > &.
func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	size := 2 // the quotes
	for {
		var r rune
		switch rng.IntN(8) {
		case 0:
			r = rune(`"\<>&`[rng.IntN(5)])
		case 1:
			r = rune(rng.IntN(0x20)) // NUL and the other control characters
		case 2:
			r = rune(0x10000 + rng.IntN(0x100000-0x10000)) // planes 1 to 15
		case 3:
			r = rune(0x80 + rng.IntN(0xd800-0x80))
		default:
			r = rune('a' + rng.IntN(26))
		}
		enc, _ := json.Marshal(string(r))
		if size+len(enc)-2 > n {
			return b.String()
		}
		size += len(enc) - 2
		b.WriteRune(r)
	}
}

// TestInputsOnTheStackRoundTrip: host call results of every size around
// stackInputMax (on the guest's stack below it, from mb_alloc above it)
// reach the program exactly, 60 calls in one run, so the stack pointer
// must be back at rest after every call (endInputs): without that each
// call's inputs would sit lower, and the C stack would run out. Results
// of the last call and a program and setup too big for the stack are
// served by mb_alloc, made then.
func TestInputsOnTheStackRoundTrip(t *testing.T) {
	noSpares(t) // the idle instance, or the one restored, is the run's
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(19, 5))
	sizes := []int{0, 1, 14, 15, 16, 17, stackInputMax - 40, stackInputMax - 17, stackInputMax - 16, stackInputMax - 3, stackInputMax - 2, stackInputMax - 1}
	for len(sizes) < 59 {
		sizes = append(sizes, rng.IntN(stackInputMax))
	}
	sizes = append(sizes, 3*stackInputMax) // the last: too big for the stack
	var values, want []string
	for _, n := range sizes {
		s := randomText(rng, n) // a JSON string of n bytes or a little less
		enc, _ := json.Marshal(s)
		values = append(values, string(enc))
		want = append(want, s)
	}
	src := fmt.Sprintf(`const out = [];
for (let i = 0; i < %d; i++) out.push(await tools.add({}));
return out;`, len(values))
	p, err := tsx.Transform(src, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	var in *instance
	for _, idle := range takeIdle(e) {
		idle.mod.Close(context.Background())
	}
	acquiredHook.set(func(i *instance) { in = i })
	defer acquiredHook.set(nil)
	r := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Host: valuesHost{values}})
	if r.Err != nil {
		t.Fatalf("%+v", r.Err)
	}
	var got []string
	if err := json.Unmarshal(r.Value, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d values, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("call %d (%d bytes of JSON): the program got %q, want %q", i+1, len(values[i]), got[i], want[i])
		}
	}
	if in.alloc == nil {
		t.Error("a result of 3 x stackInputMax bytes did not come through mb_alloc")
	}

	// a program and a setup too big for the stack, and one that fits
	big := "const pad = " + strings.Repeat("1 + ", stackInputMax/4) + "1;\nreturn pad + await tools.add({a: 1, b: 2});"
	setup := `{"tools":[{"key":"add","path":["add"]}],"pad":"` + strings.Repeat("x", stackInputMax) + `"}`
	for _, c := range []struct {
		name, src, setup, want string
		alloc                  bool
	}{
		{"small", "return await tools.add({a: 1, b: 2})", string(addSetup), "3", false},
		{"big program", big, string(addSetup), fmt.Sprint(stackInputMax/4 + 1 + 3), true},
		{"big setup", "return await tools.add({a: 1, b: 2})", setup, "3", true},
	} {
		p, err := tsx.Transform(c.src, tsx.JS)
		if err != nil {
			t.Fatal(err)
		}
		for _, idle := range takeIdle(e) {
			idle.mod.Close(context.Background())
		}
		in = nil
		r := e.Run(context.Background(), Request{Code: p.Code, Setup: []byte(c.setup), Host: addHost{}})
		if r.Err != nil || string(r.Value) != c.want {
			t.Fatalf("%s: %s %+v, want %s", c.name, r.Value, r.Err, c.want)
		}
		if (in.alloc != nil) != c.alloc {
			t.Errorf("%s: mb_alloc made %v, want %v", c.name, in.alloc != nil, c.alloc)
		}
	}
}

// TestInputsOnTheStackKeepStackOverflowCaught: with a program and setup
// that fill stackInputMax on the guest's stack, unbounded recursion (of
// JS, and of JS through a C function) still ends in STACK_OVERFLOW:
// QuickJS's limit leaves the C code room enough below it.
func TestInputsOnTheStackKeepStackOverflowCaught(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"function f(n) { return f(n + 1) + 1; }\nreturn f(0);",
		"function f(n) { return [n].map(f); }\nreturn f(0);",
	} {
		p, err := tsx.Transform("const pad = \""+strings.Repeat("x", stackInputMax/2)+"\";\n"+src, tsx.JS)
		if err != nil {
			t.Fatal(err)
		}
		// the setup fills what the program leaves, to within 64 bytes
		// (each input's address is 16-aligned)
		fill := stackInputMax - (len(p.Code) + 1) - (len(addSetup) + len(`,"pad":""`) + 1) - 64
		setup := strings.TrimSuffix(string(addSetup), "}") + `,"pad":"` + strings.Repeat("y", fill) + `"}`
		var in *instance
		acquiredHook.set(func(i *instance) { in = i })
		for _, idle := range takeIdle(e) {
			idle.mod.Close(context.Background())
		}
		r := e.Run(context.Background(), Request{Code: p.Code, Setup: []byte(setup), Host: addHost{}})
		acquiredHook.set(nil)
		if r.Err == nil || r.Err.Code != codes.StackOverflow {
			t.Fatalf("%q: %s %+v, want %s", src, r.Value, r.Err, codes.StackOverflow)
		}
		if in.alloc != nil {
			t.Errorf("%q: the inputs (%d bytes) did not go on the stack", src, len(p.Code)+len(setup)+2)
		}
	}
	// and the engine's next run is fine
	if r := runReuse(t, e, "return 1 + 1"); r.Err != nil || string(r.Value) != "2" {
		t.Fatalf("%s %+v", r.Value, r.Err)
	}
}
