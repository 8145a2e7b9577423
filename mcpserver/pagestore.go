package mcpserver

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"sync"
	"time"

	"github.com/modebox/modebox"
)

// Approval pages: one per pending approval (or per pause with several
// calls). A page's id is 16 random bytes and a 16-byte MAC of them under
// the server's key, so a link of another server (or an altered one) is
// told apart from one of this server that expired and was forgotten.
const (
	pageIDRandom = 16
	pageIDMAC    = 16
	// pageForget is how long a decided or expired page is remembered, to
	// say so when its link is opened again.
	pageForget = time.Hour
)

// pageState is where an approval page stands.
type pageState int

const (
	pagePending pageState = iota
	pageDecided
	pageClosed // the run stopped waiting: declined in the client, answered there, or gone
)

// pageCall is one call shown on an approval page. Once marks a question
// that cannot be approved for the rest of the run
// (modebox.ApprovalRequest.Once): its page offers approve once and deny.
type pageCall struct {
	ID     int
	Tool   string
	Reason string
	Args   json.RawMessage
	Once   bool
}

// approvalPage is one pending approval's page.
type approvalPage struct {
	id    string
	calls []pageCall
	// once: no approve for the rest of the run, because a call is Once or
	// the page holds more than one call (one click would approve every
	// tool on the page for the rest of the run, later calls unseen)
	once    bool
	csrf    string
	created time.Time
	expires time.Time
	done    chan struct{} // closed when decided or closed
	seq     uint64        // when created, in order
	bytes   int           // counted in pageStore.bytes

	// guarded by pageStore.mu
	state     pageState
	decision  modebox.Decision
	decidedAt time.Time
	note      string // why it closed
}

// pageStore keeps the approval pages of one server: at most maxEntries
// pages holding at most maxStoreBytes (their calls' arguments). Decided
// and closed pages go first, oldest first; a pending page that has to go
// is closed, so that nothing waits on it.
type pageStore struct {
	key []byte
	now func() time.Time

	mu    sync.Mutex
	m     map[string]*approvalPage
	bytes int    // held by the pages in m
	seq   uint64 // orders the pages
}

func newPageStore() *pageStore {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return &pageStore{key: key, now: time.Now, m: map[string]*approvalPage{}}
}

func (s *pageStore) mac(random []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte("modebox approval page\x00"))
	m.Write(random)
	return m.Sum(nil)[:pageIDMAC]
}

func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// create makes a page for calls that expires at expires.
func (s *pageStore) create(calls []pageCall, expires time.Time) *approvalPage {
	random := make([]byte, pageIDRandom)
	_, _ = rand.Read(random)
	id := base64.RawURLEncoding.EncodeToString(append(random, s.mac(random)...))
	now := s.now()
	p := &approvalPage{id: id, calls: calls, csrf: randomToken(), created: now, expires: expires, done: make(chan struct{})}
	p.bytes = entryOverhead
	p.once = len(calls) > 1
	for _, c := range calls {
		p.once = p.once || c.Once
		p.bytes += entryOverhead + len(c.Args) + len(c.Tool) + len(c.Reason)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prune(now)
	s.makeRoom(now, p.bytes)
	s.seq++
	p.seq = s.seq
	s.m[id] = p
	s.bytes += p.bytes
	return p
}

// prune forgets finished pages past pageForget. s.mu is held.
func (s *pageStore) prune(now time.Time) {
	for id, p := range s.m {
		end := p.expires
		if p.state != pagePending && p.decidedAt.Before(end) {
			end = p.decidedAt
		}
		if now.Sub(end) > pageForget {
			s.drop(id)
		}
	}
}

// makeRoom drops pages until one of n bytes fits: finished and expired
// pages first, then pending ones (closed: nothing waits on a page that is
// gone), the oldest first. s.mu is held.
func (s *pageStore) makeRoom(now time.Time, n int) {
	if fits(len(s.m), s.bytes, n) {
		return
	}
	cands := make([]victim[string], 0, len(s.m))
	for id, p := range s.m {
		rank := p.seq
		if p.state == pagePending && now.Before(p.expires) {
			rank += 1 << 62 // after every finished page
		}
		cands = append(cands, victim[string]{id, rank, p.bytes})
	}
	for _, id := range makeRoom(len(s.m), s.bytes, n, cands) {
		s.closeLocked(s.m[id], "too many approvals were waiting: this one was dropped to keep the server's memory bounded")
		s.drop(id)
	}
}

// drop forgets the page of id. s.mu is held.
func (s *pageStore) drop(id string) {
	if p := s.m[id]; p != nil {
		s.bytes -= p.bytes
		delete(s.m, id)
	}
}

// linkStatus is what a link refers to.
type linkStatus int

const (
	linkOpen    linkStatus = iota // pending, not expired
	linkUsed                      // decided already
	linkClosed                    // the run stopped waiting
	linkExpired                   // the wait ended, or forgotten since
	linkForeign                   // not a link of this server
)

// lookup returns the page of id and its status.
func (s *pageStore) lookup(id string) (*approvalPage, linkStatus) {
	raw, err := base64.RawURLEncoding.DecodeString(id)
	if err != nil || len(raw) != pageIDRandom+pageIDMAC || !hmac.Equal(raw[pageIDRandom:], s.mac(raw[:pageIDRandom])) {
		return nil, linkForeign
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.m[id]
	switch {
	case p == nil:
		return nil, linkExpired
	case p.state == pageDecided:
		return p, linkUsed
	case p.state == pageClosed:
		return p, linkClosed
	case !s.now().Before(p.expires):
		return p, linkExpired
	}
	return p, linkOpen
}

// decide records a person's decision on a pending page; false when the
// page was not open (used, closed or expired) or the CSRF token is wrong.
func (s *pageStore) decide(p *approvalPage, csrf string, d modebox.Decision) (linkStatus, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case p.state == pageDecided:
		return linkUsed, false
	case p.state == pageClosed:
		return linkClosed, false
	case !s.now().Before(p.expires):
		return linkExpired, false
	case subtle.ConstantTimeCompare([]byte(csrf), []byte(p.csrf)) != 1:
		return linkOpen, false
	}
	p.state, p.decision, p.decidedAt = pageDecided, d, s.now()
	close(p.done)
	return linkUsed, true
}

// close ends a pending page without a decision from it.
func (s *pageStore) close(p *approvalPage, note string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeLocked(p, note)
}

// closeLocked is close with s.mu held.
func (s *pageStore) closeLocked(p *approvalPage, note string) {
	if p.state != pagePending {
		return
	}
	p.state, p.note, p.decidedAt = pageClosed, note, s.now()
	close(p.done)
}

// result returns the page's decision once decided.
func (s *pageStore) result(p *approvalPage) (modebox.Decision, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return p.decision, p.state == pageDecided
}

// pending lists the open pages, newest first.
func (s *pageStore) pending() []*approvalPage {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	var out []*approvalPage
	for _, p := range s.m {
		if p.state == pagePending && now.Before(p.expires) {
			out = append(out, p)
		}
	}
	return out
}
