package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// The wall-clock limit bounds the program's own time. While a host call
// waits for a person (an approval prompt), the clock may be held: the
// deadline moves by the time spent waiting. It moves only while nothing
// of the run works: the guest is idle (the driver waits for a call to
// settle, or runs the one call it waits for itself) and every call inside
// Host.Call waits for a person. A program that starts a call needing
// approval and goes on computing without awaiting it, or that runs
// another tool meanwhile, is timed as if nobody were asked. Hosts bound
// the waits themselves.

type holdKey struct{}

// clockHold tracks the time a run's deadline is held.
type clockHold struct {
	// used is set at the first hold: until then the driver and the calls
	// only keep idle and inCall, without the lock. (Each side stores its
	// own flag before it loads the other's, so that a hold that begins
	// while the driver changes state sees the change or is seen by it.)
	used   atomic.Bool
	idle   atomic.Bool  // the guest runs nothing: set by the driver
	inCall atomic.Int32 // calls inside Host.Call

	mu        sync.Mutex
	holding   int           // holds not yet released
	heldCalls int           // calls inside Host.Call with a hold of their own
	frozen    bool          // the deadline moves now
	since     time.Time     // when frozen last began
	held      time.Duration // frozen time before since
}

// callHold is one call's context: the run's calls' context, and what
// HoldClock needs to tell the call's holds from the others'. It is part of
// the call's record (pendingCall), so a call's context costs no
// allocation.
type callHold struct {
	context.Context
	h       *clockHold
	holds   int         // holds of this call not yet released (h.mu)
	counted bool        // the call is in h.heldCalls (h.mu)
	out     atomic.Bool // Host.Call returned: a later hold is not the call's
}

// Value answers HoldClock's key with the call; other keys are the run's.
func (c *callHold) Value(key any) any {
	if _, ok := key.(holdKey); ok {
		return c
	}
	return c.Context.Value(key)
}

// callContext returns the context pc's Host.Call gets.
func (r *run) callContext(pc *pendingCall) context.Context {
	pc.hold.Context, pc.hold.h = r.callCtx, &r.hold
	return &pc.hold
}

// setIdle tells whether the guest is idle: the driver waits for a call to
// settle, or runs the call it waits for (callInline).
func (h *clockHold) setIdle(idle bool) {
	h.idle.Store(idle)
	if h.used.Load() {
		h.mu.Lock()
		h.update()
		h.mu.Unlock()
	}
}

// enter counts a call going into Host.Call.
func (h *clockHold) enter() {
	h.inCall.Add(1)
	if h.used.Load() {
		h.mu.Lock()
		h.update()
		h.mu.Unlock()
	}
}

// leave counts c's call coming back from Host.Call.
func (h *clockHold) leave(c *callHold) {
	c.out.Store(true)
	h.inCall.Add(-1)
	if h.used.Load() {
		h.mu.Lock()
		if c.counted { // a hold the call left behind
			c.counted = false
			h.heldCalls--
		}
		h.update()
		h.mu.Unlock()
	}
}

// hold begins a hold, of call c's when c is not nil.
func (h *clockHold) hold(c *callHold) func() {
	h.used.Store(true)
	h.mu.Lock()
	h.holding++
	if c != nil {
		c.holds++
		if !c.counted && !c.out.Load() {
			c.counted = true
			h.heldCalls++
		}
	}
	h.update()
	h.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.holding--
			if c != nil {
				if c.holds--; c.holds == 0 && c.counted {
					c.counted = false
					h.heldCalls--
				}
			}
			h.update()
		})
	}
}

// update starts or stops the deadline's move as the state says (h.mu
// held): it moves while something holds, the guest is idle and no call
// inside Host.Call is without a hold.
func (h *clockHold) update() {
	frozen := h.holding > 0 && h.idle.Load() && int(h.inCall.Load()) <= h.heldCalls
	if frozen == h.frozen {
		return
	}
	now := time.Now()
	if frozen {
		h.since = now
	} else {
		h.held += now.Sub(h.since)
	}
	h.frozen = frozen
}

// extra is how far the deadline has moved.
func (h *clockHold) extra() time.Duration {
	if !h.used.Load() {
		return 0
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	d := h.held
	if h.frozen {
		d += time.Since(h.since)
	}
	return d
}

// HoldClock asks that a run's wall-clock limit stop counting until release
// is called, for a host call that waits for a person. ctx is the context
// a Host.Call received; outside a run it does nothing. The limit stops
// counting only while the guest is idle and every call in Host.Call is in
// such a wait: a guest that computes, or another call that works, keeps
// it counting.
func HoldClock(ctx context.Context) (release func()) {
	switch h := ctx.Value(holdKey{}).(type) {
	case *callHold:
		return h.h.hold(h)
	case *clockHold:
		return h.hold(nil)
	}
	return func() {}
}

// effectiveDeadline is the deadline moved by the held time.
func (r *run) effectiveDeadline() time.Time {
	return r.deadline.Add(r.hold.extra())
}
