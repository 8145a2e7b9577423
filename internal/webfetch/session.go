package webfetch

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/netguard"
)

// Session is one run's fetch state: its own connection pool (no proxy, no
// cookie jar, every dial checked by netguard) and its request counter.
// It is safe for concurrent use.
type Session struct {
	c         *Client
	transport *http.Transport
	count     atomic.Int64
	closeOnce sync.Once
	closed    atomic.Bool
}

// NewSession returns a Session for one run. Close it when the run ends.
func (c *Client) NewSession() *Session {
	d := &netguard.Dialer{Resolver: c.resolver, Timeout: c.timeout}
	t := &http.Transport{
		Proxy:                  nil, // HTTP_PROXY and friends are ignored
		DialContext:            d.DialContext,
		TLSClientConfig:        &tls.Config{RootCAs: c.rootCAs, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		MaxResponseHeaderBytes: c.maxHeaderBytes,
		MaxIdleConns:           16,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        30 * time.Second,
		ExpectContinueTimeout:  0,
		DisableCompression:     false, // gzip is decoded by the transport; the cap counts decoded bytes
	}
	return &Session{c: c, transport: t}
}

// Close closes the session's idle connections; later Do calls fail.
func (s *Session) Close() {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		s.transport.CloseIdleConnections()
	})
}

// CountReplayed counts a request a resumed run replays from its journal
// (it ran before the pause and is not sent again), so MaxRequests bounds
// the whole run, not each part of it between pauses.
func (s *Session) CountReplayed() { s.count.Add(1) }

// Requests returns how many Do calls the session has counted.
func (s *Session) Requests() int { return int(s.count.Load()) }

// hop is the state carried from one redirect hop to the next.
type hop struct {
	target   netguard.Target
	method   string
	body     []byte
	headers  http.Header // the guest's headers still to send
	origin   string      // scheme://host:port of the first hop
	crossed  bool        // a hop left the first origin: guest credentials dropped
	redirect int
	maxBytes int64 // the body's cap: the client's, or the request's below it
}

// Do runs r. Listed hosts are fetched directly; an unlisted host only when
// approved. Non-public addresses are reachable only through an entry that
// opens them (netguard.Entry.OpensPrivate: the IP itself, or a name marked
// private), whatever approved says. Redirects are followed by Do itself,
// each hop checked again (see the package documentation). The message of
// an error it returns is redacted like a response.
func (s *Session) Do(ctx context.Context, r Request, approved bool) (*Response, error) {
	resp, err := s.do(ctx, r, approved)
	if err != nil {
		return nil, s.c.redactErr(err)
	}
	return resp, nil
}

// do is Do before its errors are redacted.
func (s *Session) do(ctx context.Context, r Request, approved bool) (*Response, error) {
	if s.closed.Load() {
		return nil, newError(codes.FetchFailed, nil, "the fetch session is closed")
	}
	if n := s.count.Add(1); n > int64(s.c.maxRequests) {
		return nil, newError(codes.FetchRequestLimit, nil, "this run has made its %d fetch requests, the limit", s.c.maxRequests)
	}
	chk, method, err := s.c.check(r)
	if err != nil {
		return nil, err
	}
	if !chk.Listed && !approved {
		t := chk.Target
		if t.IP.IsValid() && !netguard.IsPublic(t.IP) {
			return nil, newError(codes.FetchNotAllowed, nil, "%s is not on the fetch allowlist; add %q to it (an approval cannot open %s %s address)", t.HostPort(), t.HostPort(), netguard.Classify(t.IP).Article(), netguard.Classify(t.IP))
		}
		return nil, newError(codes.FetchNotAllowed, nil, "%s is not on the fetch allowlist; add %q to it, or have the request approved", t.HostPort(), t.HostPort())
	}
	h := &hop{target: chk.Target, method: method, body: r.Body, headers: http.Header{}, origin: originOf(chk.Target), maxBytes: s.c.maxBytes}
	if r.MaxBytes > 0 && r.MaxBytes < h.maxBytes {
		h.maxBytes = r.MaxBytes
	}
	for k, v := range r.Headers {
		h.headers.Set(k, v)
	}

	ctx, cancel := context.WithTimeout(ctx, s.c.timeout)
	defer cancel()
	for {
		resp, next, err := s.roundTrip(ctx, h, approved, chk.Target)
		if err != nil {
			return nil, s.c.wrapNetError(ctx, err, h.target)
		}
		if next == nil {
			resp.Redirected = h.redirect > 0
			return resp, nil
		}
		h = next
	}
}

