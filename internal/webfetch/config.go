package webfetch

import (
	"crypto/x509"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/netguard"
)

// Defaults for the zero values of Config.
const (
	DefaultMaxBytes       = 10 << 20
	DefaultMaxHeaderBytes = 64 << 10
	DefaultMaxRequestBody = 4 << 20
	DefaultTimeout        = 30 * time.Second
	DefaultMaxRequests    = 100
	DefaultMaxRedirects   = 5
)

// MaxSizeLimit is the largest MaxBytes, MaxHeaderBytes and MaxRequestBody
// in force, 2 GiB; a larger value is taken as it. A run's memory holds no
// more, and the client holds a response in memory.
const MaxSizeLimit = 2 << 30

// NoRedirects as Config.MaxRedirects turns redirects off: a 3xx with a
// Location is an error (modebox.json's "maxRedirects": 0 maps to it).
const NoRedirects = -1

// Config is the host's fetch policy: what fetch() in a program may reach
// and how much (modebox.FetchConfig is this type; see
// docs/capabilities.md). The zero value of every field means its default;
// New validates everything once.
type Config struct {
	// Allow lists entries that need no approval: "host:port",
	// "*.example.com:443" for subdomains (any depth, not example.com
	// itself), optionally with a scheme ("https://api.example.com", port
	// 443 implied; such an entry matches that scheme only) and optionally
	// marked " private". Other hosts need approval. Loopback, private,
	// link-local and metadata addresses are reachable only through an
	// entry naming that IP literally ("127.0.0.1:8080", which reaches
	// exactly that IP) or a host entry marked private ("db.internal:8080
	// private"); a plain host entry reaches public addresses only,
	// whatever its DNS answers, and a wildcard or an approval never opens
	// them. Empty: nothing is listed (only approved requests to public
	// addresses go out).
	Allow []string
	// Headers injects headers per Allow entry (the key written as the
	// entry): entry → header name → value. A value "env:NAME" is read
	// through Getenv (default: the process environment) when New runs (a
	// missing or empty variable is a configuration error naming it); any
	// other value is used literally (so a literal value cannot start with
	// "env:"). The program never sees them: injected headers replace
	// guest headers of the same name, are never sent to another host
	// after a redirect, and are redacted from everything returned to the
	// guest (errors included): values from the environment always,
	// literal values unless obviously public (see the package
	// documentation). They are sent over https only, unless the entry is
	// written with http://; a plain http request to an entry with headers
	// is refused (FETCH_INSECURE). Hosts that match an exact entry get that
	// entry's headers only, not those of a wildcard that also matches.
	// Nil: none.
	Headers map[string]map[string]string
	// MaxBytes caps a response body after decompression. Zero: 10 MiB.
	// This and the two sizes below are taken as at most [MaxSizeLimit].
	MaxBytes int64
	// MaxHeaderBytes caps the response headers, and separately the
	// guest's request headers. Zero: 64 KiB.
	MaxHeaderBytes int64
	// MaxRequestBody caps a request body. Zero: 4 MiB.
	MaxRequestBody int64
	// Timeout bounds one Do call from the first dial to the last body
	// byte, redirects included (a server that trickles its headers or
	// body is cut off at the deadline). Zero: 30s.
	Timeout time.Duration
	// MaxRequests caps the Do calls of one Session (redirect hops are not
	// counted; MaxRedirects bounds them). Zero: 100.
	MaxRequests int
	// MaxRedirects caps the redirects followed by one Do call. Zero: 5;
	// negative (NoRedirects): redirects are not followed, and a 3xx with a
	// Location is an error (FETCH_REDIRECT).
	MaxRedirects int
	// Source marks responses as a data-flow source (the fetch built-in
	// reads it; this package only carries it).
	Source bool
	// Resolver resolves host names when dialling (a *net.Resolver, say).
	// Nil: net.DefaultResolver. Every address it returns is classified
	// like any other: a name that resolves to a private address is
	// refused unless its entry allows that.
	Resolver netguard.Resolver
	// RootCAs are the TLS roots. Nil: the system's roots.
	RootCAs *x509.CertPool
	// Getenv reads the "env:NAME" header values (an embedder's secret
	// store, say). Nil: os.LookupEnv, the process environment.
	Getenv func(string) (string, bool)
}

