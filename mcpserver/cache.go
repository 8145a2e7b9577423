package mcpserver

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
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
	// maxEntries bounds each store (the asks, the first results of
	// resumes, the approval pages) by count; the oldest entries go
	// first.
	maxEntries = 4096
	// maxStoreBytes bounds each of those stores by the bytes its entries
	// hold (arguments, results, logs, tokens), so that paused runs with
	// large arguments cannot grow the process without bound: with
	// maxEntries alone, 4096 pauses of a few MB each are gigabytes. The
	// oldest entries go first; an entry larger than the whole bound
	// (possible only with limits.maxValue raised past it) is kept alone
	// (an ask, a page) or not kept (a result: a retry then gets
	// TOKEN_USED).
	maxStoreBytes = 64 << 20
	// entryOverhead is what an entry is counted for besides its
	// strings and byte slices (maps, structs, small fields).
	entryOverhead = 256
)

// victim is an entry a store may drop to make room: its key, its rank
// (lower goes first) and the bytes it holds.
type victim[K comparable] struct {
	key   K
	rank  uint64
	bytes int
}

// makeRoom returns the keys to drop, in order, so that one more entry of
// n bytes fits a store that holds count entries and total bytes: at most
// maxEntries entries and maxStoreBytes bytes after it is added. An entry
// larger than maxStoreBytes on its own makes room by dropping every
// candidate. cands are what may be dropped; it is called only when the
// entry does not fit as it is.
func makeRoom[K comparable](count, total, n int, cands []victim[K]) []K {
	slices.SortFunc(cands, func(a, b victim[K]) int { return cmp.Compare(a.rank, b.rank) })
	var drop []K
	for _, c := range cands {
		if count < maxEntries && total+n <= maxStoreBytes {
			break
		}
		drop = append(drop, c.key)
		count--
		total -= c.bytes
	}
	return drop
}

// fits reports whether one more entry of n bytes fits beside count
// entries of total bytes.
func fits(count, total, n int) bool { return count < maxEntries && total+n <= maxStoreBytes }

// callsSize is the bytes pending calls hold.
func callsSize(calls []modebox.PendingCall) int {
	n := 0
	for _, c := range calls {
		n += entryOverhead + len(c.Args) + len(c.Tool) + len(c.Reason)
	}
	return n
}

// resultSize is the bytes a result (without its journal) and an error
// hold.
func resultSize(res *modebox.Result, err error) int {
	n := entryOverhead
	if err != nil {
		n += len(err.Error())
	}
	if res == nil {
		return n
	}
	n += len(res.Value) + len(res.Token) + callsSize(res.Pending)
	for _, l := range res.Logs {
		n += modebox.LogLineOverhead + len(l.Level) + len(l.Message) // as Limits.MaxLog counts a line
	}
	if e := res.Error; e != nil {
		n += len(e.Code) + len(e.Message) + len(e.Name) + len(e.JSCode) + len(e.Stack) + len(e.Source)
	}
	if f := res.Files; f != nil {
		for _, p := range f.Committed {
			n += 16 + len(p)
		}
		for _, c := range f.Conflicts {
			n += 32 + len(c.Path) + len(c.Reason)
		}
	}
	return n
}

// resumeCache runs each token's resume once and answers retries with the
// first result for resumeKeep. Tokens are keyed by digest: the cache holds
// no credential. Finished entries are bounded by maxEntries and
// maxStoreBytes.
type resumeCache struct {
	keep   time.Duration
	shared *shared // nil: this process only
	mu     sync.Mutex
	m      map[[32]byte]*resumeEntry
	bytes  int    // held by the finished entries
	seq    uint64 // orders finished entries
}

type resumeEntry struct {
	done  chan struct{}
	res   *modebox.Result // without its journal
	err   error
	at    time.Time // when done
	seq   uint64    // when done, in order
	bytes int       // counted in resumeCache.bytes once done
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

	kept := res
	if res != nil && res.Journal != nil {
		cp := *res
		cp.Journal = nil // the retry renders the result; the journal is the run's record only
		kept = &cp
	}
	size := resultSize(kept, err)
	c.mu.Lock()
	now := time.Now()
	c.prune(now)
	c.seq++
	e.res, e.err, e.at, e.seq = kept, err, now, c.seq
	var te *modebox.TokenError
	switch {
	case errors.As(err, &te) && te.Code != modebox.CodeTokenUsed ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		refusedResult(res, err):
		delete(c.m, k) // nothing ran: a retry tries again
	case c.shared != nil && errors.As(err, &te):
		// TOKEN_USED with a shared store: another replica claimed the
		// token, and its result replaces this one in the store; a
		// retry here reads the store.
		delete(c.m, k)
	case size > maxStoreBytes:
		delete(c.m, k) // too large to keep: a retry gets TOKEN_USED
	default:
		c.makeRoom(k, size)
		e.bytes = size
		c.bytes += size
	}
	close(e.done)
	c.mu.Unlock()
	return res, err
}

