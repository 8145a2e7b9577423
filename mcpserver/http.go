package mcpserver

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionIdle closes stateful HTTP sessions idle this long (no request in
// flight and none received).
const sessionIdle = time.Hour

// Handler returns the Streamable HTTP handler. It checks Host and Origin
// against DNS rebinding (only loopback hosts/origins unless allowedHosts
// lists more), and a bearer token when bearer != "".
//
// allowedHosts entries are host names ("mcp.example.com", matching any
// port) or host:port ("mcp.example.com:8443"); loopback names and
// addresses (localhost, 127.0.0.0/8, ::1) are always allowed. A request
// whose Host, or whose Origin when it has one, is not allowed gets 403;
// then a request without "Authorization: Bearer <bearer>" gets 401.
//
// Requests of protocol 2026-07-28 and later (by their MCP-Protocol-Version
// header) go to a stateless handler, where approvals are input_required
// results; older ones to a stateful handler with sessions, where the
// server can send elicitation requests on the POST's event stream.
func (s *Server) Handler(allowedHosts []string, bearer string) http.Handler {
	get := func(*http.Request) *mcp.Server { return s.srv }
	h := &httpHandler{
		stateful: mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			// Host and Origin are checked before; the SDK's own check
			// would refuse the hosts allowedHosts adds.
			DisableLocalhostProtection: true,
			SessionTimeout:             sessionIdle,
		}),
		stateless: mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			Stateless:                    true,
			DisableLocalhostProtection:   true,
			PropagateRequestCancellation: true,
		}),
		hosts: map[string]bool{},
	}
	for _, a := range allowedHosts {
		a = normHost(a)
		if a != "" {
			h.hosts[a] = true
		}
	}
	if bearer != "" {
		sum := sha256.Sum256([]byte(bearer))
		h.bearer = sum[:]
	}
	return h
}

type httpHandler struct {
	stateful, stateless http.Handler
	hosts               map[string]bool // normalised host or host:port
	bearer              []byte          // sha256 of the token; nil: no check
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.hostAllowed(r.Host) {
		http.Error(w, "Forbidden: Host not allowed", http.StatusForbidden)
		return
	}
	if origins := r.Header.Values("Origin"); len(origins) > 0 {
		if len(origins) > 1 || !h.originAllowed(origins[0]) {
			http.Error(w, "Forbidden: Origin not allowed", http.StatusForbidden)
			return
		}
	}
	if h.bearer != nil && !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="modebox"`)
		http.Error(w, "Unauthorized: a bearer token is required", http.StatusUnauthorized)
		return
	}
	if r.Header.Get("Mcp-Protocol-Version") >= version20260728 {
		h.stateless.ServeHTTP(w, r)
		return
	}
	h.stateful.ServeHTTP(w, r)
}

func (h *httpHandler) authorized(r *http.Request) bool {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(tok)))
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

// originAllowed checks an Origin header: an http(s) origin whose host is
// allowed. "null" and other schemes are refused.
func (h *httpHandler) originAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return false
	}
	return h.hostAllowed(u.Host)
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
