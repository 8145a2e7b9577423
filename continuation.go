package modebox

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/modebox/modebox/internal/seal"
	"github.com/modebox/modebox/internal/tsx"
)

// Continuations lets runs pause: a call that needs approval with no
// approver to ask parks, and when nothing else can go on the run returns
// status "paused" with a sealed token that Engine.Resume continues.
type Continuations struct {
	// Keys seal and open tokens (XChaCha20-Poly1305). Each is 32 bytes;
	// the first seals, all open (rotation). LoadKeys reads them from
	// $MODEBOX_SECRET or ~/.config/modebox/secret.
	Keys [][]byte
	// Store records used token ids so that each token resumes once.
	// nil means an in-memory store: single use within this process only.
	// DirTokenStore holds across processes.
	Store TokenStore
	// TTL is how long a token stays valid (default 24h, at most 7 days).
	TTL time.Duration
}

// TokenStore records which tokens were used. Claim must succeed for
// exactly one of any number of concurrent claims of an id, and fail with
// an error for which IsTokenError(err, CodeTokenUsed) holds afterwards
// (return TokenUsedError(id)). Any other error refuses the resume with
// CodeTokenStoreUnavailable. A store shared by several processes may also
// have the method ClaimKeyed(id, keyID string, expires time.Time) error,
// which Resume then calls instead, with the id of the key that sealed the
// token (package pgstore's store does, for modebox doctor).
type TokenStore interface {
	Claim(id string, expires time.Time) error
}

// TokenError is why a token did not resume; Code is one of the CodeToken
// constants.
type TokenError struct {
	Code    Code
	Message string
	Err     error
}

// Error renders "CODE: message".
func (e *TokenError) Error() string { return string(e.Code) + ": " + e.Message }

// Unwrap returns the underlying error.
func (e *TokenError) Unwrap() error { return e.Err }

// TokenUsedError is the error a TokenStore returns for a second claim.
func TokenUsedError(id string) error {
	return &seal.Error{Code: CodeTokenUsed, Message: "token " + id + " was already used; each token resumes a run once"}
}

func tokenError(err error) error {
	var se *seal.Error
	if errors.As(err, &se) {
		return &TokenError{Code: se.Code, Message: se.Message, Err: err}
	}
	return &TokenError{Code: CodeTokenMalformed, Message: err.Error(), Err: err}
}

// LoadKeys returns the continuation keys from $MODEBOX_SECRET, or from
// ~/.config/modebox/secret, which is created (mode 0600) on first use. A
// key file readable by others, or a malformed key, is refused.
func LoadKeys() ([][]byte, error) {
	kr, err := seal.LoadKeyring()
	if err != nil {
		return nil, err
	}
	keys := [][]byte{kr.Active.Secret}
	for _, k := range kr.Previous {
		keys = append(keys, k.Secret)
	}
	return keys, nil
}

// DirTokenStore records used tokens as files in dir, created exclusively,
// so single use holds across processes.
func DirTokenStore(dir string) TokenStore { return &seal.DirStore{Dir: dir} }

// DefaultTokenStore is the directory store under the user's state
// directory ($XDG_STATE_HOME or ~/.local/state)/modebox/used-tokens.
func DefaultTokenStore() (TokenStore, error) { return seal.DefaultStore() }

// continuations is an engine's ready-to-use Continuations.
type continuations struct {
	keys  *seal.Keyring
	store TokenStore
	ttl   time.Duration
}

func newContinuations(c *Continuations) (*continuations, error) {
	if c == nil {
		return nil, nil
	}
	if len(c.Keys) == 0 {
		return nil, &ConfigError{Field: "Continuations.Keys", Reason: "at least one key is needed (see LoadKeys)"}
	}
	var kr seal.Keyring
	for i, k := range c.Keys {
		key, err := seal.NewKey(k)
		if err != nil {
			return nil, &ConfigError{Field: fmt.Sprintf("Continuations.Keys[%d]", i), Reason: "invalid key", Err: err}
		}
		if i == 0 {
			kr.Active = key
		} else {
			kr.Previous = append(kr.Previous, key)
		}
	}
	ttl := c.TTL
	if ttl == 0 {
		ttl = seal.DefaultLifetime
	}
	if ttl < 0 || ttl > seal.MaxLifetime {
		return nil, &ConfigError{Field: "Continuations.TTL", Reason: fmt.Sprintf("must be between 0 and %s", seal.MaxLifetime)}
	}
	store := c.Store
	if store == nil {
		store = &seal.MemoryStore{}
	}
	return &continuations{keys: &kr, store: store, ttl: ttl}, nil
}

// canPause reports whether the engine can seal continuation tokens.
func (e *Engine) canPause() bool { return e.cont != nil }

