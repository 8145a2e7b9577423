package engine

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/tsx"
)

// overrunCases are native builtins that run long without ticking: the
// guest notices the deadline only at an allocator poll.
var overrunCases = map[string]string{
	"bigint toString": `return (3n**300000n).toString().length`,
	"bigint pow":      `return (7n**2000000n) > 1n`,
	"string repeat":   `return "abc".repeat(1<<24).length`,
	"split+join":      `return "ab".repeat(1<<22).split("").join("-").length`,
	"sort":            `const a = Array.from({length: 2e6}, (_, i) => (i * 7919) % 1000003); a.sort(); return a.length`,
	"regexp":          `return /(a+)+$/.test("a".repeat(40)+"b")`,
	"json":            `return JSON.stringify(Array.from({length: 3e5}, (_, i) => ({i, s: "x" + i}))).length`,
}

// TestOverrunAfterDeadline measures how long the guest keeps running after
// Run has returned TIMEOUT. It fails only if the guest never stops (before
// the test binary's deadline). The figures are logged, never asserted.
func TestOverrunAfterDeadline(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	var worst time.Duration
	for name, src := range overrunCases {
		p, err := tsx.Transform(src, tsx.JS)
		if err != nil {
			t.Fatal(err)
		}
		var overruns []time.Duration
		for range 3 {
			exited := make(chan time.Duration, 1)
			res := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup,
				Limits: Limits{Timeout: 10 * time.Millisecond},
				Exited: func(d time.Duration) { exited <- d }})
			if res.Err == nil || res.Err.Code != codes.Timeout {
				t.Fatalf("%s: %+v", name, res.Err)
			}
			// "never" is the test binary's own deadline: how long a
			// builtin runs on depends on the machine's load, so no fixed
			// bound is assumed here
			select {
			case d := <-exited:
				overruns = append(overruns, d)
			case <-giveUp(t):
				t.Fatalf("%s: the guest never stopped", name)
			}
		}
		slices.Sort(overruns)
		worst = max(worst, overruns[len(overruns)-1])
		t.Logf("%-16s overrun median %v max %v", name, overruns[1].Round(time.Microsecond), overruns[2].Round(time.Microsecond))
	}
	t.Logf("worst overrun %v", worst.Round(time.Microsecond))
}

// giveUp is when a test stops waiting for a guest to stop: a minute after
// the call (what runs on for a minute after its deadline, even on a loaded
// machine, runs on for ever), or shortly before the test binary's deadline.
func giveUp(t *testing.T) <-chan time.Time {
	wait := time.Minute
	if d, ok := t.Deadline(); ok {
		wait = min(wait, time.Until(d)-30*time.Second)
	}
	return time.After(wait)
}

// TestRunEndsAfterStopIgnored stops runs inside BigInt arithmetic (every
// ** computes logarithms to check for overflow) at many points. There libbf's Ziv rounding loop (bf_log, bf_pow, ...) ignores the
// allocations that fail once the guest is told to stop; when it fails
// often enough its precision overflows and it never ends, so the guest
// polls on for ever. Every run must still end (the host traps a guest that
// polls on after it was told to stop) with the code that stopped it.
func TestRunEndsAfterStopIgnored(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	p, err := tsx.Transform(`for (;;) { (3n ** 3000n).toString() }`, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	// The timeouts spread the stop over the program; which ones land in
	// the loop depends on the machine's speed, so there are many.
	for i := range 200 {
		timeout := time.Millisecond + time.Duration(i%40)*time.Millisecond/4
		exited := make(chan struct{})
		res := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup,
			Limits: Limits{Timeout: timeout},
			Exited: func(time.Duration) { close(exited) }})
		if res.Err == nil || res.Err.Code != codes.Timeout {
			t.Fatalf("timeout %v: %+v", timeout, res.Err)
		}
		select {
		case <-exited:
		case <-giveUp(t):
			t.Fatalf("timeout %v: the guest never stopped", timeout)
		}
	}
}

// TestExitedAfterRelease: Exited is called once the run's instance is
// handed back, so that what its release goes on to do in the background
// (the reset of an instance kept, a spare's restore) is counted by then,
// and a caller that waited for Exited and then for the engine's resets (as
// the tests that count restores do, quietShared) finds nothing of the run
// still going. At Exited the run either holds the engine no longer (its
// instance closed) or its instance's reset is counted as pending.
func TestExitedAfterRelease(t *testing.T) {
	noSpares(t) // no restore in the background counts as a release
	e, err := Load(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	p, err := tsx.Transform(`for (;;) {}`, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	type state struct{ live, releasing int }
	for _, timeout := range []time.Duration{time.Millisecond, 20 * time.Millisecond, 100 * time.Millisecond} {
		exited := make(chan state, 1)
		res := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup,
			Limits: Limits{Timeout: timeout},
			Exited: func(time.Duration) {
				e.idleMu.Lock()
				exited <- state{int(e.live.Load()), e.releasing}
				e.idleMu.Unlock()
			}})
		if res.Err == nil || res.Err.Code != codes.Timeout {
			t.Fatalf("timeout %v: %+v", timeout, res.Err)
		}
		select {
		case s := <-exited:
			if s.live > s.releasing {
				t.Fatalf("timeout %v: at Exited %d runs hold the engine and %d releases are pending: the instance was not handed back yet", timeout, s.live, s.releasing)
			}
		case <-giveUp(t):
			t.Fatalf("timeout %v: the guest never stopped", timeout)
		}
		e.awaitResets()
	}
}

// TestCompareBranchLoopsStop: loops whose only conditional jump is fused
// with their comparison (a do-while's jump back), or with a small constant
// and the comparison (OP_cmp_k_br: `i !== 1`, `i >= 0`, `i < 7`), still
// poll for the deadline there: the run times out and its guest leaves
// wasm.
func TestCompareBranchLoopsStop(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		`let i = 0; do { i++; } while (i < 1e15); return i;`,
		`let i = 0; do { i += 2; } while (i !== 1); return i;`,
		`let i = 1e15; do { i--; } while (i >= 0); return i;`,
		`let i = 0, s = "a"; do { i++; } while (s == "a"); return i;`,
		`var i = 0; do { i = i - 1; } while (i < 7); return i;`,
		`function f(n) { do { n = n + 1; } while (n > -1); return n; } return f(0);`,
	} {
		p, err := tsx.Transform(src, tsx.JS)
		if err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		res := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Limits: Limits{Timeout: 50 * time.Millisecond},
			Exited: func(time.Duration) { close(exited) }})
		if res.Err == nil || res.Err.Code != codes.Timeout {
			t.Fatalf("%s: %s %+v, want TIMEOUT", src, res.Value, res.Err)
		}
		select {
		case <-exited:
		case <-giveUp(t):
			t.Fatalf("%s: the guest never stopped", src)
		}
	}
}
