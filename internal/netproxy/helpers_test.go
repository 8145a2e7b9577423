package netproxy

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// stubResolver answers from a map and records every question.
type stubResolver struct {
	mu    sync.Mutex
	m     map[string][]netip.Addr
	calls []string
}

func newStub(pairs ...string) *stubResolver {
	r := &stubResolver{m: map[string][]netip.Addr{}}
	for i := 0; i+1 < len(pairs); i += 2 {
		r.m[pairs[i]] = append(r.m[pairs[i]], netip.MustParseAddr(pairs[i+1]))
	}
	return r
}

func (r *stubResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, host)
	if a, ok := r.m[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func (r *stubResolver) asked() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

// eventLog collects events.
type eventLog struct {
	mu  sync.Mutex
	evs []Event
}

func (l *eventLog) add(e Event) {
	l.mu.Lock()
	l.evs = append(l.evs, e)
	l.mu.Unlock()
}

func (l *eventLog) all() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Event(nil), l.evs...)
}

// proxyT is a running proxy for one test.
type proxyT struct {
	*Server
	sock   string
	events *eventLog
	served chan error
}

// startProxy listens in t.TempDir() and serves; cleanup closes it and
// checks that Serve returned ErrServerClosed.
func startProxy(t testing.TB, cfg Config) *proxyT {
	t.Helper()
	log := &eventLog{}
	user := cfg.OnEvent
	cfg.OnEvent = func(e Event) {
		log.add(e)
		if user != nil {
			user(e)
		}
	}
	sock := filepath.Join(t.TempDir(), "proxy.sock")
	s, err := Listen(sock, cfg)
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	p := &proxyT{Server: s, sock: sock, events: log, served: make(chan error, 1)}
	go func() { p.served <- s.Serve() }()
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		select {
		case err := <-p.served:
			if err != ErrServerClosed {
				t.Errorf("Serve returned %v, want ErrServerClosed", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("Serve did not return after Close")
		}
	})
	return p
}

func (p *proxyT) dial(t testing.TB) net.Conn {
	t.Helper()
	c, err := net.Dial("unix", p.sock)
	if err != nil {
		t.Fatalf("dial proxy: %v", err)
	}
	return c
}

// httpClient sends every request through the proxy (HTTP_PROXY-style).
func (p *proxyT) httpClient() (*http.Client, *http.Transport) {
	tr := &http.Transport{
		Proxy: http.ProxyURL(&url.URL{Scheme: "http", Host: "127.0.0.1:3128"}),
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", p.sock)
		},
		DisableKeepAlives: true,
	}
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}, tr
}

// countingListener counts accepted connections.
type countingListener struct {
	net.Listener
	n atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// echoTarget is a TCP echo server that counts connections; a peer's EOF
// is answered with EOF after the echo.
type echoTarget struct {
	ln    *countingListener
	addr  string
	port  int
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

func newEchoTarget(t testing.TB, network, addr string) *echoTarget {
	t.Helper()
	l, err := net.Listen(network, addr)
	if err != nil {
		t.Fatalf("listen %s %s: %v", network, addr, err)
	}
	e := &echoTarget{ln: &countingListener{Listener: l}, addr: l.Addr().String(), port: l.Addr().(*net.TCPAddr).Port, conns: map[net.Conn]struct{}{}}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		for {
			c, err := e.ln.Accept()
			if err != nil {
				return
			}
			e.mu.Lock()
			e.conns[c] = struct{}{}
			e.mu.Unlock()
			e.wg.Add(1)
			go func() {
				defer e.wg.Done()
				io.Copy(c, c)
				c.(*net.TCPConn).CloseWrite()
				io.Copy(io.Discard, c)
				c.Close()
				e.mu.Lock()
				delete(e.conns, c)
				e.mu.Unlock()
			}()
		}
	}()
	t.Cleanup(func() {
		e.ln.Close()
		e.mu.Lock()
		for c := range e.conns {
			c.Close()
		}
		e.mu.Unlock()
		e.wg.Wait()
	})
	return e
}

func (e *echoTarget) accepts() int { return int(e.ln.n.Load()) }

// httpTarget is an HTTP server on 127.0.0.1 that counts connections and
// records the last request it saw.
type httpTarget struct {
	ln   *countingListener
	srv  *http.Server
	port int
	mu   sync.Mutex
	last *http.Request
	uri  string
}

func newHTTPTarget(t testing.TB) *httpTarget {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &httpTarget{ln: &countingListener{Listener: l}, port: l.Addr().(*net.TCPAddr).Port}
	h.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.last = r
		h.uri = r.RequestURI
		h.mu.Unlock()
		w.Header().Set("X-Origin", "yes")
		w.Header().Set("Keep-Alive", "timeout=5")
		io.WriteString(w, "hello from origin: "+r.Method+" "+r.RequestURI+" body="+string(body))
	})}
	go h.srv.Serve(h.ln)
	t.Cleanup(func() { h.srv.Close() })
	return h
}

