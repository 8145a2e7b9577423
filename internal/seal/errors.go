package seal

import "errors"

// Stable codes of the token errors. Never rename one: clients and scripts
// match on them.
const (
	// CodeTokenMalformed: the token is not a well-formed token (wrong
	// prefix, bad or non-canonical base64, too short, or an authentic
	// body that does not decompress).
	CodeTokenMalformed = "TOKEN_MALFORMED"
	// CodeTokenTooLarge: the token is larger than [MaxTokenSize], or its
	// body decompresses to more than [MaxBodySize].
	CodeTokenTooLarge = "TOKEN_TOO_LARGE"
	// CodeTokenVersion: the token's format version is not one this build
	// reads.
	CodeTokenVersion = "TOKEN_VERSION"
	// CodeTokenUnknownKey: the key that sealed the token is not in the
	// keyring (another machine's key, or one rotated out).
	CodeTokenUnknownKey = "TOKEN_UNKNOWN_KEY"
	// CodeTokenTampered: authentication failed; the token was modified
	// or forged.
	CodeTokenTampered = "TOKEN_TAMPERED"
	// CodeTokenExpired: the token's expiry time has passed.
	CodeTokenExpired = "TOKEN_EXPIRED"
	// CodeTokenNotYetValid: the token was issued further in the future
	// than [ClockSkew] allows.
	CodeTokenNotYetValid = "TOKEN_NOT_YET_VALID"
	// CodeTokenLifetime: the token's lifetime (expiry minus issue time)
	// is longer than [MaxLifetime], or not positive.
	CodeTokenLifetime = "TOKEN_LIFETIME"
	// CodeTokenBinding: the token was issued for another engine image or
	// another tool set; the message says which.
	CodeTokenBinding = "TOKEN_BINDING"
	// CodeTokenUsed: the token was already redeemed once.
	CodeTokenUsed = "TOKEN_USED"
	// CodeTokenStoreUnavailable: the used-token record could not be
	// written or read (a database connection lost, a disk that refuses the
	// write), so the token was not resumed. It fails closed: the claim
	// may or may not have been recorded, so the token may not resume
	// later either.
	CodeTokenStoreUnavailable = "TOKEN_STORE_UNAVAILABLE"
)

// Error is the error returned for a token that cannot be sealed, opened
// or claimed. Use [errors.As] to get at the code, or [CodeOf].
type Error struct {
	// Code is one of the Code constants, such as [CodeTokenExpired].
	Code string
	// Msg says what is wrong in words, such as "token expired at
	// 2026-05-01T10:00:00Z". It never contains key material.
	Msg string
	// Err is the underlying error, if any (for example from the file
	// system); usually nil.
	Err error
}

// Error renders the error as "CODE: message", followed by ": cause" when
// there is an underlying error.
func (e *Error) Error() string {
	s := e.Code + ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error, so that errors.Is and errors.As see
// through an *Error.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, &seal.Error{Code: seal.CodeTokenUsed}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
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

// fail returns an *Error with the given code and message.
func fail(code, msg string) *Error { return &Error{Code: code, Msg: msg} }
