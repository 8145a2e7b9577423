package seal

import (
	"errors"

	"github.com/modebox/modebox/internal/codes"
)

// Error is the error returned for a token that cannot be sealed, opened
// or claimed; its Code is one of the registry's token codes, such as
// [codes.TokenExpired], and its Message never contains key material. Use
// [errors.As] to get at it, or [CodeOf].
type Error = codes.Error[errorOf]

// errorOf keeps this package's errors apart from other packages' (see
// [codes.Error]).
type errorOf struct{}

// CodeOf returns the code of the first *Error in err's chain, or "" if
// there is none.
func CodeOf(err error) codes.Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// fail returns an *Error with the given code and message.
func fail(code codes.Code, msg string) *Error { return &Error{Code: code, Message: msg} }
