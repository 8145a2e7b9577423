package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/tetratelabs/wazero/api"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/guest"
	"github.com/modebox/modebox/internal/intl"
	"github.com/modebox/modebox/internal/jsontext"
	"github.com/modebox/modebox/internal/limits"
)

// event handles one message from the guest. Everything in payload is
// untrusted and is a view of guest memory: copy what is kept.
func (r *run) event(mod api.Module, kind, id int32, payload []byte) int32 {
	if kind == evSync || kind == evSyncRead {
		return r.syncEvent(kind, id, payload) // Intl works at init too (it warms up there)
	}
	if r.deferred != nil && kind != evCall {
		// the guest is still running: the call must not wait for it. An
		// allocator poll comes every 128 allocations, often between a
		// call and the await that follows it: only the fourth sends it.
		if r.deferPolls++; kind != evPoll || r.deferPolls >= deferPollsMax {
			r.flushDeferred()
		}
	}
	if r.initOnly {
		if kind == evPanic || kind == evError { // why init or mb_setup failed
			r.panicMsg = string(payload)
		}
		return answerGo
	}
	switch kind {
	case evTick:
		t := atomic.AddUint64(&r.ticks, 1)
		if r.limits.Fuel > 0 && t > r.limits.Fuel {
			r.setErr(&Error{Code: codes.FuelExhausted, Message: fmt.Sprintf("the run used up its fuel (%d)", r.limits.Fuel)})
			return r.polled(answerStop)
		}
		return r.polled(r.checkStop(mod))
	case evPoll:
		return r.polled(r.checkStop(mod))
	case evCall:
		return r.onCall(id, payload)
	case evLog:
		r.onLog(id, payload)
		return answerGo
	case evResult:
		if len(payload) > r.limits.MaxValue {
			r.setErr(&Error{Code: codes.ValueTooLarge, Message: fmt.Sprintf(
				"the result is %d bytes, over the limit of %d", len(payload), r.limits.MaxValue)})
		} else if valid, shallow := jsontext.ValidShallow(payload); !shallow && tooDeep(payload) {
			r.setErr(&Error{Code: codes.ValueTooLarge, Message: deepMessage("the result")})
		} else if len(payload) > 0 && !valid {
			r.crash("malformed result")
		} else {
			r.setValue(payload)
		}
		return answerStop
	case evError:
		r.onError(id, payload)
		return answerStop
	case evPanic:
		r.panicMsg = truncate(string(payload), 4096)
		return answerStop
	case evPrint:
		return answerGo
	}
	r.crash(fmt.Sprintf("unknown event %d", kind))
	return answerStop
}

// stopPollSlack is how many polls a guest that was told to stop may still
// make while it unwinds (its allocations go on polling) before the host
// traps it.
const stopPollSlack = 16

// errStopIgnored is the trap of a guest that went on running after it was
// told to stop. The run's error is the one that stopped it.
var errStopIgnored = errors.New("engine: the guest kept running after it was told to stop")

// polled passes on a poll's answer, and keeps answering stop once the
// guest was told to stop. A guest still polling stopPollSlack polls later
// is in a native loop that ignores failed allocations (libbf's Ziv
// rounding loop does, and never ends once its precision overflows): the
// poll traps it, so no run goes on after its deadline.
func (r *run) polled(answer int32) int32 {
	if answer != answerStop && r.stopPolls == 0 {
		return answer
	}
	if r.stopPolls++; r.stopPolls > stopPollSlack {
		panic(errStopIgnored) // wazero turns it into a trap of this call
	}
	return answerStop
}

// LogLineOverhead is what each console line costs against Limits.MaxLog
// besides its bytes (limits.LogLineOverhead).
const LogLineOverhead = limits.LogLineOverhead

func (r *run) onLog(level int32, payload []byte) {
	name := "log"
	if level >= 0 && int(level) < len(levelNames) {
		name = levelNames[level]
	}
	r.mu.Lock()
	if r.abandoned {
		r.mu.Unlock()
		return
	}
	// a line costs its bytes and LogLineOverhead; once one is dropped,
	// every later one is (Limits.MaxLog)
	cost := len(payload) + LogLineOverhead
	if r.logsDropped > 0 || r.logBytes+cost > r.limits.MaxLog {
		r.logsDropped++
		r.mu.Unlock()
		return
	}
	r.logBytes += cost
	l := Log{Level: name, Message: strings.ToValidUTF8(string(payload), "\uFFFD")}
	r.logs = append(r.logs, l)
	r.mu.Unlock()
	r.observe(Event{Kind: EventLog, Level: l.Level, Message: l.Message})
}

