package mcpserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/seal"
)

// SharedStore is where the replicas of one deployment keep the retry
// cache, so that a retried resume reaching any replica gets the first
// result (package pgstore's Store is one, in PostgreSQL). Keys are
// digests that reveal no token; values are sealed by the server before
// they are stored. An entry is either running (its owner, the process
// that took it, holds a lease it renews) or done (a value, kept until it
// expires).
type SharedStore interface {
	// Begin takes key for the calling process when no live entry holds
	// it (none, an expired one, or a running one whose lease lapsed):
	// mine is true, and the caller does the work, then Finish or Abandon.
	// Otherwise value is the done entry's value, or nil while another
	// process holds a live lease.
	Begin(ctx context.Context, key []byte, lease, keep time.Duration) (mine bool, value []byte, err error)
	// Renew extends the calling process's lease on a running entry.
	Renew(ctx context.Context, key []byte, lease time.Duration) error
	// Finish records the value of an entry the calling process holds.
	Finish(ctx context.Context, key, value []byte, keep time.Duration) error
	// Abandon removes a running entry the calling process holds.
	Abandon(ctx context.Context, key []byte) error
	// Put stores a done entry, replacing any.
	Put(ctx context.Context, key, value []byte, keep time.Duration) error
	// Get returns a done, unexpired entry's value, or nil.
	Get(ctx context.Context, key []byte) ([]byte, error)
	// Delete removes an entry.
	Delete(ctx context.Context, key []byte) error
}

// Shared puts the retry cache (Options.Shared) where every replica sees
// it: the first result of a resume, kept ten minutes, and the pending
// calls of an input_required result, kept an hour, so that a 2026-07-28
// client's retry may reach any replica.
type Shared struct {
	// Store holds the entries.
	Store SharedStore
	// Keys seal the entries: the continuation keys every replica holds
	// (Continuations.Keys), the first active, the rest still opening.
	Keys [][]byte
	// Lease is how long a replica running a resume holds its entry
	// without renewing it (default 15s; it renews every third of it). A
	// retry elsewhere waits while the lease lives; after it lapses (the
	// replica died) the retry resumes the token itself, which the token's
	// single-use claim refuses if the dead replica had claimed it.
	Lease time.Duration
	// MaxResult caps a stored entry in bytes, sealed and compressed
	// (default, and at most, 1 MiB). A larger result is still returned
	// to the caller but not stored: a retry on another replica gets an
	// error result with code RESULT_NOT_KEPT.
	MaxResult int
}

// CodeResultNotKept is the error code of a retried resume whose first
// result was too large to keep in the shared store (Shared.MaxResult).
const CodeResultNotKept = modebox.CodeResultNotKept

const (
	defaultLease = 15 * time.Second
	// sharedOpTimeout bounds the store operations done after a resume.
	sharedOpTimeout = 5 * time.Second
)

// shared is a Shared ready to use.
type shared struct {
	store SharedStore
	keys  *seal.Keyring
	lease time.Duration
	max   int
}

// newShared checks sh; it panics on keys that are not 32 bytes, a
// programming error like a nil handler.
func newShared(sh *Shared) *shared {
	if sh == nil || sh.Store == nil {
		return nil
	}
	if len(sh.Keys) == 0 {
		panic("mcpserver: Shared.Keys is empty: the shared retry cache needs the continuation keys")
	}
	kr := &seal.Keyring{}
	for i, b := range sh.Keys {
		k, err := seal.NewKey(b)
		if err != nil {
			panic(fmt.Sprintf("mcpserver: Shared.Keys[%d]: %v", i, err))
		}
		if i == 0 {
			kr.Active = k
		} else {
			kr.Previous = append(kr.Previous, k)
		}
	}
	s := &shared{store: sh.Store, keys: kr, lease: sh.Lease, max: sh.MaxResult}
	if s.lease <= 0 {
		s.lease = defaultLease
	}
	if s.max <= 0 || s.max > seal.MaxTokenSize {
		s.max = seal.MaxTokenSize
	}
	return s
}

