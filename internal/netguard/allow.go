package netguard

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// Entry is one allowlist entry: a host (a name, an IP literal, or
// "*.suffix" for any subdomain of suffix at any depth, not suffix itself)
// and an explicit port.
type Entry struct {
	// Host is the ASCII host name, IP literal, or "*.suffix".
	Host string
	// Port is the entry's port.
	Port int
	// Wildcard is true for "*.suffix" entries.
	Wildcard bool
	// IP is the address when Host is an IP literal.
	IP netip.Addr
}

// String is the entry as written in configuration.
func (e Entry) String() string { return joinHostPort(e.Host, e.Port) }

// Exact reports whether the entry names one host (or IP), not a pattern.
func (e Entry) Exact() bool { return !e.Wildcard }

// ParseEntry parses "host:port", "[v6]:port" or "*.example.com:port".
// The port is required; host names are converted with IDNA and may not end
// in a dot; numeric hosts must be canonical.
func ParseEntry(s string) (Entry, error) {
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
			return Entry{}, fmt.Errorf("%q: %s", s, cerr.Reason)
		}
		if _, err := netip.ParseAddr(h); err == nil {
			return Entry{}, fmt.Errorf("%q: a wildcard needs a domain, not an address", s)
		}

		e.Host, e.Wildcard = "*."+h, true
	default:
		h, cerr := checkHostName(hostPart)
		if cerr != nil {
			return Entry{}, fmt.Errorf("%q: %s", s, cerr.Reason)
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

// Match finds the entry for host (ASCII, as CheckURL returns it) and port.
// An exact entry wins over a wildcard.
func (l Allowlist) Match(host string, port int) (Entry, bool) {
	host = strings.ToLower(host)
	if a, err := netip.ParseAddr(host); err == nil {
		host = a.String()
	}
	var wild *Entry
	for i := range l {
		e := &l[i]
		if e.Port != port {
			continue
		}
		if !e.Wildcard {
			if e.Host == host {
				return *e, true
			}
			continue
		}
		if wild == nil && strings.HasSuffix(host, e.Host[1:]) && len(host) > len(e.Host)-1 {
			wild = e
		}
	}
	if wild != nil {
		return *wild, true
	}
	return Entry{}, false
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
