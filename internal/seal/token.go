package seal

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/chacha20poly1305"

	"github.com/modebox/modebox/internal/codes"
)

// Limits on tokens.
const (
	// MaxTokenSize is the largest token, in bytes of its text, that Seal
	// produces and Open looks at; longer ones are refused before decoding.
	MaxTokenSize = 1 << 20
	// MaxBodySize is the largest body, uncompressed. Open stops
	// decompressing past it, so a small token cannot expand without bound.
	MaxBodySize = 16 << 20
	// MaxLifetime is the longest a token may live, from issue to expiry.
	// A token claiming a longer lifetime is refused even if authentic.
	MaxLifetime = 7 * 24 * time.Hour
	// DefaultLifetime is the lifetime Seal gives a payload without an
	// expiry time.
	DefaultLifetime = 24 * time.Hour
	// ClockSkew is how far in the future a token's issue time may be and
	// the token still open, to allow for clocks that disagree a little.
	ClockSkew = time.Minute
)

// Binding ties a token to where it may resume: the engine image and the
// tool set it was issued under. Open refuses a token whose binding differs
// from the one given.
type Binding struct {
	// Engine is the hash of the engine image, in hex.
	Engine string
	// Tools is the hash of the tool set, in hex.
	Tools string
}

// Payload is what a token carries. Everything but Body is in clear in the
// token (authenticated but readable); Body is encrypted.
type Payload struct {
	// ID is the token id, 128 random bits in lowercase hex (32
	// characters). Seal generates one if it is empty. It is what a
	// [Store] claims, so that a token is redeemed once.
	ID string
	// IssuedAt is when the token was issued; Seal uses the current time
	// if it is zero. Times are stored with one-second precision
	// (truncated).
	IssuedAt time.Time
	// ExpiresAt is when the token stops opening; Seal uses IssuedAt plus
	// [DefaultLifetime] if it is zero. It must be after IssuedAt and at
	// most [MaxLifetime] later.
	ExpiresAt time.Time
	// Binding is the engine image and tool set the token may resume on.
	// Both must be non-empty. Only their SHA-256 digests are in the
	// token, so Open returns the Binding it was given.
	Binding Binding
	// Body is the caller's data, opaque to this package, at most
	// [MaxBodySize] bytes. It is compressed, then encrypted.
	Body []byte
	// KeyID is the id of the key that sealed the token; Open sets it and
	// Seal ignores it (the active key seals).
	KeyID string
}

