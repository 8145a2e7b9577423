package webfetch

import (
	"errors"
	"fmt"

	"github.com/modebox/modebox/internal/codes"
)

// Error is every error this package returns. Message never contains an
// injected header value.
type Error struct {
	// Code is one of the registry's fetch codes, such as
	// [codes.FetchTimeout].
	Code codes.Code
	// Message says what was refused or failed, and how to allow it where
	// that applies.
	Message string
	// Err is the underlying error, if any (for errors.As; its text may be
	// less careful than Message and is not shown by Error).
	Err error
}

// Error returns the code and the message on one line.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// ErrorCode returns the stable code.
func (e *Error) ErrorCode() string { return string(e.Code) }

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, &Error{Code: codes.FetchTimeout}) works.
func (e *Error) Is(target error) bool {
	var t *Error
	if !errors.As(target, &t) {
		return false
	}
	return t.Code == e.Code
}

func newError(code codes.Code, err error, format string, a ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, a...), Err: err}
}

// CodeOf returns the code of err if it carries one (see [codes.Of]), or
// "" otherwise.
func CodeOf(err error) codes.Code { return codes.Of(err) }
