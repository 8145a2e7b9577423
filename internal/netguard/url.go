package netguard

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/modebox/modebox/internal/codes"
)

// Error is a refused URL, host or address; its Code is [codes.BadURL],
// [codes.AddressRefused] or [codes.HostNotAllowed].
type Error = codes.Error[errorOf]

// errorOf keeps this package's errors apart from other packages' (see
// [codes.Error]).
type errorOf struct{}

func badURL(format string, a ...any) *Error {
	return &Error{Code: codes.BadURL, Message: fmt.Sprintf(format, a...)}
}

// Target is a checked URL: the parsed URL with its host in ASCII
// (lower case, IDNA-converted), and the port made explicit.
type Target struct {
	URL  *url.URL
	Host string     // ASCII host name or IP literal without brackets
	IP   netip.Addr // valid when Host is an IP literal
	Port int
}

// HostPort is "host:port" with IPv6 literals bracketed.
func (t Target) HostPort() string { return joinHostPort(t.Host, t.Port) }

func joinHostPort(host string, port int) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + strconv.Itoa(port)
	}
	return host + ":" + strconv.Itoa(port)
}

// MaxURLLength bounds a URL's length.
const MaxURLLength = 8192

// CheckURL parses raw and refuses what must not reach a resolver: other
// schemes than http and https, userinfo, opaque forms, backslashes,
// control characters and spaces, IPv6 zones, trailing dots and empty
// labels, and numeric host forms other than a canonical dotted quad.
// Non-ASCII hosts are converted with IDNA (the lookup profile, as net/http
// does), and the result is checked again, so full-width digits and
// ideographic dots cannot smuggle a numeric address through.
func CheckURL(raw string) (Target, error) {
	if len(raw) > MaxURLLength {
		return Target{}, badURL("the URL is longer than %d bytes", MaxURLLength)
	}
	for _, r := range raw {
		switch {
		case r < 0x20 || r == 0x7f:
			return Target{}, badURL("the URL contains a control character")
		case r == ' ':
			return Target{}, badURL("the URL contains a space")
		case r == '\\':
			return Target{}, badURL("the URL contains a backslash")
		case r == 0xfffd:
			return Target{}, badURL("the URL is not valid UTF-8")
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return Target{}, &Error{Code: codes.BadURL, Message: "the URL does not parse", Err: err}
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		if u.Scheme == "" {
			return Target{}, badURL("the URL has no scheme (http:// or https://)")
		}
		return Target{}, badURL("scheme %q is not allowed (http and https only)", u.Scheme)
	}
	u.Scheme = scheme
	if u.Opaque != "" {
		return Target{}, badURL("the URL has no authority (expected %s://host/...)", scheme)
	}
	if u.User != nil || strings.Contains(u.Host, "@") {
		return Target{}, badURL("credentials in the URL (user@host) are not allowed")
	}
	if !strings.HasPrefix(raw[len(u.Scheme)+1:], "//") {
		return Target{}, badURL("the URL must start with %s://", scheme)
	}
	host := u.Hostname()
	if host == "" {
		return Target{}, badURL("the URL has no host")
	}
	port := 80
	if scheme == "https" {
		port = 443
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 || (len(p) > 1 && p[0] == '0') {
			return Target{}, badURL("port %q is not a port number", p)
		}
		port = n
	} else if strings.HasSuffix(u.Host, ":") {
		return Target{}, badURL("the URL has an empty port")
	}
	t := Target{URL: u, Port: port}
	if strings.HasPrefix(u.Host, "[") {
		if strings.Contains(host, "%") {
			return Target{}, badURL("IPv6 zones are not allowed in URLs")
		}
		a, err := netip.ParseAddr(host)
		if err != nil || !a.Is6() {
			return Target{}, badURL("%q is not an IPv6 address", host)
		}
		t.Host, t.IP = a.String(), a
	} else {
		h, err := checkHostName(host)
		if err != nil {
			return Target{}, err
		}
		t.Host = h
		if a, err := netip.ParseAddr(h); err == nil {
			t.IP = a
		}
	}
	u.Host = t.HostPort()
	if (scheme == "http" && port == 80) || (scheme == "https" && port == 443) {
		u.Host = t.Host
		if t.IP.Is6() {
			u.Host = "[" + t.Host + "]"
		}
	}
	// the canonical URL escapes what raw may have left bare (} as %7D):
	// it is what is fetched and what a later check sees, so it is what
	// the bound holds for
	if n := len(u.String()); n > MaxURLLength {
		return Target{}, badURL("the URL is longer than %d bytes once escaped (%d)", MaxURLLength, n)
	}
	return t, nil
}

// checkHostName converts a host name to ASCII and refuses numeric forms,
// trailing dots and empty labels. A canonical dotted quad passes.
func checkHostName(host string) (string, *Error) {
	if strings.ContainsAny(host, "%[]") {
		return "", badURL("host %q has characters a host name cannot have", host)
	}
	// url.Parse has decoded %XX escapes: the bytes may not be UTF-8 any
	// more (IDNA would turn them into U+FFFD and punycode)
	if !utf8.ValidString(host) || strings.ContainsRune(host, utf8.RuneError) {
		return "", badURL("host %q is not valid UTF-8", host)
	}
	var ascii string
	if isASCII(host) {
		// net/http converts only non-ASCII hosts; an ASCII host is checked
		// below character by character, so the IDNA tables are not needed
		ascii = strings.ToLower(host)
	} else {
		a, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return "", &Error{Code: codes.BadURL, Message: fmt.Sprintf("host %q is not a valid host name", host), Err: err}
		}
		ascii = strings.ToLower(a)
	}
	if len(ascii) > 253 {
		return "", badURL("host %q is longer than 253 characters", host)
	}
	if ascii == "" {
		return "", badURL("the URL has no host")
	}
	if strings.HasSuffix(ascii, ".") {
		return "", badURL("host %q ends in a dot; write it without", host)
	}
	labels := strings.Split(ascii, ".")
	for _, l := range labels {
		if l == "" {
			return "", badURL("host %q has an empty label", host)
		}
		if len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return "", badURL("host %q has a label that is too long or starts or ends with a hyphen", host)
		}
		for _, c := range l {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return "", badURL("host %q has characters a host name cannot have", host)
			}
		}
	}
	if numericLabel(labels[len(labels)-1]) {
		a, err := netip.ParseAddr(ascii)
		if err != nil || !a.Is4() || a.String() != ascii {
			return "", badURL("host %q is a numeric address in a non-canonical form; write the address as a dotted quad (a.b.c.d)", host)
		}
		if ascii != host {
			return "", badURL("host %q is an address written with non-ASCII characters", host)
		}
	}
	return ascii, nil
}

// numericLabel reports whether a final label makes a host an IPv4 number
// in the WHATWG URL sense: all decimal digits, or 0x followed by hex.
func numericLabel(l string) bool {
	if l == "" {
		return false
	}
	if strings.HasPrefix(l, "0x") {
		for _, c := range l[2:] {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
		return true
	}
	for _, c := range l {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