// Client is a validated Config. It is safe for concurrent use; each run
// gets its own Session.
type Client struct {
	allow          netguard.Allowlist
	inject         map[string][]header // by Entry.String()
	secrets        []string            // values redacted from what the guest sees (secretForms, foldSecrets)
	maxBytes       int64
	maxHeaderBytes int64
	maxRequestBody int64
	timeout        time.Duration
	maxRequests    int
	maxRedirects   int
	resolver       netguard.Resolver
	rootCAs        *x509.CertPool
}

type header struct {
	name  string // canonical
	value string
}

// New validates cfg and returns a Client.
func New(cfg Config) (*Client, error) {
	c := &Client{
		maxBytes:       cfg.MaxBytes,
		maxHeaderBytes: cfg.MaxHeaderBytes,
		maxRequestBody: cfg.MaxRequestBody,
		timeout:        cfg.Timeout,
		maxRequests:    cfg.MaxRequests,
		maxRedirects:   cfg.MaxRedirects,
		resolver:       cfg.Resolver,
		rootCAs:        cfg.RootCAs,
		inject:         map[string][]header{},
	}
	for _, v := range []struct {
		name string
		p    *int64
		def  int64
	}{
		{"MaxBytes", &c.maxBytes, DefaultMaxBytes},
		{"MaxHeaderBytes", &c.maxHeaderBytes, DefaultMaxHeaderBytes},
		{"MaxRequestBody", &c.maxRequestBody, DefaultMaxRequestBody},
	} {
		if *v.p < 0 {
			return nil, newError(codes.FetchConfig, nil, "%s is negative (%d); use 0 for the default", v.name, *v.p)
		}
		if *v.p == 0 {
			*v.p = v.def
		}
		*v.p = min(*v.p, MaxSizeLimit)
	}
	if c.timeout < 0 {
		return nil, newError(codes.FetchConfig, nil, "Timeout is negative (%s); use 0 for the default", c.timeout)
	}
	if c.timeout == 0 {
		c.timeout = DefaultTimeout
	}
	if c.maxRequests < 0 {
		return nil, newError(codes.FetchConfig, nil, "MaxRequests is negative (%d); use 0 for the default", c.maxRequests)
	}
	if c.maxRequests == 0 {
		c.maxRequests = DefaultMaxRequests
	}
	if c.maxRedirects == 0 {
		c.maxRedirects = DefaultMaxRedirects
	}
	if c.maxRedirects < 0 {
		c.maxRedirects = 0
	}
	allow, err := netguard.ParseAllowlist(cfg.Allow)
	if err != nil {
		return nil, newError(codes.FetchConfig, err, "allow entry %s", err)
	}
	seen := map[string]bool{}
	for _, e := range allow {
		if seen[e.String()] {
			return nil, newError(codes.FetchConfig, nil, "allow entry %q is listed twice", e.String())
		}
		seen[e.String()] = true
	}
	c.allow = allow
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = os.LookupEnv
	}
	keys := make([]string, 0, len(cfg.Headers))
	for k := range cfg.Headers {
		keys = append(keys, k)
	}
	sort.Strings(keys) // deterministic error messages
	for _, key := range keys {
		e, err := netguard.ParseEntry(key)
		if err != nil {
			return nil, newError(codes.FetchConfig, err, "headers for %s", err)
		}
		if !seen[e.String()] {
			return nil, newError(codes.FetchConfig, nil, "headers for %q: the entry is not in the allow list; add it there too", key)
		}
		if _, dup := c.inject[e.String()]; dup {
			return nil, newError(codes.FetchConfig, nil, "headers for %q are given twice", key)
		}
		hs, secrets, err := parseInjected(key, cfg.Headers[key], getenv)
		if err != nil {
			return nil, err
		}
		c.inject[e.String()] = hs
		c.secrets = append(c.secrets, secrets...)
	}
	c.secrets = foldSecrets(secretForms(c.secrets))
	return c, nil
}

