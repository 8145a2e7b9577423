package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/jsonenc"
	"github.com/modebox/modebox/internal/limits"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/seal"
)

// TokenStore records which tokens were used (modebox.TokenStore). Claim
// must succeed for exactly one of any number of concurrent claims of an
// id, and fail for every later one with the error of
// modebox.TokenUsedError(id) (a *seal.Error with code TOKEN_USED). Any
// other error refuses the resume with TOKEN_STORE_UNAVAILABLE. A store
// shared by several processes may also have the method ClaimKeyed(id,
// keyID string, expires time.Time) error, which Resume then calls instead,
// with the id of the key that sealed the token (package pgstore's store
// does, for modebox doctor).
type TokenStore interface {
	Claim(id string, expires time.Time) error
}

// Pending is a call that waits for approval in a paused run
// (modebox.PendingCall).
type Pending struct {
	ID     int             `json:"id"`
	Tool   string          `json:"tool"`
	Args   json.RawMessage `json:"args"`
	Reason string          `json:"reason"`
}

// Sealer seals paused runs into tokens and opens them once.
type Sealer struct {
	keys  *seal.Keyring
	store TokenStore
	ttl   time.Duration
}

// NewSealer checks the keys (32 bytes each; the first seals, all open) and
// the lifetime (0: the default, 24h; at most 7 days). A nil store is an
// in-memory one: single use within this process only.
func NewSealer(keys [][]byte, store TokenStore, ttl time.Duration) (*Sealer, error) {
	if len(keys) == 0 {
		return nil, &errs.Config{Field: "Continuations.Keys", Reason: "at least one key is needed (see LoadKeys)"}
	}
	var kr seal.Keyring
	for i, k := range keys {
		key, err := seal.NewKey(k)
		if err != nil {
			return nil, &errs.Config{Field: fmt.Sprintf("Continuations.Keys[%d]", i), Reason: "invalid key", Err: err}
		}
		if i == 0 {
			kr.Active = key
		} else {
			kr.Previous = append(kr.Previous, key)
		}
	}
	if ttl == 0 {
		ttl = seal.DefaultLifetime
	}
	if ttl < 0 || ttl > seal.MaxLifetime {
		return nil, &errs.Config{Field: "Continuations.TTL", Reason: fmt.Sprintf("must be between 0 and %s", seal.MaxLifetime)}
	}
	if store == nil {
		store = &seal.MemoryStore{}
	}
	return &Sealer{keys: &kr, store: store, ttl: ttl}, nil
}

// body is the encrypted part of a token: everything a resume needs to
// replay the run and go on.
type body struct {
	Code     string                   `json:"code"`
	Lang     string                   `json:"lang"`
	Filename string                   `json:"filename"`
	Limits   limits.Limits            `json:"limits"`
	Policies map[string]policy.Policy `json:"policies,omitempty"`
	Journal  *engine.Journal          `json:"journal"`
	Pending  []Pending                `json:"pending"`
	Approved []string                 `json:"approved,omitempty"`
}

// seal seals b bound to binding.
func (s *Sealer) seal(b body, binding seal.Binding) (string, error) {
	// Not json.Marshal: it would rewrite <, >, & and U+2028/U+2029 inside
	// raw messages as \u escapes, and a pending call's arguments are
	// compared byte for byte (by digest) with the replay's on resume:
	// "a && b" would never resume.
	raw, err := jsonenc.Marshal(b)
	if err != nil {
		return "", err
	}
	now := time.Now()
	return s.keys.Seal(seal.Payload{IssuedAt: now, ExpiresAt: now.Add(s.ttl), Binding: binding, Body: raw})
}

// open opens and claims token: authenticated, bound to binding, unexpired
// and not used before. Errors are *seal.Error.
//
// check, when not nil, looks at the opened body before the token is
// claimed: an error from it is returned with the token left unused.
func (s *Sealer) open(token string, binding seal.Binding, check func(*body) error) (*body, error) {
	now := time.Now()
	p, err := s.keys.Open(token, binding, now)
	if err != nil {
		return nil, err
	}
	var b body
	if err := json.Unmarshal(p.Body, &b); err != nil || b.Journal == nil {
		return nil, &seal.Error{Code: codes.TokenMalformed, Message: "the token's contents are not a paused run"}
	}
	if check != nil {
		if err := check(&b); err != nil {
			return nil, err
		}
	}
	if err := seal.Claim(p, s.store); err != nil {
		return nil, err
	}
	return &b, nil
}

// Revoke claims token in the store without resuming it, so that it never
// resumes: authenticated and unexpired, whatever engine image, tool set or
// configuration it is bound to. Errors are *seal.Error: the token's
// (TOKEN_TAMPERED, TOKEN_EXPIRED, TOKEN_USED for one already used or
// revoked, ...) or the store's (TOKEN_STORE_UNAVAILABLE).
func (s *Sealer) Revoke(token string) error {
	p, err := s.keys.OpenUnbound(token, time.Now())
	if err != nil {
		return err
	}
	err = seal.Claim(p, s.store)
	var se *seal.Error
	if errors.As(err, &se) && se.Code == codes.TokenStoreUnavailable {
		return &seal.Error{Code: se.Code, Message: "the used-token record could not be written, so the token may not be revoked and may still resume: revoke it again (TOKEN_USED then means it is revoked)", Err: se.Err}
	}
	return err
}
