package netproxy

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/netguard"
)

// session is one client connection.
type session struct {
	srv        *Server
	client     *net.UnixConn
	accepted   time.Time
	overloaded bool // accepted beyond MaxConns: read the request, then refuse

	deadline time.Time // end of the prelude (header or handshake timeout)

	cr    *limitReader  // under br: counts header bytes, later tracks idleness
	br    *bufio.Reader // buffered client input
	proto string

	mu     sync.Mutex
	closed bool
	origin net.Conn
}

// setOrigin records the target connection so that close reaches it; it
// reports false (and closes c) when the session is already closed.
func (ss *session) setOrigin(c net.Conn) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		c.Close()
		return false
	}
	ss.origin = c
	return true
}

// close closes the client and target connections; safe to call more
// than once and from any goroutine.
func (ss *session) close() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return
	}
	ss.closed = true
	ss.client.Close()
	if ss.origin != nil {
		ss.origin.Close()
	}
}

// serve reads the first byte and hands the connection to the protocol.
func (ss *session) serve() {
	s := ss.srv
	timeout := s.cfg.HeaderTimeout
	if ss.overloaded && timeout > overflowTimeout {
		timeout = overflowTimeout
	}
	ss.setDeadline(ss.accepted.Add(timeout))
	ss.cr = &limitReader{r: ss.client, n: int64(s.cfg.MaxHeaderBytes)}
	ss.br = bufio.NewReaderSize(ss.cr, 4096)
	first, err := ss.br.Peek(1)
	if err != nil {
		code, reason := codes.BadRequest, "the connection closed before a request"
		if isTimeout(err) {
			code, reason = codes.Timeout, "no request within the header timeout"
		}
		s.emit(Event{Code: code, Reason: reason})
		return
	}
	switch first[0] {
	case 0x05:
		ss.proto = ProtoSOCKS5
		hs := s.cfg.HandshakeTimeout
		if ss.overloaded && hs > overflowTimeout {
			hs = overflowTimeout
		}
		ss.setDeadline(ss.accepted.Add(hs))
		ss.serveSOCKS()
	case 0x04:
		// SOCKS4 reply: version 0, code 91 (request rejected or failed).
		ss.client.Write([]byte{0x00, 0x5b, 0, 0, 0, 0, 0, 0})
		s.emit(Event{Code: codes.Unsupported, Reason: "SOCKS4 is not supported; use SOCKS5 (socks5h://)"})
	default:
		ss.serveHTTP()
	}
}

// setDeadline sets the prelude deadline.
func (ss *session) setDeadline(t time.Time) {
	ss.deadline = t
	ss.client.SetDeadline(t)
}

// timedOut reports whether err is a timeout or the prelude deadline has
// passed (bufio.Reader.ReadLine returns a partial line without the
// error, so a parser may report a timeout as a malformed request).
func (ss *session) timedOut(err error) bool {
	return isTimeout(err) || !time.Now().Before(ss.deadline)
}

// startStreaming ends the prelude: header limits and the prelude deadline
// no longer apply, and reads from the client go through idle tracking.
func (ss *session) startStreaming(clientIdle *idleConn) {
	ss.client.SetDeadline(time.Time{})
	ss.cr.r = clientIdle
	ss.cr.n = -1
}

// limitReader returns io.EOF after n bytes while n >= 0 (the prelude);
// n < 0 means unlimited.
type limitReader struct {
	r io.Reader
	n int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n == 0 {
		return 0, io.EOF
	}
	if l.n > 0 && int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	if l.n > 0 {
		l.n -= int64(n)
	}
	return n, err
}

// exhausted reports whether the prelude limit was reached.
func (l *limitReader) exhausted() bool { return l.n == 0 }

// target is a checked host and port.
type target struct {
	host string // canonical: lower-case ASCII name, or an IP's String()
	port int
}

func (t target) String() string {
	if strings.Contains(t.host, ":") {
		return "[" + t.host + "]:" + strconv.Itoa(t.port)
	}
	return t.host + ":" + strconv.Itoa(t.port)
}

// parseAuthority checks "host:port" or "[v6]:port" as a CONNECT request
// or SOCKS5 request names it, with netguard's rules for allowlist
// entries: an explicit port, IDNA, canonical numeric forms only, no
// zones, no wildcards.
func parseAuthority(hostport string) (target, *Error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		var ae *net.AddrError
		if errors.As(err, &ae) && ae.Err == "missing port in address" {
			return target{}, &Error{Code: codes.BadRequest, Message: "the target " + printable(hostport) + " has no port: write host:port (for example " + printable(hostport) + ":443)"}
		}
		return target{}, &Error{Code: codes.BadHost, Message: "the target " + printable(hostport) + " is not host:port", Err: err}
	}
	if host == "" || port == "" {
		return target{}, &Error{Code: codes.BadRequest, Message: "the target " + printable(hostport) + " needs a host and a port"}
	}
	for _, c := range port {
		if c < '0' || c > '9' {
			return target{}, &Error{Code: codes.BadRequest, Message: "the target " + printable(hostport) + " has a bad port"}
		}
	}
	if strings.HasPrefix(host, "*") {
		return target{}, &Error{Code: codes.BadHost, Message: "the target " + printable(hostport) + " is a pattern, not a host"}
	}
	e, err := netguard.ParseHostPort(hostport)
	if err != nil {
		return target{}, &Error{Code: codes.BadHost, Message: "refused target", Err: err}
	}
	if e.Wildcard {
		return target{}, &Error{Code: codes.BadHost, Message: "the target " + printable(hostport) + " is a pattern, not a host"}
	}
	return target{host: e.Host, port: e.Port}, nil
}

