package engine

import (
	"bytes"
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// A run whose wait (a host call, a timer) has lasted hibernateAfter
// while many runs are in flight hibernates: its instance goes back to the
// idle instances, reset, and the run keeps only the bytes its memory
// differs from the snapshot in and the stack pointer. When the wait ends
// it takes an instance (an idle one, or a new one) and writes them back
// before the guest is called again.
//
// That is exact because between guest calls an instance's whole state is
// its memory and its stack pointer (see instance): no guest call is in
// progress while the run waits, so no call stack holds guest values, and
// the function table never changes. The bytes that differ are found among
// the pages the run wrote: with the snapshot mapped copy-on-write, a page
// the run never wrote is still the image's (the kernel's page map tells
// which are), and each written page is compared with the image's (an
// instance that copied the snapshot has every page compared). The reset
// writes the image's bytes back where they differ.
//
// It is done only where the snapshot is in a memfd (Linux), only while
// more than shareThreshold runs are in flight (what already decides
// copy-on-write mapping), and only for waits that last: the driver arms
// it before it waits (arm) and disarms it when the wait ends (disarm); the engine's
// sweeper, a goroutine that runs while runs are armed, hibernates those
// armed for hibernateAfter. A hibernation reads the page map and
// compares the written pages; a wake writes the recorded bytes
// (BenchmarkHostCallsManyLive); short waits never pay either.
type hibernated struct {
	sp      uint64
	hardMem uint32
	size    uint32 // the memory's size: the snapshot's
	diff    memDiff
	full    []byte // with verifyWake: the whole memory, for wake to compare
}

// Test hooks: verifyWake makes wake compare the whole memory it rebuilt
// with the memory the run left (a difference fails the run); hibernations
// counts the runs that hibernated; hibernatedHook sees each record before
// its instance goes back; hibernateNow makes every wait hibernate at once
// (when it may), without the sweeper.
var (
	verifyWake     atomic.Bool
	hibernateNow   atomic.Bool
	hibernations   atomic.Int64
	hibernatedHook atomic.Pointer[func(*hibernated)]
)

// memDiff is a memory as runs of bytes that differ from the snapshot.
type memDiff struct {
	offs []uint32 // where each run starts
	lens []uint32
	data []byte // the runs' bytes, one after the other
}

// hibernateRuns turns hibernation on; tests turn it off to compare.
var hibernateRuns = newFlag(true)

// diffGap is how many equal bytes may lie inside one run of a memDiff:
// a run's offset and length cost 8 bytes.
const diffGap = 16

// add records where page differs from snap (both the same length), at
// offset base of the memory.
func (d *memDiff) add(base uint32, page, snap []byte) {
	if bytes.Equal(page, snap) { // most pages of a copied snapshot
		return
	}
	n := len(page)
	for i := 0; i < n; {
		// skip equal bytes, 8 at a time where they are equal
		for i+8 <= n && bytes.Equal(page[i:i+8], snap[i:i+8]) {
			i += 8
		}
		for i < n && page[i] == snap[i] {
			i++
		}
		if i == n {
			return
		}
		start := i
		end := i + 1
		for j := end; j < n && j-end < diffGap; j++ {
			if page[j] != snap[j] {
				end = j + 1
			}
		}
		d.offs = append(d.offs, base+uint32(start))
		d.lens = append(d.lens, uint32(end-start))
		d.data = append(d.data, page[start:end]...)
		i = end
	}
}

// apply writes the recorded bytes into mem, a memory as the snapshot is.
func (d *memDiff) apply(mem []byte) bool {
	at := uint32(0)
	for i, off := range d.offs {
		n := d.lens[i]
		if uint64(off)+uint64(n) > uint64(len(mem)) {
			return false
		}
		copy(mem[off:off+n], d.data[at:at+n])
		at += n
	}
	return true
}

// restore writes snap's bytes where the recorded runs are: mem, which
// had the recorded bytes, is then as snap is.
func (d *memDiff) restore(mem, snap []byte) {
	for i, off := range d.offs {
		n := d.lens[i]
		copy(mem[off:off+n], snap[off:off+n])
	}
}

// hibernateAfter is how long a run waits before it hibernates; the
// sweeper looks every hibernateAfter.
const hibernateAfter = time.Millisecond

// States of a run's hibernation (run.hibState).
const (
	hibNone   = iota // not armed
	hibArmed         // waiting, its instance idle: the sweeper may take it
	hibTaking        // the sweeper is hibernating it (under run.hibMu)
	hibDone          // hibernated: run.hib holds its record
	hibFailed        // the sweeper could not (the memory grew): not again in this wait
)

// arm lets the sweeper hibernate r, whose instance is in, once its wait
// has lasted hibernateAfter. The driver calls it before it waits; it
// costs a few atomic stores, and the first arm of a run registers it with
// the sweeper (and starts the sweeper), for the rest of the run.
func (e *Engine) arm(r *run, in *instance) {
	r.hibInst = in
	r.hibSince.Store(time.Now().UnixNano())
	if hibernateNow.Load() { // tests: every wait hibernates, at once
		if h, ok := e.hibernate(in); ok {
			r.hib, r.hibInst = h, nil
			r.hibState.Store(hibDone)
			return
		}
	}
	r.hibState.Store(hibArmed)
	if r.hibRegistered {
		return
	}
	r.hibRegistered = true
	e.hibMu.Lock()
	if e.hibRuns == nil {
		e.hibRuns = map[*run]struct{}{}
	}
	e.hibRuns[r] = struct{}{}
	start := !e.hibSweeping
	e.hibSweeping = true
	e.hibMu.Unlock()
	if start {
		go e.sweep()
	}
}

// disarm ends r's wait for the sweeper: after it returns the sweeper does
// not touch r until it is armed again. It returns r's record when r
// hibernated, else nil (the instance arm was given is still r's).
func (e *Engine) disarm(r *run) *hibernated {
	for {
		switch r.hibState.Load() {
		case hibNone:
			return nil
		case hibArmed:
			if r.hibState.CompareAndSwap(hibArmed, hibNone) {
				r.hibInst = nil
				return nil
			}
		case hibTaking:
			r.hibMu.Lock() // the sweeper holds it while it hibernates r
			r.hibMu.Unlock()
		case hibDone:
			if r.hibState.CompareAndSwap(hibDone, hibNone) {
				return r.hib
			}
		case hibFailed:
			if r.hibState.CompareAndSwap(hibFailed, hibNone) {
				r.hibInst = nil
				return nil
			}
		}
	}
}

// unregister takes r off the sweeper's runs when it ends.
func (e *Engine) unregister(r *run) {
	if !r.hibRegistered {
		return
	}
	r.hibRegistered = false
	e.hibMu.Lock()
	delete(e.hibRuns, r)
	e.hibMu.Unlock()
}

// sweep hibernates the runs armed for hibernateAfter, every
// hibernateAfter, until no run is registered.
func (e *Engine) sweep() {
	t := time.NewTicker(hibernateAfter)
	defer t.Stop()
	var runs []*run
	for range t.C {
		e.hibMu.Lock()
		if len(e.hibRuns) == 0 {
			e.hibSweeping = false
			e.hibMu.Unlock()
			return
		}
		runs = runs[:0]
		for r := range e.hibRuns {
			runs = append(runs, r)
		}
		e.hibMu.Unlock()
		due := time.Now().Add(-hibernateAfter).UnixNano()
		for _, r := range runs {
			if r.hibState.Load() != hibArmed || r.hibSince.Load() > due {
				continue
			}
			r.hibMu.Lock()
			if r.hibState.CompareAndSwap(hibArmed, hibTaking) {
				if h, ok := e.hibernate(r.hibInst); ok {
					r.hib, r.hibInst = h, nil
					r.hibState.Store(hibDone)
				} else {
					r.hibState.Store(hibFailed)
				}
			}
			r.hibMu.Unlock()
		}
		clear(runs)
	}
}

// canHibernate reports whether the run of in may hibernate now.
func (e *Engine) canHibernate(in *instance) bool {
	return hibernateRuns.Load() && in != nil && in.sp != nil && e.cow != nil && e.reusable && reuseInstances.Load() &&
		e.live.Load() > shareThreshold.Load()
}

// hibernate records the run's state on in and hands in back; ok is false
// (and in is still the run's) when it cannot: the memory grew, or the
// page map cannot be read.
func (e *Engine) hibernate(in *instance) (*hibernated, bool) {
	size := e.snap.pages * pageSize
	mem := in.mod.Memory()
	if mem.Size() != size {
		return nil, false
	}
	buf, ok := mem.Read(0, size)
	if !ok {
		return nil, false
	}
	snap := e.cow.view()
	if len(snap) != int(size) {
		return nil, false
	}
	h := &hibernated{sp: in.sp.Get(), hardMem: in.hardMem, size: size}
	page := func(off int) {
		end := min(off+osPage, len(buf))
		h.diff.add(uint32(off), buf[off:end], snap[off:end])
	}
	if in.cow {
		if err := writtenPages(buf, page); err != nil {
			return nil, false
		}
	} else { // a copied snapshot: every page is the instance's own
		for off := 0; off < len(buf); off += osPage {
			page(off)
		}
	}
	if verifyWake.Load() {
		h.full = bytes.Clone(buf)
	}
	hibernations.Add(1)
	if f := hibernatedHook.Load(); f != nil {
		(*f)(h)
	}
	// the reset: the snapshot's bytes back where the run's differ (the
	// pages stay the instance's own copies: no page is dropped, so the
	// next run writing them, or a wake, does not fault them in again)
	h.diff.restore(buf, snap)
	e.handBack(in)
	return h, true
}

// osPage is the unit a copy-on-write mapping copies.
const osPage = 4096

var errWake = errors.New("engine: cannot give a hibernated run its memory back")

// wake takes an instance for a hibernated run and gives it the run's
// memory and stack pointer.
func (e *Engine) wake(ctx context.Context, h *hibernated) (*instance, error) {
	e.idleMu.Lock()
	in, err := e.take(ctx, h.hardMem)
	if err != nil {
		return nil, err
	}
	mem := in.mod.Memory()
	buf, ok := mem.Read(0, mem.Size())
	if !ok || in.sp == nil || mem.Size() != h.size || !h.diff.apply(buf) {
		in.mod.Close(context.Background())
		return nil, errWake
	}
	if h.full != nil && !bytes.Equal(buf, h.full) {
		in.mod.Close(context.Background())
		return nil, errWake
	}
	in.sp.Set(h.sp)
	return in, nil
}
