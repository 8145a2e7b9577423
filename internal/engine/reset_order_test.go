package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/tsx"
)

// A run's instance is reset after its Run has returned (beginRelease,
// endRelease). These tests hold the reset back with endReleaseHook and
// resetHook, so that what comes next (the next run, Close) meets the
// instance in each state: handed back and not yet reset (the next run's
// acquire resets it), being reset by the run that ended (the next run
// waits for it), reset.

// secretProgram leaves its secret everywhere a program can: a global, a
// prototype, a closure kept by a global, a long string, a typed array, the
// C stack (deep recursion) and the heap's free lists (garbage).
func secretProgram(secret string) string {
	return fmt.Sprintf(`
const S = %q;
globalThis.secret = S;
Object.prototype.leak = S;
Array.prototype.leak2 = () => S;
globalThis.keep = (() => { const s = S + "-closure"; return () => s; })();
globalThis.big = S.repeat(20);
const u = new Uint8Array(4096);
for (let i = 0; i < S.length; i++) u[i] = S.charCodeAt(i);
globalThis.u = u;
for (let i = 0; i < 50; i++) JSON.parse(JSON.stringify({ s: S + i }));
function deep(n) { return n === 0 ? S.length : deep(n - 1); }
return deep(100);`, secret)
}

// searchProgram looks, from inside the next run, for a trace of the
// secret runs (their secrets start with "S3CRET-"): in the global object,
// the prototypes, every global's value and in fresh buffers (which a
// reused heap could hand out unwiped). It never makes a whole secret
// itself (the host searches memory for that), only its prefix.
const searchProgram = `
const P = "S3" + "CRET-";
const found = [];
for (const k of Object.getOwnPropertyNames(globalThis)) {
	if (k === "secret" || k === "keep" || k === "big" || k === "u") found.push("global " + k);
	let v;
	try { v = globalThis[k]; } catch { continue; }
	if (typeof v === "string" && v.includes(P)) found.push("value of " + k);
}
if ("leak" in Object.prototype || "leak2" in Array.prototype) found.push("prototype");
const b = new Uint8Array(new ArrayBuffer(8192));
if (b.some(x => x !== 0)) found.push("a fresh buffer is not zero");
const r = await tools.add({ a: 2, b: 3 });
return found.join("; ") || "clean " + r;`

// secretHost answers tools.add and, while it does, searches the run's
// whole linear memory for the secret: the instance the run has been given
// must hold nothing of the run before it.
type secretHost struct {
	addHost
	secret []byte
	mem    func() []byte
	found  *atomic.Bool
}

func (h secretHost) Call(ctx context.Context, c Call) (json.RawMessage, error) {
	if bytes.Contains(h.mem(), h.secret) {
		h.found.Store(true)
	}
	return h.addHost.Call(ctx, c)
}

// quietShared waits until the process-wide engine (Shared), which earlier
// tests ran on, has ended its runs' resets and restores in the background:
// the hooks a test sets then see only its own engine's instances.
func quietShared(t *testing.T) {
	t.Helper()
	s, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	s.awaitResets()
}

// countRestores loads a new engine and counts the instances it restores.
// last returns the last instance restored.
func countRestores(t *testing.T) (e *Engine, restores *atomic.Int32, last func() *instance) {
	t.Helper()
	quietShared(t)
	e, err := Load(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !e.reusable {
		t.Fatal("the image's stack pointer is not exported: instances cannot be reused")
	}
	var n atomic.Int32
	var mu sync.Mutex
	var lastIn *instance
	acquiredHook.set(func(in *instance) {
		n.Add(1)
		mu.Lock()
		lastIn = in
		mu.Unlock()
	})
	t.Cleanup(func() {
		e.awaitResets() // no run reads the hooks any more
		acquiredHook.set(nil)
		endReleaseHook.set(nil)
		resetHook.set(nil)
		e.Close()
	})
	return e, &n, func() *instance { mu.Lock(); defer mu.Unlock(); return lastIn }
}

// holdBack is a hook for endReleaseHook or resetHook that, once armed,
// holds back the next release that reaches it, then disarms.
type holdBack struct {
	mu    sync.Mutex
	armed func(*instance) // what the next release that reaches it does
	calls int
}

func (h *holdBack) arm(f func(*instance)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.armed = f
}

func (h *holdBack) hook(in *instance) {
	h.mu.Lock()
	f := h.armed
	h.armed = nil
	if f != nil {
		h.calls++
	}
	h.mu.Unlock()
	if f != nil {
		f(in)
	}
}

func (h *holdBack) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls
}

