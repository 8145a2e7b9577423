package engine

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/tsx"
)

// countHost counts the calls that reach Host.Call; a call to "block"
// waits for its context and fails with its error.
type countHost struct {
	calls   atomic.Int32
	started chan struct{}
}

func (*countHost) Gate(Call, bool) Verdict { return Verdict{} }

func (h *countHost) Call(ctx context.Context, c Call) (json.RawMessage, error) {
	if c.Tool == "block" {
		h.started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	h.calls.Add(1)
	return json.RawMessage("1"), nil
}

var stopSetup = []byte(`{"tools":[{"key":"block","path":["block"]},{"key":"side","path":["side"]}]}`)

func program(t *testing.T, code string) string {
	t.Helper()
	p, err := tsx.Transform(code, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	return p.Code
}

// A run whose caller's context is done before it starts runs nothing: no
// call, not even the program's first turn (a log).
func TestRunWithDoneContextRunsNothing(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	h := &countHost{started: make(chan struct{}, 1)}
	code := program(t, `console.log("ran"); await tools.side({}); return 1`)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for range 100 {
		res := e.Run(cancelled, Request{Code: code, Setup: stopSetup, Host: h, Seed: 1})
		// no instance was taken (PeakMemory): the guest never started
		if res.Err == nil || res.Err.Code != codes.Cancelled || len(res.Logs) != 0 || res.Stats.PeakMemory != 0 {
			t.Fatalf("a run with a cancelled context: %+v %+v, peak memory %d", res.Err, res.Logs, res.Stats.PeakMemory)
		}
	}
	if n := h.calls.Load(); n != 0 {
		t.Fatalf("%d calls ran for runs with a cancelled context", n)
	}
}

// Once the caller's context ends while a call waits on it, the driver
// starts no more calls, whether it runs them itself or on workers, and the
// run ends CANCELLED even when the program catches the call's failure.
func TestCancelInCallStartsNoMoreCalls(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	h := &countHost{started: make(chan struct{}, 1)}
	for _, src := range []string{
		`try { await tools.block({}) } catch {} for (;;) await tools.side({})`,
		`try { await tools.block({}) } catch {} for (;;) await Promise.all([tools.side({}), tools.side({})])`,
		`await tools.block({}); return 1`,
	} {
		code := program(t, src)
		for range 50 {
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-h.started; cancel() }()
			res := e.Run(ctx, Request{Code: code, Setup: stopSetup, Host: h, Seed: 1})
			cancel()
			if res.Err == nil || res.Err.Code != codes.Cancelled {
				t.Fatalf("%s: %+v, want CANCELLED", src, res.Err)
			}
		}
		if n := h.calls.Load(); n != 0 {
			t.Fatalf("%s: %d calls started after the caller's context was cancelled", src, n)
		}
	}
}

// A run given a hold on the engine starts even when Close came between
// the hold and the run; without one it is IMAGE_CLOSED. The engine is
// freed once the hold is released.
func TestHoldKeepsEngineOpenForRun(t *testing.T) {
	e, err := Load(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	code := program(t, `return 6 * 7`)
	if res := e.Run(context.Background(), Request{Code: code, Setup: stopSetup, Seed: 1}); res.Err != nil {
		t.Fatal(res.Err)
	}
	hold, err := e.Hold(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Hold(nil); err != ErrClosed {
		t.Fatalf("Hold after Close: %v, want ErrClosed", err)
	}
	if res := e.Run(context.Background(), Request{Code: code, Setup: stopSetup, Seed: 1}); res.Err == nil || res.Err.Code != codes.ImageClosed {
		t.Fatalf("a run without the hold after Close: %+v", res.Err)
	}
	for range 2 { // a hold serves more than one run (the runner may run twice)
		res := e.Run(context.Background(), Request{Code: code, Setup: stopSetup, Seed: 1, Hold: hold})
		if res.Err != nil || string(res.Value) != "42" {
			t.Fatalf("a held run after Close: %s %+v", res.Value, res.Err)
		}
	}
	hold.Release()
	hold.Release() // idempotent
	e.idleMu.Lock()
	inflight := e.inflight
	e.idleMu.Unlock()
	if inflight != 0 {
		t.Fatalf("%d holds left after the release", inflight)
	}
}

// An InternalError whose message the prelude could not read is the
// out-of-memory error of a run at its cap.
func TestClassifyUnreadableInternalError(t *testing.T) {
	e := &Error{Name: "InternalError", Message: unreadableField}
	if c := classify(errThrown, e, ""); c != codes.MemoryLimit || e.Message != "out of memory" {
		t.Fatalf("classify: %s %q", c, e.Message)
	}
	if c := classify(errThrown, &Error{Name: "TypeError", Message: unreadableField}, ""); c != codes.UncaughtException {
		t.Fatalf("a TypeError with an unreadable message: %s", c)
	}
}
