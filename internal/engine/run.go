package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero/api"

	"github.com/modebox/modebox/internal/codes"
)

// hardReturnGrace is how long Run waits, after the deadline, for the guest
// to notice it must stop before returning without it.
const hardReturnGrace = 2 * time.Millisecond

// heldRecheck is the least time before Run looks at a held deadline
// again.
const heldRecheck = 10 * time.Millisecond

type pendingCall struct {
	id       int
	tool     string
	args     json.RawMessage
	digest   string
	sleep    bool
	replayed bool
	approval string
	hold     callHold // its Host.Call's context (hold.go)
}

type completion struct {
	call  *pendingCall
	ok    bool
	value []byte
}

// testSettled, when set, is called by the driver after each settled call
// is journaled: tests look at what the run keeps.
var testSettled atomic.Pointer[func(*run)]

// run is the state of one run. Fields under "driver" are touched only by
// the goroutine that drives the guest (host functions run on it too).
type run struct {
	initOnly bool
	// syncReply is the answer to the last evSync, until the guest reads it
	syncReply []byte
	panicMsg  string

	limits   Limits
	host     Host
	now      func() time.Time
	start    time.Time
	observer func(Event) // Request.Observe
	deadline time.Time
	hold     clockHold
	timing   runTime // clock readings and timers (timecap.go)
	hardMem  uint32

	stopCode    atomic.Pointer[codes.Code] // set by Run on timeout or cancel
	ctxDeadline atomic.Bool                // the stop is the caller's context deadline (set before stopCode)
	stopCh      chan struct{}
	stopOnce    sync.Once
	// ctx is the caller's context and ctxDone its Done: the driver and the
	// calls' workers look at it themselves (stopping), so that nothing
	// starts after it ended, whenever Run's goroutine comes to see it.
	ctx         context.Context
	ctxDone     <-chan struct{}
	cancelCalls context.CancelFunc // ends callCtx: at a stop, and when the run ends
	done        chan struct{}      // closed when the driver exits

	mu          sync.Mutex // guards the fields below against a hard return
	logs        []Log
	logBytes    int
	logsDropped int
	value       []byte
	undefined   bool
	err         *Error
	finished    bool
	abandoned   bool

	// driver
	stopPolls int // polls since the guest was first told to stop, see polled
	ticks     uint64
	calls     int
	lastID    int
	pending   map[int]*pendingCall // started calls by id, when replaying (addPending)
	waiting   []*pendingCall
	// waitingBytes is the bytes of the waiting calls' arguments (schedule)
	waitingBytes int
	// parkedBytes is the bytes of the parked calls' arguments (onCall)
	parkedBytes int
	parked      []*pendingCall
	running     int
	sleeping    int
	paused      bool
	immediate   []completion
	results     chan completion
	callCtx     context.Context
	journal     Journal
	// journalBytes counts the values journaled (record); past
	// MaxJournalValues, journalTooLarge is set and journal keeps none
	journalBytes    int
	journalTooLarge bool
	replay          *Journal
	replayIdx       int
	clockIdx        int
	replayByID      map[int]*JournalCall
	deferred        *pendingCall  // a started call not yet sent to a worker (startCall)
	deferPolls      int           // allocator polls since it was held back
	callBlock       []pendingCall // newPendingCall's
	argsBlock       []byte        // argsCopy's
	lastTool        string        // the last call's tool name

	// inTool says who owns the run while the driver runs a call itself
	// (callInline); endDrive ends the run as the driver does when it
	// returns, for takeOver.
	inTool   atomic.Int32
	endDrive func()
	// toReset is the instance exit handed back to be reset after the
	// run's result is delivered (resetInstance), or nil.
	toReset *instance
	// idle is called by next before it waits: drive's arming of the
	// run's hibernation (hibernate.go). hib is the run's record when it
	// hibernated (its instance went back); the fields under hibMu are the
	// hibernation's, shared with the engine's sweeper.
	idle          func()
	hib           *hibernated
	hibMu         sync.Mutex
	hibState      atomic.Int32
	hibInst       *instance
	hibSince      atomic.Int64 // when the wait began (Unix ns)
	hibRegistered bool         // in the engine's sweeper's runs (driver)
}

// resetInstance resets and keeps (or closes) the instance exit handed
// back, once the run's result is delivered: Run has its result (done is
// closed) while the instance's memory is rewritten.
func (r *run) resetInstance(e *Engine) {
	if in := r.toReset; in != nil {
		r.toReset = nil
		e.endRelease(in)
	}
}