// observe tells the run's observer about ev, if there is one.
func (r *run) observe(ev Event) {
	if r.observer != nil {
		ev.Elapsed = time.Since(r.start)
		r.observer(ev)
	}
}

func (r *run) onCall(id int32, payload []byte) int32 {
	if int(id) != r.lastID+1 {
		r.crash(fmt.Sprintf("call id %d out of sequence", id))
		return answerStop
	}
	r.lastID = int(id)
	// payload: tool name, newline, JSON arguments
	tool, args, ok := bytes.Cut(payload, []byte{'\n'})
	// every call counts against MaxCalls, those refused for their size or
	// depth too; timers count against MaxTimers instead (below)
	if !ok || string(tool) != "$sleep" {
		r.calls++
		if r.calls > r.limits.MaxCalls {
			r.setErr(&Error{Code: codes.HostCallLimit, Message: fmt.Sprintf("the run made more than %d host calls", r.limits.MaxCalls)})
			return answerStop
		}
	}
	pc := r.newPendingCall(int(id))
	if len(payload)-1024 > r.limits.MaxValue { // not MaxValue+1024: it may be near MaxInt
		pc.tool = "?"
		pc.digest = argsDigest(payload)
		r.addPending(pc)
		r.reject(pc, codes.ValueTooLarge, fmt.Sprintf("the call's arguments are %d bytes, over the limit of %d", len(payload), r.limits.MaxValue))
		return answerGo
	}
	valid, shallow := jsontext.ValidShallow(args)
	if ok && !shallow && tooDeep(args) {
		pc.tool = "?"
		pc.digest = argsDigest(payload)
		r.addPending(pc)
		r.reject(pc, codes.ValueTooLarge, deepMessage("the call's arguments"))
		return answerGo
	}
	same := ok && r.lastTool != "" && string(tool) == r.lastTool // a loop calls one tool: one string for all, checked once
	if !ok || !same && (len(tool) == 0 || len(tool) > 256 || !utf8.Valid(tool)) || !valid {
		r.crash("malformed call")
		return answerStop
	}
	if same {
		pc.tool = r.lastTool
	} else {
		pc.tool = string(tool)
		r.lastTool = pc.tool
	}
	pc.args = r.argsCopy(args)
	pc.sleep = pc.tool == "$sleep"
	if pc.sleep {
		pc.digest = r.timing.digest(pc.args) // one string for a run's repeated delays
		if !r.countTimer() {                 // MaxTimers (timecap.go)
			return answerStop
		}
	} else {
		pc.digest = argsDigest(pc.args)
	}
	r.addPending(pc)
	rec := r.replayByID[pc.id]
	if rec != nil {
		if rec.Tool != pc.tool || rec.Args != pc.digest {
			r.setErr(&Error{Code: codes.ReplayMismatch, Message: fmt.Sprintf(
				"replay: call %d was %s with other arguments when recorded; this run called %s", pc.id, rec.Tool, pc.tool)})
			return answerStop
		}
		pc.replayed = true
	}
	var v Verdict
	if !pc.sleep && r.host != nil {
		c := Call{ID: pc.id, Tool: pc.tool, Args: pc.args}
		if rec != nil {
			c.Recorded, c.RecordedOK = rec.Value, rec.OK
		}
		v = r.host.Gate(c, pc.replayed)
		if v.Abort != "" {
			r.setErr(&Error{Code: codes.ReplayMismatch, Message: v.Abort})
			return answerStop
		}
	}
	if pc.replayed {
		return answerGo
	}
	switch {
	case !pc.sleep && len(pc.args) > r.limits.MaxValue:
		// a timer's arguments are the prelude's {"ms":N}, bounded by the
		// payload's check above; refused, its callback never ran
		r.reject(pc, codes.ValueTooLarge, fmt.Sprintf("the call's arguments are %d bytes, over the limit of %d", len(pc.args), r.limits.MaxValue))
	case v.RejectCode != "":
		r.reject(pc, v.RejectCode, v.RejectMessage)
	case v.Park && r.parkedBytes+len(pc.args) > MaxJournalValues:
		// parked calls' arguments go into the paused run's token, whose
		// body holds MaxJournalValues at most: past it the pause could
		// not be sealed, and the host kept every copy until then
		r.reject(pc, codes.ValueTooLarge, fmt.Sprintf(
			"the calls waiting for approval already hold %d bytes of arguments, the most a paused run can carry is %d", r.parkedBytes, MaxJournalValues))
	case v.Park:
		pc.approval = v.Approval
		r.parkedBytes += len(pc.args)
		r.parked = append(r.parked, pc)
	default:
		pc.approval = v.Approval
		r.schedule(pc)
	}
	return answerGo
}