// NewID returns a fresh random token id: 128 bits in lowercase hex.
func NewID() (string, error) {
	b := make([]byte, idSize)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("seal: generating a token id: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Seal returns a token for p, sealed with the active key. It refuses a
// payload with an invalid id, an empty binding, a lifetime that is not
// positive or exceeds [MaxLifetime] (code TOKEN_LIFETIME), or a body or
// token that would exceed [MaxBodySize] or [MaxTokenSize] (code
// TOKEN_TOO_LARGE).
func (k *Keyring) Seal(p Payload) (string, error) {
	if err := k.check(); err != nil {
		return "", err
	}
	if p.ID == "" {
		id, err := NewID()
		if err != nil {
			return "", err
		}
		p.ID = id
	}
	if !validID(p.ID) {
		return "", fmt.Errorf("seal: token id %q is not %d lowercase hex characters", p.ID, 2*idSize)
	}
	if p.Binding.Engine == "" || p.Binding.Tools == "" {
		return "", errors.New("seal: a token needs both an engine and a tool-set binding")
	}
	if p.IssuedAt.IsZero() {
		p.IssuedAt = time.Now()
	}
	if p.ExpiresAt.IsZero() {
		p.ExpiresAt = p.IssuedAt.Add(DefaultLifetime)
	}
	if err := checkLifetime(p.IssuedAt.Unix(), p.ExpiresAt.Unix()); err != nil {
		return "", err
	}
	if len(p.Body) > MaxBodySize {
		return "", fail(codes.TokenTooLarge, fmt.Sprintf("body is %d bytes, more than the %d allowed", len(p.Body), MaxBodySize))
	}
	z, err := compress(p.Body)
	if err != nil {
		return "", err
	}
	return sealRaw(k.Active, p, z)
}

// sealRaw seals an already compressed body without checking the payload
// (tests use it to build tokens Seal refuses to make).
func sealRaw(key Key, p Payload, z []byte) (string, error) {
	id, err := hex.DecodeString(p.ID)
	if err != nil || len(id) != idSize {
		return "", fmt.Errorf("seal: token id %q is not %d lowercase hex characters", p.ID, 2*idSize)
	}
	kid, _ := hex.DecodeString(key.ID)
	raw := make([]byte, offBody, offBody+len(z)+chacha20poly1305.Overhead)
	raw[offVersion] = version
	copy(raw[offKid:], kid)
	binary.BigEndian.PutUint64(raw[offIssued:], uint64(p.IssuedAt.Unix()))
	binary.BigEndian.PutUint64(raw[offExpires:], uint64(p.ExpiresAt.Unix()))
	copy(raw[offID:], id)
	putBinding(raw, p.Binding)
	if _, err := rand.Read(raw[offNonce:offBody]); err != nil {
		return "", fmt.Errorf("seal: generating a nonce: %w", err)
	}
	aead, err := chacha20poly1305.NewX(key.Secret)
	if err != nil {
		return "", fmt.Errorf("seal: %w", err)
	}
	raw = aead.Seal(raw, raw[offNonce:offBody], z, additionalData(raw))
	if n := len(Prefix) + encodedLen(len(raw)); n > MaxTokenSize {
		return "", fail(codes.TokenTooLarge, fmt.Sprintf("token would be %d bytes, more than the %d allowed", n, MaxTokenSize))
	}
	return Prefix + encode(raw), nil
}

// Open checks a token and returns its payload. now is the current time.
//
// The checks, in order, and the code of the first that fails: the size
// (TOKEN_TOO_LARGE), the prefix and the strict base64 (TOKEN_MALFORMED, or
// TOKEN_VERSION for another version's prefix), the version byte
// (TOKEN_VERSION), the key id, looked up in the keyring by id alone
// (TOKEN_UNKNOWN_KEY), the binding against b (TOKEN_BINDING), then
// authentication of the header and body (TOKEN_TAMPERED), the lifetime
// (TOKEN_LIFETIME), the issue time against now plus [ClockSkew]
// (TOKEN_NOT_YET_VALID), the expiry (TOKEN_EXPIRED) and last the size of
// the decompressed body (TOKEN_TOO_LARGE).
//
// The binding is compared before authentication so that a token used on
// another engine or tool set is reported as such; nothing else is acted
// on before the header is authenticated, and a token is only ever
// accepted once it is.
//
// Open does not mark the token used; see [Keyring.OpenOnce].
func (k *Keyring) Open(token string, b Binding, now time.Time) (*Payload, error) {
	return k.open(token, &b, now)
}

// OpenUnbound opens token as [Keyring.Open] does but does not compare its
// binding: a token sealed with one of k's keys for any engine image, tool
// set or configuration opens, if it is authentic and unexpired. It is for
// revoking a token (claiming it without resuming it), which is safe
// whatever the token is bound to. The Payload's Binding is the zero
// Binding.
func (k *Keyring) OpenUnbound(token string, now time.Time) (*Payload, error) {
	return k.open(token, nil, now)
}

// open is Open, comparing the binding only when b is not nil.
func (k *Keyring) open(token string, b *Binding, now time.Time) (*Payload, error) {
	if err := k.check(); err != nil {
		return nil, err
	}
	if len(token) > MaxTokenSize {
		return nil, fail(codes.TokenTooLarge, fmt.Sprintf("token is %d bytes, more than the %d allowed", len(token), MaxTokenSize))
	}
	rest, ok := strings.CutPrefix(token, Prefix)
	if !ok {
		if otherVersion(token) {
			return nil, fail(codes.TokenVersion, "token is from another version of modebox")
		}
		return nil, fail(codes.TokenMalformed, "not a modebox continuation token (it should start with "+Prefix+")")
	}
	raw, ok := decode(rest)
	if !ok {
		return nil, fail(codes.TokenMalformed, "token is not valid unpadded base64url; was it copied whole?")
	}
	if len(raw) < minRawSize {
		return nil, fail(codes.TokenMalformed, "token is truncated")
	}
	if raw[offVersion] != version {
		return nil, fail(codes.TokenVersion, fmt.Sprintf("token format version %d is not supported", raw[offVersion]))
	}
	key, ok := k.find(raw[offKid:offIssued])
	if !ok {
		return nil, fail(codes.TokenUnknownKey, fmt.Sprintf("token was sealed with key %x, which is not in the keyring "+
			"(another machine's key, or one rotated out)", raw[offKid:offIssued]))
	}
	if b != nil {
		if err := checkBinding(raw, *b); err != nil {
			return nil, err
		}
	}
	aead, err := chacha20poly1305.NewX(key.Secret)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	z, err := aead.Open(nil, raw[offNonce:offBody], raw[offBody:], additionalData(raw))
	if err != nil {
		return nil, fail(codes.TokenTampered, "token failed authentication: it was modified or forged")
	}
	issued := int64(binary.BigEndian.Uint64(raw[offIssued:]))
	expires := int64(binary.BigEndian.Uint64(raw[offExpires:]))
	if err := checkLifetime(issued, expires); err != nil {
		return nil, err
	}
	p := &Payload{
		ID:        hex.EncodeToString(raw[offID:offEngine]),
		IssuedAt:  time.Unix(issued, 0).UTC(),
		ExpiresAt: time.Unix(expires, 0).UTC(),
		KeyID:     key.ID,
	}
	if b != nil {
		p.Binding = *b
	}
	if p.IssuedAt.After(now.Add(ClockSkew)) {
		return nil, fail(codes.TokenNotYetValid, fmt.Sprintf("token is issued at %s, in the future; is the clock right?",
			p.IssuedAt.Format(time.RFC3339)))
	}
	if !now.Before(p.ExpiresAt) {
		return nil, fail(codes.TokenExpired, "token expired at "+p.ExpiresAt.Format(time.RFC3339))
	}
	if p.Body, err = decompress(z); err != nil {
		return nil, err
	}
	return p, nil
}

// OpenOnce opens a token as [Keyring.Open] does and then claims its id in
// s, so that it opens only once: a second OpenOnce of the same token fails
// with TOKEN_USED. Only a token that opens is claimed. A [KeyedStore] is
// told the id of the key that sealed the token too. A claim that fails
// otherwise than with an *Error (the store is unreachable, a write
// failed) fails with TOKEN_STORE_UNAVAILABLE, wrapping the store's error.
func (k *Keyring) OpenOnce(token string, b Binding, now time.Time, s Store) (*Payload, error) {
	p, err := k.Open(token, b, now)
	if err != nil {
		return nil, err
	}
	if err := Claim(p, s); err != nil {
		return nil, err
	}
	return p, nil
}

// Claim claims the id of p, a payload [Keyring.Open] returned, in s, as
// [Keyring.OpenOnce] does after opening: for a caller that looks at the
// payload before it spends the token.
func Claim(p *Payload, s Store) error {
	var err error
	if ks, ok := s.(KeyedStore); ok {
		err = ks.ClaimKeyed(p.ID, p.KeyID, p.ExpiresAt)
	} else {
		err = s.Claim(p.ID, p.ExpiresAt)
	}
	if err != nil {
		var se *Error
		if errors.As(err, &se) {
			return err
		}
		return &Error{Code: codes.TokenStoreUnavailable, Message: "the used-token record could not be written, so the token was not resumed", Err: err}
	}
	return nil
}