// Run runs one program. It never returns an error: failures of the
// program, of the guest and of caps are all in Result.Err.
func (e *Engine) Run(ctx context.Context, req Request) *Result {
	if req.Hold == nil {
		if d := e.forSetup(req.Setup); d != nil {
			dreq := req
			dreq.Setup = nil // installed in d's snapshot (setup.go)
			res := d.Run(ctx, dreq)
			if res.Err == nil || res.Err.Code != codes.ImageClosed {
				return res
			}
			// d was dropped (a least recently used setup's engine is
			// closed) between the lookup and the run, and nothing ran:
			// the run installs its setup itself, on e
		}
	}
	if req.Hold != nil && req.Hold.e != e {
		// held on a derived engine (Engine.Hold): its snapshot has the
		// setup installed
		req.Setup = nil
		return req.Hold.e.Run(ctx, req)
	}
	if err := ctx.Err(); err != nil {
		// the caller's context is done already: run nothing, not even
		// the guest's first turn
		code, msg := ctxStop(err)
		return &Result{Err: &Error{Code: code, Message: msg + "; nothing ran"}}
	}
	lim := req.Limits.WithDefaults()
	now := req.Now
	if now == nil {
		now = time.Now
	}
	r := &run{
		limits:   lim,
		host:     req.Host,
		now:      now,
		stopCh:   make(chan struct{}),
		done:     make(chan struct{}),
		results:  make(chan completion, 16),
		replay:   req.Replay,
		observer: req.Observe,
		ctx:      ctx,
		ctxDone:  ctx.Done(),
	}
	r.start = time.Now()
	r.deadline = r.start.Add(lim.Timeout)
	mem := uint64(lim.Memory)
	slack := mem / 4
	if slack < 16<<20 {
		slack = 16 << 20
	}
	r.hardMem = uint32(min(uint64(e.snap.pages)*pageSize+mem+slack, MaxMemoryPages*pageSize-pageSize))
	seed := req.Seed
	if r.replay != nil {
		seed = r.replay.Seed
		r.pending = map[int]*pendingCall{}
		r.replayByID = make(map[int]*JournalCall, len(r.replay.Calls))
		for i := range r.replay.Calls {
			r.replayByID[r.replay.Calls[i].ID] = &r.replay.Calls[i]
		}
	}
	r.journal.Seed = seed
	callCtx, cancelCalls := context.WithCancel(context.WithValue(ctx, holdKey{}, &r.hold))
	r.callCtx, r.cancelCalls = callCtx, cancelCalls

	peak := new(atomic.Uint64)
	endRun := func() { cancelCalls(); close(r.done) }
	r.endDrive = endRun
	drivers.run(func() {
		defer func() {
			if r.inTool.Load() != takenOver { // else Run ended it (takeOver)
				endRun()
				if r.toReset != nil {
					// Let Run's goroutine, woken by endRun, run first on
					// this processor; the reset comes after it, or at
					// once on another processor if one is idle, or is
					// done by the next run's acquire if that comes
					// first.
					runtime.Gosched()
					r.resetInstance(e)
				}
			}
		}()
		r.drive(e, req, seed, peak, req.Hold != nil)
	})

	timer := time.NewTimer(time.Until(r.deadline))
	defer timer.Stop()
wait:
	for {
		select {
		case <-r.done:
			break wait
		case <-timer.C:
			if left := time.Until(r.effectiveDeadline()); left > 0 {
				// the clock was held: the deadline moved. While it is
				// still held, left stays what it was when the hold began
				// (microseconds, if that was just before the deadline):
				// look again no sooner than heldRecheck, not in a loop.
				timer.Reset(max(left, heldRecheck))
				continue
			}
			r.requestStop(codes.Timeout)
			break wait
		case <-r.ctxDone:
			r.stopForContext()
			break wait
		}
	}
	if !r.isFinished() {
		r.takeOver() // the driver may be in a tool that ignores the stop
	}
	select {
	case <-r.done:
	case <-time.After(hardReturnGrace):
		// The guest is inside native code that does not poll. Return at
		// the deadline anyway; the driver stops at the guest's next poll
		// and closes the instance then.
		cancelCalls()
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	r.abandoned = true
	if !r.finished {
		code := codes.Timeout
		if c := r.stopCode.Load(); c != nil {
			code = *c
		}
		r.setErrLocked(&Error{Code: code, Message: r.stopMessage(code)})
	}
	res := &Result{
		Logs:        r.logs,
		LogsDropped: r.logsDropped,
		Stats: Stats{
			Duration:   time.Since(r.start),
			Fuel:       atomic.LoadUint64(&r.ticks),
			HostCalls:  r.calls,
			PeakMemory: peak.Load(),
		},
	}
	if r.paused {
		res.Paused = true
		for _, pc := range r.parked {
			res.Pending = append(res.Pending, Call{ID: pc.id, Tool: pc.tool, Args: pc.args, Approval: pc.approval})
		}
	} else if r.err != nil {
		res.Err = r.err
	} else {
		res.Value = r.value
		if r.undefined {
			res.Value = nil
		}
	}
	select {
	case <-r.done:
		if r.journalTooLarge {
			res.JournalTooLarge = true
		} else {
			res.Journal = r.journal.Clone()
		}
	default:
		// still running: the journal is the driver's, do not share it
	}
	return res
}

// requestStop stops the run with code: the guest at its next poll or
// wait, and the calls, whose context ends (no handler starts after it).
func (r *run) requestStop(code codes.Code) {
	r.stopOnce.Do(func() {
		c := code
		r.stopCode.Store(&c)
		close(r.stopCh)
		if r.cancelCalls != nil {
			r.cancelCalls()
		}
	})
}

// stopForContext stops the run for its caller's context, which is done:
// TIMEOUT for a deadline, else CANCELLED.
func (r *run) stopForContext() {
	if errors.Is(r.ctx.Err(), context.DeadlineExceeded) {
		r.ctxDeadline.Store(true)
		r.requestStop(codes.Timeout)
	} else {
		r.requestStop(codes.Cancelled)
	}
}

// stopping reports whether the run is stopping: Run asked it to, or the
// caller's context is done, which Run's goroutine may not have seen yet
// (the stop is asked here then). The driver asks before it starts or
// settles a call, so that no handler starts and no program goes on once
// the caller's context ended, whatever the scheduling.
func (r *run) stopping() bool {
	if r.stopCode.Load() != nil {
		return true
	}
	select {
	case <-r.ctxDone:
		r.stopForContext()
		return true
	default:
		return false
	}
}

// ctxStop is the code and message of a run stopped because its caller's
// context ended with err.
func ctxStop(err error) (codes.Code, string) {
	if errors.Is(err, context.DeadlineExceeded) {
		return codes.Timeout, "the caller's context deadline passed before the run finished"
	}
	return codes.Cancelled, "the run was cancelled"
}

// stopMessage is the message of a run stopped with code.
func (r *run) stopMessage(code codes.Code) string {
	switch code {
	case codes.Timeout:
		if r.ctxDeadline.Load() {
			return "the caller's context deadline passed before the run finished"
		}
		return fmt.Sprintf("the run exceeded its time limit of %s", r.limits.Timeout)
	case codes.Cancelled:
		return "the run was cancelled"
	}
	return "the run was stopped"
}

// drive runs the guest until it finishes or is stopped.
func (r *run) drive(e *Engine, req Request, seed uint64, peak *atomic.Uint64, held bool) {
	ctx := withRun(context.Background(), r)
	inst, err := e.acquireHeld(ctx, r.hardMem, held)
	if errors.Is(err, ErrClosed) {
		r.setErr(&Error{Code: codes.ImageClosed, Message: "the engine image is closed; nothing ran"})
		return
	}
	if err != nil {
		r.setErr(&Error{Code: codes.GuestCrash, Message: "cannot start the engine: " + err.Error()})
		return
	}
	mod, stack := inst.mod, inst.stack
	// clean is set where the guest's last call returned normally: only
	// then may the instance be reset and kept for another run.
	clean := false
	// exit ends the run's use of the instance before its result is
	// delivered (endRun); the reset, if the instance is kept, comes after
	// (resetInstance), off the run's critical path.
	exit := func(clean bool) {
		// after a takeover in a tool the driver has not disarmed: the
		// sweeper may have taken the instance
		if h := e.disarm(r); h != nil {
			r.hib, inst = h, nil
		}
		e.unregister(r)
		if inst == nil { // hibernated: its instance went back already
			peak.Store(uint64(r.hib.size))
			if req.Exited != nil {
				req.Exited(max(0, time.Since(r.effectiveDeadline())))
			}
			e.done()
			return
		}
		peak.Store(uint64(mod.Memory().Size()))
		overrun := max(0, time.Since(r.effectiveDeadline()))
		if e.beginRelease(inst, clean) {
			r.toReset = inst
		}
		// after beginRelease: what the instance's release starts in the
		// background (a spare's restore) is counted by then
		if req.Exited != nil {
			req.Exited(overrun)
		}
	}
	// A run whose wait lasts while many runs are in flight gives its
	// instance back (hibernate.go); it takes one again below, when its
	// wait ends. idle arms that on the driver before the wait, and
	// before a tool the driver runs itself (callInline).
	r.idle = func() {
		if e.canHibernate(inst) {
			e.arm(r, inst)
		}
	}
	endRun := r.endDrive
	r.endDrive = func() { // for takeOver: the guest is idle between calls
		exit(true)
		endRun()
		r.resetInstance(e)
	}
	defer func() {
		if r.inTool.Load() != takenOver {
			exit(clean)
		}
	}()
	inst.beginInputs()
	codePtr, err := inst.put(ctx, []byte(req.Code), true)
	if err != nil {
		r.trap(err)
		return
	}
	setupPtr, err := inst.put(ctx, req.Setup, true) // NUL-terminated for the JSON parser
	if err != nil {
		r.trap(err)
		return
	}
	memLimit := min(uint64(r.limits.Memory), 1<<31-1)
	if inst.run == nil {
		inst.run = mod.ExportedFunction("mb_run")
	}
	_, err = inst.run.Call(ctx, uint64(codePtr), uint64(len(req.Code)),
		uint64(setupPtr), uint64(len(req.Setup)), seed&0xffffffff, seed>>32, memLimit)
	inst.endInputs()
	if err == nil && e.live.Load() > shareThreshold.Load() && !r.isFinished() {
		// The run goes on to wait (a host call, a timer) while many runs
		// hold an instance. mb_run's call engine, whose stack has grown to
		// ~20 KiB, has no use before the instance's next run: a waiting
		// run does not hold it, and that next run makes a new one (~3% of
		// 100 host calls' processor time, so not when few runs are live).
		inst.run = nil
	}
	for {
		if err != nil {
			r.trap(err)
			return
		}
		if r.isFinished() {
			clean = true
			return
		}
		c, ok := r.next()
		if !ok && r.inTool.Load() == takenOver {
			return // Run ended the run in its tool (takeOver): touch nothing
		}
		if h := e.disarm(r); h != nil {
			r.hib, inst, mod, stack = h, nil, nil, nil
		}
		if !ok {
			clean = true
			return
		}
		if inst == nil {
			inst, err = e.wake(ctx, r.hib)
			if err != nil {
				r.setErr(&Error{Code: codes.GuestCrash, Message: "cannot resume the run's engine instance: " + err.Error()})
				return
			}
			r.hib = nil
			mod, stack = inst.mod, inst.stack
		}
		r.record(c)
		if r.replay != nil {
			delete(r.pending, c.call.id)
		}
		if f := testSettled.Load(); f != nil {
			(*f)(r)
		}
		var ptr uint32
		inst.beginInputs()
		ptr, err = inst.put(ctx, c.value, true) // NUL-terminated for the JSON parser
		if err != nil {
			continue
		}
		okFlag := uint64(0)
		if c.ok {
			okFlag = 1
		}
		if inst.settle == nil {
			inst.settle = mod.ExportedFunction("mb_settle")
		}
		stack[0], stack[1], stack[2], stack[3] = uint64(c.call.id), okFlag, uint64(ptr), uint64(len(c.value))
		err = inst.settle.CallWithStack(ctx, stack)
		inst.endInputs()
	}
}

// next waits for the next call to settle, serving the journal first.
func (r *run) next() (c completion, ok bool) {
	defer func() {
		if ok { // settled now: its block of records (newPendingCall) must not keep the arguments
			c.call.args = nil
		}
	}()
	if r.stopping() {
		// the caller's context ended, or Run stopped the run: the
		// program does not go on (and starts no call) past this wait
		r.deferred = nil
		r.failStopped()
		return completion{}, false
	}
	if r.replay != nil && r.replayIdx < len(r.replay.Calls) {
		rec := r.replay.Calls[r.replayIdx]
		pc := r.pending[rec.ID]
		if pc == nil || !pc.replayed {
			r.setErr(&Error{Code: codes.ReplayMismatch, Message: fmt.Sprintf(
				"replay: the program did not make recorded call %d (%s) before waiting", rec.ID, rec.Tool)})
			return completion{}, false
		}
		r.replayIdx++
		return completion{call: pc, ok: rec.OK, value: rec.Value}, true
	}
	if len(r.immediate) > 0 {
		c := r.immediate[0]
		r.immediate = r.immediate[1:]
		return c, true
	}
	if r.deferred != nil {
		if r.running == 1 && r.sleeping == 0 {
			// nothing else can settle (a waiting call starts only after
			// this one): no hand-off
			if r.idle != nil {
				r.idle()
			}
			return r.callInline()
		}
		r.flushDeferred()
	}
	if r.running == 0 && len(r.waiting) == 0 && r.sleeping == 0 {
		if len(r.parked) > 0 {
			r.pause()
			return completion{}, false
		}
		r.setErr(&Error{Code: codes.NeverSettled, Message: "the program is waiting for a promise that nothing will settle"})
		return completion{}, false
	}
	if r.idle != nil && len(r.results) == 0 {
		r.idle()
	}
	r.hold.setIdle(true) // the guest waits (hold.go)
	select {
	case c := <-r.results:
		r.hold.setIdle(false)
		if r.stopping() { // the call may have ended because the caller's context did
			r.failStopped()
			return completion{}, false
		}
		return r.received(c), true
	case <-r.stopCh:
		r.hold.setIdle(false)
		r.failStopped()
		return completion{}, false
	}
}

func (r *run) received(c completion) completion {
	if c.call.sleep {
		r.sleeping--
	} else {
		r.running--
		r.startWaiting()
	}
	return c
}

// pause ends the run as paused: every call left waits for an approval.
func (r *run) pause() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		return
	}
	r.finished = true
	r.paused = true
}