// addPending records pc as started, for a replay (next serves recorded
// calls by id); a run without a journal to replay keeps no index.
func (r *run) addPending(pc *pendingCall) {
	if r.replay != nil {
		r.pending[pc.id] = pc
	}
}

// Small arguments (up to argsSmall bytes) are copied into a shared block
// of argsBlockSize bytes: one allocation for many calls. A block lives as
// long as any of its copies; a larger copy is its own.
const (
	argsSmall     = 128
	argsBlockSize = 512
)

// argsCopy copies a call's arguments out of guest memory. A copy's
// capacity is its length, so an append to it cannot reach the next.
func (r *run) argsCopy(args []byte) json.RawMessage {
	if len(args) > argsSmall {
		return append(json.RawMessage(nil), args...)
	}
	if cap(r.argsBlock)-len(r.argsBlock) < len(args) {
		r.argsBlock = make([]byte, 0, argsBlockSize)
	}
	start := len(r.argsBlock)
	r.argsBlock = append(r.argsBlock, args...)
	return r.argsBlock[start:len(r.argsBlock):len(r.argsBlock)]
}

// newPendingCall gives a call its record, from a block of them: one
// allocation for many calls.
func (r *run) newPendingCall(id int) *pendingCall {
	if len(r.callBlock) == 0 {
		r.callBlock = make([]pendingCall, min(64, max(4, id-1))) // as many as were made, 4 to 64
	}
	pc := &r.callBlock[0]
	r.callBlock = r.callBlock[1:]
	pc.id = id
	return pc
}

// reject settles pc with an error at the guest's next idle point. Its
// arguments are of no more use: a guest that goes on calling before it
// waits would otherwise keep every refused call's copy until then.
func (r *run) reject(pc *pendingCall, code codes.Code, msg string) {
	pc.args = nil
	r.immediate = append(r.immediate, completion{call: pc, value: errorJSON(code, msg)})
}

func errorJSON(code codes.Code, msg string) []byte {
	b, _ := json.Marshal(struct {
		Code    codes.Code `json:"code"`
		Message string     `json:"message"`
	}{code, msg})
	return b
}

func (r *run) schedule(pc *pendingCall) {
	if pc.sleep {
		r.startSleep(pc)
		return
	}
	if r.running >= r.limits.MaxConcurrency {
		// the calls waiting for a slot hold their arguments: at most as
		// many bytes as the calls that run may
		if most := waitingMost(r.limits); r.waitingBytes+len(pc.args) > most {
			r.reject(pc, codes.ValueTooLarge, fmt.Sprintf(
				"the calls waiting for a free slot already hold %d bytes of arguments, the most is %d (maxConcurrency × maxValue)", r.waitingBytes, most))
			return
		}
		r.waitingBytes += len(pc.args)
		r.waiting = append(r.waiting, pc)
		return
	}
	r.startCall(pc)
}

// waitingMost is the most bytes of arguments the calls waiting for a slot
// may hold: MaxConcurrency × MaxValue.
func waitingMost(l Limits) int {
	if l.MaxValue > 0 && l.MaxConcurrency > math.MaxInt/l.MaxValue {
		return math.MaxInt
	}
	return l.MaxConcurrency * l.MaxValue
}

func (r *run) startWaiting() {
	for len(r.waiting) > 0 && r.running < r.limits.MaxConcurrency {
		pc := r.waiting[0]
		r.waiting[0] = nil
		r.waiting = r.waiting[1:]
		r.waitingBytes -= len(pc.args)
		r.startCall(pc)
	}
}

