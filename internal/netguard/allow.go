package netguard

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// Entry is one allowlist entry: an optional scheme, a host (a name, an IP
// literal, or "*.suffix" for any subdomain of suffix at any depth, not
// suffix itself), a port, and an optional "private" mark.
//
// The one rule for non-public addresses (loopback, private, link-local,
// metadata, ...), shared by fetch() and the shell's proxy: an IP-literal
// entry reaches exactly that IP, whatever its class; a name entry reaches
// only public addresses, unless it is marked private ("db.internal:5432
// private", for an internal service); a wildcard entry only public ones,
// always. See [Entry.OpensPrivate].
type Entry struct {
	// Scheme is "http" or "https" when the entry was written with one
	// ("https://api.example.com:443"), "" otherwise. fetch() sends the
	// entry's injected headers over https only, unless Scheme is "http";
	// an entry with a scheme matches requests of that scheme only. The
	// shell's proxy cannot see schemes and ignores it.
	Scheme string
	// Host is the ASCII host name, IP literal, or "*.suffix".
	Host string
	// Port is the entry's port.
	Port int
	// Wildcard is true for "*.suffix" entries.
	Wildcard bool
	// IP is the address when Host is an IP literal.
	IP netip.Addr
	// Private is true for a name entry written with the " private" mark:
	// it may reach non-public addresses the name resolves to.
	Private bool
}

// PrivateMark is the suffix that lets a name entry reach non-public
// addresses.
const PrivateMark = " private"

// String is the entry as written in configuration, normalised: the
// scheme (if any), host:port with the port always written, and the
// private mark.
func (e Entry) String() string {
	s := joinHostPort(e.Host, e.Port)
	if e.Scheme != "" {
		s = e.Scheme + "://" + s
	}
	if e.Private {
		s += PrivateMark
	}
	return s
}

// Exact reports whether the entry names one host (or IP), not a pattern.
func (e Entry) Exact() bool { return !e.Wildcard }

// OpensPrivate reports whether dials through e may reach non-public
// addresses: an IP-literal entry (the target is then exactly that IP) or
// a name entry marked private. A plain name entry and a wildcard never do,
// so a name whose DNS answer is (or rebinds to) loopback or a private
// address is refused.
func (e Entry) OpensPrivate() bool {
	return !e.Wildcard && (e.IP.IsValid() || e.Private)
}

// ParseEntry parses an allowlist entry: "host:port", "[v6]:port" or
// "*.example.com:port", optionally with a scheme ("https://host:port";
// with a scheme the port may be left out and is then the scheme's
// default) and optionally followed by " private" (a name entry that may
// reach non-public addresses). The port is required without a scheme;
// host names are converted with IDNA and may not end in a dot; numeric
// hosts must be canonical.
func ParseEntry(s string) (Entry, error) {
	rest, private := strings.CutSuffix(s, PrivateMark)
	scheme := ""
	for _, sc := range []string{"https", "http"} {
		if r, ok := strings.CutPrefix(rest, sc+"://"); ok {
			scheme, rest = sc, r
			break
		}
	}
	if strings.Contains(rest, "://") {
		return Entry{}, fmt.Errorf("%q: the scheme may be http:// or https:// only", s)
	}
	if scheme != "" {
		if strings.ContainsAny(rest, "/?#@") {
			return Entry{}, fmt.Errorf("%q: an entry is scheme://host[:port], without a path, query or user", s)
		}
		if !hasPort(rest) {
			port := "443"
			if scheme == "http" {
				port = "80"
			}
			rest += ":" + port
		}
	}
	e, err := ParseHostPort(rest)
	if err != nil {
		if rest != s {
			return Entry{}, fmt.Errorf("%q: %w", s, err)
		}
		return Entry{}, err
	}
	e.Scheme = scheme
	if private {
		if e.Wildcard {
			return Entry{}, fmt.Errorf("%q: a wildcard entry never reaches non-public addresses; list the host exactly (%q)", s, "host.example:"+strconv.Itoa(e.Port)+PrivateMark)
		}
		e.Private = !e.IP.IsValid() // an IP entry reaches its IP anyway
	}
	return e, nil
}

