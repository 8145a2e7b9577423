package engine

import (
	"bytes"
	"context"
	"errors"
	"os"
	"sync"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// instance is one module instance with the exports a run calls, looked up
// once: in wazero every lookup makes a new call engine, whose call stack
// starts at 10 KiB and grows by allocating and copying. A call engine kept
// with its instance keeps the stack it grew, so a reused instance's runs
// do not pay that growth again (but for mb_run's after a run that waited
// while many runs were live, which drops it: see drive).
//
// An instance is reused only when it is exactly as a fresh restore would
// make it:
//   - its last run's guest calls all returned (no trap, which can leave the
//     guest anywhere), and its memory never grew past the snapshot's pages
//     (memory cannot shrink), with the same hard memory cap;
//   - its memory is made the whole post-init image again, every byte of
//     it (release, before it is kept: nothing of the run stays in an idle
//     instance; every page is compared and those that differ rewritten);
//   - the image's only mutable global, the stack pointer, is set back to
//     its post-init value (the engine exports it for this);
//   - the function table is immutable: the image has no table.set, grow,
//     fill, copy or init (C code cannot write it), and its one active
//     element segment is the table's whole content;
//   - the call stack wazero keeps is not guest-visible state: wasm reads
//     only locals (zeroed at every call) and operands it pushed itself.
//
// TestReusedInstanceIsFresh checks the memory and the global.
type instance struct {
	mod api.Module
	// run is looked up with the instance, and again after a run that waited
	// while many runs were live dropped it (drive); alloc and settle on
	// first use (input.go, run.go). A run whose inputs fit on the guest's
	// stack never calls mb_alloc, a run waiting in its first host call has
	// not called mb_settle yet, and a waiting run has no more use for
	// mb_run's call engine: none of them then holds a call engine and its
	// stack.
	run, alloc, settle api.Function
	sp                 api.MutableGlobal
	spRest, spAt       uint64   // the stack pointer at rest and below the inputs put so far (input.go)
	stack              []uint64 // kept for CallWithStack (mb_alloc, mb_settle): no allocation a call
	hardMem            uint32
	cow                bool // its memory maps the snapshot image copy-on-write
}

// idleMax is how many reset instances are kept. Each holds its memory
// mapping (the snapshot's pages resident) and a grown call stack.
const idleMax = 8

// hibIdleMax is how many idle instances a hibernating run's instance may
// join (handBack); past it the instance is closed. Hibernation is for
// when many runs wait: an idle instance then costs its ~30 KiB of Go heap
// and the pages runs wrote (handBack keeps them, to spare the next run
// their faults), and a waking run or a new one takes one of these first.
const hibIdleMax = 2

// reuseInstances turns reuse on; tests and benchmarks turn it off to
// measure a fresh instance per run.
var reuseInstances = newFlag(true)

// spareInstances is how many instances with a run's memory cap the engine
// keeps besides those runs hold: idle, pending (handed back by a run that
// ended, its reset not done) or being restored. When a run takes the last
// one, or its instance is closed rather than kept (its memory grew, a
// trap), a new one is restored in the background (replenish), once a
// first run has ended (an engine that runs one program restores nothing
// for a second). So runs in
// sequence alternate between two instances: each one's reset is done
// after its Run returned (on another processor when one is free) while
// the next run runs on the other, instead of that run resetting it first,
// or waiting for its reset, on its critical path (a reset reads the whole
// ~1.2 MB memory, and the caches it fills are the next run's); and a run
// after one whose memory grew does not restore on its critical path
// (~0.7 ms, or several with page faults). It costs one more instance's
// memory per memory cap in use. Tests set it to 0 to reach the pending
// states.
var spareInstances = newKnob(1)

// spares counts the instances with this memory cap that no run holds:
// idle, pending or being restored by replenish. The caller holds idleMu.
func (e *Engine) spares(hardMem uint32) int {
	n := e.resetting[hardMem] + e.restoring[hardMem]
	for _, in := range e.dirty {
		if in.hardMem == hardMem {
			n++
		}
	}
	for _, in := range e.idle {
		if in.hardMem == hardMem {
			n++
		}
	}
	return n
}

// replenish restores an instance with this memory cap in the background
// when fewer than spareInstances are spare, and keeps it idle (an acquire
// waiting for a pending reset still gets that one). The restore holds the
// engine as a run does (Close frees the image after it) and counts as a
// release (Close waits for it).
func (e *Engine) replenish(hardMem uint32) {
	if !e.released1.Load() {
		return // no run has ended yet: maybe none comes after this one (a CLI's single run)
	}
	e.idleMu.Lock()
	if e.closed || !e.reusable || !reuseInstances.Load() || e.spares(hardMem) >= int(spareInstances.Load()) {
		e.idleMu.Unlock()
		return
	}
	if e.restoring == nil {
		e.restoring = map[uint32]int{}
	}
	e.restoring[hardMem]++
	e.inflight++
	e.releasing++
	e.idleMu.Unlock()
	go func() {
		in, err := e.newInstance(context.Background(), hardMem)
		e.idleMu.Lock()
		if e.restoring[hardMem]--; e.restoring[hardMem] == 0 {
			delete(e.restoring, hardMem)
		}
		if err == nil && !e.closed && len(e.idle) < idleMax {
			e.idle = append(e.idle, in)
			in = nil
		}
		e.idleMu.Unlock()
		if err == nil && in != nil {
			in.mod.Close(context.Background())
		}
		e.unhold()
		e.releaseEnded() // as endRelease: once the image may be freed
	}()
}

// acquire returns a reset instance for a run with this hard memory cap, or
// restores a new one.
func (e *Engine) acquire(ctx context.Context, hardMem uint32) (*instance, error) {
	return e.acquireHeld(ctx, hardMem, false)
}

// acquireHeld is acquire for a run that holds the engine (held: see
// Hold), which gets an instance even once Close has come.
func (e *Engine) acquireHeld(ctx context.Context, hardMem uint32, held bool) (*instance, error) {
	e.idleMu.Lock()
	if e.closed && !held {
		e.idleMu.Unlock()
		return nil, ErrClosed
	}
	e.inflight++
	e.live.Add(1)
	in, err := e.take(ctx, hardMem)
	if err != nil {
		e.done()
		return nil, err
	}
	e.replenish(hardMem)
	return in, nil
}

// take is acquire's search for a reset instance, or restore of a new one,
// for a run already counted (acquire, or a hibernated run waking). The
// caller holds idleMu; take releases it.
func (e *Engine) take(ctx context.Context, hardMem uint32) (*instance, error) {
	if !e.closed && e.reusable && reuseInstances.Load() { // closed: Close took the idle ones
		for i := len(e.idle) - 1; i >= 0; i-- {
			if in := e.idle[i]; in.hardMem == hardMem {
				e.idle = append(e.idle[:i], e.idle[i+1:]...)
				e.idleMu.Unlock()
				return in, nil
			}
		}
		// None idle, but a run that ended has handed one back: reset it
		// here, or, if its run is resetting it now, wait for it (a reset
		// compares and rewrites the memory; a restore costs more). Each
		// pending reset is waited for by one acquire at most.
		for i, in := range e.dirty {
			if in.hardMem == hardMem {
				e.dirty = append(e.dirty[:i], e.dirty[i+1:]...)
				e.idleMu.Unlock()
				if e.reset(in) == nil {
					return in, nil
				}
				in.mod.Close(context.Background())
				e.idleMu.Lock()
				break
			}
		}
		if e.resetting[hardMem] > e.waitingFor(hardMem) {
			w := &resetWaiter{hardMem: hardMem, ch: make(chan *instance, 1)}
			e.waiters = append(e.waiters, w)
			e.idleMu.Unlock()
			if in := <-w.ch; in != nil {
				return in, nil
			}
			// its reset failed: restore a new one
			e.idleMu.Lock()
		}
	}
	e.idleMu.Unlock()
	return e.newInstance(ctx, hardMem)
}

// newInstance restores a new instance with this hard memory cap.
func (e *Engine) newInstance(ctx context.Context, hardMem uint32) (*instance, error) {
	var mod api.Module
	var err error
	mapped := false
	if e.cow != nil && e.shareSnapshot() {
		mod, err = e.restoreMapped(experimental.WithMemoryAllocator(ctx, newCowAllocator(uint64(hardMem), e.cow, &mapped)), &mapped)
	} else {
		mod, err = e.restore(experimental.WithMemoryAllocator(ctx, newMemoryAllocator(uint64(hardMem))))
	}
	if err != nil {
		return nil, err
	}
	in := &instance{
		mod:     mod,
		run:     mod.ExportedFunction("mb_run"),
		stack:   make([]uint64, 4),
		hardMem: hardMem,
		cow:     mapped,
	}
	in.sp, _ = mod.ExportedGlobal(spExport).(api.MutableGlobal)
	acquiredHook.call(in)
	return in, nil
}

// acquiredHook, when set (by tests only), sees every new instance.
var acquiredHook hook

// endReleaseHook and resetHook, when set (by tests only), are called at
// the start of endRelease and of resetAndKeep, on the goroutine of the run
// that ended, after its Run has its result.
var endReleaseHook, resetHook hook

// A run hands its instance back in two steps, so that resetting it is
// not on the run's critical path: beginRelease before the run's result is
// delivered (Run returns), endRelease after.
//
// beginRelease decides, from the instance alone, whether it will be reset
// and kept: only if the run's last guest call returned (clean), its
// memory did not grow, the image is reusable and the engine is open. If
// so it puts the instance on the dirty list (handed back, not yet reset:
// never run on as it is) and the caller must call endRelease later.
// Otherwise it closes the instance and ends the run's hold on the engine
// at once (so that after a Close the last run frees the image before its
// Run returns), and returns false: the caller must not call endRelease.
// Either way the run is no longer live: a run whose reset is still to
// come (its goroutine behind the caller's next runs, on a busy or single
// processor) does not count towards the runs in flight that decide
// copy-on-write mapping and hibernation (shareSnapshot, canHibernate).
func (e *Engine) beginRelease(in *instance, clean bool) bool {
	e.released1.Store(true)
	e.live.Add(-1)
	keep := clean && e.reusable && reuseInstances.Load() && in.sp != nil &&
		in.mod.Memory().Size() == uint32(e.snap.pages)*pageSize
	if keep {
		e.idleMu.Lock()
		if !e.closed {
			e.dirty = append(e.dirty, in)
			e.releasing++
			e.idleMu.Unlock()
			return true
		}
		e.idleMu.Unlock()
	}
	in.mod.Close(context.Background())
	e.unhold()
	e.replenish(in.hardMem)
	return false
}

// endRelease resets an instance beginRelease put on the dirty list,
// unless an acquire has taken it from there first (and reset it itself)
// or Close has closed it; then hands it to an acquire waiting for it, or
// keeps it idle, or closes it (a failed reset, a closed engine, a full
// idle list); then ends the run's hold on the engine. The reset uses the
// snapshot image without a lock: Close frees it only after the last run
// holding an instance has ended its hold (done), which is after its
// reset, and an acquire that resets holds the engine for its own run.
func (e *Engine) endRelease(in *instance) {
	endReleaseHook.call(in)
	e.idleMu.Lock()
	h := in.hardMem
	claimed := false
	for i, d := range e.dirty {
		if d == in {
			e.dirty = append(e.dirty[:i], e.dirty[i+1:]...)
			claimed = true
			break
		}
	}
	if claimed {
		if e.resetting == nil {
			e.resetting = map[uint32]int{}
		}
		e.resetting[h]++
	}
	e.idleMu.Unlock()
	if claimed {
		e.resetAndKeep(in)
	}
	e.unhold() // the run stopped being live at beginRelease
	e.releaseEnded()
}

// releaseEnded ends a release counted in releasing (endRelease,
// replenish): awaitResets returns once none is left.
func (e *Engine) releaseEnded() {
	e.idleMu.Lock()
	if e.releasing--; e.releasing == 0 && e.released != nil {
		close(e.released)
		e.released = nil
	}
	e.idleMu.Unlock()
}

// resetAndKeep is endRelease's reset of an instance it took from the dirty
// list (counted in resetting), and what follows it.
func (e *Engine) resetAndKeep(in *instance) {
	resetHook.call(in)
	ok := e.reset(in) == nil // a full rewrite: nothing of the run stays
	e.idleMu.Lock()
	h := in.hardMem
	if e.resetting[h]--; e.resetting[h] == 0 {
		delete(e.resetting, h)
	}
	var w *resetWaiter
	switch {
	case ok:
		w = e.takeWaiter(h)
		if w == nil && !e.closed && len(e.idle) < idleMax {
			e.idle = append(e.idle, in)
			in = nil
		}
	case e.waitingFor(h) > e.resetting[h]:
		// a waiter counted on this reset: it must restore its own
		w = e.takeWaiter(h)
	}
	e.idleMu.Unlock()
	if w != nil {
		if ok {
			w.ch <- in
			in = nil
		} else {
			w.ch <- nil
		}
	}
	if in != nil {
		in.mod.Close(context.Background())
	}
}

// handBack keeps the instance of a run that hibernates (hibernate.go),
// whose memory hibernate has made the snapshot's again, idle, with its
// stack pointer set back; or hands it to an acquire waiting for one, or
// closes it (a closed engine, hibIdleMax instances idle already). The run
// still holds the engine: it takes an instance again when it wakes.
func (e *Engine) handBack(in *instance) {
	in.sp.Set(e.snap.sp)
	e.idleMu.Lock()
	var w *resetWaiter
	if !e.closed {
		if w = e.takeWaiter(in.hardMem); w == nil && len(e.idle) < hibIdleMax {
			e.idle = append(e.idle, in)
			in = nil
		}
	}
	e.idleMu.Unlock()
	if w != nil {
		w.ch <- in
		return
	}
	if in != nil {
		in.mod.Close(context.Background())
	}
}

// resetWaiter is an acquire waiting for a pending reset of an instance
// with its memory cap: it receives the instance, or nil when the reset
// failed.
type resetWaiter struct {
	hardMem uint32
	ch      chan *instance
}

// waitingFor counts the acquires waiting for an instance with this memory
// cap. The caller holds idleMu.
func (e *Engine) waitingFor(hardMem uint32) int {
	n := 0
	for _, w := range e.waiters {
		if w.hardMem == hardMem {
			n++
		}
	}
	return n
}

// takeWaiter removes and returns the first acquire waiting for an
// instance with this memory cap, or nil. The caller holds idleMu.
func (e *Engine) takeWaiter(hardMem uint32) *resetWaiter {
	for i, w := range e.waiters {
		if w.hardMem == hardMem {
			e.waiters = append(e.waiters[:i], e.waiters[i+1:]...)
			return w
		}
	}
	return nil
}

// awaitResets returns once no reset begun before it is pending (Close
// waits so; tests too, before they look at the idle instances).
func (e *Engine) awaitResets() {
	e.idleMu.Lock()
	if e.releasing == 0 {
		e.idleMu.Unlock()
		return
	}
	if e.released == nil {
		e.released = make(chan struct{})
	}
	ch := e.released
	e.idleMu.Unlock()
	<-ch
}

// done ends a live run's hold on the engine (one that did not come to
// beginRelease); the last one after Close frees it.
func (e *Engine) done() {
	e.live.Add(-1)
	e.unhold()
}

// unhold ends a hold counted in inflight (a run's, or replenish's); the
// last one after Close frees the engine.
func (e *Engine) unhold() {
	e.idleMu.Lock()
	e.inflight--
	last := e.closed && e.inflight == 0 && e.derivedHeld == 0
	e.idleMu.Unlock()
	if last {
		e.free()
	}
}

// unholdDerived ends a derived engine's hold on e (counted in
// derivedHeld); the last hold after Close frees e.
func (e *Engine) unholdDerived() {
	e.idleMu.Lock()
	e.derivedHeld--
	last := e.closed && e.inflight == 0 && e.derivedHeld == 0
	e.idleMu.Unlock()
	if last {
		e.free()
	}
}

// Hold keeps an engine open for a run about to start: until Release, the
// engine's image is not freed, and a run given the hold (Request.Hold)
// starts even if Close comes meanwhile. A caller that must spend
// something a run cannot give back (a single-use continuation token)
// takes a hold first, so that once it has spent it the run can start.
type Hold struct {
	e    *Engine
	once sync.Once
}

// Hold holds e (or, when it has one, the derived engine with setup
// installed that runs of setup use) open; it fails with ErrClosed once
// Close has been called.
func (e *Engine) Hold(setup []byte) (*Hold, error) {
	if d := e.forSetup(setup); d != nil && d.hold() {
		return &Hold{e: d}, nil
	}
	if !e.hold() {
		return nil, ErrClosed
	}
	return &Hold{e: e}, nil
}

// hold counts a hold in inflight, unless e is closed.
func (e *Engine) hold() bool {
	e.idleMu.Lock()
	defer e.idleMu.Unlock()
	if e.closed {
		return false
	}
	e.inflight++
	return true
}

// Release ends the hold; once Close has come, the last hold or run frees
// the engine. Release is idempotent; on nil it does nothing.
func (h *Hold) Release() {
	if h != nil {
		h.once.Do(h.e.unhold)
	}
}

// Closed reports whether Close has been called. A caller about to spend
// something a run cannot give back (a single-use continuation token)
// checks it first.
func (e *Engine) Closed() bool {
	e.idleMu.Lock()
	defer e.idleMu.Unlock()
	return e.closed
}

// Close releases what the engine holds: its idle instances at once, and
// its compiled code, runtime and snapshot image (on Linux, a memfd) once
// no run holds an instance. A run in flight finishes; its instance is then
// closed, not kept. Runs after Close fail with ErrClosed (the run's error
// is codes.ImageClosed). Close is idempotent and safe for concurrent use;
// on the engine Shared returns it does nothing, since that one serves the
// whole process.
func (e *Engine) Close() error {
	if e.shared {
		return nil
	}
	e.idleMu.Lock()
	if e.closed {
		e.idleMu.Unlock()
		return nil
	}
	e.closed = true
	idle := append(e.idle, e.dirty...) // ended runs' instances not yet reset too
	e.idle, e.dirty = nil, nil
	last := e.inflight == 0 && e.derivedHeld == 0
	e.idleMu.Unlock()
	e.setups.closeAll() // each holds e until it is freed
	for _, in := range idle {
		in.mod.Close(context.Background())
	}
	if last {
		e.free()
	}
	// Runs that ended before Close may still be resetting their
	// instances (or about to find them closed, above): they close them
	// instead of keeping them, and the last frees the image. Wait for
	// them (a reset is a bounded rewrite of memory), so that an engine
	// closed with no run in progress has released everything when Close
	// returns.
	e.awaitResets()
	return nil
}

// free closes the runtime (and with it the compiled module) and the
// snapshot image, or, on a derived engine, its snapshot image and its hold
// on its base. It runs once: after Close, when no run holds an instance.
func (e *Engine) free() {
	if e.base != nil { // a derived engine: the runtime is its base's
		e.cow.close()
		e.base.unholdDerived()
		return
	}
	ctx := context.Background()
	e.compiled.Close(ctx)
	e.rt.Close(ctx)
	e.cow.close()
}

var errNotResettable = errors.New("engine: instance cannot be reset")

// reset makes the instance's state the post-init snapshot again.
func (e *Engine) reset(in *instance) error {
	mem := in.mod.Memory()
	size := uint32(e.snap.pages) * pageSize
	if in.sp == nil || mem.Size() != size {
		return errNotResettable
	}
	buf, ok := mem.Read(0, size) // a view of the memory, not a copy
	if !ok {
		return errNotResettable
	}
	if in.cow {
		if err := e.cow.mapOver(buf); err != nil {
			return err
		}
		in.sp.Set(e.snap.sp)
		return nil
	}
	at := uint32(0)
	for _, c := range e.snap.image {
		zeroPages(buf[at:c.off])
		copyPages(buf[c.off:c.off+uint32(len(c.data))], c.data)
		at = c.off + uint32(len(c.data))
	}
	zeroPages(buf[at:])
	in.sp.Set(e.snap.sp)
	return nil
}

// resetPage is the unit in which a reset compares the memory with the
// snapshot before it writes.
const resetPage = 4096

// zeroPage is resetPage zero bytes, which zeroPages compares with.
var zeroPage [resetPage]byte

// copyPages makes dst, as long as src, equal to src, writing only the
// resetPage pieces that differ. A run writes a few dozen pages of the
// ~1.2 MB memory: reading both is cheaper than writing all of dst, whose
// every line then had to go back to memory while the next run missed the
// caches the writes had filled (a run of `return 1` took ~15% longer).
func copyPages(dst, src []byte) {
	for p := 0; p < len(src); p += resetPage {
		q := min(p+resetPage, len(src))
		if !bytes.Equal(dst[p:q], src[p:q]) {
			copy(dst[p:q], src[p:q])
		}
	}
}

// zeroPages makes dst zero, writing only the resetPage pieces that are
// not (see copyPages).
func zeroPages(dst []byte) {
	for p := 0; p < len(dst); p += resetPage {
		q := min(p+resetPage, len(dst))
		if !bytes.Equal(dst[p:q], zeroPage[:q-p]) {
			clear(dst[p:q])
		}
	}
}

// shareMode says which new instances map the snapshot copy-on-write
// instead of copying it: shareNever, shareAlways, or shareAbove (once more
// than shareThreshold runs hold an instance).
var shareMode = newKnob(func() int32 {
	switch os.Getenv("MODEBOX_SHARE_SNAPSHOT") {
	case "never":
		return shareNever
	case "always":
		return shareAlways
	}
	return shareAbove
}())

const (
	shareNever = iota
	shareAlways
	shareAbove
)

var shareThreshold = newKnob(8)

func (e *Engine) shareSnapshot() bool {
	switch shareMode.Load() {
	case shareAlways:
		return true
	case shareAbove:
		return e.live.Load() > shareThreshold.Load()
	}
	return false
}
