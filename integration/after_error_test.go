package integration_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/modebox/modebox"
)

// TestNothingRunsAfterTheRunsError: a promise job whose error escapes to
// the guest's job loop (a species constructor whose resolve function
// throws) ends the run; jobs queued after it must not run, so the tool
// calls they make never reach the host. Before the glue honoured the
// host's stop answer to the error, the loop went on: both calls ran, the
// journal held neither, and the heap limit stayed lifted.
func TestNothingRunsAfterTheRunsError(t *testing.T) {
	var ran atomic.Int32
	side := modebox.MustTool("side", "Records that it ran.", func(_ context.Context, in struct {
		N int `json:"n"`
	}) (int, error) {
		ran.Add(1)
		return in.N, nil
	})
	e := newEngine(t, side)
	r := run(t, e, `
function C(ex) { ex(() => { throw new Error('boom') }, () => { throw new Error('boom2') }) }
const p = Promise.resolve(1)
p.constructor = { [Symbol.species]: C }
p.then(x => x)
Promise.resolve().then(() => {
  console.log('after the error')
  tools.side({ n: 1 })
  tools.side({ n: 2 })
})
await null
return 'main finished'`, modebox.RunOptions{})
	if r.Error == nil || r.Error.Code != modebox.CodeUncaughtException {
		t.Fatalf("got %s %+v, want UNCAUGHT_EXCEPTION", r.Value, r.Error)
	}
	if n := ran.Load(); n != 0 {
		t.Fatalf("%d tool call(s) ran after the run's error", n)
	}
	for _, l := range r.Logs {
		if l.Message == "after the error" {
			t.Fatalf("a job ran after the run's error: %+v", r.Logs)
		}
	}
}
