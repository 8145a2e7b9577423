package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modebox/modebox/internal/schema"
)

// Default timeouts, used when [Options] leaves them zero.
const (
	// DefaultCallTimeout bounds one tools/call.
	DefaultCallTimeout = 60 * time.Second
	// DefaultStartTimeout bounds connecting to a server, initializing the
	// session and listing its tools.
	DefaultStartTimeout = 30 * time.Second
)

// Tool is one downstream tool as discovered.
type Tool struct {
	// Server is the server's name from modebox.json (the namespace).
	Server string
	// Name is the MCP tool name as the server sent it ("get-sum").
	Name string
	// Description is the server's description of the tool.
	Description string
	// InputSchema is the JSON Schema of the tool's arguments.
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of the tool's structuredContent,
	// nil if the server declared none or declared one that cannot be
	// compiled (see OutputErr): the tool then has no output type.
	OutputSchema json.RawMessage
	// Output is OutputSchema compiled, against which [Manager.Call] checks
	// the tool's results; nil when OutputSchema is nil.
	Output *schema.Validator
	// OutputErr is why the output schema the server declared is not used
	// (it does not compile, or is over the schema limits); nil otherwise.
	OutputErr error
	// Annotations are the server's hints about the tool (readOnlyHint,
	// destructiveHint, …), passed through as sent, nil if none. They are
	// untrusted.
	Annotations json.RawMessage
}

// Skipped is a tool a server listed that is not offered.
type Skipped struct {
	// Server is the server's name; Tool is the tool's name as listed (cut
	// when long; empty when the whole rest of the listing was skipped).
	Server, Tool string
	// Reason says why.
	Reason string
}

// Elicitor answers a downstream server's elicitation request, usually by
// asking the human. ctx carries the values of the context of the call the
// elicitation is attributed to (see the package doc) and ends with that
// call, the server's request or the Manager. server is the server's name
// from modebox.json, message and requestedSchema are what the server sent
// (untrusted; the schema is a flat JSON Schema object; it may be nil).
// action is "accept", "decline" or "cancel"; content holds the answers
// when action is "accept" and is checked by the SDK against
// requestedSchema. An error is sent back to the server as a JSON-RPC
// error.
type Elicitor func(ctx context.Context, server string, message string, requestedSchema json.RawMessage) (action string, content map[string]any, err error)

// Options configure a [Manager].
type Options struct {
	// CallTimeout bounds each call (default [DefaultCallTimeout]); a
	// server's own Timeout in modebox.json overrides it. Time spent
	// waiting for the Elicitor does not count (see the package doc).
	CallTimeout time.Duration
	// StartTimeout bounds connect + initialize + tools/list of one server
	// (default [DefaultStartTimeout]).
	StartTimeout time.Duration
	// Elicitor answers the servers' elicitation requests. When nil the
	// elicitation capability is not advertised, so servers do not elicit
	// (a request sent anyway is refused with a JSON-RPC error). URL-mode
	// requests are always declined: only form mode is advertised.
	Elicitor Elicitor
	// Stderr receives the stdio servers' stderr, each line prefixed with
	// "[server] ", besides the tail kept for error messages. Nil discards
	// it.
	Stderr io.Writer
}

// ErrClosed is the error inside the [*ServerError] returned by calls made
// after [Manager.Close].
var ErrClosed = errors.New("mcpclient: manager closed")

// ErrUnknownServer is the error inside the [*ServerError] returned for a
// server name that is not configured, or is disabled.
var ErrUnknownServer = errors.New("mcpclient: unknown server")

// ServerError reports a server that is unknown, did not start, exited or
// lost its connection.
type ServerError struct {
	// Server is the server's name.
	Server string
	// Reason says what happened, as a phrase completing "mcp server X …"
	// ("exited (exit status 1)", "did not start").
	Reason string
	// StderrTail is the last few KB of the server's stderr, if it is a
	// stdio server that wrote any.
	StderrTail string
	// Err is the underlying error, if any.
	Err error
}

// Error returns "mcp server NAME REASON[: ERR][\nstderr: TAIL]".
func (e *ServerError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mcp server %q %s", e.Server, e.Reason)
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	if tail := strings.TrimSpace(e.StderrTail); tail != "" {
		b.WriteString("\nstderr: ")
		b.WriteString(tail)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ServerError) Unwrap() error { return e.Err }

// ToolError is a call the server answered with a failure: a result with
// isError true, or a JSON-RPC error (such as an unknown tool or invalid
// arguments); or a result that does not conform to the tool's output
// schema (see the package doc, "Output schemas"), Code 0.
type ToolError struct {
	// Server and Tool name the call.
	Server, Tool string
	// Message is the server's message: the result's text blocks joined
	// by newlines, or the JSON-RPC error's message; for a result refused
	// by the output schema, modebox's, naming the first violations.
	Message string
	// Code is the JSON-RPC error code, 0 for an isError result.
	Code int64
}

// Error returns "mcp tool SERVER.TOOL failed: MESSAGE".
func (e *ToolError) Error() string {
	return fmt.Sprintf("mcp tool %s.%s failed: %s", e.Server, e.Tool, e.Message)
}

// TimeoutError reports a call that ran past its per-call timeout. It does
// not wrap [context.DeadlineExceeded], so that it cannot be mistaken for
// the caller's own deadline.
type TimeoutError struct {
	// Server and Tool name the call.
	Server, Tool string
	// Timeout is the per-call timeout that ran out.
	Timeout time.Duration
}

// Error returns "mcp tool SERVER.TOOL timed out after TIMEOUT".
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("mcp tool %s.%s timed out after %s", e.Server, e.Tool, e.Timeout)
}
