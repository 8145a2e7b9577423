package mcpserver

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modebox/modebox"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of HTTPOptions.
const (
	// DefaultPath is where the MCP endpoint is served.
	DefaultPath = "/mcp"
	// DefaultMaxSessions bounds the stateful sessions open at once.
	DefaultMaxSessions = 64
	// DefaultSessionIdle closes a stateful session that has had no request
	// (and none in flight) for this long.
	DefaultSessionIdle = 30 * time.Minute
)

// Stable codes in the bodies of the HTTP handler's own error responses.
const (
	// CodeSessionLimit: every session slot is taken by a session with a
	// request in flight (HTTP 503).
	CodeSessionLimit = modebox.CodeSessionLimit
	// CodeUnauthorized: the request carries no valid bearer token (401).
	CodeUnauthorized = modebox.CodeUnauthorized
	// CodeForbiddenHost: the Host header is not an allowed host (403).
	CodeForbiddenHost = modebox.CodeForbiddenHost
	// CodeForbiddenOrigin: the Origin header is not the server's own
	// origin nor a listed one (403).
	CodeForbiddenOrigin = modebox.CodeForbiddenOrigin
	// CodeNotFound: no endpoint at this path (404).
	CodeNotFound = modebox.CodeNotFound
)

// ErrNoAuth is returned by HTTPHandler for options that neither set a
// bearer token nor opt out of authentication with NoAuth.
var ErrNoAuth = errors.New("mcpserver: HTTPOptions needs a Bearer token, or NoAuth to serve without authentication")

// HTTPOptions configures the Streamable HTTP handler.
type HTTPOptions struct {
	// Path is the MCP endpoint's path (default DefaultPath). Requests to
	// other paths get 404, except the pages the handler serves itself
	// (the runs page and approval links; see HTTPHandler).
	Path string
	// Bearer is the token every request must carry as
	// "Authorization: Bearer <token>". GenerateToken makes one.
	Bearer string
	// NoAuth serves without authentication. It must be set explicitly:
	// with neither Bearer nor NoAuth, HTTPHandler fails with ErrNoAuth.
	// Anyone who can reach the port can then run programs.
	NoAuth bool
	// AllowedHosts are Host header values accepted besides loopback
	// names and addresses (localhost, 127.0.0.0/8, ::1): host names
	// ("mcp.example.com", any port) or host:port ("mcp.example.com:8443").
	AllowedHosts []string
	// AllowedOrigins are browser origins ("https://app.example.com")
	// accepted besides the server's own (the scheme and Host of the
	// request). A request with any other Origin gets 403.
	AllowedOrigins []string
	// MaxSessions bounds the stateful (protocol 2025-11-25 and older)
	// sessions open at once (default DefaultMaxSessions). A new session
	// past it closes the least recently used idle one; when none is idle,
	// the initialize request gets 503 with CodeSessionLimit.
	MaxSessions int
	// SessionIdle closes a stateful session idle this long (default
	// DefaultSessionIdle).
	SessionIdle time.Duration
}

// GenerateToken returns a random bearer token (256 bits, URL-safe).
func GenerateToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// HTTPHandler returns the Streamable HTTP handler.
//
// Every request is checked in this order: its Host must be a loopback
// name or address or in AllowedHosts (else 403, against DNS rebinding);
// its Origin, when it has one, must be the server's own origin or in
// AllowedOrigins (else 403: a page on another port of localhost is another
// origin); its path must be Path (else 404); and it must carry
// "Authorization: Bearer <Bearer>" unless NoAuth (else 401).
//
// Requests of protocol 2026-07-28 and later (by their MCP-Protocol-Version
// header) go to a stateless handler, where approvals are input_required
// results; older ones to a stateful handler with sessions, bounded by
// MaxSessions and SessionIdle, where the server can send elicitation
// requests on the POST's event stream.
func (s *Server) HTTPHandler(o HTTPOptions) (http.Handler, error) {
	if o.Bearer == "" && !o.NoAuth {
		return nil, ErrNoAuth
	}
	if o.Path == "" {
		o.Path = DefaultPath
	}
	if !strings.HasPrefix(o.Path, "/") {
		return nil, fmt.Errorf("mcpserver: HTTPOptions.Path %q must start with /", o.Path)
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.SessionIdle <= 0 {
		o.SessionIdle = DefaultSessionIdle
	}
	get := func(*http.Request) *mcp.Server { return s.srv }
	stateful := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		// Host and Origin are checked before; the SDK's own check
		// would refuse the hosts AllowedHosts adds.
		DisableLocalhostProtection: true,
		SessionTimeout:             o.SessionIdle,
	})
	h := &httpHandler{
		srv:      s,
		path:     o.Path,
		sessions: newSessionTable(stateful, o.MaxSessions, o.SessionIdle),
		stateless: mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			Stateless:                    true,
			DisableLocalhostProtection:   true,
			PropagateRequestCancellation: true,
		}),
		hosts:   map[string]bool{},
		origins: map[string]bool{},
	}
	for _, a := range o.AllowedHosts {
		a = normHost(a)
		if a != "" {
			h.hosts[a] = true
		}
	}
	for _, a := range o.AllowedOrigins {
		norm, ok := normOrigin(a)
		if !ok {
			return nil, fmt.Errorf("mcpserver: allowed origin %q is not an origin such as https://app.example.com", a)
		}
		h.origins[norm] = true
	}
	if o.Bearer != "" {
		sum := sha256.Sum256([]byte(o.Bearer))
		h.bearer = sum[:]
	}
	h.visits = newVisitStore()
	return h, nil
}

