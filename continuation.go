package modebox

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/modebox/modebox/internal/runner"
	"github.com/modebox/modebox/internal/seal"
)

// Continuations lets runs pause: a call that needs approval with no
// approver to ask parks, and when nothing else can go on the run returns
// status "paused" with a sealed token that Engine.Resume continues.
type Continuations struct {
	// Keys seal and open tokens (XChaCha20-Poly1305). Each is 32 bytes;
	// the first seals, all open (rotation). See LoadKeys.
	Keys [][]byte
	// Store records used token ids so that each token resumes once.
	// nil means an in-memory store: single use within this process only.
	// DirTokenStore holds across processes.
	Store TokenStore
	// TTL is how long a token stays valid (default 24h, at most 7 days).
	TTL time.Duration
}

// TokenStore records which tokens were used. Claim must succeed for
// exactly one of any number of concurrent claims of an id, and fail for
// every later one with TokenUsedError(id), so that Resume's error is a
// *TokenError with Code CodeTokenUsed. Any other error refuses the resume
// with CodeTokenStoreUnavailable. A store shared by several processes may
// also have the method ClaimKeyed(id, keyID string, expires time.Time)
// error, which Resume then calls instead, with the id of the key that
// sealed the token (package pgstore's store does, for modebox doctor).
type TokenStore = runner.TokenStore

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
	return &seal.Error{Code: CodeTokenUsed, Message: "token " + id + " was already used (or revoked); each token resumes a run once"}
}

func tokenError(err error) error {
	var se *seal.Error
	if errors.As(err, &se) {
		return &TokenError{Code: se.Code, Message: se.Message, Err: err}
	}
	return &TokenError{Code: CodeTokenMalformed, Message: err.Error(), Err: err}
}

// KeySource says where LoadKeys finds continuation keys. LoadKeys reads
// no environment variable and no default path by itself: the CLI passes
// $MODEBOX_SECRET as Secret, or DefaultKeyFile as File with Create.
type KeySource struct {
	// Secret, when not empty, holds the keys: one or more base64 keys of
	// 32 bytes separated by commas, the first sealing, all opening
	// (rotation). File is then not read.
	Secret string
	// File is a key file: one key per line, the first sealing; blank
	// lines and lines starting with "#" are ignored. It must be a regular
	// file only its owner can read or write (mode 0600), owned by the
	// current user.
	File string
	// Create makes File with one fresh random key (mode 0600, in a
	// directory made with mode 0700) when it does not exist.
	Create bool
}

// LoadKeys returns the continuation keys of src. A key file readable by
// others, or a malformed key, is refused.
func LoadKeys(src KeySource) ([][]byte, error) {
	var kr *seal.Keyring
	var err error
	switch {
	case strings.TrimSpace(src.Secret) != "":
		parts := strings.Split(src.Secret, ",")
		for i, p := range parts {
			parts[i] = strings.Trim(p, " \t")
		}
		kr, err = seal.ParseKeys("the secret", parts)
	case src.File != "":
		kr, err = seal.LoadKeyringFile(src.File, src.Create)
	default:
		return nil, &ConfigError{Field: "KeySource", Reason: "neither a secret nor a key file was given"}
	}
	if err != nil {
		return nil, err
	}
	keys := [][]byte{kr.Active.Secret}
	for _, k := range kr.Previous {
		keys = append(keys, k.Secret)
	}
	return keys, nil
}

// DefaultKeyFile is the key file the CLI uses when $MODEBOX_SECRET is not
// set: modebox/secret under os.UserConfigDir (~/.config/modebox/secret on
// Linux).
func DefaultKeyFile() (string, error) { return seal.DefaultKeyPath() }

// DirTokenStore records used tokens as files in dir, created exclusively,
// so single use holds across processes.
func DirTokenStore(dir string) TokenStore { return &seal.DirStore{Dir: dir} }

// DefaultTokenDir is the used-token directory the CLI uses when no token
// store is configured: modebox/used-tokens under the user's state
// directory ($XDG_STATE_HOME, or ~/.local/state). Pass it to
// DirTokenStore.
func DefaultTokenDir() (string, error) {
	st, err := seal.DefaultStore()
	if err != nil {
		return "", err
	}
	return st.Dir, nil
}

// newSealer makes the engine's sealer from c (nil: the engine cannot
// pause).
func newSealer(c *Continuations) (*runner.Sealer, error) {
	if c == nil {
		return nil, nil
	}
	return runner.NewSealer(c.Keys, c.Store, c.TTL)
}

// Decisions answer a paused run's pending calls on resume: ByID decides
// pending calls by their id, Default the ones ByID leaves out (zero:
// Deny), and Approver answers calls that need approval later in the
// resumed run (without one they pause it again).
type Decisions = runner.Decisions

// Resume continues a paused run. The token is opened (authenticated,
// bound to this engine image and configuration, unexpired) and claimed,
// so it resumes once; then the run is replayed from its journal (no tool
// runs a second time), the pending calls are decided, and it goes on
// live. A replay that diverges from the record stops with REPLAY_MISMATCH
// before any tool runs. The error is a *TokenError for a token that does
// not open, and a *ConfigError on an engine without continuations. A
// Resume refused before the token is claimed (ENGINE_BUSY, IMAGE_CLOSED,
// or ctx done already: CANCELLED or TIMEOUT) leaves the token usable. As
// with Run, ctx's observer is not called once Resume has returned.
func (e *Engine) Resume(ctx context.Context, token string, d Decisions) (*Result, error) {
	ctx, endObserve := gateObserver(ctx)
	defer endObserve()
	out, err := e.runner.Resume(ctx, token, d, engineObserver(ctx))
	if err != nil {
		var se *seal.Error
		if errors.As(err, &se) {
			return nil, tokenError(err)
		}
		return nil, err
	}
	return result(out), nil
}

// Revoke spends token without resuming it: the token is opened
// (authenticated with the engine's keys, unexpired) and claimed in the
// engine's token store, so every later Resume of it fails with
// TOKEN_USED and none of its pending calls runs. Its binding is not
// compared: a token issued under another tool set or configuration with
// these keys is revoked too. A token that does not open, was used or
// revoked already, or a store that cannot record it, gives a *TokenError;
// an engine without continuations a *ConfigError. Nothing runs. Rotating
// the key instead revokes every token the old key sealed.
func (e *Engine) Revoke(token string) error {
	if e.runner.Sealer == nil {
		return &ConfigError{Field: "EngineConfig.Continuations", Reason: "this engine has no continuations, so it has no tokens to revoke"}
	}
	if err := e.runner.Sealer.Revoke(token); err != nil {
		return tokenError(err)
	}
	return nil
}

// WithContinuations returns a copy of the engine that can pause and
// resume with c (same tools, limits and image).
func (e *Engine) WithContinuations(c *Continuations) (*Engine, error) {
	sealer, err := newSealer(c)
	if err != nil {
		return nil, err
	}
	r := *e.runner
	r.Sealer = sealer
	cp := *e
	cp.runner = &r
	return &cp, nil
}