// match finds the allowlist entry for t.
func (s *Server) match(t target) (netguard.Entry, *Error) {
	e, ok := s.allow.Match(t.host, t.port)
	if !ok {
		return netguard.Entry{}, &Error{Code: codes.HostNotAllowed, Message: t.String() + " is not on the network allowlist. To allow it, add \"" + t.String() + "\" to shell.network.allow in the modebox configuration"}
	}
	return e, nil
}

// dial connects to t through netguard.Dialer. Non-public addresses are
// allowed only when the entry opens them, by the rule fetch() shares
// (netguard.Entry.OpensPrivate): the entry names the IP literally (and then
// t is that IP), or names the host with the " private" mark.
func (s *Server) dial(t target, entry netguard.Entry) (net.Conn, *Error) {
	ctx := netguard.WithPrivate(s.ctx, entry.OpensPrivate())
	ctx, cancel := context.WithTimeout(ctx, s.cfg.DialTimeout)
	defer cancel()
	c, err := s.dialer.DialContext(ctx, "tcp", t.String())
	if err == nil {
		return c, nil
	}
	return nil, dialError(t, err, s.ctx.Err() != nil)
}

// dialError classifies a dial failure.
func dialError(t target, err error, serverClosed bool) *Error {
	var ge *netguard.Error
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &ge) && ge.Code == codes.AddressRefused:
		return &Error{Code: codes.AddressRefused, Message: t.String() + " refused: " + ge.Message}
	case errors.As(err, &ge):
		return &Error{Code: codes.BadHost, Message: t.String() + " refused: " + ge.Message}
	case serverClosed:
		return &Error{Code: codes.DialFailed, Message: "the proxy is shutting down", Err: err}
	case errors.As(err, &dnsErr):
		return &Error{Code: codes.ResolveFailed, Message: "cannot resolve " + t.host, Err: resolveError{dnsErr}}
	case isTimeout(err):
		return &Error{Code: codes.DialTimeout, Message: "connecting to " + t.String() + " timed out", Err: err}
	case errors.Is(err, syscall.ECONNREFUSED):
		return &Error{Code: codes.ConnectionRefused, Message: t.String() + " refused the connection", Err: err}
	case errors.Is(err, syscall.ENETUNREACH):
		return &Error{Code: codes.NetworkUnreachable, Message: "no route to the network of " + t.String(), Err: err}
	case errors.Is(err, syscall.EHOSTUNREACH):
		return &Error{Code: codes.HostUnreachable, Message: "no route to " + t.String(), Err: err}
	default:
		return &Error{Code: codes.DialFailed, Message: "cannot connect to " + t.String(), Err: err}
	}
}

// resolveError is a failed lookup as the client is told it: the reason
// only ("no such host"), not the DNS server the host asked, which would
// tell the sandboxed command about the host's network. Unwrap returns the
// *net.DNSError without its server.
type resolveError struct{ dns *net.DNSError }

func (r resolveError) Error() string { return r.dns.Err }

func (r resolveError) Unwrap() error {
	c := *r.dns
	c.Server = ""
	return &c
}

func isTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// connectTarget is the part shared by the three protocols: check the
// allowlist, dial, record the event. ev carries Protocol, Host and Port.
func (ss *session) connectTarget(t target, ev Event) (net.Conn, *Error) {
	s := ss.srv
	if ss.overloaded {
		return nil, ss.refuse(ev, &Error{Code: codes.TooManyConnections, Message: "the proxy has too many open connections (limit " + strconv.Itoa(s.cfg.MaxConns) + "); try again"})
	}
	entry, perr := s.match(t)
	if perr != nil {
		return nil, ss.refuse(ev, perr)
	}
	ev.Entry = entry.String()
	c, perr := s.dial(t, entry)
	if perr != nil {
		return nil, ss.refuse(ev, perr)
	}
	if !ss.setOrigin(c) {
		return nil, ss.refuse(ev, &Error{Code: codes.DialFailed, Message: "the proxy is shutting down"})
	}
	ev.Allowed = true
	s.emit(ev)
	return c, nil
}

// refuse records a refusal event and returns e.
func (ss *session) refuse(ev Event, e *Error) *Error {
	ev.Allowed = false
	ev.Code = e.Code
	ev.Reason = e.Error()
	ss.srv.emit(ev)
	return e
}

// event starts an Event for this session.
func (ss *session) event(host string, port int) Event {
	return Event{Protocol: ss.proto, Host: host, Port: port}
}

// printable truncates s and replaces bytes outside printable ASCII, for
// messages and events that repeat what a client sent.
func printable(s string) string {
	const max = 256
	if len(s) > max {
		s = s[:max] + "..."
	}
	b := []byte(s)
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			b[i] = '?'
		}
	}
	return string(b)
}