// hasPort reports whether a host or host:port (or [v6] / [v6]:port) ends
// in a port.
func hasPort(s string) bool {
	if strings.HasPrefix(s, "[") {
		return !strings.HasSuffix(s, "]")
	}
	return strings.Contains(s, ":")
}

// ParseHostPort parses "host:port", "[v6]:port" or "*.example.com:port"
// (no scheme, no mark), as a proxy client names its target.
func ParseHostPort(s string) (Entry, error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return Entry{}, fmt.Errorf("%q has no port: write host:port (for example %q)", s, s+":443")
	}
	hostPart, portPart := s[:i], s[i+1:]
	port, err := strconv.Atoi(portPart)
	if err != nil || !allDigits(portPart) || port < 1 || port > 65535 || (len(portPart) > 1 && portPart[0] == '0') {
		return Entry{}, fmt.Errorf("%q: %q is not a port number", s, portPart)
	}
	e := Entry{Port: port}
	switch {
	case strings.HasPrefix(hostPart, "["):
		if !strings.HasSuffix(hostPart, "]") {
			return Entry{}, fmt.Errorf("%q: unbalanced brackets", s)
		}
		a, err := netip.ParseAddr(hostPart[1 : len(hostPart)-1])
		if err != nil || !a.Is6() || a.Zone() != "" {
			return Entry{}, fmt.Errorf("%q: not an IPv6 address without zone", s)
		}
		if a.Is4In6() {
			return Entry{}, fmt.Errorf("%q: an IPv4-mapped address; write the IPv4 address (%s:%d)", s, a.Unmap(), port)
		}
		e.Host, e.IP = a.String(), a
	case strings.Contains(hostPart, ":"):
		return Entry{}, fmt.Errorf("%q: write IPv6 addresses in brackets, [::1]:%d", s, port)
	case strings.HasPrefix(hostPart, "*."):
		h, cerr := checkHostName(hostPart[2:])
		if cerr != nil {
			return Entry{}, fmt.Errorf("%q: %s", s, cerr.Message)
		}
		if _, err := netip.ParseAddr(h); err == nil {
			return Entry{}, fmt.Errorf("%q: a wildcard needs a domain, not an address", s)
		}

		e.Host, e.Wildcard = "*."+h, true
	default:
		h, cerr := checkHostName(hostPart)
		if cerr != nil {
			return Entry{}, fmt.Errorf("%q: %s", s, cerr.Message)
		}
		e.Host = h
		if a, err := netip.ParseAddr(h); err == nil {
			e.IP = a
		}
	}
	return e, nil
}

// Allowlist is a list of entries.
type Allowlist []Entry

// ParseAllowlist parses every entry.
func ParseAllowlist(entries []string) (Allowlist, error) {
	out := make(Allowlist, 0, len(entries))
	for _, s := range entries {
		e, err := ParseEntry(s)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// Match finds the entry for host (ASCII, as CheckURL returns it) and port,
// whatever the entries' schemes (the shell's proxy cannot see a scheme).
// An exact entry wins over a wildcard.
func (l Allowlist) Match(host string, port int) (Entry, bool) {
	return l.MatchScheme("", host, port)
}

// MatchScheme finds the entry for a request of scheme ("http" or
// "https"; "" for any) to host and port. An entry with a scheme matches
// that scheme only. An exact entry wins over a wildcard, and among equals
// an entry that names the scheme wins over one that does not.
func (l Allowlist) MatchScheme(scheme, host string, port int) (Entry, bool) {
	host = strings.ToLower(host)
	if a, err := netip.ParseAddr(host); err == nil {
		host = a.String()
	}
	best, bestScore := -1, 0
	for i := range l {
		e := &l[i]
		if e.Port != port || (scheme != "" && e.Scheme != "" && e.Scheme != scheme) {
			continue
		}
		score := 0
		switch {
		case !e.Wildcard && e.Host == host:
			score = 4
		case e.Wildcard && strings.HasSuffix(host, e.Host[1:]) && len(host) > len(e.Host)-1:
			score = 2
		default:
			continue
		}
		if scheme != "" && e.Scheme == scheme {
			score++
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return Entry{}, false
	}
	return l[best], true
}

// allDigits reports whether s is one or more ASCII digits (strconv.Atoi
// also takes a sign).
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