// tokenBody is the encrypted part of a token.
type tokenBody struct {
	Code     string            `json:"code"`
	Lang     string            `json:"lang"`
	Filename string            `json:"filename"`
	Limits   Limits            `json:"limits"`
	Policies map[string]Policy `json:"policies,omitempty"`
	Journal  *Journal          `json:"journal"`
	Pending  []PendingCall     `json:"pending"`
	Approved []string          `json:"approved,omitempty"`
}

// binding ties tokens to this engine image and tool set.
func (e *Engine) binding() seal.Binding {
	return seal.Binding{Engine: ImageHash(), Tools: e.box.hash}
}

// sealPause seals a paused run into res.Token.
func (e *Engine) sealPause(res *Result, code string, lang tsx.Lang, filename string, lim Limits, opts RunOptions, h *runHost) error {
	if e.cont == nil {
		return nil
	}
	approved := h.approvedTools()
	slices.Sort(approved)
	body, err := marshalExact(tokenBody{
		Code: code, Lang: lang.String(), Filename: filename, Limits: lim, Policies: opts.Policies,
		Journal: res.Journal, Pending: res.Pending, Approved: approved,
	})
	if err != nil {
		return err
	}
	now := time.Now()
	tok, err := e.cont.keys.Seal(seal.Payload{IssuedAt: now, ExpiresAt: now.Add(e.cont.ttl), Binding: e.binding(), Body: body})
	if err != nil {
		return tokenError(err)
	}
	res.Token = tok
	return nil
}

// marshalExact encodes v as JSON keeping every json.RawMessage byte for
// byte. json.Marshal would rewrite <, >, & and U+2028/U+2029 inside raw
// messages as \u escapes, and a pending call's arguments are compared byte
// for byte (by digest) with the replay's on resume: "a && b" would never
// resume.
func marshalExact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// Decisions answer a paused run's pending calls on resume.
type Decisions struct {
	// ByID decides pending calls by their id.
	ByID map[int]Decision
	// Default decides the pending calls ByID leaves out (zero: Deny).
	Default Decision
	// Approver answers calls that need approval later in the resumed run;
	// without one they pause it again.
	Approver Approver
}

// Resume continues a paused run. The token is opened (authenticated,
// bound to this engine image and tool set, unexpired) and claimed, so it
// resumes once; then the run is replayed from its journal (no tool runs a
// second time), the pending calls are decided, and it goes on live. A
// replay that diverges from the record stops with REPLAY_MISMATCH before
// any tool runs. The error is a *TokenError for a token that does not
// open.
func (e *Engine) Resume(ctx context.Context, token string, d Decisions) (*Result, error) {
	if e.cont == nil {
		return nil, &ConfigError{Field: "EngineConfig.Continuations", Reason: "this engine has no continuations, so it cannot resume"}
	}
	// take a run slot before the token is claimed, so a busy engine
	// leaves the token usable
	release, busy := e.gate.acquire(ctx)
	if busy != nil {
		return &Result{Status: StatusError, Error: busy}, nil
	}
	defer release()
	p, err := e.cont.keys.OpenOnce(token, e.binding(), time.Now(), e.cont.store)
	if err != nil {
		return nil, tokenError(err)
	}
	var body tokenBody
	if err := json.Unmarshal(p.Body, &body); err != nil || body.Journal == nil {
		return nil, &TokenError{Code: CodeTokenMalformed, Message: "the token's contents are not a paused run"}
	}
	h := &runHost{approver: d.Approver, decisions: map[int]Decision{}, expect: map[int]PendingCall{}, slotHeld: true}
	for _, pc := range body.Pending {
		dec, ok := d.ByID[pc.ID]
		if !ok {
			dec = d.Default
		}
		h.decisions[pc.ID] = dec
		h.expect[pc.ID] = pc
	}
	for _, t := range body.Approved {
		h.approveTool(t)
	}
	return e.run(ctx, body.Code, RunOptions{
		Lang: body.Lang, Filename: body.Filename, Limits: e.limits.clamp(body.Limits), Policies: body.Policies,
		Journal: body.Journal, Approver: d.Approver,
	}, h)
}

// toolsetHash digests what a token's replay depends on: every tool's key,
// names, schemas, policy and flow marks.
func toolsetHash(entries []*entry) string {
	h := sha256.New()
	for _, e := range entries {
		b, _ := json.Marshal([]any{e.key, e.Namespace, e.Name, e.InputSchema, e.OutputSchema, e.Policy, e.Source, e.Sink})
		h.Write(b)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// WithContinuations returns a copy of the engine that can pause and
// resume with c (same tools, limits and image).
func (e *Engine) WithContinuations(c *Continuations) (*Engine, error) {
	cont, err := newContinuations(c)
	if err != nil {
		return nil, err
	}
	cp := *e
	cp.cont = cont
	return &cp, nil
}