// parseInjected validates one entry's headers and resolves "env:" values;
// it also returns the parts of the secret values to redact (secretParts).
// Errors never contain a value.
func parseInjected(key string, m map[string]string, getenv func(string) (string, bool)) ([]header, []string, error) {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []header
	var secrets []string
	canon := map[string]bool{}
	for _, n := range names {
		if !httpguts.ValidHeaderFieldName(n) {
			return nil, nil, newError(codes.FetchConfig, nil, "headers for %q: %q is not a valid header name", key, n)
		}
		cn := http.CanonicalHeaderKey(n)
		if reason := forbiddenHeader(cn); reason != "" {
			return nil, nil, newError(codes.FetchConfig, nil, "headers for %q: %s may not be injected (%s)", key, cn, reason)
		}
		if canon[cn] {
			return nil, nil, newError(codes.FetchConfig, nil, "headers for %q: %s is given twice (names are case-insensitive)", key, cn)
		}
		canon[cn] = true
		v := m[n]
		if name, ok := strings.CutPrefix(v, "env:"); ok {
			if name == "" {
				return nil, nil, newError(codes.FetchConfig, nil, "headers for %q: %s: \"env:\" needs a variable name", key, cn)
			}
			ev, found := getenv(name)
			if !found {
				return nil, nil, newError(codes.FetchConfig, nil, "headers for %q: %s: environment variable %s is not set", key, cn, name)
			}
			if ev == "" {
				return nil, nil, newError(codes.FetchConfig, nil, "headers for %q: %s: environment variable %s is empty", key, cn, name)
			}
			v = ev
			secrets = append(secrets, secretParts(cn, v)...)
		} else if secretLiteral(cn, v) {
			secrets = append(secrets, secretParts(cn, v)...)
		}
		if !httpguts.ValidHeaderFieldValue(v) {
			return nil, nil, newError(codes.FetchConfig, nil, "headers for %q: the value of %s has control characters (CR, LF or NUL)", key, cn)
		}
		out = append(out, header{name: cn, value: v})
	}
	return out, secrets, nil
}

// secretLiteral reports whether a literal injected value is redacted
// like one from the environment (those always are): a careful operator
// expects every value the program never sees to stay hidden, unless it
// is obviously public. A name that says credential (credentialName) makes
// it secret whatever else; then a header whose value is public by nature
// (publicHeader) is not; then the value decides (tokenLike). What stays in
// the clear is a public header's value, or a short or plainly worded
// value under an ordinary name ("fast", "application/json", "modebox
// integration"): redacting those everywhere would garble responses for
// no protection.
func secretLiteral(canon, v string) bool {
	if credentialName(canon) {
		return true
	}
	if publicHeader(canon, v) {
		return false
	}
	return tokenLike(v)
}

// publicHeaders are request headers whose values describe the request or
// the client, never a credential.
var publicHeaders = map[string]bool{
	"Accept": true, "Cache-Control": true, "Content-Encoding": true, "Content-Language": true, "Content-Type": true,
	"Date": true, "Dnt": true, "Origin": true, "Pragma": true, "Prefer": true, "Priority": true,
	"Range": true, "Save-Data": true, "Upgrade-Insecure-Requests": true, "User-Agent": true,
	"X-Requested-With": true,
}

// publicPrefixes and publicSuffixes name more such headers: content
// negotiation (Accept-*), conditional requests (If-*: dates and entity
// tags the server made), the browser's fetch metadata and client hints
// (Sec-*), API versions ("Notion-Version", "X-GitHub-Api-Version": a date
// or number that responses often repeat) and opt-in features
// ("Anthropic-Beta").
var (
	publicPrefixes = []string{"Accept-", "If-", "Sec-"}
	publicSuffixes = []string{"-Version", "-Beta"}
)

