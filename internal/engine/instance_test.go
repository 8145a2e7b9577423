package engine

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/tsx"
)

// quiesce waits until no run holds an instance of e, then for the resets
// of those that ended. On the shared engine a run of an earlier test may
// still be ending after its Run returned (Run returns hardReturnGrace
// after a stop even when the guest has not stopped yet, which on a loaded
// machine happens): its instance would come back to the idle pool in the
// middle of the next test.
func quiesce(e *Engine) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		e.idleMu.Lock()
		n := e.inflight
		e.idleMu.Unlock()
		if n == 0 {
			break
		}
	}
	e.awaitResets()
}

// takeIdle takes the engine's idle instances, once the runs that ended
// have finished resetting theirs.
func takeIdle(e *Engine) []*instance {
	quiesce(e)
	e.idleMu.Lock()
	defer e.idleMu.Unlock()
	idle := e.idle
	e.idle = nil
	return idle
}

func runReuse(t *testing.T, e *Engine, src string) *Result {
	t.Helper()
	p, err := tsx.Transform(src, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	return e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Host: addHost{}})
}

// TestReusedInstanceIsFresh: a run that leaves data in its heap, its C
// stack and wazero's call stack hands its instance back reset: memory
// byte for byte what a fresh restore makes, the stack pointer at its
// post-init value. The next run gets that same instance and finds nothing
// of the first. A run that grew its memory is not reused.
func TestReusedInstanceIsFresh(t *testing.T) {
	for _, mode := range []struct {
		name  string
		share int32
	}{{"copied", shareNever}, {"copy-on-write", shareAlways}} {
		t.Run(mode.name, func(t *testing.T) {
			old := shareMode.Load()
			shareMode.Store(mode.share)
			defer shareMode.Store(old)
			testReusedInstanceIsFresh(t, mode.share == shareAlways)
		})
	}
}

func testReusedInstanceIsFresh(t *testing.T, cow bool) {
	noSpares(t) // the idle instance is the run's
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	if !e.reusable {
		t.Fatal("the image's stack pointer is not exported: instances cannot be reused")
	}
	for _, in := range takeIdle(e) {
		in.mod.Close(context.Background())
	}
	// Deep calls (wazero's stack grows), a host call, strings and objects
	// in the heap, a global property.
	r := runReuse(t, e, `
globalThis.secret = "S3CRET-" + "one";
function deep(n) { return n === 0 ? JSON.parse('{"a":[[[{"b":[1]}]]]}') : deep(n - 1); }
const x = deep(40);
const s = await tools.add({a: 1, b: 2});
globalThis.kept = [x, s, "S3CRET-two".repeat(50)];
return s;`)
	if r.Err != nil || string(r.Value) != "3" {
		t.Fatalf("%s %+v", r.Value, r.Err)
	}
	if r.Stats.PeakMemory != uint64(e.snap.pages)*pageSize {
		t.Fatalf("the first run grew its memory to %d bytes: this test needs one that did not", r.Stats.PeakMemory)
	}
	idle := takeIdle(e)
	if len(idle) != 1 {
		t.Fatalf("%d instances kept after one clean run, want 1", len(idle))
	}
	in := idle[0]
	if cow && e.cow != nil && !in.cow {
		t.Fatal("the instance does not map the snapshot copy-on-write")
	}
	if !cow && in.cow {
		t.Fatal("the instance maps the snapshot copy-on-write")
	}

	ctx := context.Background()
	fresh, err := e.restore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close(ctx)
	got, _ := in.mod.Memory().Read(0, in.mod.Memory().Size())
	want, _ := fresh.Memory().Read(0, fresh.Memory().Size())
	if !bytes.Equal(got, want) {
		t.Fatal("a reset instance's memory differs from a fresh restore's")
	}
	if bytes.Contains(got, []byte("S3CRET")) {
		t.Fatal("the reset memory still holds the first run's strings")
	}
	if sp := in.sp.Get(); sp != e.snap.sp {
		t.Fatalf("stack pointer %#x after reset, want %#x", sp, e.snap.sp)
	}

	// A normal return leaves the stack pointer balanced; a reset puts it
	// back whatever it is.
	in.sp.Set(e.snap.sp - 4096)
	if err := e.reset(in); err != nil {
		t.Fatal(err)
	}
	if sp := in.sp.Get(); sp != e.snap.sp {
		t.Fatalf("stack pointer %#x after a second reset, want %#x", sp, e.snap.sp)
	}

	e.idleMu.Lock()
	e.idle = append(e.idle, in)
	e.idleMu.Unlock()
	r = runReuse(t, e, `return [typeof secret, typeof kept, Object.keys(globalThis).filter(k => k === "secret" || k === "kept").length].join()`)
	if r.Err != nil || string(r.Value) != `"undefined,undefined,0"` {
		t.Fatalf("second run: %s %+v", r.Value, r.Err)
	}
	if idle := takeIdle(e); len(idle) != 1 || idle[0] != in {
		t.Fatal("the second run did not run on the reset instance")
	}

	// A run that grows its memory leaves no instance behind.
	r = runReuse(t, e, "const a = [];\nfor (let i = 0; i < 400; i++) a.push(String.fromCharCode(65 + i % 26).repeat(4000) + i);\nreturn a.length;")
	if r.Err != nil || string(r.Value) != "400" {
		t.Fatalf("%s %+v", r.Value, r.Err)
	}
	if idle := takeIdle(e); len(idle) != 0 {
		t.Fatal("an instance whose memory grew was kept")
	}
}

// TestInstanceNotReusedAfterTrap: an instance whose run ended with a
// guest call that did not return (a trap: here a host function that
// panics, which wazero turns into an error out of mb_run, the guest left
// in the middle of it) is closed, not kept.
func TestInstanceNotReusedAfterTrap(t *testing.T) {
	noSpares(t) // the idle instance, or the one restored, is the run's
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range takeIdle(e) {
		in.mod.Close(context.Background())
	}
	p, err := tsx.Transform("return await tools.add({a: 1, b: 2});", tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	r := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Host: panicGate{}})
	if r.Err == nil || r.Err.Code != codes.GuestCrash {
		t.Fatalf("%s %+v, want a guest crash", r.Value, r.Err)
	}
	if r.Stats.PeakMemory != uint64(e.snap.pages)*pageSize {
		t.Fatalf("the run grew its memory to %d bytes: this test needs one that did not", r.Stats.PeakMemory)
	}
	if idle := takeIdle(e); len(idle) != 0 {
		t.Fatal("an instance that trapped was kept")
	}
}

// panicGate panics in the middle of the guest's call.
type panicGate struct{ addHost }

func (panicGate) Gate(Call, bool) Verdict { panic("gate fails") }

func setReuse(b *testing.B, on bool) {
	old := reuseInstances.Load()
	reuseInstances.Store(on)
	b.Cleanup(func() { reuseInstances.Store(old) })
}

// BenchmarkRunStartNoReuse is BenchmarkRunStart with a fresh instance per
// run: what reusing reset instances saves at the start of a run.
func BenchmarkRunStartNoReuse(b *testing.B) {
	setReuse(b, false)
	benchFile(b, "empty.js", nil)
}

// BenchmarkRunStackGrowthNoReuse is BenchmarkRunStackGrowth with a fresh
// instance (and call stack) per run.
func BenchmarkRunStackGrowthNoReuse(b *testing.B) {
	setReuse(b, false)
	benchProgram(b, `return JSON.parse('{"a":[1]}')`, nil)
}
