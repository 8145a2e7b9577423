package engine

import "sync/atomic"

// The engine's test knobs (reuseInstances, spareInstances, shareMode,
// shareThreshold, hibernateRuns, verifyWake, hibernateNow) and test hooks
// (acquiredHook, endReleaseHook, resetHook, hibernatedHook) are atomics: a
// test changes them while the process-wide engine (Shared) may still be
// ending an earlier test's run in the background (a reset, a spare's
// restore), and that goroutine reads them.

// newFlag returns a boolean knob set to v.
func newFlag(v bool) *atomic.Bool {
	var b atomic.Bool
	b.Store(v)
	return &b
}

// newKnob returns an integer knob set to v.
func newKnob(v int32) *atomic.Int32 {
	var n atomic.Int32
	n.Store(v)
	return &n
}

// hook is a function tests set to see an instance at one point of its
// life; unset, it does nothing.
type hook struct {
	f atomic.Pointer[func(*instance)]
}

// set sets the hook to f, or unsets it when f is nil.
func (h *hook) set(f func(*instance)) {
	if f == nil {
		h.f.Store(nil)
		return
	}
	h.f.Store(&f)
}

// call calls the hook, if set, with in.
func (h *hook) call(in *instance) {
	if f := h.f.Load(); f != nil {
		(*f)(in)
	}
}