func mustJS(t *testing.T, src string) string {
	t.Helper()
	p, err := tsx.Transform(src, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	return p.Code
}

// TestNextRunFindsNothingOfTheLast: a run leaves a secret everywhere it
// can and returns; the next run starts at once, on the same instance,
// while that instance is (a) handed back and not yet reset: the next run's
// acquire resets it; (b) being reset by the run that ended: the next run
// waits for it; (c) already reset. In each case the next run finds no
// trace of the secret, neither from JavaScript nor in its whole linear
// memory (searched by the host while the run waits in its call), and no
// second instance is restored.
func TestNextRunFindsNothingOfTheLast(t *testing.T) {
	for _, mode := range []struct {
		name  string
		share int32
	}{{"copied", shareNever}, {"copy-on-write", shareAlways}} {
		for _, state := range []string{"not yet reset", "being reset", "reset"} {
			t.Run(mode.name+"/"+state, func(t *testing.T) {
				old := shareMode.Load()
				shareMode.Store(mode.share)
				defer shareMode.Store(old)
				testNextRunFindsNothing(t, state)
			})
		}
	}
}

func testNextRunFindsNothing(t *testing.T, state string) {
	noSpares(t) // the next run takes the pending instance
	e, restores, last := countRestores(t)
	// a first run, so that the instance is restored before the hooks
	if r := runReuse(t, e, `return 1`); r.Err != nil {
		t.Fatal(r.Err)
	}
	e.awaitResets() // no run reads the hooks while they are set
	var hold holdBack
	endReleaseHook.set(hold.hook)
	resetHook.set(nil)
	if state == "being reset" {
		endReleaseHook.set(nil)
		resetHook.set(hold.hook)
	}
	for i := range 3 {
		secret := "S3CRET-" + strconv.Itoa(i) + "-" + state
		release, entered := make(chan struct{}), make(chan struct{})
		var noWaiter atomic.Bool
		switch state {
		case "not yet reset":
			// the run that ended does nothing until the next run is over
			hold.arm(func(*instance) { <-release })
		case "being reset":
			// the run that ended starts its reset once the next run's
			// acquire waits for it (the next run starts once the reset
			// is the ended run's: entered)
			hold.arm(func(in *instance) {
				close(entered)
				// (not a timing assertion: an acquire that waits does so
				// at once; one that does not wait never will)
				for t0 := time.Now(); time.Since(t0) < 10*time.Second; runtime.Gosched() {
					e.idleMu.Lock()
					n := e.waitingFor(in.hardMem)
					e.idleMu.Unlock()
					if n > 0 {
						return
					}
				}
				noWaiter.Store(true)
			})
		}
		r := e.Run(context.Background(), Request{Code: mustJS(t, secretProgram(secret)), Setup: addSetup})
		if r.Err != nil || string(r.Value) != strconv.Itoa(len(secret)) {
			t.Fatalf("the secret's run: %s %+v", r.Value, r.Err)
		}
		if r.Stats.PeakMemory != uint64(e.snap.pages)*pageSize {
			t.Fatalf("the secret's run grew its memory to %d bytes: this test needs one that did not", r.Stats.PeakMemory)
		}
		switch state {
		case "being reset":
			<-entered
		case "reset":
			e.awaitResets()
		}
		in := last()
		var found atomic.Bool
		h := secretHost{secret: []byte(secret), found: &found, mem: func() []byte {
			b, _ := in.mod.Memory().Read(0, in.mod.Memory().Size())
			return b
		}}
		r = e.Run(context.Background(), Request{Code: mustJS(t, searchProgram), Setup: addSetup, Host: h})
		close(release)
		if r.Err != nil || string(r.Value) != `"clean 5"` {
			t.Fatalf("the next run: %s %+v", r.Value, r.Err)
		}
		e.awaitResets()
		if noWaiter.Load() {
			t.Fatal("the next run did not wait for the instance being reset")
		}
		if found.Load() {
			t.Fatal("the next run's memory holds the secret of the run before it")
		}
		if n := restores.Load(); n != 1 {
			t.Fatalf("%d instances restored, want 1: the next run did not get the instance the last one handed back", n)
		}
		e.awaitResets()
		if want := i + 1; state != "reset" && hold.count() != want {
			t.Fatalf("the hook held back %d releases, want %d: the test did not hold the reset back", hold.count(), want)
		}
	}
}

// noSpares sets spareInstances to 0 for the test: an acquire that finds
// no instance idle resets one handed back, or waits for its reset.
func noSpares(t *testing.T) {
	old := spareInstances.Load()
	spareInstances.Store(0)
	t.Cleanup(func() { spareInstances.Store(old) })
}

// TestSequentialRunsShareTwoInstances: runs one after the other, each
// starting as soon as the last returned (its reset maybe not done), run on
// two instances: the second run, finding the first's instance pending,
// restores a spare; from then on each run finds one of the two idle, or
// one pending and the other too (its reset not done: the run resets it, or
// waits for it), never a third. Without spares (spareInstances 0) they
// run on one.
func TestSequentialRunsShareTwoInstances(t *testing.T) {
	for _, spares := range []int32{1, 0} {
		t.Run(fmt.Sprintf("spares=%d", spares), func(t *testing.T) {
			old := spareInstances.Load()
			spareInstances.Store(spares)
			defer spareInstances.Store(old)
			e, restores, _ := countRestores(t)
			for i := range 200 {
				r := e.Run(context.Background(), Request{Code: mustJS(t, newProgram2KB(i)), Setup: addSetup})
				if r.Err != nil || string(r.Value) != strconv.Itoa(i+1) {
					t.Fatalf("run %d: %s %+v", i, r.Value, r.Err)
				}
			}
			if n, want := restores.Load(), int32(spares+1); n != want {
				t.Fatalf("200 runs in sequence restored %d instances, want %d", n, want)
			}
		})
	}
}

// TestSpareRunFindsNothingOfTheLast: a run leaves a secret everywhere it
// can and returns, and its instance's reset is held back until the next
// run is over. The next run does not take that instance (without spares
// it resets it itself: one instance in all, and the test fails): it runs
// on the spare, restored after the first run and reset since, and finds no
// trace of any secret, neither from JavaScript nor in the whole memory of
// any instance but the held one (searched by the host while the run waits
// in its call). Two instances in all.
func TestSpareRunFindsNothingOfTheLast(t *testing.T) {
	e, restores, _ := countRestores(t)
	var mu sync.Mutex
	var all []*instance
	acquiredHook.set(func(in *instance) {
		restores.Add(1)
		mu.Lock()
		all = append(all, in)
		mu.Unlock()
	})
	// two runs: the second restores the spare (replenish: once a run has
	// ended); awaitResets waits for that restore too
	for range 2 {
		if r := runReuse(t, e, `return 1`); r.Err != nil {
			t.Fatal(r.Err)
		}
		e.awaitResets() // no run reads the hooks while they are set
	}
	if n := idleCount(e); n != 2 {
		t.Fatalf("%d instances idle after two runs, want 2: the run's and the spare", n)
	}
	var hold holdBack
	endReleaseHook.set(hold.hook)
	for i := range 4 {
		secret := "S3CRET-spare-" + strconv.Itoa(i)
		release := make(chan struct{})
		heldCh := make(chan *instance, 1)
		hold.arm(func(in *instance) { heldCh <- in; <-release })
		r := e.Run(context.Background(), Request{Code: mustJS(t, secretProgram(secret)), Setup: addSetup})
		if r.Err != nil || string(r.Value) != strconv.Itoa(len(secret)) {
			t.Fatalf("the secret's run: %s %+v", r.Value, r.Err)
		}
		if r.Stats.PeakMemory != uint64(e.snap.pages)*pageSize {
			t.Fatalf("the secret's run grew its memory to %d bytes: this test needs one that did not", r.Stats.PeakMemory)
		}
		held := <-heldCh // the secret's instance, pending until release
		var found atomic.Bool
		h := secretHost{found: &found, mem: func() []byte {
			mu.Lock()
			defer mu.Unlock()
			var b []byte
			for _, in := range all {
				if in != held {
					m, _ := in.mod.Memory().Read(0, in.mod.Memory().Size())
					b = append(b, m...)
				}
			}
			return b
		}}
		for j := 0; j <= i; j++ { // this secret and every one before
			h.secret = []byte("S3CRET-spare-" + strconv.Itoa(j))
			done := make(chan *Result, 1)
			go func() {
				done <- e.Run(context.Background(), Request{Code: mustJS(t, searchProgram), Setup: addSetup, Host: h})
			}()
			select {
			case r = <-done:
			case <-time.After(2 * time.Minute):
				close(release)
				t.Fatal("the next run did not end: it waited for the held-back reset")
			}
			if r.Err != nil || string(r.Value) != `"clean 5"` {
				t.Fatalf("the next run: %s %+v", r.Value, r.Err)
			}
		}
		close(release)
		e.awaitResets()
		if found.Load() {
			t.Fatal("a run's memory holds the secret of a run before it")
		}
		if n := restores.Load(); n != 2 {
			t.Fatalf("%d instances restored, want 2: the first and the spare", n)
		}
	}
	if hold.count() != 4 {
		t.Fatalf("the hook held back %d releases, want 4", hold.count())
	}
}

// TestConcurrentRunsReuseResetInstances: goroutines each run secret
// programs and searches in turn, concurrently, so that instances pass
// between them in every state. Every run returns its own result, no
// search finds any secret, the engine restores no more instances than
// runs can hold at once, and after the last reset every instance is idle.
func TestConcurrentRunsReuseResetInstances(t *testing.T) {
	e, restores, _ := countRestores(t)
	const workers, rounds = 6, 15
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				secret := fmt.Sprintf("S3CRET-%d-%d", w, i)
				r := e.Run(context.Background(), Request{Code: mustJS(t, secretProgram(secret)), Setup: addSetup})
				if r.Err != nil || string(r.Value) != strconv.Itoa(len(secret)) {
					errs <- fmt.Errorf("worker %d run %d: %s %+v", w, i, r.Value, r.Err)
					return
				}
				if r.Stats.PeakMemory != uint64(e.snap.pages)*pageSize {
					errs <- fmt.Errorf("worker %d run %d grew its memory: the test needs runs that do not", w, i)
					return
				}
				r = e.Run(context.Background(), Request{Code: mustJS(t, searchProgram), Setup: addSetup, Host: addHost{}})
				if r.Err != nil || string(r.Value) != `"clean 5"` {
					errs <- fmt.Errorf("worker %d search %d: %s %+v", w, i, r.Value, r.Err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Each worker holds one instance at a time, and one more can be
	// resetting after its run returned while it starts the next.
	if n := restores.Load(); n > 2*workers {
		t.Fatalf("%d instances restored for %d workers", n, workers)
	}
	if n := idleCount(e); n == 0 || n > idleMax {
		t.Fatalf("%d idle instances after the last reset", n)
	}
	e.idleMu.Lock()
	defer e.idleMu.Unlock()
	if len(e.dirty) != 0 || len(e.resetting) != 0 || len(e.waiters) != 0 || e.releasing != 0 {
		t.Fatalf("after the last run: %d dirty, %v resetting, %d waiting, %d releasing", len(e.dirty), e.resetting, len(e.waiters), e.releasing)
	}
}

// TestCloseWhileResetPending: Close right after a Run returned, while its
// instance is (a) handed back and not yet reset or (b) being reset. The
// image (the snapshot memfd) is not freed while the reset may use it;
// Close returns only once the reset is over, with the image freed and no
// instance kept; runs after it fail with IMAGE_CLOSED.
func TestCloseWhileResetPending(t *testing.T) {
	for _, hook := range []string{"endRelease", "reset"} {
		t.Run(hook, func(t *testing.T) {
			old := shareMode.Load()
			shareMode.Store(shareAlways) // the reset maps the memfd
			defer shareMode.Store(old)
			e, _, _ := countRestores(t)
			entered, release := make(chan struct{}), make(chan struct{})
			var hold holdBack
			hold.arm(func(*instance) { close(entered); <-release })
			if hook == "endRelease" {
				endReleaseHook.set(hold.hook)
			} else {
				resetHook.set(hold.hook)
			}
			if r := runReuse(t, e, `return 1`); r.Err != nil || string(r.Value) != "1" {
				t.Fatalf("%s %+v", r.Value, r.Err)
			}
			<-entered
			closed := make(chan struct{})
			go func() { e.Close(); close(closed) }()
			// Close may not return, nor free the image, while the reset
			// is held back
			select {
			case <-closed:
				t.Fatal("Close returned while a reset was pending")
			case <-time.After(50 * time.Millisecond):
			}
			if e.cow != nil {
				if _, err := os.Stat("/proc/self/fd/" + strconv.Itoa(e.cow.fd)); err != nil || e.cow.fd < 0 {
					t.Fatalf("the snapshot memfd was closed under a pending reset: %v", err)
				}
			}
			close(release)
			<-closed
			if e.cow != nil && e.cow.fd != -1 {
				t.Fatal("the snapshot memfd is still open after Close returned")
			}
			if n := idleCount(e); n != 0 {
				t.Fatalf("%d idle instances after Close", n)
			}
			if r := runReuse(t, e, `return 1`); r.Err == nil || r.Err.Code != "IMAGE_CLOSED" {
				t.Fatalf("run after Close: %+v", r.Err)
			}
		})
	}
}

// BenchmarkReset is one reset of an instance that no run wrote since its
// last: the compare of its whole memory with the snapshot, and nothing
// rewritten (a reset is off a run's critical path: it is done after Run
// returns).
func BenchmarkReset(b *testing.B) {
	old := shareMode.Load()
	shareMode.Store(shareNever)
	defer shareMode.Store(old)
	e, err := Shared()
	if err != nil {
		b.Fatal(err)
	}
	in, err := e.acquire(context.Background(), 64<<20)
	if err != nil {
		b.Fatal(err)
	}
	defer e.done()
	defer in.mod.Close(context.Background())
	for b.Loop() {
		if err := e.reset(in); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSpareOnlyAfterARunEnded: an engine's first run restores no spare
// (an engine may run one program only: a CLI's run); the second does,
// in the background, and a run whose memory grew (its instance closed)
// leaves the spare it found for the next run, which restores another.
func TestSpareOnlyAfterARunEnded(t *testing.T) {
	e, restores, _ := countRestores(t)
	step := func(src string, wantRestores int32, wantIdle int) {
		t.Helper()
		if r := runReuse(t, e, src); r.Err != nil {
			t.Fatal(r.Err)
		}
		e.awaitResets()
		if n, idle := restores.Load(), idleCount(e); n != wantRestores || idle != wantIdle {
			t.Fatalf("after %.20q: %d instances restored and %d idle, want %d and %d", src, n, idle, wantRestores, wantIdle)
		}
	}
	step(`return 1`, 1, 1) // the first run's instance, no spare
	step(`return 2`, 2, 2) // the second's and the spare
	step(`const a = []; for (let i = 0; i < 300; i++) a.push("x".repeat(9000) + i); return a.length`, 2, 1)
	step(`return 3`, 3, 2) // it took the spare: a new one
}