// roundTrip sends one hop. It returns either the final response, or the
// next hop when the response is a redirect that passed every check.
func (s *Session) roundTrip(ctx context.Context, h *hop, approved bool, first netguard.Target) (*Response, *hop, error) {
	t := h.target
	e, listed := s.c.allow.MatchScheme(t.URL.Scheme, t.Host, t.Port)
	if !listed && !(approved && sameHostPort(t, first)) {
		// only reachable for a redirect: the first hop was checked in Do
		return nil, nil, unlistedRedirect(t, approved, first)
	}
	if err := s.c.checkSecure(t, e, listed); err != nil {
		return nil, nil, err
	}
	private := listed && e.OpensPrivate()
	if t.IP.IsValid() && !private {
		if err := netguard.CheckAddr(t.IP, false); err != nil {
			return nil, nil, s.c.addressError(t, e, listed, err)
		}
	}
	var body io.Reader
	if h.body != nil {
		body = bytes.NewReader(h.body)
	}
	req, err := http.NewRequestWithContext(netguard.WithPrivate(ctx, private), h.method, t.URL.String(), body)
	if err != nil {
		return nil, nil, newError(codes.FetchBadURL, err, "the URL cannot be requested")
	}
	for k, vs := range h.headers {
		req.Header[k] = vs
	}
	if listed {
		for _, ih := range s.c.inject[e.String()] {
			req.Header[ih.name] = []string{ih.value}
		}
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "modebox-fetch")
	}
	resp, err := s.transport.RoundTrip(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()

	if isRedirect(resp.StatusCode) {
		if loc := resp.Header.Get("Location"); loc != "" {
			// drain a little so the connection can be reused
			_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
			next, err := s.c.nextHop(h, loc, resp.StatusCode, approved, first)
			return nil, next, err
		}
	}
	out, err := s.c.readResponse(resp, h.method, t, h.maxBytes)
	return out, nil, err
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// nextHop checks a redirect and returns the hop that follows it.
func (c *Client) nextHop(h *hop, loc string, status int, approved bool, first netguard.Target) (*hop, error) {
	if c.maxRedirects == 0 {
		return nil, newError(codes.FetchRedirect, nil, "the response is a redirect (%d), and this fetch configuration follows none (maxRedirects is 0); raise maxRedirects to follow it", status)
	}
	if h.redirect >= c.maxRedirects {
		return nil, newError(codes.FetchRedirect, nil, "too many redirects (the limit is %d)", c.maxRedirects)
	}
	for _, r := range loc {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return nil, newError(codes.FetchRedirect, nil, "redirect refused: the Location header has a control character or a backslash")
		}
	}
	ref, err := url.Parse(loc)
	if err != nil {
		return nil, newError(codes.FetchRedirect, err, "redirect refused: the Location header does not parse")
	}
	abs := h.target.URL.ResolveReference(ref)
	abs.Fragment, abs.RawFragment = "", ""
	t, err := netguard.CheckURL(abs.String())
	if err != nil {
		ge := fromGuard(err).(*Error)
		return nil, newError(codes.FetchRedirect, err, "redirect refused: %s", ge.Message)
	}
	if h.target.URL.Scheme == "https" && t.URL.Scheme == "http" {
		return nil, newError(codes.FetchRedirect, nil, "redirect from https to http (%s) refused", t.HostPort())
	}
	e, listed := c.allow.MatchScheme(t.URL.Scheme, t.Host, t.Port)
	if !listed && !(approved && sameHostPort(t, first)) {
		return nil, unlistedRedirect(t, approved, first)
	}
	if err := c.checkSecure(t, e, listed); err != nil {
		ie := err.(*Error)
		return nil, newError(codes.FetchInsecure, nil, "redirect refused: %s", ie.Message)
	}
	if t.IP.IsValid() && !(listed && e.OpensPrivate()) {
		if err := netguard.CheckAddr(t.IP, false); err != nil {
			ae := c.addressError(t, e, listed, err).(*Error)
			return nil, newError(codes.FetchRedirect, err, "redirect refused: %s", ae.Message)
		}
	}
	next := &hop{target: t, method: h.method, body: h.body, headers: h.headers.Clone(), origin: h.origin, crossed: h.crossed, redirect: h.redirect + 1, maxBytes: h.maxBytes}
	// the Fetch standard's method rewriting
	if (status == http.StatusSeeOther && h.method != http.MethodHead) ||
		((status == http.StatusMovedPermanently || status == http.StatusFound) && h.method == http.MethodPost) {
		next.method = http.MethodGet
		next.body = nil
		for _, k := range []string{"Content-Type", "Content-Encoding", "Content-Language", "Content-Location"} {
			next.headers.Del(k)
		}
	}
	if originOf(t) != h.origin {
		next.crossed = true
	}
	if next.crossed {
		for _, k := range []string{"Authorization", "Cookie", "Cookie2"} {
			next.headers.Del(k)
		}
	}
	return next, nil
}

