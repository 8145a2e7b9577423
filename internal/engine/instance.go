package engine

import (
	"context"
	"errors"
	"os"

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
//   - its memory is rewritten with the whole post-init image, every byte of
//     it (release, before it is kept: nothing of the run stays in an idle
//     instance);
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

// reuseInstances turns reuse on; tests and benchmarks turn it off to
// measure a fresh instance per run.
var reuseInstances = true

// acquire returns a reset instance for a run with this hard memory cap, or
// restores a new one.
func (e *Engine) acquire(ctx context.Context, hardMem uint32) (*instance, error) {
	e.idleMu.Lock()
	if e.closed {
		e.idleMu.Unlock()
		return nil, ErrClosed
	}
	e.inflight++
	e.live.Add(1)
	if e.reusable && reuseInstances {
		for i := len(e.idle) - 1; i >= 0; i-- {
			if in := e.idle[i]; in.hardMem == hardMem {
				e.idle = append(e.idle[:i], e.idle[i+1:]...)
				e.idleMu.Unlock()
				return in, nil
			}
		}
	}
	e.idleMu.Unlock()
	var mod api.Module
	var err error
	mapped := false
	if e.cow != nil && e.shareSnapshot() {
		mod, err = e.restoreMapped(experimental.WithMemoryAllocator(ctx, newCowAllocator(uint64(hardMem), e.cow, &mapped)), &mapped)
	} else {
		mod, err = e.restore(experimental.WithMemoryAllocator(ctx, newMemoryAllocator(uint64(hardMem))))
	}
	if err != nil {
		e.done()
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
	if acquiredHook != nil {
		acquiredHook(in)
	}
	return in, nil
}

// acquiredHook, when set (by tests only), sees every new instance.
var acquiredHook func(*instance)

// release resets the instance and keeps it for another run when clean and
// reusable and the engine is open, and closes it otherwise. The reset may
// use the snapshot image without a lock: Close frees it only after the
// last run holding an instance has released it.
func (e *Engine) release(in *instance, clean bool) {
	defer e.done()
	if clean && e.reusable && reuseInstances && e.reset(in) == nil {
		e.idleMu.Lock()
		if !e.closed && len(e.idle) < idleMax {
			e.idle = append(e.idle, in)
			e.idleMu.Unlock()
			return
		}
		e.idleMu.Unlock()
	}
	in.mod.Close(context.Background())
}

// done ends a run's hold on the engine; the last one after Close frees it.
func (e *Engine) done() {
	e.live.Add(-1)
	e.idleMu.Lock()
	e.inflight--
	last := e.closed && e.inflight == 0
	e.idleMu.Unlock()
	if last {
		e.free()
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
	idle := e.idle
	e.idle = nil
	last := e.inflight == 0
	e.idleMu.Unlock()
	for _, in := range idle {
		in.mod.Close(context.Background())
	}
	if last {
		e.free()
	}
	return nil
}

// free closes the runtime (and with it the compiled module) and the
// snapshot image. It runs once: after Close, when no run holds an
// instance.
func (e *Engine) free() {
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
		clear(buf[at:c.off])
		at = c.off + uint32(copy(buf[c.off:], c.data))
	}
	clear(buf[at:])
	in.sp.Set(e.snap.sp)
	return nil
}

// shareMode says which new instances map the snapshot copy-on-write
// instead of copying it: shareNever, shareAlways, or shareAbove (once more
// than shareThreshold runs hold an instance).
var shareMode = func() int {
	switch os.Getenv("MODEBOX_SHARE_SNAPSHOT") {
	case "never":
		return shareNever
	case "always":
		return shareAlways
	}
	return shareAbove
}()

const (
	shareNever = iota
	shareAlways
	shareAbove
)

var shareThreshold int32 = 8

func (e *Engine) shareSnapshot() bool {
	switch shareMode {
	case shareAlways:
		return true
	case shareAbove:
		return e.live.Load() > shareThreshold
	}
	return false
}