func (r *run) deliver(c completion) {
	select {
	case r.results <- c:
	case <-r.done:
	}
}

// startCall starts pc. The call is held back as r.deferred while the
// guest goes on with its turn: if the guest then waits with nothing else
// in flight, the driver runs it itself (next, callInline), which saves two
// goroutine hand-offs; any other event of the guest, another call, or a
// wait with more in flight sends it to a worker.
func (r *run) startCall(pc *pendingCall) {
	r.running++
	r.flushDeferred()
	r.deferred = pc
}

// deferPollsMax is how many allocator polls a held-back call waits for.
const deferPollsMax = 4

// flushDeferred sends the held-back call, if any, to a worker.
func (r *run) flushDeferred() {
	if pc := r.deferred; pc != nil {
		r.deferred, r.deferPolls = nil, 0
		if r.stopping() {
			// no handler starts once the run stops: the call never
			// settles, and the guest stops at its next poll or wait
			return
		}
		callWorkers.run(callJob{r: r, ctx: r.callContext(pc), host: r.host, pc: pc, maxValue: r.limits.MaxValue})
	}
}

// States of run.inTool: who owns the run while the driver runs a call
// itself.
const (
	driverOwns   = iota // the driver, as always
	driverInTool        // the driver is in a tool, the guest idle: a stop may take over
	takenOver           // Run took over at a stop: the driver must touch nothing
)

// callInline runs the held-back call on the driver, when nothing else can
// settle. The guest is idle and its instance unused until the tool
// returns, so a stop (deadline, cancellation) that comes while the tool
// runs does not wait for it: Run takes the run over (takeOver) and ends it
// as the driver would, and the driver, once the tool returns (if ever),
// finds it taken and leaves without touching the run. ok is false when
// the run ended.
func (r *run) callInline() (c completion, ok bool) {
	pc := r.deferred
	r.deferred, r.deferPolls = nil, 0
	r.inTool.Store(driverInTool)
	if r.stopping() { // Run may not have seen driverInTool (or the caller's context): stop here
		if r.inTool.CompareAndSwap(driverInTool, driverOwns) {
			r.failStopped()
		}
		return completion{}, false
	}
	r.hold.setIdle(true) // the guest waits for this call
	c = r.callHostInline(pc)
	r.hold.setIdle(false)
	if !r.inTool.CompareAndSwap(driverInTool, driverOwns) {
		return completion{}, false // taken over
	}
	if r.stopping() { // the call may have ended because the caller's context did
		r.failStopped()
		return completion{}, false
	}
	return r.received(c), true
}

// handlerExitedMessage is the TOOL_ERROR of a call whose handler ended
// its goroutine (runtime.Goexit) instead of returning or panicking.
const handlerExitedMessage = "the tool's handler exited its goroutine (runtime.Goexit, as t.FailNow and t.Fatal do) instead of returning"

// goexitCompletion settles pc as a handler that ended its goroutine.
func goexitCompletion(pc *pendingCall) completion {
	return completion{call: pc, value: errorJSON(codes.ToolError, handlerExitedMessage)}
}

// callHostInline is callHost on the driver. A handler that ends the
// goroutine (runtime.Goexit) ends the driver: the run fails with
// TOOL_ERROR, unless Run took it over already.
func (r *run) callHostInline(pc *pendingCall) completion {
	returned := false
	defer func() {
		if !returned && r.inTool.CompareAndSwap(driverInTool, driverOwns) {
			r.setErr(&Error{Code: codes.ToolError, Message: pc.tool + ": " + handlerExitedMessage})
		}
	}()
	c := callHost(r.callContext(pc), r, r.host, pc, r.limits.MaxValue)
	returned = true
	return c
}

// takeOver ends a stopped run whose driver is in a tool (callInline):
// the run's error, its instance released, the calls' context cancelled
// and done closed, as the driver does when it returns. It does nothing
// (false) when the driver is not in a tool: the driver then sees the stop
// itself.
func (r *run) takeOver() bool {
	if !r.inTool.CompareAndSwap(driverInTool, takenOver) {
		return false
	}
	r.failStopped()
	r.endDrive()
	return true
}

