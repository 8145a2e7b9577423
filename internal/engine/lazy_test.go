package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/tsx"
)

// lazyAtCapProgram fills the run's memory to its cap with small objects,
// gives back FREE of them, and only then calls a function for the first
// time, so that its bytecode (quickjs-zzl-lazy-functions) is made with
// that little room: a label-heavy body, so that resolve_labels has
// relocations to write. It returns both calls' results or errors (the
// second after the filling is let go).
const lazyAtCapProgram = `
function mk() {
  return function f(a) {
    let s = 0;
    outer: for (let i = 0; i < a; i++) {
      for (let j = 0; j < 3; j++) { if (j > i) continue outer; s += j; }
      if (i > 100) break;
      switch (i % 3) { case 0: s += i; break; case 1: s -= 1; break; default: s += 2; }
    }
    return s;
  };
}
const f = mk();
// (call is made here, before the filling: only f's first call is at the cap)
const call = (g) => { try { return g(10); } catch (e) { return e && e.message; } };
call(() => 0);
let hog = [];
try { for (;;) hog.push({ x: hog.length }); } catch (e) {}
hog.length = Math.max(0, hog.length - FREE);
const first = call(f);
hog = null;
const second = call(f);
return [first, second];
`

// TestFirstCallAtTheCap: a function first called when the run's memory
// is within a few objects of its cap either runs or fails its call with
// an error the program can catch, at every amount of room, and the run
// ends normally or at its cap (MEMORY_LIMIT), never otherwise. Before
// resolve_labels checked its first buffer, it wrote relocations through
// a null pointer there (a heap write outside any block in the guest, or
// a crash). When it runs it answers 47, as in Node 22.
func TestFirstCallAtTheCap(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	ran, failed, capped := 0, 0, 0
	for free := 0; free <= 60; free++ {
		prog, err := tsx.Transform(strings.Replace(lazyAtCapProgram, "FREE", strconv.Itoa(free), 1), tsx.JS)
		if err != nil {
			t.Fatal(err)
		}
		r := e.Run(context.Background(), Request{Code: prog.Code, Setup: addSetup, Limits: Limits{Memory: 1 << 20}})
		if r.Err != nil {
			// the cap may refuse what the run does after the calls too
			if r.Err.Code != codes.MemoryLimit {
				t.Fatalf("free %d: the run ended with %s: %s", free, r.Err.Code, r.Err.Message)
			}
			capped++
			continue
		}
		var got [2]json.RawMessage
		if err := json.Unmarshal(r.Value, &got); err != nil {
			t.Fatalf("free %d: %s: %v", free, r.Value, err)
		}
		first, second := string(got[0]), string(got[1])
		switch {
		case first == "47" && second == "47":
			ran++
		case (first == "null" || strings.Contains(first, "out of memory")) &&
			strings.Contains(second, "the function could not be compiled"):
			// (null: the first call's error, when even the
			// InternalError could not be made)
			failed++
		default:
			t.Fatalf("free %d: the calls returned %s and %s", free, first, second)
		}
	}
	t.Logf("the first call ran in %d runs and failed in %d; %d runs reached the cap after it", ran, failed, capped)
	if ran == 0 || failed == 0 {
		t.Fatalf("the amounts of room do not straddle what making the function needs")
	}
}

// compileAtCapProgram is about 60 KB of functions with what the parser
// emits jumps, labels and patched instructions for (labelled loops,
// destructuring with defaults, rest parameters, switch), 40 of its 400
// functions called.
func compileAtCapProgram() string {
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "function h%d(a, { b, c } = { b: %d, c: 2 }, ...r) {\n"+
			"  let s = 0;\n"+
			"  outer: for (let i = 0; i < a; i++) {\n"+
			"    for (const j of [1, 2]) { if (j > i) continue outer; s += j; }\n"+
			"    switch (i %% 3) { case 0: s += i; break; default: s -= 1; }\n"+
			"  }\n"+
			"  const [x, y = 3] = [a];\n"+
			"  return s + x + y + b + c + r.length;\n"+
			"}\n", i, i%7)
	}
	b.WriteString("const hs = [h0, h10, h20, h30, h40, h50, h60, h70, h80, h90];\n" +
		"let t = 0;\nfor (let i = 0; i < 40; i++) t += hs[i % 10](i % 6);\nreturn t;\n")
	return b.String()
}

// TestCompileAtTheCap: a program compiled at a memory cap that does not
// leave room for its compile ends in MEMORY_LIMIT, at every cap from
// far too small to enough, and then gives the answer a roomy run gives.
// QuickJS's parser does not check every allocation: before patch
// quickjs-zzm-compile-oom a compile at some caps went on to use a label
// it could not allocate (index -1) or to read an instruction whose
// operands were never written, and ended in GUEST_CRASH; the others were
// reported as SYNTAX_ERROR.
func TestCompileAtTheCap(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	prog, err := tsx.Transform(compileAtCapProgram(), tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	roomy := e.Run(context.Background(), Request{Code: prog.Code, Setup: addSetup})
	if roomy.Err != nil {
		t.Fatalf("with room: %s: %s", roomy.Err.Code, roomy.Err.Message)
	}
	capped, ran := 0, 0
	for kib := 512; kib <= 1600; kib += 4 { // (MinMemory up)
		r := e.Run(context.Background(), Request{Code: prog.Code, Setup: addSetup, Limits: Limits{Memory: int64(kib) << 10}})
		switch {
		case r.Err != nil && r.Err.Code == codes.MemoryLimit:
			capped++
		case r.Err != nil:
			t.Fatalf("cap %d KiB: %s: %s (%+v)", kib, r.Err.Code, r.Err.Message, r.Err)
		case string(r.Value) != string(roomy.Value):
			t.Fatalf("cap %d KiB: %s, with room %s", kib, r.Value, roomy.Value)
		default:
			ran++
		}
	}
	t.Logf("%d caps reached, %d runs answered %s", capped, ran, roomy.Value)
	if capped == 0 || ran == 0 {
		t.Fatalf("the caps do not straddle what the program needs")
	}
}
