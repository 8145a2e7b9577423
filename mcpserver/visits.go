package mcpserver

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"sync"
	"time"
)

// A browser signs in to the runs page for one visit with the printed link
// (/runs?token=…): it gets a visit id, in the page's address, and a cookie
// of that visit, both random. The runs page needs both, so a cookie that
// leaks (browsers send the cookies of 127.0.0.1 to every port of it, to
// any local service the person's browser visits) shows nothing, and an
// address that leaks (history) shows nothing without the browser's
// cookie. Visits are kept in this process only.
const (
	// visitLife is how long a sign-in lasts; then the printed link signs
	// in again.
	visitLife = 15 * time.Minute
	// maxVisits bounds the visits kept; a sign-in past it drops the
	// oldest.
	maxVisits = 16
)

// runsVisit is one browser's sign-in.
type runsVisit struct {
	cookie  [32]byte // sha256 of the cookie's value
	created time.Time
}

// visitStore keeps the live visits by id.
type visitStore struct {
	now func() time.Time

	mu sync.Mutex
	m  map[string]*runsVisit
}

func newVisitStore() *visitStore {
	return &visitStore{now: time.Now, m: map[string]*runsVisit{}}
}

func randomID(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// begin starts a visit and returns its id and cookie value. The visit of
// old (the cookie the signing-in browser still had) ends: one browser has
// one visit. Expired visits go, and the oldest past maxVisits.
func (s *visitStore) begin(old string) (id, cookie string) {
	id, cookie = randomID(16), randomID(32)
	now := s.now()
	oldSum := sha256.Sum256([]byte(old))
	s.mu.Lock()
	defer s.mu.Unlock()
	var oldest string
	var oldestAt time.Time
	for k, v := range s.m {
		if now.Sub(v.created) >= visitLife || (old != "" && v.cookie == oldSum) {
			delete(s.m, k)
			continue
		}
		if oldest == "" || v.created.Before(oldestAt) {
			oldest, oldestAt = k, v.created
		}
	}
	if len(s.m) >= maxVisits {
		delete(s.m, oldest)
	}
	s.m[id] = &runsVisit{cookie: sha256.Sum256([]byte(cookie)), created: now}
	return id, cookie
}

// valid reports whether id is a live visit whose cookie is cookie.
func (s *visitStore) valid(id, cookie string) bool {
	if id == "" || cookie == "" {
		return false
	}
	sum := sha256.Sum256([]byte(cookie))
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.m[id]
	if v == nil {
		return false
	}
	if s.now().Sub(v.created) >= visitLife {
		delete(s.m, id)
		return false
	}
	return subtle.ConstantTimeCompare(v.cookie[:], sum[:]) == 1
}