// publicHeader reports whether the value v of the header canon is public
// by nature. A Referer is, unless it holds a query, a fragment or user
// information, where tokens travel.
func publicHeader(canon, v string) bool {
	if canon == "Referer" {
		return !strings.ContainsAny(v, "?#@")
	}
	if publicHeaders[canon] {
		return true
	}
	for _, p := range publicPrefixes {
		if strings.HasPrefix(canon, p) {
			return true
		}
	}
	for _, x := range publicSuffixes {
		if strings.HasSuffix(canon, x) {
			return true
		}
	}
	return false
}

// credentialName reports whether a header name says its value is a
// credential: Authorization, Cookie, a name containing one of
// credentialWords, or one with a part (between '-' or '_') starting with
// one of credentialPrefixes, unless that part starts with "api" and is
// followed only by a public suffix ("X-GitHub-Api-Version" is a version;
// "X-Api-Key-Version" still names a key, "X-Passphrase-Version" a
// passphrase).
func credentialName(canon string) bool {
	l := strings.ToLower(canon)
	if l == "authorization" || l == "cookie" {
		return true
	}
	for _, w := range credentialWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	parts := strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == '_' })
	for i, part := range parts {
		for _, p := range credentialPrefixes {
			if !strings.HasPrefix(part, p) {
				continue
			}
			if p == "api" && i == len(parts)-2 && (parts[i+1] == "version" || parts[i+1] == "beta") {
				continue
			}
			return true
		}
	}
	return false
}

var (
	credentialWords = []string{"auth", "bearer", "cookie", "cred", "csrf", "jwt", "key", "password",
		"private", "secret", "session", "signature", "token", "xsrf"}
	// short words, matched at the start of a part only ("X-Api-User",
	// "X-Passphrase", "X-Sig"; not "X-Bypass-Cache")
	credentialPrefixes = []string{"api", "pass", "sig"}
)

// tokenLike reports whether a literal value looks like a secret: it is
// not a media type with its parameters ("application/json;
// charset=utf-8"), and it is one word (no spaces or tabs) of at least
// minPartLen bytes ("acme-corp-production" could be a key), or it has a
// word that long that is not a media type and looks made, not written: it
// has a digit, a capital after its first byte, or one of the symbols
// tokens are made of ("Token abcd1234efgh": yes; "modebox integration":
// no).
func tokenLike(v string) bool {
	if mediaType(strings.TrimSpace(v)) {
		return false
	}
	words := strings.Fields(v)
	for _, w := range words {
		if len(w) < minPartLen || mediaType(w) {
			continue
		}
		if len(words) == 1 || madeWord(w) {
			return true
		}
	}
	return false
}

// madeWord reports whether w has a digit, an upper-case letter after its
// first byte, or one of + / = _ ~ %.
func madeWord(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= '0' && c <= '9', i > 0 && c >= 'A' && c <= 'Z':
			return true
		case strings.IndexByte("+/=_~%", c) >= 0:
			return true
		}
	}
	return false
}

// mediaType reports whether w starts like a media type: one of the
// registered top-level types, then '/'.
func mediaType(w string) bool {
	top, _, ok := strings.Cut(strings.ToLower(w), "/")
	if !ok {
		return false
	}
	switch top {
	case "application", "audio", "font", "image", "message", "model", "multipart", "text", "video", "*":
		return true
	}
	return false
}

// forbiddenHeader says why a header name may not be set by the guest or
// injected, or "" if it may. canon is canonical (http.CanonicalHeaderKey).
func forbiddenHeader(canon string) string {
	switch canon {
	case "Host":
		return "the host comes from the URL"
	case "Content-Length", "Transfer-Encoding":
		return "the body framing is set by the host"
	case "Connection", "Keep-Alive", "Te", "Trailer", "Upgrade", "Http2-Settings":
		return "hop-by-hop headers are managed by the host"
	case "Expect":
		return "the host does not send Expect"
	case "Accept-Encoding":
		return "the host negotiates compression so that the size cap applies after decompression"
	}
	if strings.HasPrefix(canon, "Proxy-") {
		return "no proxy is used"
	}
	return ""
}
