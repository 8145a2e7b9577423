package netproxy

import (
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// holdTarget is an origin that accepts connections and then neither reads
// from them nor closes them: it ignores the proxy's FIN, like the red
// team's hold.py.
type holdTarget struct {
	addr  string
	mu    sync.Mutex
	conns []net.Conn
}

func newHoldTarget(t testing.TB) *holdTarget {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &holdTarget{addr: l.Addr().String()}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			h.mu.Lock()
			h.conns = append(h.conns, c)
			h.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, c := range h.conns {
			c.Close()
		}
	})
	return h
}

func (h *holdTarget) accepted() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

// TestClientGoneFreesSlot: a command that fills every proxy slot with
// connections to an origin that ignores FIN, then exits, must not keep
// the slots (the proxy is shared by every run of the engine): once the
// client side has ended, the origin gets HalfCloseTimeout of silence,
// then the connection is closed, over CONNECT, SOCKS5 and forwarded
// requests alike.
func TestClientGoneFreesSlot(t *testing.T) {
	hold := newHoldTarget(t)
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	const slots = 6
	p := startProxy(t, Config{
		Allow:            []string{hold.addr, echo.addr},
		MaxConns:         slots,
		IdleTimeout:      time.Hour, // not what frees the slots
		HalfCloseTimeout: 200 * time.Millisecond,
	})
	_, ps, _ := net.SplitHostPort(hold.addr)
	port, _ := strconv.Atoi(ps)
	for i := 0; i < slots; i++ {
		var c net.Conn
		switch i % 3 {
		case 0:
			var r *http.Response
			c, _, r = connect(t, p, hold.addr)
			if r.StatusCode != 200 {
				t.Fatalf("CONNECT: %s", r.Status)
			}
			io.WriteString(c, "request the origin never reads")
		case 1:
			var code byte
			var err error
			c, code, err = socksRequest(t, p, 1, 1, ip4("127.0.0.1"), port)
			if err != nil || code != 0 {
				t.Fatalf("SOCKS5: %#x %v", code, err)
			}
			io.WriteString(c, "request the origin never reads")
		case 2:
			c = p.dial(t)
			io.WriteString(c, "GET http://"+hold.addr+"/ HTTP/1.1\r\nHost: "+hold.addr+"\r\n\r\n")
		}
		c.Close() // the command exits
	}
	waitFor(t, "the origin to hold every connection", func() bool { return hold.accepted() == slots })
	// the slots come back (the hang guard is generous: this is a count,
	// not a timing check)
	deadline := time.Now().Add(60 * time.Second)
	for len(p.active) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d slots still held by clients that are gone", len(p.active), slots)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// and another run's command is served
	c, br, resp := connect(t, p, echo.addr)
	defer c.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("CONNECT after the clients left: %s", resp.Status)
	}
	echoRoundTrip(t, br, c, []byte("served"))
}

// TestHalfClosedClientGetsWholeAnswer: a client that ends its side and
// waits still gets everything an origin that keeps sending sends, past
// HalfCloseTimeout: only the origin's silence counts.
func TestHalfClosedClientGetsWholeAnswer(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	const n = 120
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		io.Copy(io.Discard, c) // until the client's EOF
		for i := 0; i < n; i++ {
			if _, err := c.Write([]byte("x")); err != nil {
				return
			}
			time.Sleep(25 * time.Millisecond) // n*25ms is 1.5 times the grace; each gap an 80th of it
		}
	}()
	p := startProxy(t, Config{Allow: []string{l.Addr().String()}, HalfCloseTimeout: 2 * time.Second})
	c, br, resp := connect(t, p, l.Addr().String())
	defer c.Close()
	if resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	io.WriteString(c, "question")
	c.(*net.UnixConn).CloseWrite()
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	b, err := io.ReadAll(br)
	if err != nil || string(b) != strings.Repeat("x", n) {
		t.Errorf("answer after half-close: %q %v", b, err)
	}
}
