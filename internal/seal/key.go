package seal

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// SecretSize is the size of a key's secret in bytes.
const SecretSize = 32

// kidSize is the size of a key id on the wire, in bytes.
const kidSize = 8

// Key is one sealing key: a 32-byte secret and a short id derived from it,
// which tokens carry so that [Keyring.Open] picks the key directly.
//
// Print a Key freely: its String and GoString methods show only the id.
type Key struct {
	// ID is the key id: the first 8 bytes of SHA-256(Secret), in
	// lowercase hex (16 characters). It is not secret.
	ID string
	// Secret is the 32-byte XChaCha20-Poly1305 key.
	Secret []byte
}

// NewKey returns the Key for a 32-byte secret, with its id derived. The
// secret is copied.
func NewKey(secret []byte) (Key, error) {
	if len(secret) != SecretSize {
		return Key{}, fmt.Errorf("seal: a key must be %d bytes, got %d", SecretSize, len(secret))
	}
	s := append([]byte(nil), secret...)
	return Key{ID: KeyID(s), Secret: s}, nil
}

// GenerateKey returns a new Key with a random secret from crypto/rand.
func GenerateKey() (Key, error) {
	s := make([]byte, SecretSize)
	if _, err := rand.Read(s); err != nil {
		return Key{}, fmt.Errorf("seal: generating a key: %w", err)
	}
	return NewKey(s)
}

// KeyID returns the key id of a secret: the first 8 bytes of its SHA-256,
// in lowercase hex. Since the id follows from the secret, rotating keys is
// only a matter of adding a new one in front.
func KeyID(secret []byte) string {
	sum := sha256.Sum256(secret)
	return hex.EncodeToString(sum[:kidSize])
}

// String returns "key <id>"; it never shows the secret.
func (k Key) String() string { return "key " + k.ID }

// GoString is like String, so that %#v does not show the secret either.
func (k Key) GoString() string { return fmt.Sprintf("seal.Key{ID: %q}", k.ID) }

// Encode returns the secret in unpadded base64url, the form [ParseKey],
// $MODEBOX_SECRET and the key file use.
func (k Key) Encode() string { return base64.RawURLEncoding.EncodeToString(k.Secret) }

// check reports whether k is usable: a 32-byte secret and the id that
// follows from it.
func (k Key) check() error {
	if len(k.Secret) != SecretSize {
		return fmt.Errorf("seal: key %q: secret must be %d bytes, got %d", k.ID, SecretSize, len(k.Secret))
	}
	if k.ID != KeyID(k.Secret) {
		return fmt.Errorf("seal: key %q: id does not match its secret (use NewKey)", k.ID)
	}
	return nil
}

// ParseKey decodes one key written in base64: the URL or the standard
// alphabet, with or without padding. Decoding is strict: the text must be
// exactly one canonical encoding of 32 bytes, with no whitespace.
func ParseKey(s string) (Key, error) {
	url := strings.ContainsAny(s, "-_")
	std := strings.ContainsAny(s, "+/")
	if url && std {
		return Key{}, errors.New("mixes the base64url (-_) and standard (+/) alphabets")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
			c == '-' || c == '_' || c == '+' || c == '/' || c == '=') {
			return Key{}, fmt.Errorf("invalid character %q at offset %d", c, i)
		}
	}
	enc := base64.RawURLEncoding
	if std {
		enc = base64.RawStdEncoding
	}
	if strings.HasSuffix(s, "=") {
		enc = enc.WithPadding(base64.StdPadding)
	}
	b, err := enc.Strict().DecodeString(s)
	if err != nil {
		return Key{}, errors.New("not valid base64")
	}
	if len(b) != SecretSize {
		return Key{}, fmt.Errorf("decodes to %d bytes, want %d", len(b), SecretSize)
	}
	return NewKey(b)
}

// ParseKeys decodes a list of keys, as [ParseKey] does each, the first
// becoming the active key and the rest the previous ones. where names the
// source in errors, such as "$MODEBOX_SECRET" or a file name.
func ParseKeys(where string, keys []string) (*Keyring, error) {
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s: no key", where)
	}
	kr := &Keyring{}
	seen := map[string]int{}
	for i, s := range keys {
		k, err := ParseKey(s)
		if err != nil {
			return nil, fmt.Errorf("%s: key %d: %v; each key must be 32 random bytes in base64url, "+
				"such as the output of: openssl rand -base64 32", where, i+1, err)
		}
		if j, dup := seen[k.ID]; dup {
			return nil, fmt.Errorf("%s: key %d is the same as key %d", where, i+1, j)
		}
		seen[k.ID] = i + 1
		if i == 0 {
			kr.Active = k
		} else {
			kr.Previous = append(kr.Previous, k)
		}
	}
	return kr, nil
}

// Keyring holds the keys tokens are sealed and opened with. Active seals;
// Active and Previous open. To rotate, make a new key Active and move the
// old one to Previous until its tokens have expired ([MaxLifetime]).
type Keyring struct {
	// Active seals new tokens and opens tokens it sealed.
	Active Key
	// Previous are older keys, kept only to open tokens they sealed.
	Previous []Key
}

// check reports whether every key of the keyring is usable.
func (k *Keyring) check() error {
	if k == nil {
		return errors.New("seal: nil keyring")
	}
	if err := k.Active.check(); err != nil {
		return err
	}
	for _, p := range k.Previous {
		if err := p.check(); err != nil {
			return err
		}
	}
	return nil
}

// find returns the key whose id is kid, looked up by id alone.
func (k *Keyring) find(kid []byte) (Key, bool) {
	id := hex.EncodeToString(kid)
	if k.Active.ID == id {
		return k.Active, true
	}
	for _, p := range k.Previous {
		if p.ID == id {
			return p, true
		}
	}
	return Key{}, false
}
