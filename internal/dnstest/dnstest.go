// Package dnstest runs a real DNS server on loopback UDP for tests of
// everything that resolves names before it dials: it answers A and AAAA
// questions from a table, and can rebind a name (answer its lookups in
// turn from a list of answers), as an attacker's DNS server would.
//
// Resolver returns a *net.Resolver (the pure Go one) that asks only this
// server, so tests never depend on the machine's DNS.
package dnstest

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// Server is a loopback DNS server.
type Server struct {
	conn net.PacketConn

	mu      sync.Mutex
	answers map[string][][]netip.Addr // name (lower case, no dot) -> answers in turn
	lookups map[string]int            // A lookups per name
}

// Start starts a server on 127.0.0.1; it stops when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{conn: conn, answers: map[string][][]netip.Addr{}, lookups: map[string]int{}}
	go s.serve()
	t.Cleanup(func() { conn.Close() })
	return s
}

// Set makes name answer with each of answers in turn, one per lookup (the
// last repeats): Set("x.test", "8.8.8.8", "127.0.0.1") rebinds x.test to
// loopback on the second lookup. One answer may hold several addresses,
// comma-separated ("8.8.8.8,127.0.0.1").
func (s *Server) Set(name string, answers ...string) {
	var as [][]netip.Addr
	for _, a := range answers {
		var one []netip.Addr
		for _, ip := range strings.Split(a, ",") {
			one = append(one, netip.MustParseAddr(ip))
		}
		as = append(as, one)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers[strings.ToLower(name)] = as
}

// Lookups returns how many lookups of name the server answered.
func (s *Server) Lookups(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lookups[strings.ToLower(name)]
}

// Addr is the server's address.
func (s *Server) Addr() string { return s.conn.LocalAddr().String() }

// Resolver returns a resolver that asks this server only.
func (s *Server) Resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", s.Addr())
	}}
}

func (s *Server) serve() {
	buf := make([]byte, 1500)
	for {
		n, from, err := s.conn.ReadFrom(buf)
		if err != nil {
			return
		}
		if out, ok := s.answer(buf[:n]); ok {
			_, _ = s.conn.WriteTo(out, from)
		}
	}
}

// answer builds the reply to one query. A lookup counts once per name and
// turn: the A and AAAA questions of one lookup share the turn's answer,
// which is taken when the A question comes.
func (s *Server) answer(q []byte) ([]byte, bool) {
	var p dnsmessage.Parser
	h, err := p.Start(q)
	if err != nil {
		return nil, false
	}
	qs, err := p.AllQuestions()
	if err != nil || len(qs) != 1 {
		return nil, false
	}
	question := qs[0]
	name := strings.TrimSuffix(strings.ToLower(question.Name.String()), ".")
	s.mu.Lock()
	turns, known := s.answers[name]
	var addrs []netip.Addr
	if known {
		i := s.lookups[name]
		if question.Type == dnsmessage.TypeA {
			s.lookups[name]++
		} else if i > 0 {
			i-- // the AAAA of the lookup whose A came first
		}
		addrs = turns[min(i, len(turns)-1)]
	}
	s.mu.Unlock()
	rc := dnsmessage.RCodeSuccess
	if !known {
		rc = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RCode: rc})
	b.EnableCompression()
	_ = b.StartQuestions()
	_ = b.Question(question)
	_ = b.StartAnswers()
	for _, a := range addrs {
		rh := dnsmessage.ResourceHeader{Name: question.Name, Class: dnsmessage.ClassINET, TTL: 0}
		switch {
		case a.Is4() && question.Type == dnsmessage.TypeA:
			_ = b.AResource(rh, dnsmessage.AResource{A: a.As4()})
		case a.Is6() && question.Type == dnsmessage.TypeAAAA:
			_ = b.AAAAResource(rh, dnsmessage.AAAAResource{AAAA: a.As16()})
		}
	}
	out, err := b.Finish()
	return out, err == nil
}