// sharedKey is the store key of one entry: a digest of its kind and of
// the token's digest, so that the store holds nothing that resumes.
func sharedKey(kind string, k [32]byte) []byte {
	h := sha256.New()
	h.Write([]byte("modebox mcp retry cache\x00" + kind + "\x00"))
	h.Write(k[:])
	return h.Sum(nil)
}

// binding ties a sealed entry to its key, so that an entry copied under
// another key in the store does not open.
func entryBinding(key []byte) seal.Binding {
	return seal.Binding{Engine: "modebox mcp retry cache v1", Tools: hex.EncodeToString(key)}
}

// seal seals v for key, refusing a result over max bytes.
func (s *shared) seal(key []byte, v any, keep time.Duration, max int) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	now := time.Now()
	tok, err := s.keys.Seal(seal.Payload{IssuedAt: now, ExpiresAt: now.Add(keep + time.Second), Binding: entryBinding(key), Body: buf.Bytes()})
	if err != nil {
		return nil, err
	}
	if len(tok) > max {
		return nil, fmt.Errorf("sealed entry is %d bytes, more than the %d kept", len(tok), max)
	}
	return []byte(tok), nil
}

func (s *shared) open(key, blob []byte, v any) error {
	p, err := s.keys.Open(string(blob), entryBinding(key), time.Now())
	if err != nil {
		return err
	}
	return json.Unmarshal(p.Body, v)
}

// resumeEntry is a resume's first outcome as stored.
type storedResume struct {
	Result *modebox.Result `json:"result,omitempty"`
	// Undefined is set when Result.Value is nil (the program returned
	// undefined), which JSON would turn into null.
	Undefined bool         `json:"undefined,omitempty"`
	Error     *storedError `json:"error,omitempty"`
	NotKept   bool         `json:"notKept,omitempty"`
}

type storedError struct {
	Token   bool         `json:"token,omitempty"`
	Code    modebox.Code `json:"code,omitempty"`
	Message string       `json:"message"`
}

func encodeResume(res *modebox.Result, err error) *storedResume {
	if err == nil {
		return &storedResume{Result: res, Undefined: res != nil && res.Value == nil}
	}
	var te *modebox.TokenError
	if errors.As(err, &te) {
		return &storedResume{Error: &storedError{Token: true, Code: te.Code, Message: te.Message}}
	}
	return &storedResume{Error: &storedError{Message: err.Error()}}
}

func (e *storedResume) decode() (*modebox.Result, error) {
	switch {
	case e.NotKept:
		return &modebox.Result{Status: modebox.StatusError, Logs: []modebox.Log{}, Error: &modebox.Error{Code: CodeResultNotKept,
			Message: "this run was resumed once already, on another replica; its result was too large to keep for retries"}}, nil
	case e.Error != nil && e.Error.Token:
		return nil, &modebox.TokenError{Code: e.Error.Code, Message: e.Error.Message}
	case e.Error != nil:
		return nil, errors.New(e.Error.Message)
	case e.Result == nil:
		return nil, &modebox.TokenError{Code: modebox.CodeTokenUsed, Message: "token was already used; its first result is not readable"}
	}
	if e.Undefined {
		e.Result.Value = nil
	}
	return e.Result, nil
}

// storeDown is the error of a resume refused because the shared store
// failed: nothing ran.
func storeDown(err error) error {
	return &modebox.TokenError{Code: modebox.CodeTokenStoreUnavailable,
		Message: "the shared retry cache is unreachable, so the resume was refused: " + err.Error(), Err: err}
}

// do runs a resume once across the replicas: the first to take the
// entry runs fn and stores the outcome; the others wait while its lease
// lives, then get that outcome.
func (s *shared) do(ctx context.Context, k [32]byte, fn func(context.Context) (*modebox.Result, error)) (*modebox.Result, error) {
	key := sharedKey("resume", k)
	wait := 10 * time.Millisecond
	for {
		mine, val, err := s.store.Begin(ctx, key, s.lease, resumeKeep)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, storeDown(err)
		}
		if mine {
			return s.run(ctx, key, fn)
		}
		if val != nil {
			var e storedResume
			if err := s.open(key, val, &e); err != nil {
				return nil, &modebox.TokenError{Code: modebox.CodeTokenUsed,
					Message: "token was already used; its first result is kept but does not open here (" + err.Error() + ")", Err: err}
			}
			return e.decode()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, 250*time.Millisecond)
	}
}