func (h *httpTarget) accepts() int { return int(h.ln.n.Load()) }

func (h *httpTarget) lastRequest() (*http.Request, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.last, h.uri
}

// rawHTTP writes raw to the proxy and reads one response (body included).
func rawHTTP(t testing.TB, p *proxyT, raw string) (*http.Response, string) {
	t.Helper()
	c := p.dial(t)
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatalf("write: %v", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("read response to %q: %v", firstLine(raw), err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// connect sends CONNECT and returns the connection and the response.
func connect(t testing.TB, p *proxyT, authority string) (net.Conn, *bufio.Reader, *http.Response) {
	t.Helper()
	c := p.dial(t)
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, "CONNECT "+authority+" HTTP/1.1\r\nHost: "+authority+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		c.Close()
		t.Fatalf("CONNECT %s: %v", authority, err)
	}
	return c, br, resp
}

// connectStatus sends CONNECT and returns the status and body.
func connectStatus(t testing.TB, p *proxyT, authority string) (int, string) {
	t.Helper()
	c, _, resp := connect(t, p, authority)
	defer c.Close()
	if resp.StatusCode == 200 {
		return 200, "" // a tunnel: no body to read
	}
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// echoRoundTrip writes msg and reads it back.
func echoRoundTrip(t testing.TB, r io.Reader, w io.Writer, msg []byte) {
	t.Helper()
	if _, err := w.Write(msg); err != nil {
		t.Fatalf("write: %v", err)
	}
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(r, got); err != nil {
		t.Fatalf("read echo: %v", err)
	}
	if string(got) != string(msg) {
		t.Fatalf("echo = %q, want %q", got, msg)
	}
}

// socksRequest is a raw SOCKS5 exchange: greeting with no-auth, then a
// request with the given command, address type and address bytes
// (ATYP domain: the name, length added here). It returns the connection
// and the reply code (or an error when no full reply came).
func socksRequest(t testing.TB, p *proxyT, cmd, atyp byte, addr []byte, port int) (net.Conn, byte, error) {
	t.Helper()
	c := p.dial(t)
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write([]byte{5, 1, 0}); err != nil {
		t.Fatal(err)
	}
	var sel [2]byte
	if _, err := io.ReadFull(c, sel[:]); err != nil {
		c.Close()
		return nil, 0, err
	}
	if sel != [2]byte{5, 0} {
		c.Close()
		return nil, 0, errors.New("method selection " + strconv.Itoa(int(sel[1])))
	}
	req := []byte{5, cmd, 0, atyp}
	if atyp == 3 {
		req = append(req, byte(len(addr)))
	}
	req = append(req, addr...)
	req = binary.BigEndian.AppendUint16(req, uint16(port))
	if _, err := c.Write(req); err != nil {
		t.Fatal(err)
	}
	var rep [10]byte
	if _, err := io.ReadFull(c, rep[:4]); err != nil {
		c.Close()
		return nil, 0, err
	}
	if rep[0] != 5 || rep[3] != 1 {
		c.Close()
		return nil, rep[1], errors.New("malformed reply")
	}
	if _, err := io.ReadFull(c, rep[4:]); err != nil {
		c.Close()
		return nil, rep[1], err
	}
	return c, rep[1], nil
}

// socksReplyCode is socksRequest for callers that only want the code.
func socksReplyCode(t testing.TB, p *proxyT, cmd, atyp byte, addr []byte, port int) byte {
	t.Helper()
	c, code, err := socksRequest(t, p, cmd, atyp, addr, port)
	if err != nil {
		t.Fatalf("SOCKS5 request: %v", err)
	}
	c.Close()
	return code
}

func ip4(s string) []byte { a := netip.MustParseAddr(s).As4(); return a[:] }
func ip16(s string) []byte {
	a := netip.MustParseAddr(s).As16()
	return a[:]
}

// waitGoroutines waits until at most n goroutines run.
func waitGoroutines(t testing.TB, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := runtime.NumGoroutine()
		if got <= n {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("%d goroutines, want <= %d:\n%s", got, n, buf)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hasEvent reports whether an event matches f.
func hasEvent(evs []Event, f func(Event) bool) bool {
	for _, e := range evs {
		if f(e) {
			return true
		}
	}
	return false
}

// waitFor polls cond for up to 5s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// settle gives a target's accept loop time to count a connection that
// the kernel has already completed, before a test asserts there was none.
func settle() { time.Sleep(50 * time.Millisecond) }
