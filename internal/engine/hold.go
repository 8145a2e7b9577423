package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// The wall-clock limit bounds the program's own time. While a host call
// waits for a person (an approval prompt), the clock is held: the deadline
// moves by the time spent waiting. Hosts bound such waits themselves.

type holdKey struct{}

// clockHold tracks the time a run's deadline is held.
type clockHold struct {
	used    atomic.Bool // set at the first hold: polls skip the lock until then
	mu      sync.Mutex
	holding int
	since   time.Time
	held    time.Duration
}

func (h *clockHold) hold() func() {
	h.used.Store(true)
	h.mu.Lock()
	if h.holding == 0 {
		h.since = time.Now()
	}
	h.holding++
	h.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.holding--
			if h.holding == 0 {
				h.held += time.Since(h.since)
			}
		})
	}
}

// extra is how far the deadline has moved.
func (h *clockHold) extra() time.Duration {
	if !h.used.Load() {
		return 0
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	d := h.held
	if h.holding > 0 {
		d += time.Since(h.since)
	}
	return d
}

// HoldClock stops a run's wall-clock limit from counting until release is
// called, for a host call that waits for a person. ctx is the context a
// Host.Call received; outside a run it does nothing.
func HoldClock(ctx context.Context) (release func()) {
	if h, ok := ctx.Value(holdKey{}).(*clockHold); ok {
		return h.hold()
	}
	return func() {}
}

// effectiveDeadline is the deadline moved by the held time.
func (r *run) effectiveDeadline() time.Time {
	return r.deadline.Add(r.hold.extra())
}