// run runs fn holding the entry key, renewing its lease, and stores the
// outcome. A token that does not open leaves no entry.
func (s *shared) run(ctx context.Context, key []byte, fn func(context.Context) (*modebox.Result, error)) (*modebox.Result, error) {
	bg := context.WithoutCancel(ctx)
	stop := make(chan struct{})
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		t := time.NewTicker(s.lease / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				rctx, cancel := context.WithTimeout(bg, s.lease/3)
				_ = s.store.Renew(rctx, key, s.lease)
				cancel()
			}
		}
	}()
	res, err := fn(bg)
	close(stop)
	<-renewed
	octx, cancel := context.WithTimeout(bg, sharedOpTimeout)
	defer cancel()
	var te *modebox.TokenError
	if errors.As(err, &te) && te.Code != modebox.CodeTokenUsed || refusedResult(res, err) {
		// Nothing ran (the token did not open, or the engine refused
		// the resume before claiming it): a retry anywhere runs it.
		_ = s.store.Abandon(octx, key)
		return res, err
	}
	blob, serr := s.seal(key, encodeResume(res, err), resumeKeep, s.max)
	if serr != nil {
		// The marker is small; it is kept whatever the cap.
		blob, serr = s.seal(key, &storedResume{NotKept: true}, resumeKeep, seal.MaxTokenSize)
	}
	if serr == nil {
		// A failure here leaves the entry running until its lease
		// lapses; a retry elsewhere is then refused by the token's claim.
		if errors.As(err, &te) {
			// TOKEN_USED: another process claimed the token; its
			// result, if it stores one, wins over this placeholder.
			_ = s.store.Finish(octx, key, blob, resumeKeep)
		} else {
			// Only the claim's winner has an outcome other than
			// TOKEN_USED: it replaces whatever the entry holds, so
			// that if this process's lease lapsed (the store was
			// unreachable) and another took the entry over and stored
			// TOKEN_USED, retries still get the real result.
			_ = s.store.Put(octx, key, blob, resumeKeep)
		}
	}
	return res, err
}

// storedAsk is an ask as stored.
type storedAsk struct {
	Calls []modebox.PendingCall `json:"calls"`
	Args  string                `json:"args"`
}

func (s *shared) putAsk(k [32]byte, a *ask, keep time.Duration) {
	key := sharedKey("ask", k)
	blob, err := s.seal(key, storedAsk{Calls: a.calls, Args: hex.EncodeToString(a.args[:])}, keep, s.max)
	if err != nil {
		return // too large to share: the replica that paused still has it
	}
	ctx, cancel := context.WithTimeout(context.Background(), sharedOpTimeout)
	defer cancel()
	if err := s.store.Put(ctx, key, blob, keep); err != nil {
		// The replica that paused still has the ask; a retry reaching
		// another replica is told the requestState is not known there.
		slog.Warn("modebox mcp: the shared retry cache did not keep an input_required pause; retries of it reaching other replicas will be refused",
			"err", err)
	}
}

// getAsk returns the ask stored under k, nil when there is none (or it
// does not open), or storeDown's error when the store fails.
func (s *shared) getAsk(ctx context.Context, k [32]byte) (*ask, error) {
	key := sharedKey("ask", k)
	octx, cancel := context.WithTimeout(ctx, sharedOpTimeout)
	defer cancel()
	blob, err := s.store.Get(octx, key)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, storeDown(err)
	}
	if blob == nil {
		return nil, nil
	}
	var sa storedAsk
	if s.open(key, blob, &sa) != nil {
		return nil, nil
	}
	a := &ask{calls: sa.Calls, at: time.Now()}
	if b, err := hex.DecodeString(sa.Args); err != nil || len(b) != len(a.args) {
		return nil, nil
	} else {
		copy(a.args[:], b)
	}
	return a, nil
}
