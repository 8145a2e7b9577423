package mcpserver

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modebox/modebox"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	// resumeKeep is how long the first result of a resume answers
	// retries of the same resume.
	resumeKeep = 10 * time.Minute
	// askKeep is how long the pending calls of an input_required result
	// are kept, to ask again when a retry's answers are missing.
	askKeep = time.Hour
	// maxEntries bounds each store; the oldest entries go first.
	maxEntries = 4096
)

// resumeCache runs each token's resume once and answers retries with the
// first result for resumeKeep. Tokens are keyed by digest: the cache holds
// no credential.
type resumeCache struct {
	keep   time.Duration
	shared *shared // nil: this process only
	mu     sync.Mutex
	m      map[[32]byte]*resumeEntry
}

type resumeEntry struct {
	done chan struct{}
	res  *modebox.Result
	err  error
	at   time.Time // when done
}

func newResumeCache(keep time.Duration) *resumeCache {
	return &resumeCache{keep: keep, m: map[[32]byte]*resumeEntry{}}
}

// do returns the result of the token's resume: fn's result on the first
// call, the same result for later calls within keep. The resume runs
// without ctx's cancellation (it is bounded by the run's limits), so that
// a retry after a dropped connection gets the whole result. A token that
// does not open is not kept.
func (c *resumeCache) do(ctx context.Context, token string, fn func(context.Context) (*modebox.Result, error)) (*modebox.Result, error) {
	k := sha256.Sum256([]byte(token))
	c.mu.Lock()
	c.prune(time.Now())
	if e := c.m[k]; e != nil {
		c.mu.Unlock()
		return e.wait(ctx)
	}
	e := &resumeEntry{done: make(chan struct{})}
	c.m[k] = e
	c.mu.Unlock()

	var res *modebox.Result
	var err error
	if c.shared != nil {
		res, err = c.shared.do(ctx, k, fn)
	} else {
		res, err = fn(context.WithoutCancel(ctx))
	}

	c.mu.Lock()
	e.res, e.err, e.at = res, err, time.Now()
	var te *modebox.TokenError
	if errors.As(err, &te) && te.Code != modebox.CodeTokenUsed ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		delete(c.m, k) // nothing ran: a retry tries again
	}
	close(e.done)
	c.mu.Unlock()
	return res, err
}

// wait returns the result of a resume of token already started here.
func (c *resumeCache) wait(ctx context.Context, token string) (*modebox.Result, error, bool) {
	k := sha256.Sum256([]byte(token))
	c.mu.Lock()
	c.prune(time.Now())
	e := c.m[k]
	c.mu.Unlock()
	if e == nil {
		return nil, nil, false
	}
	res, err := e.wait(ctx)
	return res, err, true
}

func (e *resumeEntry) wait(ctx context.Context) (*modebox.Result, error) {
	select {
	case <-e.done:
		return e.res, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// prune drops finished entries older than keep, and the oldest finished
// ones past maxEntries. c.mu is held.
func (c *resumeCache) prune(now time.Time) {
	var oldest [32]byte
	var oldestAt time.Time
	for k, e := range c.m {
		select {
		case <-e.done:
		default:
			continue
		}
		if now.Sub(e.at) > c.keep {
			delete(c.m, k)
			continue
		}
		if oldestAt.IsZero() || e.at.Before(oldestAt) {
			oldest, oldestAt = k, e.at
		}
	}
	if len(c.m) >= maxEntries && !oldestAt.IsZero() {
		delete(c.m, oldest)
	}
}

// ask is what an input_required result asked for: the pending calls, and
// a digest of the run call's arguments that the retry must match.
type ask struct {
	calls []modebox.PendingCall
	args  [32]byte
	at    time.Time
	// page is the pause's approval page, with the base URL of its link,
	// when the client was sent one; forms is whether it takes forms too.
	page  *approvalPage
	base  string
	forms bool
}

// askStore keeps asks by token digest.
type askStore struct {
	keep   time.Duration
	shared *shared // nil: this process only
	mu     sync.Mutex
	m      map[[32]byte]*ask
}

func newAskStore(keep time.Duration) *askStore {
	return &askStore{keep: keep, m: map[[32]byte]*ask{}}
}

func (s *askStore) put(token string, a *ask) {
	k := sha256.Sum256([]byte(token))
	s.putLocal(k, a)
	if s.shared != nil {
		s.shared.putAsk(k, a, s.keep)
	}
}

func (s *askStore) putLocal(k [32]byte, a *ask) {
	now := time.Now()
	a.at = now
	s.mu.Lock()
	defer s.mu.Unlock()
	var oldest [32]byte
	var oldestAt time.Time
	for k, e := range s.m {
		if now.Sub(e.at) > s.keep {
			delete(s.m, k)
			continue
		}
		if oldestAt.IsZero() || e.at.Before(oldestAt) {
			oldest, oldestAt = k, e.at
		}
	}
	if len(s.m) >= maxEntries {
		delete(s.m, oldest)
	}
	s.m[k] = a
}

func (s *askStore) get(ctx context.Context, token string) *ask {
	k := sha256.Sum256([]byte(token))
	s.mu.Lock()
	a := s.m[k]
	s.mu.Unlock()
	if a != nil && time.Since(a.at) <= s.keep {
		return a
	}
	if s.shared != nil {
		return s.shared.getAsk(ctx, k)
	}
	return nil
}

// issuedState returns what this server asked for with requestState
// state. A requestState is accepted only on the protocol generation
// that has input requests (2026-07-28 and later), and only when this
// server (or, with a shared store, a replica of it) issued it with an
// input_required result: a continuation token
// from anywhere else (a paused run's result the model saw, the CLI) does
// not turn into answers here. The entry is kept after the resume, so a
// retried resume gets the first resume's result.
func (s *Server) issuedState(ctx context.Context, req *mcp.CallToolRequest, state string) (*ask, error) {
	v := req.ProtocolVersion()
	if e := req.GetExtra(); e != nil && e.Header != nil && e.Header.Get("Mcp-Protocol-Version") < v {
		v = e.Header.Get("Mcp-Protocol-Version") // over HTTP the header names the generation too
	}
	if v < version20260728 {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("requestState is part of protocol %s and later; this request is protocol %s", version20260728, v)}
	}
	a := s.asks.get(ctx, state)
	if a == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: "requestState was not issued by this server in an input_required result (or it has expired)"}
	}
	return a, nil
}
