package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/tsx"
)

// A call the guest waits for with nothing else in flight runs on the
// driver itself (callInline). These tests hold that to what a call on a
// worker guarantees: a tool that ignores its context and never returns
// does not keep a stopped run alive, a call the guest does not wait for
// starts while the guest computes, and panics stay the tool's error.

// stuckHost's tool ignores its context and returns only when the test
// ends.
type stuckHost struct {
	entered chan struct{}
	release chan struct{}
}

func (stuckHost) Gate(Call, bool) Verdict { return Verdict{} }

func (h stuckHost) Call(context.Context, Call) (json.RawMessage, error) {
	select {
	case h.entered <- struct{}{}:
	default:
	}
	<-h.release
	return json.RawMessage("1"), nil
}

// stuckRun runs `return await tools.wait({})` on an engine of its own with
// a tool that blocks until the test ends, and stops it with stop (called
// once the tool was entered). It checks that the run ends as a stopped
// run does, code want: Run returns, the guest leaves wasm (Exited), the
// engine holds no instance, and Close then frees the engine.
func stuckRun(t *testing.T, lim Limits, stop func(), ctx context.Context, want codes.Code) {
	t.Helper()
	e, err := Load(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := stuckHost{entered: make(chan struct{}, 1), release: make(chan struct{})}
	t.Cleanup(func() { close(h.release) })
	p, err := tsx.Transform(`return await tools.wait({})`, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		<-h.entered
		stop()
	}()
	res := e.Run(ctx, Request{Code: p.Code, Setup: contractSetup, Limits: lim, Host: h, Exited: func(time.Duration) { close(exited) }})
	if res.Err == nil || res.Err.Code != want {
		t.Fatalf("the run: %+v %s, want %s", res.Err, res.Value, want)
	}
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatal("the stopped run never left its instance: the stuck tool holds it")
	}
	if n := e.live.Load(); n != 0 {
		t.Fatalf("%d runs still hold an instance", n)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" && e.cow != nil && e.cow.fd != -1 {
		t.Fatal("Close did not free the engine: a run still holds it")
	}
}

// TestStuckToolTimeout: the deadline ends a run whose tool never returns.
func TestStuckToolTimeout(t *testing.T) {
	stuckRun(t, Limits{Timeout: 300 * time.Millisecond}, func() {}, context.Background(), codes.Timeout)
}

// TestStuckToolCancel: cancelling the run's context ends it the same way.
func TestStuckToolCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stuckRun(t, Limits{Timeout: time.Hour}, cancel, ctx, codes.Cancelled)
}

// TestUnawaitedCallStartsWhileTheGuestComputes: a call the guest does not
// wait for is started although the guest never goes idle (it spins until
// the run is cancelled).
func TestUnawaitedCallStartsWhileTheGuestComputes(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	p, err := tsx.Transform(`tools.a({}); for (;;) {}`, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	entered := make(chan struct{})
	var once atomic.Bool
	h := &contractHost{call: func(ctx context.Context, c Call) (json.RawMessage, error) {
		if once.CompareAndSwap(false, true) {
			close(entered)
		}
		return json.RawMessage("1"), nil
	}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan bool, 1)
	go func() {
		select {
		case <-entered:
			started <- true
		case <-time.After(30 * time.Second):
			started <- false
		}
		cancel()
	}()
	res := e.Run(ctx, Request{Code: p.Code, Setup: contractSetup, Limits: Limits{Timeout: time.Hour}, Host: h})
	if !<-started {
		t.Fatal("the call did not start while the guest was computing")
	}
	if res.Err == nil || res.Err.Code != codes.Cancelled {
		t.Fatalf("%+v", res.Err)
	}
}

// TestInlineCallPanicIsTheToolsError: a tool that panics on the driver
// rejects its call with TOOL_ERROR, and the run goes on.
func TestInlineCallPanicIsTheToolsError(t *testing.T) {
	h := &contractHost{call: func(context.Context, Call) (json.RawMessage, error) { panic("boom") }}
	res := runContract(t, `try { await tools.a({}); return "no" } catch (e) { return e.code + " " + e.message }`, Limits{}, h, nil)
	if res.Err != nil || string(res.Value) != `"TOOL_ERROR the tool panicked: boom"` {
		t.Fatalf("%+v %s", res.Err, res.Value)
	}
}

// TestInlineCallsKeepMaxConcurrencyOne: with MaxConcurrency 1 the calls
// of a Promise.all run one at a time (each on the driver once the one
// before settled) and all settle, in order.
func TestInlineCallsKeepMaxConcurrencyOne(t *testing.T) {
	h := &contractHost{call: func(_ context.Context, c Call) (json.RawMessage, error) {
		return json.RawMessage(fmt.Sprint(c.ID * 10)), nil
	}}
	res := runContract(t, `return await Promise.all([1, 2, 3, 4].map(n => tools.a({n})))`, Limits{MaxConcurrency: 1}, h, nil)
	if res.Err != nil || string(res.Value) != `[10,20,30,40]` {
		t.Fatalf("%+v %s", res.Err, res.Value)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.maxCall != 1 || len(h.called) != 4 {
		t.Fatalf("%d calls, %d at once, want 4 one at a time", len(h.called), h.maxCall)
	}
}

// TestSettledCallDropsItsArguments: call records come in blocks, so a
// settled call must not keep its arguments (a block lives as long as any
// of its calls).
func TestSettledCallDropsItsArguments(t *testing.T) {
	r := &run{pending: map[int]*pendingCall{}}
	pc := r.newPendingCall(1)
	pc.args = json.RawMessage(`{"big":"…"}`)
	r.reject(pc, codes.ValueTooLarge, "x")
	c, ok := r.next()
	if !ok || c.call != pc {
		t.Fatalf("next: %v %v", c, ok)
	}
	if pc.args != nil {
		t.Fatal("the settled call keeps its arguments")
	}
}

// Calls' small arguments share a block, each copy cut to its length: an
// append to one cannot reach the next, and a large one is its own.
func TestArgsCopiesAreSeparate(t *testing.T) {
	r := &run{}
	a := r.argsCopy([]byte(`{"a":1}`))
	b := r.argsCopy([]byte(`{"b":2}`))
	big := r.argsCopy([]byte(strings.Repeat("x", argsSmall+1)))
	if string(a) != `{"a":1}` || string(b) != `{"b":2}` || len(big) != argsSmall+1 {
		t.Fatalf("%s %s %d", a, b, len(big))
	}
	if cap(a) != len(a) || cap(b) != len(b) {
		t.Fatalf("capacities %d %d", cap(a), cap(b))
	}
	_ = append(a, "zzzz"...)
	a[0] = '['
	if string(b) != `{"b":2}` {
		t.Fatalf("a write to one copy reached the next: %s", b)
	}
	for i := 0; i < 200; i++ { // blocks fill and are replaced
		s := fmt.Sprintf(`{"i":%d}`, i)
		if c := r.argsCopy([]byte(s)); string(c) != s {
			t.Fatalf("%s != %s", c, s)
		}
	}
}