func callHost(ctx context.Context, r *run, host Host, pc *pendingCall, maxValue int) (c completion) {
	c.call = pc
	if ctx.Err() != nil {
		// the run stopped (or its caller's context ended) before the
		// call started: its handler does not start
		c.value = errorJSON(codes.Cancelled, "the run stopped before the call started; its tool did not run")
		return c
	}
	if r != nil { // HoldClock holds the clock only while no call works
		r.hold.enter()
		defer r.hold.leave(&pc.hold)
	}
	if r != nil && r.observer != nil {
		r.observe(Event{Kind: EventCallStart, CallID: pc.id, Tool: pc.tool})
		defer func() {
			ev := Event{Kind: EventCallEnd, CallID: pc.id, Tool: pc.tool, OK: c.ok}
			if !c.ok {
				var e struct {
					Code codes.Code `json:"code"`
				}
				_ = json.Unmarshal(c.value, &e)
				ev.Code = e.Code
			}
			r.observe(ev)
		}()
	}
	returned := false
	defer func() {
		if p := recover(); p != nil {
			c.ok, c.value = false, errorJSON(codes.ToolError, fmt.Sprintf("the tool panicked: %v", p))
		} else if !returned {
			// runtime.Goexit (t.FailNow, t.Fatal): the goroutine ends
			// whatever this does; the caller settles the call (see
			// goexitCompletion)
			c.ok, c.value = false, errorJSON(codes.ToolError, handlerExitedMessage)
		}
	}()
	if host == nil {
		returned = true
		return completion{call: pc, value: errorJSON(codes.ToolNotFound, "no tool named "+pc.tool)}
	}
	v, err := host.Call(ctx, Call{ID: pc.id, Tool: pc.tool, Args: pc.args, Approval: pc.approval, MaxValue: maxValue})
	returned = true
	if err != nil {
		code := codes.ToolError
		var ce CodedError
		if errors.As(err, &ce) && ce.ErrorCode() != "" && codeLike(ce.ErrorCode()) {
			// a code that is not code-like would reach a catch as it is
			// but end an uncaught run as UNCAUGHT_EXCEPTION: TOOL_ERROR
			code = codes.Code(ce.ErrorCode())
		}
		c.value = errorJSON(code, err.Error())
		return c
	}
	if !utf8.Valid(v) {
		// QuickJS's JSON.parse fails on some invalid UTF-8 (a lone
		// continuation byte) and reads other invalid bytes as U+FFFD:
		// make it U+FFFD always, here, so that the guest sees the same.
		v = bytes.ToValidUTF8(v, []byte("\uFFFD"))
	}
	if len(v) > maxValue {
		c.value = errorJSON(codes.ValueTooLarge, fmt.Sprintf("the tool's result is %d bytes, over the limit of %d", len(v), maxValue))
		return c
	}
	if tooDeep(v) {
		c.value = errorJSON(codes.ValueTooLarge, deepMessage("the tool's result"))
		return c
	}
	c.ok, c.value = true, v
	return c
}

// MaxDepth is the deepest nesting of arrays and objects a value crossing
// the sandbox's boundary may have: a call's arguments or a tool's result
// nested deeper fail that call, the run's result fails the run, all with
// VALUE_TOO_LARGE. It is well below encoding/json's 10,000, so that a
// token that holds such values (a few levels deeper) still opens.
const MaxDepth = 8000

// tooDeep reports whether the JSON text b nests arrays and objects deeper
// than MaxDepth. It only counts brackets outside strings, so it answers
// for any text; a text of MaxDepth bytes or less cannot be too deep.
func tooDeep(b []byte) bool {
	if len(b) <= MaxDepth || bytes.Count(b, []byte{'['})+bytes.Count(b, []byte{'{'}) <= MaxDepth {
		return false // too few containers to be that deep (bytes.Count is fast)
	}
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '[', '{':
			if depth++; depth > MaxDepth {
				return true
			}
		case ']', '}':
			depth--
		case '"':
			for i++; i < len(b); i++ {
				j := bytes.IndexAny(b[i:], `"\\`)
				if j < 0 {
					return false
				}
				i += j
				if b[i] == '"' {
					break
				}
				i++ // the escaped byte
			}
		}
	}
	return false
}

func deepMessage(what string) string {
	return fmt.Sprintf("%s: arrays and objects nested deeper than %d levels, over the limit", what, MaxDepth)
}