type httpHandler struct {
	srv       *Server
	path      string
	sessions  *sessionTable
	stateless http.Handler
	hosts     map[string]bool // normalised host or host:port
	origins   map[string]bool // normalised scheme://host[:port]
	bearer    []byte          // sha256 of the token; nil: no check
	visits    *visitStore     // browsers signed in to the runs page
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.hostAllowed(r.Host) {
		httpError(w, http.StatusForbidden, CodeForbiddenHost, "Host not allowed: the server accepts loopback names and addresses, and those its operator allows (modebox mcp --allow-host, HTTPOptions.AllowedHosts)")
		return
	}
	if origins := r.Header.Values("Origin"); len(origins) > 0 {
		if len(origins) > 1 || !h.originAllowed(r, origins[0]) {
			httpError(w, http.StatusForbidden, CodeForbiddenOrigin, "Origin not allowed")
			return
		}
	}
	if r.URL.Path != h.path {
		if h.servePage(w, r) {
			return
		}
		httpError(w, http.StatusNotFound, CodeNotFound, "no endpoint at "+r.URL.Path+"; the MCP endpoint is "+h.path)
		return
	}
	if h.bearer != nil && !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="modebox"`)
		httpError(w, http.StatusUnauthorized, CodeUnauthorized, "a bearer token is required (Authorization: Bearer <token>)")
		return
	}
	setPageBase(r)
	r.Header.Del(carrierHeader)
	if r.Header.Get("Mcp-Protocol-Version") >= version20260728 {
		h.stateless.ServeHTTP(w, r)
		return
	}
	if id := r.Header.Get(sessionIDHeader); id != "" {
		switch r.Method {
		case http.MethodPost:
			done := h.srv.carriers.open(r, id)
			defer done()
		case http.MethodDelete:
			h.srv.carriers.endSession(id)
		}
	}
	h.sessions.ServeHTTP(w, r)
}

// httpError writes a plain-text error whose first word is a stable code.
func httpError(w http.ResponseWriter, status int, code modebox.Code, msg string) {
	http.Error(w, "modebox: "+string(code)+": "+msg, status)
}

func (h *httpHandler) authorized(r *http.Request) bool {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return h.tokenOK(strings.TrimSpace(tok))
}

// tokenOK compares tok with the bearer token in constant time.
func (h *httpHandler) tokenOK(tok string) bool {
	if h.bearer == nil {
		return true
	}
	sum := sha256.Sum256([]byte(tok))
	return subtle.ConstantTimeCompare(sum[:], h.bearer) == 1
}

// hostAllowed checks a Host header (host or host:port).
func (h *httpHandler) hostAllowed(hostport string) bool {
	hostport = normHost(hostport)
	if hostport == "" {
		return false
	}
	host := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		host = hh
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return isLoopback(host) || h.hosts[hostport] || h.hosts[host]
}

// originAllowed checks an Origin header: the server's own origin (the
// scheme and Host the request came to), or a listed one. "null", other
// schemes, and other ports of an allowed host are refused.
func (h *httpHandler) originAllowed(r *http.Request, origin string) bool {
	norm, ok := normOrigin(origin)
	if !ok {
		return false
	}
	if h.origins[norm] {
		return true
	}
	own := "http://"
	if r.TLS != nil {
		own = "https://"
	}
	ownNorm, ok := normOrigin(own + r.Host)
	return ok && norm == ownNorm
}

// normOrigin normalises an origin to scheme://host[:port], without a
// default port; ok is false for anything that is not an http(s) origin.
func normOrigin(s string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	host := normHost(u.Host)
	if hh, port, err := net.SplitHostPort(host); err == nil {
		if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
			host = hh
			if strings.Contains(hh, ":") {
				host = "[" + hh + "]"
			}
		}
	}
	return u.Scheme + "://" + host, true
}

func normHost(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if hh, port, err := net.SplitHostPort(s); err == nil {
		hh = strings.TrimSuffix(hh, ".")
		return net.JoinHostPort(hh, port)
	}
	return strings.TrimSuffix(s, ".")
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
