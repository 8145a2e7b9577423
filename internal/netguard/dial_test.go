package netguard

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// listener accepts on 127.0.0.1 and counts connections.
type listener struct {
	net.Listener
	accepted atomic.Int64
}

func newListener(t *testing.T) *listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &listener{Listener: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			l.accepted.Add(1)
			c.Close()
		}
	}()
	return l
}

func (l *listener) port() string { return strconv.Itoa(l.Addr().(*net.TCPAddr).Port) }

type mapResolver map[string][]netip.Addr

func (m mapResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if as, ok := m[host]; ok {
		return as, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func addrs(ss ...string) []netip.Addr {
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out
}

func wantRefused(t *testing.T, c net.Conn, err error) {
	t.Helper()
	if err == nil {
		c.Close()
		t.Fatal("dialled")
	}
	var ge *Error
	if !errors.As(err, &ge) || ge.Code != codes.AddressRefused {
		t.Fatalf("got %v, want an ADDRESS_REFUSED *Error", err)
	}
}

func shortCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestDialerLiterals(t *testing.T) {
	l := newListener(t)
	d := &Dialer{Resolver: mapResolver{}}
	refused := []string{
		"127.0.0.1", "127.0.0.2", "[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "0.0.0.0", "[::]",
		"[::ffff:0.0.0.0]", "[64:ff9b::7f00:1]", "[64:ff9b::a9fe:a9fe]", "[2002:7f00:1::]",
		"[2001:0:4136:e378:8000:63bf:80ff:fffe]", "[fe80::1%25eth0]", "[fe80::1%eth0]", "[::1%lo]",
		"169.254.169.254", "[::ffff:169.254.169.254]", "[0:0:0:0:0:ffff:169.254.169.254]", "[fd00:ec2::254]",
		"100.100.100.200", "10.0.0.1", "192.168.0.1", "224.0.0.1",
	}
	for _, h := range refused {
		t.Run(h, func(t *testing.T) {
			c, err := d.DialContext(shortCtx(t), "tcp", h+":"+l.port())
			wantRefused(t, c, err)
		})
	}
	// an allowance opens loopback, never the unspecified address (which
	// reaches local listeners on Linux) nor multicast
	for _, h := range []string{"0.0.0.0", "[::]", "[::ffff:0.0.0.0]", "224.0.0.1"} {
		c, err := d.DialContext(WithPrivate(shortCtx(t), true), "tcp", h+":"+l.port())
		wantRefused(t, c, err)
	}
	// zones are refused even with an allowance
	c, err := d.DialContext(WithPrivate(shortCtx(t), true), "tcp", "[::1%lo]:"+l.port())
	wantRefused(t, c, err)
	if n := l.accepted.Load(); n != 0 {
		t.Fatalf("%d connections reached the listener", n)
	}
	for _, h := range []string{"127.0.0.1", "[::ffff:127.0.0.1]"} {
		c, err := d.DialContext(WithPrivate(shortCtx(t), true), "tcp", h+":"+l.port())
		if err != nil {
			t.Fatalf("%s with an allowance: %v", h, err)
		}
		c.Close()
	}
	c, err = d.DialContext(WithPrivate(shortCtx(t), false), "tcp", "127.0.0.1:"+l.port())
	wantRefused(t, c, err)
	for _, bad := range []string{"127.0.0.1", "127.0.0.1:0", "127.0.0.1:x", "127.0.0.1:70000"} {
		c, err := d.DialContext(shortCtx(t), "tcp", bad)
		wantRefused(t, c, err)
	}
}

func TestDialerNames(t *testing.T) {
	l := newListener(t)
	r := mapResolver{
		"loop.test":   addrs("127.0.0.1"),
		"mapped.test": addrs("::ffff:127.0.0.1"),
		"zero.test":   addrs("0.0.0.0"),
		"mixed.test":  addrs("8.8.8.8", "127.0.0.1"),
		"mixed6.test": addrs("2606:4700::1111", "::1"),
		"zoned.test":  addrs("fe80::1%lo"),
		"meta.test":   addrs("169.254.169.254"),
		"nat64.test":  addrs("64:ff9b::7f00:1"),
		"empty.test":  nil,
	}
	d := &Dialer{Resolver: r}
	for name := range r {
		t.Run(name, func(t *testing.T) {
			c, err := d.DialContext(shortCtx(t), "tcp", name+":"+l.port())
			wantRefused(t, c, err)
			if name != "empty.test" && !strings.Contains(err.Error(), name+" resolves to ") {
				t.Errorf("message: %v", err)
			}
		})
	}
	c, err := d.DialContext(WithPrivate(shortCtx(t), true), "tcp", "zero.test:"+l.port())
	wantRefused(t, c, err)
	if n := l.accepted.Load(); n != 0 {
		t.Fatalf("%d connections reached the listener", n)
	}
	for _, name := range []string{"loop.test", "mapped.test"} {
		c, err := d.DialContext(WithPrivate(shortCtx(t), true), "tcp", name+":"+l.port())
		if err != nil {
			t.Fatalf("%s with an allowance: %v", name, err)
		}
		c.Close()
	}
	_, err = d.DialContext(shortCtx(t), "tcp", "unknown.test:"+l.port())
	var dnsErr *net.DNSError
	if !errors.As(err, &dnsErr) {
		t.Fatalf("unknown name: %v", err)
	}
}

// dnsServer is a minimal UDP DNS server on 127.0.0.1 answering A and AAAA
// queries from a table (every other name: NXDOMAIN). It lets the test use
// the real Go resolver without leaving the machine.
type dnsServer struct {
	conn    net.PacketConn
	mu      sync.Mutex
	answers map[string][]netip.Addr // lower-case name without the final dot
	queries int
}

func newDNSServer(t *testing.T, answers map[string][]netip.Addr) *dnsServer {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &dnsServer{conn: pc, answers: answers}
	t.Cleanup(func() { pc.Close() })
	go s.serve()
	return s
}

func (s *dnsServer) serve() {
	buf := make([]byte, 1500)
	for {
		n, from, err := s.conn.ReadFrom(buf)
		if err != nil {
			return
		}
		if resp := s.answer(buf[:n]); resp != nil {
			s.conn.WriteTo(resp, from)
		}
	}
}

func (s *dnsServer) answer(q []byte) []byte {
	if len(q) < 12 || binary.BigEndian.Uint16(q[4:]) != 1 {
		return nil
	}
	var labels []string
	i := 12
	for i < len(q) && q[i] != 0 {
		l := int(q[i])
		if l > 63 || i+1+l > len(q) {
			return nil
		}
		labels = append(labels, string(q[i+1:i+1+l]))
		i += 1 + l
	}
	if i+5 > len(q) {
		return nil
	}
	qtype := binary.BigEndian.Uint16(q[i+1:])
	question := q[12 : i+5]
	name := strings.ToLower(strings.Join(labels, "."))
	s.mu.Lock()
	s.queries++
	as, known := s.answers[name]
	s.mu.Unlock()
	var rrs [][]byte
	for _, a := range as {
		var rdata []byte
		switch {
		case qtype == 1 && a.Is4():
			rdata = a.AsSlice()
		case qtype == 28 && a.Is6():
			rdata = a.AsSlice()
		default:
			continue
		}
		rr := []byte{0xc0, 12, 0, byte(qtype), 0, 1, 0, 0, 0, 0, 0, byte(len(rdata))}
		rrs = append(rrs, append(rr, rdata...))
	}
	h := make([]byte, 12)
	copy(h, q[:2])
	flags := uint16(0x8180)
	if !known {
		flags |= 3 // NXDOMAIN
	}
	binary.BigEndian.PutUint16(h[2:], flags)
	binary.BigEndian.PutUint16(h[4:], 1)
	binary.BigEndian.PutUint16(h[6:], uint16(len(rrs)))
	out := append(h, question...)
	for _, rr := range rrs {
		out = append(out, rr...)
	}
	return out
}

func (s *dnsServer) resolver() *net.Resolver {
	addr := s.conn.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", addr)
	}}
}

