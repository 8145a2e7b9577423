// Package errs holds the two error types of the public API, which the
// internal packages behind it return too: a configuration field that is
// wrong (modebox.ConfigError is Config) and a coded tool error that reaches
// the program with its stable code (modebox.ToolError is Tool).
package errs

import (
	"errors"
	"fmt"

	"github.com/modebox/modebox/internal/codes"
)

// Config reports an invalid configuration field (an EngineConfig,
// RunOptions or tool field).
type Config struct {
	Field  string
	Reason string
	Err    error
}

// Error renders "modebox: field: reason: cause". A cause whose text is
// the reason (a built-in's error passed on whole) is said once.
func (e *Config) Error() string {
	msg := fmt.Sprintf("modebox: %s: %s", e.Field, e.Reason)
	if e.Err != nil {
		if cause := e.Err.Error(); cause != e.Reason {
			msg += ": " + cause
		}
	}
	return msg
}

// Unwrap returns the underlying error.
func (e *Config) Unwrap() error { return e.Err }

// ErrorCode returns the stable code: the cause's when it has one (a
// built-in's SANDBOX_CONFIG, FETCH_CONFIG, FS_CONFIG), else
// CONFIG_INVALID.
func (e *Config) ErrorCode() string {
	if c := CodeOf(e.Err); c != "" {
		return string(c)
	}
	return string(codes.ConfigInvalid)
}

// Tool is an error with a stable code that a call's promise rejects with:
// a tool handler returns it to give the program a code of its own.
type Tool struct {
	Code    codes.Code
	Message string
	Err     error
}

// Error returns the message (or the wrapped error's).
func (e *Tool) Error() string {
	if e.Message == "" && e.Err != nil {
		return e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the underlying error.
func (e *Tool) Unwrap() error { return e.Err }

// ErrorCode returns the stable code (see engine.CodedError).
func (e *Tool) ErrorCode() string { return string(e.Code) }

// Coded is an error with a stable code.
type Coded interface {
	error
	ErrorCode() string
}

// CodeOf returns the stable code of the first coded error in err's chain,
// or "".
func CodeOf(err error) codes.Code {
	var c Coded
	if errors.As(err, &c) {
		return codes.Code(c.ErrorCode())
	}
	return ""
}
