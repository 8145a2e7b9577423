package webfetch

import (
	"errors"
	"fmt"
)

// Error codes. They are stable: the guest sees them as the rejected
// fetch's code.
const (
	// CodeBadURL: the URL is refused before any lookup (scheme,
	// credentials, numeric host forms, control characters, ...).
	CodeBadURL = "FETCH_BAD_URL"
	// CodeBadRequest: the method, a header name or value, or the body is
	// refused (CONNECT, a forbidden header, CR/LF in a header, a body on
	// GET).
	CodeBadRequest = "FETCH_BAD_REQUEST"
	// CodeNotAllowed: the host and port are on no allowlist entry and the
	// request was not approved.
	CodeNotAllowed = "FETCH_NOT_ALLOWED"
	// CodeAddressRefused: the host is, or resolves to, an address class
	// that this request may not reach (loopback, private, link-local,
	// cloud metadata, ...).
	CodeAddressRefused = "FETCH_ADDRESS_REFUSED"
	// CodeInsecure: the request is plain http to an allowlist entry that
	// injects headers; those go over https only, unless the entry is
	// written with http://.
	CodeInsecure = "FETCH_INSECURE"
	// CodeRedirect: a redirect was refused, or there were too many.
	CodeRedirect = "FETCH_REDIRECT"
	// CodeTimeout: the request did not finish (headers and body) within
	// Config.Timeout.
	CodeTimeout = "FETCH_TIMEOUT"
	// CodeTooLarge: the response body, the response headers, the request
	// body or the request headers are over their cap.
	CodeTooLarge = "FETCH_TOO_LARGE"
	// CodeRequestLimit: the session has made Config.MaxRequests requests.
	CodeRequestLimit = "FETCH_REQUEST_LIMIT"
	// CodeFailed: any other failure (connection refused, TLS, DNS, a
	// malformed response, a cancelled run).
	CodeFailed = "FETCH_FAILED"
	// CodeConfig: New was given an invalid Config.
	CodeConfig = "FETCH_CONFIG"
)

// Error is every error this package returns. Message never contains an
// injected header value.
type Error struct {
	// Code is one of the Code constants.
	Code string
	// Message says what was refused or failed, and how to allow it where
	// that applies.
	Message string
	// Err is the underlying error, if any (for errors.As; its text may be
	// less careful than Message and is not shown by Error).
	Err error
}

// Error returns the code and the message on one line.
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// ErrorCode returns the stable code.
func (e *Error) ErrorCode() string { return e.Code }

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, &Error{Code: CodeTimeout}) works.
func (e *Error) Is(target error) bool {
	var t *Error
	if !errors.As(target, &t) {
		return false
	}
	return t.Code == e.Code
}

func newError(code string, err error, format string, a ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, a...), Err: err}
}

// CodeOf returns the code of err if it carries one (ErrorCode() string),
// or "" otherwise.
func CodeOf(err error) string {
	var c interface{ ErrorCode() string }
	if errors.As(err, &c) {
		return c.ErrorCode()
	}
	return ""
}