// unlistedRedirect refuses a redirect to t, which is not listed; an
// approval of the request (approved) covered first's host and port only.
func unlistedRedirect(t netguard.Target, approved bool, first netguard.Target) error {
	if approved {
		return newError(codes.FetchRedirect, nil, "redirect to %s refused: it is not on the fetch allowlist, and the approval covers only %s (add %q to the allowlist to allow it)", t.HostPort(), first.HostPort(), t.HostPort())
	}
	return newError(codes.FetchRedirect, nil, "redirect to %s refused: it is not on the fetch allowlist (add %q to it to allow it)", t.HostPort(), t.HostPort())
}

func originOf(t netguard.Target) string { return t.URL.Scheme + "://" + t.HostPort() }

func sameHostPort(a, b netguard.Target) bool { return a.Host == b.Host && a.Port == b.Port }

// wrapNetError classifies a transport or dial error. Its message may name
// a host a redirect chose (Do redacts it).
func (c *Client) wrapNetError(ctx context.Context, err error, t netguard.Target) error {
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	var ge *netguard.Error
	if errors.As(err, &ge) {
		if ge.Code == codes.AddressRefused {
			e, listed := c.allow.MatchScheme(t.URL.Scheme, t.Host, t.Port)
			return c.addressError(t, e, listed, ge)
		}
		return fromGuard(ge)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return newError(codes.FetchTimeout, err, "%s did not answer within %s", t.HostPort(), c.timeout)
	}
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return newError(codes.FetchFailed, err, "the request to %s was cancelled", t.HostPort())
	}
	msg := c.redact(err.Error())
	if strings.Contains(msg, "response headers exceeded") || strings.Contains(msg, "header list too large") {
		return newError(codes.FetchTooLarge, err, "the response headers of %s are over the limit of %d bytes", t.HostPort(), c.maxHeaderBytes)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return newError(codes.FetchFailed, err, "the response of %s ended early (fewer bytes than it announced)", t.HostPort())
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return newError(codes.FetchFailed, err, "%s cannot be resolved: %s", t.Host, dnsErr.Err)
	}
	return newError(codes.FetchFailed, err, "fetching %s failed: %s", t.HostPort(), msg)
}
