package engine

import (
	"context"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/tsx"
)

// nonPollingCases are builtins whose loops neither allocate nor call
// JavaScript: before patch quickjs-zzc-polls they never polled the host,
// so the guest ran on after Run returned TIMEOUT (for minutes, or for
// ever), uncharged, and held the Go process's garbage collector (wazero's
// compiled code cannot be preempted) until it ended. Each case is sized
// to run for minutes without the patch.
var nonPollingCases = []struct{ name, src string }{
	// O(n*m) string searches: 2^18 candidates of a 2^18-character compare
	{"indexOf", `const s = 'a'.repeat(1<<19), p = 'a'.repeat(1<<18) + 'b'; return s.indexOf(p)`},
	{"lastIndexOf", `const s = 'a'.repeat(1<<19), p = 'a'.repeat((1<<18) - 1) + 'b'; return s.lastIndexOf(p)`},
	{"includes", `const s = 'a'.repeat(1<<19), p = 'a'.repeat(1<<18) + 'b'; return s.includes(p)`},
	{"split", `const s = 'a'.repeat(1<<19), p = 'a'.repeat(1<<18) + 'b'; return s.split(p).length`},
	{"replaceAll", `const s = 'a'.repeat(1<<19), p = 'a'.repeat(1<<18) + 'b'; return s.replaceAll(p, 'x').length`},
	// loops over an array-like's length that find no element
	{"array-like indexOf", `return Array.prototype.indexOf.call({length: 2**53 - 1}, 1)`},
	{"array-like lastIndexOf", `return Array.prototype.lastIndexOf.call({length: 2**53 - 1}, 1)`},
	{"array-like includes", `return Array.prototype.includes.call({length: 2**53 - 1}, 1)`},
	{"array-like reverse", `return Array.prototype.reverse.call({length: 2**53 - 1})`},
	{"array-like copyWithin", `return Array.prototype.copyWithin.call({length: 2**53 - 1}, 0, 1)`},
	{"array-like shift", `return Array.prototype.shift.call({length: 2**32})`},
	{"array-like flat", `return Array.prototype.flat.call({length: 2**53 - 1}).length`},
	{"sparse array indexOf", `return new Array(2**32 - 1).indexOf(1)`},
	{"array-like join", `return Array.prototype.join.call({length: 2**53 - 1}, "").length`},
	// one long string shared by many elements: each compare or hash is long
	{"shared strings indexOf", `const s = 'a'.repeat(1<<22), t = 'a'.repeat((1<<22) - 1) + 'b'; return new Array(1<<16).fill(s).indexOf(t)`},
	{"shared strings lastIndexOf", `const s = 'a'.repeat(1<<22), t = 'a'.repeat((1<<22) - 1) + 'b'; return new Array(1<<16).fill(s).lastIndexOf(t)`},
	{"shared strings sort", `const s = 'a'.repeat(1<<22); new Array(1<<14).fill(s).sort(); return 1`},
	{"shared strings Set", `const s = 'a'.repeat(1<<22); return new Set(new Array(1<<16).fill(s)).size`},
}

// overrunBound is how long after its deadline a guest may still run.
const overrunBound = 20 * time.Second

// TestNoBuiltinRunsOnAfterDeadline: each case ends with TIMEOUT, and its
// guest leaves wasm (Exited) within overrunBound of its deadline (a
// guest still in wasm would hold the next garbage collection). Without the polls the guest runs
// on for minutes (or until its first allocation, for join).
func TestNoBuiltinRunsOnAfterDeadline(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range nonPollingCases {
		p, err := tsx.Transform(c.src, tsx.JS)
		if err != nil {
			t.Fatal(err)
		}
		exited := make(chan time.Duration, 1)
		res := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup,
			Limits: Limits{Timeout: 50 * time.Millisecond},
			Exited: func(d time.Duration) { exited <- d }})
		if res.Err == nil || res.Err.Code != codes.Timeout {
			t.Fatalf("%s: %+v", c.name, res.Err)
		}
		select {
		case d := <-exited:
			t.Logf("%-26s overrun %v", c.name, d.Round(time.Millisecond))
			// polled, a guest stops within milliseconds of its deadline;
			// the bound is thousands of times that, for a loaded machine.
			// Unpolled, join reads 2^31 missing elements (~45 s here)
			// before its first allocation polls.
			if d > overrunBound {
				t.Fatalf("%s: the guest ran on %v after its deadline", c.name, d.Round(time.Millisecond))
			}
		case <-giveUp(t):
			t.Fatalf("%s: the guest never stopped after its deadline", c.name)
		}
	}
}
