package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/limits"
)

// Call is one host call as the host sees it.
type Call struct {
	// ID is the guest's call number (1, 2, ...), the same on replay.
	ID int
	// Tool is the tool's key.
	Tool string
	// Args is the call's JSON argument.
	Args json.RawMessage
	// Approval, when set, says why a person must approve the call before
	// it runs (set from the Gate's verdict).
	Approval string
	// MaxValue is the run's Limits.MaxValue when the call runs (Host.Call):
	// a larger result is refused, so a host may refuse one before it
	// encodes it all.
	MaxValue int
	// Recorded is the journal's value for a replayed call (what the guest
	// receives instead of running it), and RecordedOK whether that value is
	// a result (true) or an error. Both are empty for live calls.
	Recorded   json.RawMessage
	RecordedOK bool
}

// Verdict is the Gate's decision on a call.
type Verdict struct {
	// Reject refuses the call before it runs with this code and message.
	RejectCode    codes.Code
	RejectMessage string
	// Approval, when set, says why the call needs approval; Call then runs
	// with Call.Approval set and asks.
	Approval string
	// Park holds the call without running it: nothing can approve it now.
	// When nothing else can progress the run pauses, listing parked calls.
	Park bool
	// Abort ends the run with REPLAY_MISMATCH and this message.
	Abort string
}

// Host answers a run's calls.
type Host interface {
	// Gate is called on the driver, in call order, for every call except
	// timers, including calls served from the journal (replayed is then
	// true and the verdict is ignored unless it aborts). It must be fast.
	Gate(c Call, replayed bool) Verdict
	// Call runs a call on a worker goroutine, at most
	// Limits.MaxConcurrency at a time; ctx ends when the run does.
	Call(ctx context.Context, c Call) (json.RawMessage, error)
}

// CodedError is an error with a stable code, passed to the guest as the
// rejected call's code. Other errors become TOOL_ERROR.
type CodedError interface {
	error
	ErrorCode() string
}

// Limits are the caps of one run (see internal/limits). Zero values are
// replaced by defaults.
type Limits = limits.Limits

// Request is one run.
type Request struct {
	// Code is a script whose completion value is the program's async
	// function (see internal/tsx).
	Code string
	// Setup is JSON handed to the prelude (the tool list). A setup the
	// engine has seen before is installed once, into a snapshot of a
	// derived engine the run then runs on (setup.go); the caller must not
	// change the bytes during Run.
	Setup []byte
	// Seed seeds Math.random; ignored when Replay is set.
	Seed uint64
	// Limits caps the run.
	Limits Limits
	// Host answers calls; nil refuses every call.
	Host Host
	// Replay, when set, serves the recorded clock readings and call results
	// in order, then goes on live.
	Replay *Journal
	// Now reads the clock; nil means time.Now.
	Now func() time.Time
	// Observe, if set, is told what the run does as it happens: each
	// console line kept (not the ones over MaxLog), and each tool call as
	// it starts and as it settles. It is called from the run's goroutines,
	// possibly at once from several, and must not block.
	Observe func(Event)
	// Hold, if set, is a hold on the engine (Engine.Hold) the run starts
	// on even once the engine is closed; it stays the caller's to
	// release.
	Hold *Hold
	// Exited, if set, is called when the guest has left wasm for good and
	// its instance has been handed back, with how long after the deadline
	// the guest left (0 if before): the CPU work a run still did after its
	// caller got TIMEOUT.
	Exited func(overrun time.Duration)
}

// EventKind says what an Event reports.
type EventKind int

// Event kinds.
const (
	EventLog       EventKind = iota + 1 // a console line: Level, Message
	EventCallStart                      // a tool call starts on the host: CallID, Tool
	EventCallEnd                        // a tool call settled: CallID, Tool, OK, Code
)

// Event is one thing a run did, for Request.Observe.
type Event struct {
	Kind    EventKind
	Level   string     // EventLog
	Message string     // EventLog
	CallID  int        // calls
	Tool    string     // calls
	OK      bool       // EventCallEnd: the call succeeded
	Code    codes.Code // EventCallEnd: the error code of a failed call
	Elapsed time.Duration
}

// Log is one console line.
type Log struct {
	Level   string `json:"level"`
	Message string `json:"message"`
}

// Error is why a run failed.
type Error struct {
	Code    codes.Code // stable code, one of the codes registry's (or a tool's own)
	Message string
	Name    string // the JS error's name, when there is one
	Stack   string // the JS stack, in generated positions
	Thrown  string // for a thrown non-Error: its type
	JSCode  string // the thrown value's own "code" property, if any
}

// Stats describes a finished run.
type Stats struct {
	Duration   time.Duration
	Fuel       uint64 // interrupt ticks used
	HostCalls  int    // host calls made (timers excluded)
	PeakMemory uint64 // bytes of linear memory at the end of the run
}

// Result is the outcome of a run.
type Result struct {
	// Value is the program's result as JSON; nil when it was undefined.
	Value json.RawMessage
	// Err is set when the run failed.
	Err         *Error
	Logs        []Log
	LogsDropped int
	Stats       Stats
	// Journal records what the run saw; replaying it reproduces the run.
	// It is nil when JournalTooLarge is set, and for a run that returned
	// at its deadline while its guest still ran.
	Journal *Journal
	// JournalTooLarge is set when the run's call values added up to more
	// than MaxJournalValues bytes: its journal dropped them, and a token
	// could not carry them (a pause of such a run cannot be sealed).
	JournalTooLarge bool
	// Paused is true when the run stopped because every call left was
	// parked (waiting for an approval nobody could give now); Pending
	// lists those calls, in call order.
	Paused  bool
	Pending []Call
}
