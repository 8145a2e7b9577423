package engine

import (
	"context"
	"encoding/json"
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
// ends normally or at its cap (MEMORY_LIMIT), never otherwise: before resolve_labels checked its first buffer, it wrote
// relocations through a null pointer there (a heap write outside any
// block in the guest, or a crash). When it runs it answers 47, as in
// Node 22.
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
		for i, g := range got {
			s := string(g)
			switch {
			case s == "47" || s == "null":
				// (null: the first call's error, when even the
				// InternalError could not be made)
			case strings.Contains(s, "out of memory") && i == 0,
				strings.Contains(s, "the function could not be compiled") && i == 1:
			default:
				t.Fatalf("free %d: call %d returned %s", free, i+1, s)
			}
		}
		if string(got[0]) == "47" {
			ran++
		} else {
			failed++
		}
	}
	t.Logf("the first call ran in %d runs and failed in %d; %d runs reached the cap after it", ran, failed, capped)
	if ran == 0 || failed == 0 {
		t.Fatalf("the amounts of room do not straddle what making the function needs")
	}
}