func (r *run) failStopped() {
	c := r.stopCode.Load()
	if c == nil { // not stopped: a path that should not take this
		r.setErr(&Error{Code: codes.Internal, Message: "the run's driver stopped without a reason"})
		return
	}
	r.setErr(&Error{Code: *c, Message: r.stopMessage(*c)})
}

// trap records a guest trap (or a host failure while driving it).
func (r *run) trap(err error) {
	msg := err.Error()
	code := codes.GuestCrash
	switch {
	case r.panicMsg != "":
		msg = r.panicMsg
	case strings.Contains(msg, "stack overflow"):
		code, msg = codes.StackOverflow, "stack overflow"
	case errors.Is(err, errOutOfGuestMemory):
		code = codes.MemoryLimit
	}
	if c := r.stopCode.Load(); c != nil {
		r.failStopped()
		return
	}
	r.setErr(&Error{Code: code, Message: "the guest crashed: " + msg})
}

func (r *run) crash(msg string) {
	r.setErr(&Error{Code: codes.GuestCrash, Message: "the guest crashed: " + msg})
}

func (r *run) isFinished() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.finished
}

func (r *run) setErr(e *Error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.setErrLocked(e)
}

func (r *run) setErrLocked(e *Error) {
	if r.finished {
		return
	}
	r.finished = true
	r.err = e
}

