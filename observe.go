package modebox

import (
	"context"
	"time"

	"github.com/modebox/modebox/internal/engine"
)

// EventKind says what an Event reports.
type EventKind string

// Event kinds.
const (
	// EventLog is a console line as it is logged (Level, Message). Lines
	// over Limits.MaxLog are not reported, as they are not kept.
	EventLog EventKind = "log"
	// EventCallStart is a tool call starting on the host (CallID, Tool).
	EventCallStart EventKind = "call-start"
	// EventCallEnd is a tool call settling (CallID, Tool, OK, Code).
	EventCallEnd EventKind = "call-end"
	// EventToolProgress is progress a tool reported with ReportProgress
	// while its call runs (Tool, Message, Progress, Total), such as a
	// downstream MCP server's notifications/progress.
	EventToolProgress EventKind = "tool-progress"
)

// Event is one thing a run did, reported while the run goes on to the
// function given to WithObserver.
type Event struct {
	Kind    EventKind
	Level   string        // EventLog: log, info, warn, error or debug
	Message string        // EventLog
	CallID  int           // calls: the call's id, as in PendingCall.ID
	Tool    string        // calls: the tool's name, e.g. "github.get_issue"
	OK      bool          // EventCallEnd: the call succeeded
	Code    Code          // EventCallEnd: the error code of a failed call
	Elapsed time.Duration // since the run started (0 for EventToolProgress)
	// Progress and Total are EventToolProgress's figures, as the tool
	// gave them (Total 0: unknown).
	Progress, Total float64
}

// ReportProgress lets a tool handler report progress on its call: ctx is
// the handler's, and the run's observer (see WithObserver), if any, gets
// an EventToolProgress. Without an observer it does nothing.
func ReportProgress(ctx context.Context, tool, message string, progress, total float64) {
	if fn, _ := ctx.Value(observerKey{}).(func(Event)); fn != nil {
		fn(Event{Kind: EventToolProgress, Tool: tool, Message: message, Progress: progress, Total: total})
	}
}

// observerKey carries an observer in a context.
type observerKey struct{}

// WithObserver returns a context that makes Engine.Run and Engine.Resume
// report what the run does, as it happens, to fn: console lines, and tool
// calls starting and settling. Like net/http/httptrace, it rides on the
// context, so it reaches a run wherever the run is started from. fn is
// called from the run's goroutines, possibly at once from several; it
// must be quick and must not block (hand slow work to a goroutine). A
// resumed run replays its recorded part without calling any tool, so only
// its console lines are reported again. fn is not called once the Run or
// Resume it observes has returned: events of a tool that outlives the
// run are dropped, and a call of fn in progress delays the return until
// it ends.
func WithObserver(ctx context.Context, fn func(Event)) context.Context {
	return context.WithValue(ctx, observerKey{}, fn)
}

// engineObserver is the engine-level observer for ctx's, or nil.
func engineObserver(ctx context.Context) func(engine.Event) {
	fn, _ := ctx.Value(observerKey{}).(func(Event))
	if fn == nil {
		return nil
	}
	return func(ev engine.Event) {
		out := Event{Level: ev.Level, Message: ev.Message, CallID: ev.CallID, Tool: ev.Tool, OK: ev.OK, Code: ev.Code, Elapsed: ev.Elapsed}
		switch ev.Kind {
		case engine.EventLog:
			out.Kind = EventLog
		case engine.EventCallStart:
			out.Kind = EventCallStart
		case engine.EventCallEnd:
			out.Kind = EventCallEnd
		default:
			return
		}
		fn(out)
	}
}
