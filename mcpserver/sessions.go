package mcpserver

import (
	"fmt"
	"net/http"
	"sync"
	"time"
)

const sessionIDHeader = "Mcp-Session-Id"

// sessionTable bounds the stateful handler's sessions: at most max open,
// each closed after idle without a request. A session is busy while a POST
// of it is in flight (a run may be waiting for approval); an open GET
// event stream does not make it busy, since every connected client keeps
// one. A new session past max closes the least recently used session that
// is not busy; when all are busy, it is refused with 503.
type sessionTable struct {
	h    http.Handler
	max  int
	idle time.Duration
	now  func() time.Time

	mu       sync.Mutex
	m        map[string]*sessionUse
	reserved int // initialize requests in flight
}

type sessionUse struct {
	last time.Time // last request started or ended
	busy int       // POSTs in flight
}

func newSessionTable(h http.Handler, max int, idle time.Duration) *sessionTable {
	return &sessionTable{h: h, max: max, idle: idle, now: time.Now, m: map[string]*sessionUse{}}
}

func (t *sessionTable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if id := r.Header.Get(sessionIDHeader); id != "" {
		t.serveSession(w, r, id)
		return
	}
	if r.Method != http.MethodPost {
		t.h.ServeHTTP(w, r) // the SDK refuses it: no session
		return
	}
	evict, ok := t.reserve()
	for _, id := range evict {
		go t.closeSession(id) // closing waits for the session's handlers
	}
	if !ok {
		w.Header().Set("Retry-After", "60")
		httpError(w, http.StatusServiceUnavailable, CodeSessionLimit,
			fmt.Sprintf("all %d MCP sessions are in use (each has a request in flight); retry later, close a session, or raise the limit (--max-sessions)", t.max))
		return
	}
	cw := &captureWriter{ResponseWriter: w, t: t}
	t.h.ServeHTTP(cw, r)
	cw.register()
}

// serveSession serves a request of an existing session.
func (t *sessionTable) serveSession(w http.ResponseWriter, r *http.Request, id string) {
	busy := r.Method == http.MethodPost
	t.mu.Lock()
	u := t.m[id]
	if u != nil {
		u.last = t.now()
		if busy {
			u.busy++
		}
	}
	t.mu.Unlock()
	if u != nil {
		defer func() {
			t.mu.Lock()
			u.last = t.now()
			if busy {
				u.busy--
			}
			if r.Method == http.MethodDelete {
				delete(t.m, id)
			}
			t.mu.Unlock()
		}()
	}
	t.h.ServeHTTP(w, r)
}

// reserve takes a slot for a new session. It returns the sessions to
// close: the idle-expired ones, and the least recently used one that is
// not busy when the table is full; ok is false when no slot is free.
func (t *sessionTable) reserve() (evict []string, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	for id, u := range t.m {
		if u.busy == 0 && now.Sub(u.last) >= t.idle {
			delete(t.m, id)
			evict = append(evict, id)
		}
	}
	if len(t.m)+t.reserved >= t.max {
		var lru string
		var lruAt time.Time
		for id, u := range t.m {
			if u.busy == 0 && (lru == "" || u.last.Before(lruAt)) {
				lru, lruAt = id, u.last
			}
		}
		if lru == "" {
			return evict, false
		}
		delete(t.m, lru)
		evict = append(evict, lru)
	}
	t.reserved++
	return evict, true
}

// closeSession closes a session in the SDK handler, as a client's DELETE
// would.
func (t *sessionTable) closeSession(id string) {
	req, err := http.NewRequest(http.MethodDelete, "/", nil)
	if err != nil {
		return
	}
	req.Header.Set(sessionIDHeader, id)
	t.h.ServeHTTP(discardWriter{h: http.Header{}}, req)
}

// open returns the number of sessions in the table.
func (t *sessionTable) open() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}

// captureWriter records the session id the SDK assigns to a new session
// as soon as the response header is written, before the client can use it,
// and hands the reserved slot to it then (or gives it back when the
// request made no session).
type captureWriter struct {
	http.ResponseWriter
	t    *sessionTable
	done bool
}

func (c *captureWriter) register() {
	if c.done {
		return
	}
	c.done = true
	id := c.Header().Get(sessionIDHeader)
	c.t.mu.Lock()
	defer c.t.mu.Unlock()
	c.t.reserved-- // the slot becomes the session's, or is given back
	if id != "" && c.t.m[id] == nil {
		c.t.m[id] = &sessionUse{last: c.t.now()}
	}
}

func (c *captureWriter) WriteHeader(code int) {
	c.register()
	c.ResponseWriter.WriteHeader(code)
}

func (c *captureWriter) Write(b []byte) (int, error) {
	c.register()
	return c.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (the SDK
// flushes event streams through it).
func (c *captureWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

type discardWriter struct{ h http.Header }

func (d discardWriter) Header() http.Header       { return d.h }
func (discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (discardWriter) WriteHeader(int)             {}
