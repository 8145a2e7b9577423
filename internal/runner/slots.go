package runner

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/errs"
)

// Defaults of the host-side run limit.
const (
	DefaultMaxQueued    = 256
	DefaultQueueTimeout = 30 * time.Second
)

// DefaultMaxRuns is the default number of runs in progress at once: four
// per CPU, at least 8.
func DefaultMaxRuns() int { return max(8, 4*runtime.NumCPU()) }

// Slots bound the runs in progress on an engine: a slot per run, a
// bounded queue, a bounded wait.
type Slots struct {
	slots     chan struct{}
	queued    atomic.Int64
	maxQueued int64
	timeout   time.Duration
}

// NewSlots checks the engine's run limit (EngineConfig.MaxRuns, MaxQueued,
// QueueTimeout; zero: the defaults, MaxQueued -1: no queue).
func NewSlots(maxRuns, maxQueued int, timeout time.Duration) (*Slots, error) {
	switch {
	case maxRuns < 0:
		return nil, &errs.Config{Field: "EngineConfig.MaxRuns", Reason: "must not be negative"}
	case maxQueued < -1:
		return nil, &errs.Config{Field: "EngineConfig.MaxQueued", Reason: "must be -1 (no queue), 0 (the default) or more"}
	case timeout < 0:
		return nil, &errs.Config{Field: "EngineConfig.QueueTimeout", Reason: "must not be negative"}
	}
	if maxRuns == 0 {
		maxRuns = DefaultMaxRuns()
	}
	switch maxQueued {
	case 0:
		maxQueued = DefaultMaxQueued
	case -1:
		maxQueued = 0
	}
	if timeout == 0 {
		timeout = DefaultQueueTimeout
	}
	return &Slots{slots: make(chan struct{}, maxRuns), maxQueued: int64(maxQueued), timeout: timeout}, nil
}

// Acquire takes a slot, waiting in the queue if there is room; release
// gives it back. The wait does not count against the run's timeout. A
// refusal is ENGINE_BUSY, or CANCELLED or TIMEOUT when ctx ends first (or
// has ended already), and nothing ran.
func (g *Slots) Acquire(ctx context.Context) (release func(), err *errs.Tool) {
	if err := ctx.Err(); err != nil {
		return nil, ContextRefusal(err, "before the run started")
	}
	if g == nil {
		return func() {}, nil
	}
	release = func() { <-g.slots }
	select {
	case g.slots <- struct{}{}:
		return release, nil
	default:
	}
	if g.queued.Add(1) > g.maxQueued {
		g.queued.Add(-1)
		return nil, &errs.Tool{Code: codes.EngineBusy, Message: fmt.Sprintf("the engine is running %d programs and %d more are waiting; nothing ran, try again later", cap(g.slots), g.maxQueued)}
	}
	defer g.queued.Add(-1)
	t := time.NewTimer(g.timeout)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return release, nil
	case <-t.C:
		return nil, &errs.Tool{Code: codes.EngineBusy, Message: fmt.Sprintf("no run slot came free in %s (the engine runs at most %d programs at once); nothing ran", g.timeout, cap(g.slots))}
	case <-ctx.Done():
		return nil, ContextRefusal(ctx.Err(), "while the run waited for a run slot")
	}
}

// ContextRefusal is the refusal of a run whose caller's context ended
// (err is its Err) when, before anything ran: TIMEOUT for a deadline, as
// a run the deadline stops, else CANCELLED.
func ContextRefusal(err error, when string) *errs.Tool {
	if errors.Is(err, context.DeadlineExceeded) {
		return &errs.Tool{Code: codes.Timeout, Message: "the caller's context deadline passed " + when + "; nothing ran", Err: err}
	}
	return &errs.Tool{Code: codes.Cancelled, Message: "cancelled " + when + "; nothing ran", Err: err}
}

// InFlight reports the runs in progress and the runs waiting for a slot.
func (g *Slots) InFlight() (running, queued int) {
	if g == nil {
		return 0, 0
	}
	return len(g.slots), int(g.queued.Load())
}
