package codes

// Error is an error with a stable code, a message and maybe a cause: the
// one error type of the packages whose errors need no more than that
// (netguard, netproxy, seal, pgstore). Each of them declares
//
//	type Error = codes.Error[errorOf]
//
// with an unexported type errorOf of its own. The type argument is not
// used; it keeps the packages' errors apart for [errors.As]: webfetch and
// netproxy wrap or classify netguard's errors, and root's Resume turns
// seal's into TokenErrors, so a caller asking for one package's *Error must
// never be handed another's. [Of] reads the code of any of them.
type Error[P any] struct {
	// Code is the stable code, one of this package's constants.
	Code Code
	// Message says what went wrong, in words for a person. It never holds
	// a secret (key material, a password, an injected header value).
	Message string
	// Err is the underlying error, if any.
	Err error
}

// Error renders "CODE: message", followed by ": cause" when there is an
// underlying error.
func (e *Error[P]) Error() string {
	s := string(e.Code) + ": " + e.Message
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error, so that errors.Is and errors.As see
// through it.
func (e *Error[P]) Unwrap() error { return e.Err }

// ErrorCode returns the code as a string (the method [Of] and the engine
// read a code with).
func (e *Error[P]) ErrorCode() string { return string(e.Code) }

// Is reports whether target is an error of the same package with the same
// code, so that errors.Is(err, &seal.Error{Code: codes.TokenUsed}) works.
func (e *Error[P]) Is(target error) bool {
	t, ok := target.(*Error[P])
	return ok && t.Code == e.Code
}
