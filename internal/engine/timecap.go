package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// A run's time, bounded by counts: the clock readings and the timers it
// journals.
//
// Every clock reading goes into the journal, which a paused run's token
// carries, so that the resumed run sees the very same clock; a reading
// not journaled would make the resumed run see another time (and take
// another branch) than the run that paused. So the readings are not
// thinned (a program can tell microseconds apart through QuickJS's
// __date_clock): they are capped (Limits.MaxClockReads), and the reading
// past the cap ends the run with CLOCK_LIMIT. Each timer that fires is
// journaled too (its place among the calls that settle), so the timers a
// run sets are capped the same way (Limits.MaxTimers, TIMER_LIMIT): that
// bounds an interval that repeats for ever as well as the timers pending
// at once. A replay counts the readings and timers it serves from the
// journal, so a resumed run has the same caps as one that never paused,
// and a run ended by a cap never paused after it: every journal a token
// holds is whole.
//
// Timers ($sleep calls) wait on one heap of the run's, served by one
// goroutine, rather than on a goroutine and a timer each. Timers due at
// the same time (of one delay) fire in the order they were set, as in Node.

// runTime is a run's clock and timer state.
type runTime struct {
	reads      int    // clock readings so far, replayed ones too (driver)
	sets       int    // timers set so far, replayed ones too (driver)
	lastArgs   string // the last timer's arguments and their digest (driver)
	lastDigest string

	mu      sync.Mutex
	heap    []timerEntry // by when, then seq
	seq     uint64
	started bool          // the goroutine that serves the heap runs
	wake    chan struct{} // tells it of a new earliest timer
}

// timerEntry is one pending timer.
type timerEntry struct {
	when time.Time
	seq  uint64
	pc   *pendingCall
}

func (a timerEntry) before(b timerEntry) bool {
	if !a.when.Equal(b.when) {
		return a.when.Before(b.when)
	}
	return a.seq < b.seq
}

// sleepValue is every timer's result: one slice for all the journal's
// entries (its capacity is its length, so an append cannot write into it).
var sleepValue = []byte("null")[:4:4]

// digest is argsDigest of a timer's arguments; a run's timers mostly
// repeat one delay, so the last one's digest is kept and shared.
func (t *runTime) digest(args []byte) string {
	if t.lastDigest == "" || string(args) != t.lastArgs {
		t.lastArgs, t.lastDigest = string(args), argsDigest(args)
	}
	return t.lastDigest
}

// errClockLimit is the trap of a guest that read the clock past its cap;
// the run's error is CLOCK_LIMIT.
var errClockLimit = errors.New("engine: the guest read the clock past its cap")

// countRead counts a clock reading, and reports false, with the run's
// error set, for the one past Limits.MaxClockReads.
func (r *run) countRead() bool {
	if r.timing.reads++; r.timing.reads <= r.limits.MaxClockReads {
		return true
	}
	r.setErr(&Error{Code: codes.ClockLimit, Message: fmt.Sprintf(
		"the run read the clock more than %d times (Limits.MaxClockReads; modebox.json limits.maxClockReads): each reading is kept for a resume; wait with a timer rather than a loop that reads the clock",
		r.limits.MaxClockReads)})
	return false
}

// countTimer counts a timer set, and reports false, with the run's error
// set, for the one past Limits.MaxTimers.
func (r *run) countTimer() bool {
	if r.timing.sets++; r.timing.sets <= r.limits.MaxTimers {
		return true
	}
	r.setErr(&Error{Code: codes.TimerLimit, Message: fmt.Sprintf(
		"the run set more than %d timers (Limits.MaxTimers; modebox.json limits.maxTimers): setTimeout, setInterval and each repeat of an interval set one",
		r.limits.MaxTimers)})
	return false
}

// timerNow is the clock of the runs' timers (a test's own, to place a
// timer's coming due between the serving loop's two looks).
var timerNow = time.Now

// maxTimerMS is the longest timer, in milliseconds: 2^31-1, Node's
// TIMEOUT_MAX (the prelude makes a longer delay 1 ms, as Node does).
const maxTimerMS = 1<<31 - 1

// startSleep starts the timer of a $sleep call.
func (r *run) startSleep(pc *pendingCall) {
	r.sleeping++
	r.timing.add(r, timerEntry{when: timerNow().Add(sleepDuration(pc.args)), pc: pc})
}

// sleepDuration reads a $sleep call's {"ms": N}. The prelude sends at most
// maxTimerMS, as Node's timers take; the bound keeps the product inside a
// Duration's range whatever arrives, and anything unreadable is 0.
func sleepDuration(args []byte) time.Duration {
	var a struct {
		MS float64 `json:"ms"`
	}
	_ = json.Unmarshal(args, &a)
	return time.Duration(max(0, min(a.MS, maxTimerMS)) * float64(time.Millisecond))
}

// add puts a timer on the heap, and starts the run's timer goroutine at
// the first.
func (t *runTime) add(r *run, e timerEntry) {
	t.mu.Lock()
	t.seq++
	e.seq = t.seq
	t.push(e)
	first := t.heap[0].seq == e.seq
	if !t.started {
		t.started = true
		t.wake = make(chan struct{}, 1)
		go t.serve(r)
		first = false // it looks at the heap before it waits
	}
	t.mu.Unlock()
	if first {
		select {
		case t.wake <- struct{}{}:
		default: // a wake is pending already
		}
	}
}

// serve settles the run's timers as they come due, until the run ends.
func (t *runTime) serve(r *run) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		t.mu.Lock()
		for len(t.heap) > 0 && !t.heap[0].when.After(timerNow()) {
			e := t.pop()
			t.mu.Unlock()
			r.deliver(completion{call: e.pc, ok: true, value: sleepValue})
			t.mu.Lock()
		}
		// the next timer may have come due since the loop looked: a
		// wait of 0 or less fires at once (it once read as "no timer",
		// and the timers left on the heap never fired)
		pending := len(t.heap) > 0
		var wait time.Duration
		if pending {
			wait = max(0, t.heap[0].when.Sub(timerNow()))
		}
		t.mu.Unlock()
		if pending {
			timer.Reset(wait)
		} else {
			timer.Stop()
		}
		select {
		case <-timer.C:
		case <-t.wake:
		case <-r.done:
			return
		}
	}
}

// push adds e to the heap (t.mu held).
func (t *runTime) push(e timerEntry) {
	t.heap = append(t.heap, e)
	for i := len(t.heap) - 1; i > 0; {
		p := (i - 1) / 2
		if !t.heap[i].before(t.heap[p]) {
			break
		}
		t.heap[i], t.heap[p] = t.heap[p], t.heap[i]
		i = p
	}
}

// pop removes and returns the earliest timer (t.mu held, heap not empty).
func (t *runTime) pop() timerEntry {
	h := t.heap
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h[n] = timerEntry{} // let its call go
	h = h[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && h[l].before(h[m]) {
			m = l
		}
		if l+1 < n && h[l+1].before(h[m]) {
			m = l + 1
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	t.heap = h
	return top
}