// refusedResult reports whether a resume's outcome is a refusal before
// the token was claimed: the engine had no run slot (ENGINE_BUSY) or its
// image was closed (IMAGE_CLOSED). Nothing ran and the token is still
// usable, so the outcome is not kept: a retry runs the resume. (Engine
// reports these as a result with status error and no value, logs,
// pending calls or token; a run that went on to fail with one of these
// codes would, if taken for a refusal, only make a retry get TOKEN_USED
// from the token's claim.)
func refusedResult(res *modebox.Result, err error) bool {
	if err != nil || res == nil || res.Status != modebox.StatusError || res.Error == nil {
		return false
	}
	switch res.Error.Code {
	case modebox.CodeEngineBusy, modebox.CodeImageClosed:
	default:
		return false
	}
	return len(res.Value) == 0 && len(res.Logs) == 0 && len(res.Pending) == 0 && res.Token == "" && res.Files == nil
}

// makeRoom drops the oldest finished entries until the entry of k (not
// done yet) fits with its n bytes. c.mu is held.
func (c *resumeCache) makeRoom(k [32]byte, n int) {
	count := 0
	for _, e := range c.m {
		if e.isDone() {
			count++
		}
	}
	if fits(count, c.bytes, n) {
		return
	}
	var cands []victim[[32]byte]
	for key, e := range c.m {
		if key != k && e.isDone() {
			cands = append(cands, victim[[32]byte]{key, e.seq, e.bytes})
		}
	}
	for _, key := range makeRoom(count, c.bytes, n, cands) {
		c.drop(key)
	}
}

// drop removes the entry of k. c.mu is held.
func (c *resumeCache) drop(k [32]byte) {
	if e := c.m[k]; e != nil {
		c.bytes -= e.bytes
		delete(c.m, k)
	}
}

func (e *resumeEntry) isDone() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
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

// prune drops finished entries older than keep. c.mu is held.
func (c *resumeCache) prune(now time.Time) {
	for k, e := range c.m {
		if e.isDone() && now.Sub(e.at) > c.keep {
			c.drop(k)
		}
	}
}

// ask is what an input_required result asked for: the pending calls, and
// a digest of the run call's arguments that the retry must match.
type ask struct {
	calls []modebox.PendingCall
	args  [32]byte
	at    time.Time
	seq   uint64 // when put, in order
	bytes int    // counted in askStore.bytes
	// page is the pause's approval page, with the base URL of its link,
	// when the client was sent one; forms is whether it takes forms too.
	page  *approvalPage
	base  string
	forms bool
}

// askStore keeps asks by token digest, at most maxEntries of them holding
// at most maxStoreBytes (their pending calls' arguments), the oldest going
// first.
type askStore struct {
	keep   time.Duration
	shared *shared // nil: this process only
	mu     sync.Mutex
	m      map[[32]byte]*ask
	bytes  int    // held by the asks in m
	seq    uint64 // orders the asks
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
	a.bytes = entryOverhead + callsSize(a.calls)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drop(k)
	for key, e := range s.m {
		if now.Sub(e.at) > s.keep {
			s.drop(key)
		}
	}
	if !fits(len(s.m), s.bytes, a.bytes) {
		cands := make([]victim[[32]byte], 0, len(s.m))
		for key, e := range s.m {
			cands = append(cands, victim[[32]byte]{key, e.seq, e.bytes})
		}
		for _, key := range makeRoom(len(s.m), s.bytes, a.bytes, cands) {
			s.drop(key)
		}
	}
	s.seq++
	a.seq = s.seq
	s.m[k] = a
	s.bytes += a.bytes
}

// drop removes the ask of k. s.mu is held.
func (s *askStore) drop(k [32]byte) {
	if a := s.m[k]; a != nil {
		s.bytes -= a.bytes
		delete(s.m, k)
	}
}

func (s *askStore) get(ctx context.Context, token string) *ask {
	a, _ := s.lookup(ctx, token)
	return a
}

// lookup is get that also returns the shared store's failure (a
// *modebox.TokenError with CodeTokenStoreUnavailable, or ctx's error).
func (s *askStore) lookup(ctx context.Context, token string) (*ask, error) {
	k := sha256.Sum256([]byte(token))
	s.mu.Lock()
	a := s.m[k]
	s.mu.Unlock()
	if a != nil && time.Since(a.at) <= s.keep {
		return a, nil
	}
	if s.shared != nil {
		return s.shared.getAsk(ctx, k)
	}
	return nil, nil
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
	a, err := s.asks.lookup(ctx, state)
	var te *modebox.TokenError
	if errors.As(err, &te) {
		// The shared store is down: the requestState may well have
		// been issued by another replica; the client should try again.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: string(te.Code) + ": " + te.Message + "; try again"}
	}
	if err != nil {
		return nil, err
	}
	if a == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: "requestState was not issued by this server in an input_required result (or it has expired)"}
	}
	return a, nil
}
