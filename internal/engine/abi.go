package engine

// Event kinds sent by the guest through env.host_event. Keep in sync with
// internal/guest/src/glue.c and internal/guest/prelude.js.
const (
	evCall   = 1 // id = call id, payload = tool name, newline, JSON args
	evLog    = 2 // id = level, payload = text
	evResult = 3 // payload = JSON value, "" for undefined
	evError  = 4 // id = error class, payload = JSON error or ""
	evTick   = 5 // interrupt poll (counts as fuel)
	evPoll   = 6 // allocator poll (does not count as fuel)
	evPanic  = 7 // payload = message; a trap follows
	evPrint  = 8 // text QuickJS printed itself
	// evSync is a synchronous host call (Intl): the answer is the reply's
	// length, or -1 to stop; evSyncRead (id = that length) then gives the
	// buffer the host writes the reply into.
	evSync     = 9
	evSyncRead = 10
)

// Error classes of evError.
const (
	errThrown      = 0 // payload: the formatted error
	errInterrupted = 1 // the host asked the guest to stop
	errUnformatted = 2 // the error could not be formatted
	errCompile     = 3 // the program did not compile; payload as errThrown
)

// Answers to events.
const (
	answerGo   = 0
	answerStop = 1
)

// Log levels of evLog.
var levelNames = [...]string{"log", "info", "warn", "error", "debug"}
