package engine

import (
	"context"
	"encoding/json"
	"runtime"
	"sync/atomic"
	"testing"
)

// liveHost answers tools.add and records, while the run waits in the
// call, how many runs the engine counts as live and whether a new
// instance would map the snapshot copy-on-write.
type liveHost struct {
	addHost
	e     *Engine
	live  *atomic.Int32
	share *atomic.Bool
}

func (h liveHost) Call(ctx context.Context, c Call) (json.RawMessage, error) {
	h.live.Store(h.e.live.Load())
	h.share.Store(h.e.shareSnapshot())
	return h.addHost.Call(ctx, c)
}

// TestEndedRunsAreNotLive: a run whose Run has returned is not live, even
// while its instance's reset has not been done (endRelease held back, as
// a busy or single processor does: the goroutine that resets it waits
// behind the caller's next runs). Twelve runs in sequence, each one's
// reset held back, then a thirteenth: while it waits in a host call the
// engine counts one live run, and a new instance would copy the snapshot,
// not map it copy-on-write (which is for many runs at once: a mapped
// instance pays a page fault for each page a run writes, and its reset
// an mmap). Before, the held-back runs counted until their reset: the
// thirteenth saw 13 live runs and sequential runs went copy-on-write.
func TestEndedRunsAreNotLive(t *testing.T) {
	old := shareMode.Load()
	shareMode.Store(shareAbove)
	defer shareMode.Store(old)
	e, _, _ := countRestores(t)
	code := mustJS(t, `return await tools.add({a: 1, b: 2})`)
	var live atomic.Int32
	var share atomic.Bool
	host := liveHost{e: e, live: &live, share: &share}
	// countRestores's cleanup waits for the held-back resets
	// (awaitResets), after the deferred close has let them go
	release := make(chan struct{})
	endReleaseHook.set(func(*instance) { <-release })
	defer close(release)
	n := int(shareThreshold.Load()) + 4
	for i := range n + 1 {
		r := e.Run(context.Background(), Request{Code: code, Setup: addSetup, Host: host})
		if r.Err != nil || string(r.Value) != "3" {
			t.Fatalf("run %d: %s %+v", i, r.Value, r.Err)
		}
		if got := live.Load(); got != 1 {
			t.Fatalf("run %d, after %d runs that returned (their resets held back): %d live runs, want 1", i, i, got)
		}
		if share.Load() {
			t.Fatalf("run %d: a new instance would map the snapshot copy-on-write with one run live", i)
		}
	}
}

// TestSequentialRunsOnOneProcessorCopy: with one processor (GOMAXPROCS=1,
// what Go sets in a container limited to one CPU), 200 runs in sequence
// restore no instance that maps the snapshot copy-on-write. There the
// goroutine that resets a run's instance yields to the caller, whose next
// runs come first; before, each such run still counted as live, the count
// passed shareThreshold, and every run paid a page fault per page it wrote
// and an mmap per reset (~300 µs against ~60 µs a run of `return 1`).
func TestSequentialRunsOnOneProcessorCopy(t *testing.T) {
	old := shareMode.Load()
	shareMode.Store(shareAbove)
	defer shareMode.Store(old)
	e, _, _ := countRestores(t)
	var mapped atomic.Int32
	acquiredHook.set(func(in *instance) {
		if in.cow {
			mapped.Add(1)
		}
	})
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	code := mustJS(t, `return 1`)
	for i := range 200 {
		r := e.Run(context.Background(), Request{Code: code, Setup: addSetup})
		if r.Err != nil || string(r.Value) != "1" {
			t.Fatalf("run %d: %s %+v", i, r.Value, r.Err)
		}
	}
	if n := mapped.Load(); n != 0 {
		t.Fatalf("200 runs in sequence on one processor restored %d instances mapped copy-on-write, want 0", n)
	}
}
