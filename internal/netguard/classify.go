package netguard

import (
	"net/netip"
	"strings"
)

// Class is what kind of address an IP is. Only ClassPublic is reachable
// without an explicit allowance.
type Class string

// Classes.
const (
	ClassPublic        Class = "public"
	ClassUnspecified   Class = "unspecified"
	ClassLoopback      Class = "loopback"
	ClassPrivate       Class = "private"
	ClassSharedCGNAT   Class = "shared address space"
	ClassLinkLocal     Class = "link-local"
	ClassMetadata      Class = "cloud metadata"
	ClassMulticast     Class = "multicast"
	ClassDocumentation Class = "documentation"
	ClassBenchmark     Class = "benchmarking"
	ClassReserved      Class = "reserved"
	ClassNAT64         Class = "NAT64"
	Class6to4          Class = "6to4"
	ClassTeredo        Class = "Teredo"
	ClassInvalid       Class = "invalid"
)

// Article returns the indefinite article the class takes in a sentence:
// "an" for "an unspecified address", "a" for "a loopback address".
func (c Class) Article() string {
	if c != "" && strings.ContainsRune("aeiouAEIOU", rune(c[0])) {
		return "an"
	}
	return "a"
}

type rangeClass struct {
	prefix netip.Prefix
	class  Class
}

// metadata addresses come first: they sit inside wider ranges.
var metadata = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"),
	netip.MustParseAddr("fd00:ec2::254"),
	netip.MustParseAddr("100.100.100.200"),
}

var v4Ranges = []rangeClass{
	{netip.MustParsePrefix("0.0.0.0/8"), ClassUnspecified},
	{netip.MustParsePrefix("10.0.0.0/8"), ClassPrivate},
	{netip.MustParsePrefix("100.64.0.0/10"), ClassSharedCGNAT},
	{netip.MustParsePrefix("127.0.0.0/8"), ClassLoopback},
	{netip.MustParsePrefix("169.254.0.0/16"), ClassLinkLocal},
	{netip.MustParsePrefix("172.16.0.0/12"), ClassPrivate},
	{netip.MustParsePrefix("192.0.0.0/24"), ClassReserved},
	{netip.MustParsePrefix("192.0.2.0/24"), ClassDocumentation},
	{netip.MustParsePrefix("192.31.196.0/24"), ClassReserved},
	{netip.MustParsePrefix("192.52.193.0/24"), ClassReserved},
	{netip.MustParsePrefix("192.88.99.0/24"), Class6to4},
	{netip.MustParsePrefix("192.168.0.0/16"), ClassPrivate},
	{netip.MustParsePrefix("192.175.48.0/24"), ClassReserved},
	{netip.MustParsePrefix("198.18.0.0/15"), ClassBenchmark},
	{netip.MustParsePrefix("198.51.100.0/24"), ClassDocumentation},
	{netip.MustParsePrefix("203.0.113.0/24"), ClassDocumentation},
	{netip.MustParsePrefix("224.0.0.0/4"), ClassMulticast},
	{netip.MustParsePrefix("240.0.0.0/4"), ClassReserved},
}

// v6Outside names the common ranges outside 2000::/3 (all of which are
// refused); v6Inside the refused ranges inside it.
var v6Outside = []rangeClass{
	{netip.MustParsePrefix("::/128"), ClassUnspecified},
	{netip.MustParsePrefix("::1/128"), ClassLoopback},
	{netip.MustParsePrefix("64:ff9b::/96"), ClassNAT64},
	{netip.MustParsePrefix("64:ff9b:1::/48"), ClassNAT64},
	{netip.MustParsePrefix("fc00::/7"), ClassPrivate},
	{netip.MustParsePrefix("fe80::/10"), ClassLinkLocal},
	{netip.MustParsePrefix("ff00::/8"), ClassMulticast},
}

var (
	global6  = netip.MustParsePrefix("2000::/3")
	v6Inside = []rangeClass{
		{netip.MustParsePrefix("2001::/32"), ClassTeredo},
		{netip.MustParsePrefix("2001::/23"), ClassReserved},
		{netip.MustParsePrefix("2001:db8::/32"), ClassDocumentation},
		{netip.MustParsePrefix("2002::/16"), Class6to4},
		{netip.MustParsePrefix("2620:4f:8000::/48"), ClassReserved},
		{netip.MustParsePrefix("3fff::/20"), ClassDocumentation},
	}
)

// Normalize drops an IPv6 zone and unmaps IPv4-mapped IPv6 addresses, so
// that prefix checks see the address that is really dialled
// (netip.Prefix.Contains is false for zoned and for mapped addresses).
func Normalize(a netip.Addr) netip.Addr {
	return a.WithZone("").Unmap()
}

// Classify returns the class of a after Normalize.
func Classify(a netip.Addr) Class {
	if !a.IsValid() {
		return ClassInvalid
	}
	a = Normalize(a)
	for _, m := range metadata {
		if a == m {
			return ClassMetadata
		}
	}
	if a.Is4() {
		for _, r := range v4Ranges {
			if r.prefix.Contains(a) {
				return r.class
			}
		}
		return ClassPublic
	}
	if !global6.Contains(a) {
		for _, r := range v6Outside {
			if r.prefix.Contains(a) {
				return r.class
			}
		}
		return ClassReserved
	}
	for _, r := range v6Inside {
		if r.prefix.Contains(a) {
			return r.class
		}
	}
	return ClassPublic
}

// IsPublic reports whether a may be dialled without an explicit allowance.
func IsPublic(a netip.Addr) bool { return Classify(a) == ClassPublic }
