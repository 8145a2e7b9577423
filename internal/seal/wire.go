package seal

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/chacha20poly1305"

	"github.com/modebox/modebox/internal/codes"
)

// Prefix starts every token of the current format, ahead of the base64.
const Prefix = "mbx1."

// version is the format version byte, the first byte of the raw token.
const version = 1

// Layout of the raw (decoded) token, as in the package documentation. The
// header is everything before the nonce; it is in clear and authenticated
// as associated data.
const (
	offVersion = 0
	offKid     = offVersion + 1
	offIssued  = offKid + kidSize
	offExpires = offIssued + 8
	offID      = offExpires + 8
	offEngine  = offID + idSize
	offTools   = offEngine + sha256.Size
	headerSize = offTools + sha256.Size
	offNonce   = headerSize
	offBody    = offNonce + chacha20poly1305.NonceSizeX
	minRawSize = offBody + chacha20poly1305.Overhead
)

// idSize is the size of a token id in bytes (128 bits).
const idSize = 16

// additionalData returns what the AEAD authenticates besides the body: the
// prefix and the header.
func additionalData(raw []byte) []byte {
	return append([]byte(Prefix), raw[:headerSize]...)
}

// putBinding writes the digests of b into the header.
func putBinding(raw []byte, b Binding) {
	e, t := sha256.Sum256([]byte(b.Engine)), sha256.Sum256([]byte(b.Tools))
	copy(raw[offEngine:offTools], e[:])
	copy(raw[offTools:headerSize], t[:])
}

// checkBinding compares the header's binding digests with b's.
func checkBinding(raw []byte, b Binding) error {
	e, t := sha256.Sum256([]byte(b.Engine)), sha256.Sum256([]byte(b.Tools))
	engine := string(raw[offEngine:offTools]) == string(e[:])
	tools := string(raw[offTools:headerSize]) == string(t[:])
	switch {
	case !engine && !tools:
		return fail(codes.TokenBinding, "token was issued for another engine image and another tool set")
	case !engine:
		return fail(codes.TokenBinding, "token was issued for another engine image")
	case !tools:
		return fail(codes.TokenBinding, "token was issued for another tool set")
	}
	return nil
}

// checkLifetime refuses a lifetime, in Unix seconds, that is not positive
// or exceeds MaxLifetime.
func checkLifetime(issued, expires int64) error {
	if expires <= issued {
		return fail(codes.TokenLifetime, "token expires before it is issued")
	}
	// The difference wraps in int64 but is exact as a uint64.
	if d := uint64(expires - issued); d > uint64(MaxLifetime/time.Second) {
		life := "more than 290 years"
		if d < 1<<33 {
			life = (time.Duration(d) * time.Second).String()
		}
		return fail(codes.TokenLifetime, fmt.Sprintf("token lifetime %s exceeds the %s allowed", life, MaxLifetime))
	}
	return nil
}

// otherVersion reports whether s starts like a token of another format
// version: "mbx", digits, ".".
func otherVersion(s string) bool {
	rest, ok := strings.CutPrefix(s, "mbx")
	if !ok {
		return false
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return n > 0 && n < len(rest) && rest[n] == '.'
}

// validID reports whether id is a token id: 32 lowercase hex characters.
func validID(id string) bool {
	if len(id) != 2*idSize {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
