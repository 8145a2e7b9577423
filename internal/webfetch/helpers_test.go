package webfetch

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

// stubResolver answers from a table: each name has a list of answers,
// one per lookup; the last answer repeats.
type stubResolver struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	calls   map[string]int
}

func newStub() *stubResolver {
	return &stubResolver{answers: map[string][][]netip.Addr{}, calls: map[string]int{}}
}

// set gives name its answers, one string of comma-separated addresses per
// lookup.
func (r *stubResolver) set(name string, lookups ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var as [][]netip.Addr
	for _, l := range lookups {
		var one []netip.Addr
		for _, s := range strings.Split(l, ",") {
			one = append(one, netip.MustParseAddr(s))
		}
		as = append(as, one)
	}
	r.answers[name] = as
}

func (r *stubResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	as, ok := r.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	i := r.calls[host]
	r.calls[host]++
	if i >= len(as) {
		i = len(as) - 1
	}
	return as[i], nil
}

func (r *stubResolver) count(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[name]
}

func (r *stubResolver) total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.calls {
		n += c
	}
	return n
}

// echo is what echoServer reports about a request it got.
type echo struct {
	Method  string              `json:"method"`
	Path    string              `json:"path"`
	Host    string              `json:"host"`
	Headers map[string][]string `json:"headers"`
	Body    []byte              `json:"body"`
}

// server is an httptest server that counts and records its requests.
type server struct {
	*httptest.Server
	hits atomic.Int64
	mu   sync.Mutex
	seen []echo
}

func (s *server) last() echo {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) == 0 {
		return echo{}
	}
	return s.seen[len(s.seen)-1]
}

func (s *server) port() int { return portOf(s.Listener.Addr()) }

// entry is "127.0.0.1:port" of the server.
func (s *server) entry() string { return "127.0.0.1:" + strconv.Itoa(s.port()) }

func portOf(a net.Addr) int { return a.(*net.TCPAddr).Port }

// newServer starts a loopback server; h (if not nil) handles requests
// after they are recorded, otherwise the request is echoed as JSON.
func newServer(t testing.TB, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(s.wrap(h))
	t.Cleanup(s.Close)
	return s
}

func newTLSServer(t testing.TB, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewUnstartedServer(s.wrap(h))
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are expected
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

func (s *server) wrap(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		e := echo{Method: r.Method, Path: r.URL.RequestURI(), Host: r.Host, Headers: r.Header, Body: body}
		s.mu.Lock()
		s.seen = append(s.seen, e)
		s.mu.Unlock()
		if h != nil {
			h(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(e)
	}
}

func mustNew(t testing.TB, cfg Config) *Client {
	t.Helper()
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func session(t testing.TB, c *Client) *Session {
	t.Helper()
	s := c.NewSession()
	t.Cleanup(s.Close)
	return s
}

// wantCode fails unless err carries code.
func wantCode(t testing.TB, err error, code codes.Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", code)
	}
	if got := CodeOf(err); got != code {
		t.Fatalf("got %s (%v), want %s", got, err, code)
	}
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("%v is not a *webfetch.Error", err)
	}
}

func decodeEcho(t testing.TB, b []byte) echo {
	t.Helper()
	var e echo
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("decoding %q: %v", b, err)
	}
	return e
}

// rawServer accepts connections on loopback and hands each to fn.
func rawServer(t testing.TB, fn func(net.Conn)) (port int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				fn(c)
			}()
		}
	}()
	return portOf(ln.Addr())
}