// unreadableField is what the prelude reports for a field of a thrown
// value it could not read (readable, prelude.js).
const unreadableField = "[unreadable]"

type guestError struct {
	Name      *string `json:"name"`
	Message   *string `json:"message"`
	Stack     *string `json:"stack"`
	Code      *string `json:"code"`
	ErrorCode *string `json:"errorCode"`
	Thrown    *string `json:"thrown"`
	Value     *string `json:"value"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func (r *run) onError(class int32, payload []byte) {
	switch class {
	case errInterrupted:
		if c := r.stopCode.Load(); c != nil {
			r.failStopped()
			return
		}
		r.setErr(&Error{Code: codes.GuestCrash, Message: "the guest was interrupted"})
		return
	case errUnformatted:
		r.setErr(&Error{Code: codes.UncaughtException, Message: "uncaught exception (its value could not be formatted)"})
		return
	}
	var g guestError
	if err := json.Unmarshal(payload, &g); err != nil {
		r.setErr(&Error{Code: codes.UncaughtException, Message: "uncaught exception (malformed report)"})
		return
	}
	e := &Error{
		Name:    truncate(str(g.Name), 256),
		Message: truncate(str(g.Message), 16384),
		Stack:   truncate(str(g.Stack), 16384),
		Thrown:  truncate(str(g.Thrown), 64),
		JSCode:  truncate(str(g.Code), 256),
	}
	if e.Thrown != "" && e.Name == "" {
		e.Message = "uncaught " + e.Thrown + ": " + e.Message
	} else if g.Value != nil && e.Message == "" {
		e.Message = "uncaught " + truncate(*g.Value, 1024)
	}
	e.Code = classify(class, e, str(g.ErrorCode))
	r.setErr(e)
}

// classify picks the stable code of a thrown error.
func classify(class int32, e *Error, errorCode string) codes.Code {
	switch {
	case errorCode != "" && codeLike(errorCode):
		return codes.Code(errorCode)
	case e.Name == "InternalError" && strings.HasPrefix(e.Message, "out of memory"):
		// (a compile that ran out of memory too: the program's size
		// against the cap, not its syntax)
		return codes.MemoryLimit
	case class == errCompile:
		return codes.SyntaxError
	case e.Name == "InternalError" && e.Message == unreadableField:
		// the prelude could not read the error's message: formatting the
		// out-of-memory error of a run at its memory cap ran out of
		// memory itself (the cap still holds while the prelude formats).
		// A program could throw such an error on purpose, as it can
		// throw InternalError("out of memory"): either way MEMORY_LIMIT.
		e.Message = "out of memory"
		return codes.MemoryLimit
	case (e.Name == "InternalError" || e.Name == "RangeError") && e.Message == "stack overflow":
		return codes.StackOverflow
	}
	return codes.UncaughtException
}

// codeLike reports whether a code reported by the guest looks like a
// stable code (a tool may pick its own): 1 to 64 letters, digits, "_",
// ".", ":" or "-". Anything else is the program's doing, not a code.
func codeLike(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// syncEvent answers evSync (Intl, and the prelude's sources: pure
// functions of the request and the binary's data, so nothing is
// journaled) and evSyncRead.
func (r *run) syncEvent(kind, id int32, payload []byte) int32 {
	if kind == evSync {
		if name, ok := sourceRequest(payload); ok {
			r.syncReply = []byte(guest.Sources[name])
		} else {
			r.syncReply = intl.Handle(payload)
		}
		return int32(len(r.syncReply))
	}
	if int(id) != len(r.syncReply) || len(payload) != len(r.syncReply) {
		r.crash("sync reply read out of sequence")
		return answerStop
	}
	copy(payload, r.syncReply) // payload is the guest's buffer
	r.syncReply = nil
	return answerGo
}

// sourceRequest reports whether a sync request asks for one of the
// prelude's sources (["modebox.source", name]) and which.
func sourceRequest(payload []byte) (string, bool) {
	const head = `["modebox.source",`
	if !bytes.HasPrefix(payload, []byte(head)) {
		return "", false
	}
	var req [2]string
	if json.Unmarshal(payload, &req) != nil {
		return "", false
	}
	return req[1], true
}