func (r *run) setValue(v []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		return
	}
	r.finished = true
	if len(v) == 0 {
		r.undefined = true
		return
	}
	r.value = bytes.Clone(v)
}

// clock serves the guest's clock: recorded readings first, then live.
func (r *run) clock() float64 {
	var ms float64
	if r.replay != nil && r.clockIdx < len(r.replay.Clock) {
		ms = r.replay.Clock[r.clockIdx]
		r.clockIdx++
	} else {
		ms = float64(r.now().UnixMicro()) / 1000
	}
	if !r.initOnly {
		if !r.countRead() {
			panic(errClockLimit) // past MaxClockReads (timecap.go): wazero traps the guest
		}
		if !r.journalTooLarge {
			r.journal.Clock = append(r.journal.Clock, ms)
		}
	}
	return ms
}

// checkStop answers a poll: stop when the caller asked, the deadline
// passed, or the instance grew past the hard memory cap.
func (r *run) checkStop(mod api.Module) int32 {
	if r.stopCode.Load() != nil {
		r.failStopped()
		return answerStop
	}
	if time.Now().After(r.effectiveDeadline()) {
		r.requestStop(codes.Timeout)
		r.failStopped()
		return answerStop
	}
	if mod.Memory().Size() > r.hardMem {
		r.setErr(&Error{Code: codes.MemoryLimit, Message: fmt.Sprintf("the run exceeded its memory limit of %d bytes", r.limits.Memory)})
		return answerStop
	}
	return answerGo
}
