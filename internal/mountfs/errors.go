package mountfs

import (
	"errors"
	"io/fs"
	"strings"
)

// Stable error codes. Never rename one: the guest and the host match on
// them.
const (
	// CodeNotFound: nothing the guest may see is at the path. Missing
	// files, hidden (denied) files and paths outside every mount all get
	// this code and the same message, so that the guest cannot tell a
	// hidden file from a missing one.
	CodeNotFound = "FS_NOT_FOUND"
	// CodeReadOnly: the path is in a read-only mount and the operation
	// would change it.
	CodeReadOnly = "FS_READ_ONLY"
	// CodeNotAFile: the operation needs a regular file and the path is a
	// directory, a named pipe, a device or a socket.
	CodeNotAFile = "FS_NOT_A_FILE"
	// CodeNotADirectory: the operation needs a directory (List, or the
	// parent of a written file) and the path is something else.
	CodeNotADirectory = "FS_NOT_A_DIRECTORY"
	// CodeTooLarge: a file or data is over [Config.MaxFileSize], or the
	// session's staged writes would be over [Config.MaxStaged].
	CodeTooLarge = "FS_TOO_LARGE"
	// CodeInvalidPath: the guest path is malformed: relative, with a ".."
	// component, a NUL byte, a backslash, invalid UTF-8, a component over
	// 255 bytes or a total length over 4096 bytes; or a bad glob pattern.
	CodeInvalidPath = "FS_INVALID_PATH"
	// CodeTooManyEntries: a listing or glob would return, or a glob would
	// walk, more than [Config.MaxEntries] entries.
	CodeTooManyEntries = "FS_TOO_MANY_ENTRIES"
	// CodeSymlink: the path is, or goes through, a symbolic link; symlinks
	// are never followed.
	CodeSymlink = "FS_SYMLINK"
	// CodeDenied: a write or removal names a path that matches a deny
	// pattern. The answer depends only on the name, never on whether the
	// file exists, so it reveals nothing a guest could not work out from
	// the (public) deny list.
	CodeDenied = "FS_DENIED"
	// CodeNotText: [Session.ReadText] found bytes that are not valid
	// UTF-8.
	CodeNotText = "FS_NOT_TEXT"
	// CodeClosed: the [FS] was closed, or the [Session] already committed
	// or discarded.
	CodeClosed = "FS_CLOSED"
	// CodeConfig: [New] rejected the configuration. Only these messages
	// may name host paths: they are meant for the operator.
	CodeConfig = "FS_CONFIG"
	// CodeIO: an unexpected system error; Err holds the errno.
	CodeIO = "FS_IO"
)

// Error is the error every operation of the package returns. Message and
// Path use guest paths only, never host paths (except for [CodeConfig]).
// Use [errors.As] to get at it, or [CodeOf].
type Error struct {
	// Code is one of the Code constants, such as [CodeNotFound].
	Code string
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
	b.WriteString(e.Code)
	b.WriteByte(')')
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, &mountfs.Error{Code: mountfs.CodeNotFound}) works. A
// [CodeNotFound] error also matches [fs.ErrNotExist].
func (e *Error) Is(target error) bool {
	if t, ok := target.(*Error); ok {
		return t.Code == e.Code
	}
	return e.Code == CodeNotFound && target == fs.ErrNotExist
}

// CodeOf returns the code of the first *Error in err's chain, or "" if
// there is none.
func CodeOf(err error) string {
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

func newErr(code, op, p, msg string, err error) *Error {
	return &Error{Code: code, Op: op, Path: shown(p), Message: msg, Err: err}
}

// notFound is the one error for missing, hidden and out-of-mount paths.
func notFound(op, p string) *Error {
	return newErr(CodeNotFound, op, p, "no such file or directory", nil)
}
