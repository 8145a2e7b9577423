package modebox

import (
	"errors"
	"fmt"

	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/schema"
)

// Stable error codes. A code is never renamed; new ones may be added.
const (
	// Caps.
	CodeTimeout       = engine.CodeTimeout
	CodeMemoryLimit   = engine.CodeMemoryLimit
	CodeFuelExhausted = engine.CodeFuelExhausted
	CodeHostCallLimit = engine.CodeHostCallLimit
	CodeValueTooLarge = engine.CodeValueTooLarge
	CodeStackOverflow = engine.CodeStackOverflow
	// The guest itself.
	CodeGuestCrash        = engine.CodeGuestCrash
	CodeSyntaxError       = engine.CodeSyntaxError
	CodeUncaughtException = engine.CodeUncaughtException
	// CodeValueNotSerializable: the result could not be turned into JSON
	// (a cycle, or a getter that threw).
	CodeValueNotSerializable = engine.CodeValueNotSerialized
	// CodeNeverSettled: the program awaited a promise that nothing could
	// settle (no host call or timer was pending).
	CodeNeverSettled = engine.CodeNeverSettled
	// CodeCancelled: the caller's context was cancelled.
	CodeCancelled = engine.CodeCancelled
	// CodeProgramTooLarge: the program's source is over MaxProgramSize.
	CodeProgramTooLarge = "PROGRAM_TOO_LARGE"
	// CodeReplayMismatch: a replayed program made other calls than the
	// journal recorded.
	CodeReplayMismatch = engine.CodeReplayMismatch
	// Tools.
	CodeToolError       = engine.CodeToolError
	CodeToolNotFound    = engine.CodeToolNotFound
	CodeInvalidArgument = schema.CodeInvalidArgument
	// CodeSchemaTooComplex: checking the arguments against the tool's
	// input schema went beyond the validation limits (see internal/schema).
	CodeSchemaTooComplex = schema.CodeSchemaTooComplex
	// CodeToolDenied: the tool's policy is deny; the call was refused
	// before anything ran.
	CodeToolDenied = "TOOL_DENIED"
	// CodeApprovalUnavailable: the tool's policy is ask and nothing can
	// approve the call now; it was refused before anything ran.
	CodeApprovalUnavailable = "APPROVAL_UNAVAILABLE"
	// CodeSandboxUnavailable: sh() cannot start its sandbox on this machine;
	// it never runs a command unconfined.
	CodeSandboxUnavailable = "SANDBOX_UNAVAILABLE"
	// CodeFSNotText: fs.read of a file that is not UTF-8 text without
	// {encoding: "bytes"}.
	CodeFSNotText = "FS_NOT_TEXT"
	// CodeApprovalDenied: a person (or a resume decision) denied the call.
	CodeApprovalDenied = "APPROVAL_DENIED"
	// CodeApprovalTimeout: nobody answered an approval request within
	// EngineConfig.ApprovalTimeout; the call was refused.
	CodeApprovalTimeout = "APPROVAL_TIMEOUT"
	// CodeEngineBusy: the engine was running MaxRuns programs and its queue was
	// full, or the run waited QueueTimeout for a slot. Nothing ran; try again.
	CodeEngineBusy = "ENGINE_BUSY"
)

// ToolError is an error a tool handler may return to give the guest a
// stable code; any other error reaches the guest as TOOL_ERROR.
type ToolError struct {
	Code    string
	Message string
	Err     error
}

// Error returns the message (or the wrapped error's).
func (e *ToolError) Error() string {
	if e.Message == "" && e.Err != nil {
		return e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the underlying error.
func (e *ToolError) Unwrap() error { return e.Err }

// ErrorCode returns the stable code (see engine.CodedError).
func (e *ToolError) ErrorCode() string { return e.Code }

// ConfigError reports an invalid EngineConfig, RunOptions or tool.
type ConfigError struct {
	Field  string
	Reason string
	Err    error
}

// Error renders "modebox: field: reason: cause".
func (e *ConfigError) Error() string {
	msg := fmt.Sprintf("modebox: %s: %s", e.Field, e.Reason)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the underlying error.
func (e *ConfigError) Unwrap() error { return e.Err }

// ErrEngine is wrapped by errors that come from loading the engine image.
var ErrEngine = errors.New("modebox: engine unavailable")