func TestDialerRealResolver(t *testing.T) {
	l := newListener(t)
	dns := newDNSServer(t, map[string][]netip.Addr{
		"loop.example":   addrs("127.0.0.1"),
		"mixed.example":  addrs("8.8.8.8", "127.0.0.1", "2606:4700::1111"),
		"mapped.example": addrs("::ffff:127.0.0.1"),
		"nat64.example":  addrs("64:ff9b::7f00:1"),
		"meta.example":   addrs("169.254.169.254"),
		// a permissive resolver answering numeric names
		"2130706433": addrs("127.0.0.1"),
		"0x7f000001": addrs("127.0.0.1"),
		"127.1":      addrs("127.0.0.1"),
	})
	d := &Dialer{Resolver: dns.resolver()}
	for _, name := range []string{"loop.example", "mixed.example", "mapped.example", "nat64.example", "meta.example", "2130706433", "0x7f000001", "127.1"} {
		t.Run(name, func(t *testing.T) {
			c, err := d.DialContext(shortCtx(t), "tcp", name+":"+l.port())
			var dnsErr *net.DNSError
			if name[0] >= '0' && name[0] <= '9' && errors.As(err, &dnsErr) {
				return // the Go resolver refuses numeric names itself
			}
			wantRefused(t, c, err)
		})
	}
	if n := l.accepted.Load(); n != 0 {
		t.Fatalf("%d connections reached the listener", n)
	}
	c, err := d.DialContext(WithPrivate(shortCtx(t), true), "tcp", "loop.example:"+l.port())
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	dns.mu.Lock()
	defer dns.mu.Unlock()
	if dns.queries == 0 {
		t.Fatal("the DNS server was not asked")
	}
}
