package mountfs

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/modebox/modebox/internal/codes"
)

// Error is the error every operation of the package returns. Message and
// Path use guest paths only, never host paths (except for [codes.FSConfig]).
// Use [errors.As] to get at it, or [CodeOf].
type Error struct {
	// Code is one of the registry's FS codes, such as [codes.FSNotFound],
	// or [codes.Timeout] or [codes.Cancelled] for a [Session.GlobContext]
	// stopped by its context.
	Code codes.Code
	// Op is the operation: "read", "write", "remove", "stat", "exists",
	// "list", "glob", "restage", "new" and so on.
	Op string
	// Path is the guest path (or pattern) the operation was given,
	// shortened if very long. Empty for [New].
	Path string
	// Message says what is wrong in words, for the guest.
	Message string
	// Err is the underlying error, usually a [syscall.Errno]; nil when
	// there is none. It never holds a host path.
	Err error
}

// Error renders the error as "op path: message (CODE)", with ": cause"
// before the code when there is an underlying error.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteByte(' ')
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	b.WriteString(" (")
	b.WriteString(string(e.Code))
	b.WriteByte(')')
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the code as a string (see [codes.Of]).
func (e *Error) ErrorCode() string { return string(e.Code) }

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, &mountfs.Error{Code: codes.FSNotFound}) works. A
// [codes.FSNotFound] error also matches [fs.ErrNotExist].
func (e *Error) Is(target error) bool {
	if t, ok := target.(*Error); ok {
		return t.Code == e.Code
	}
	return e.Code == codes.FSNotFound && target == fs.ErrNotExist
}

// CodeOf returns the code of the first *Error in err's chain, or "" if
// there is none.
func CodeOf(err error) codes.Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// maxShownPath is how much of a guest path an error message repeats.
const maxShownPath = 200

// shown shortens p for use in an error.
func shown(p string) string {
	if len(p) <= maxShownPath {
		return p
	}
	cut := maxShownPath
	for cut > 0 && p[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return p[:cut] + "..."
}

func newErr(code codes.Code, op, p, msg string, err error) *Error {
	return &Error{Code: code, Op: op, Path: shown(p), Message: msg, Err: err}
}

// notFound is the one error for missing, hidden and out-of-mount paths.
func notFound(op, p string) *Error {
	return newErr(codes.FSNotFound, op, p, "no such file or directory", nil)
}
