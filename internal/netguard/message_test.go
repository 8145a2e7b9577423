package netguard

import (
	"net/netip"
	"testing"
)

// TestRefusalMessagesReadWell: a refusal says "an unspecified address",
// not "a unspecified address", and a resolved name reads
// "x resolves to 127.0.0.1, a loopback address", not "x resolves to
// 127.0.0.1 is a loopback address".
func TestRefusalMessagesReadWell(t *testing.T) {
	const tail = "; it is reachable only through an allowlist entry that names this IP, or a host entry marked private"
	for addr, want := range map[string]string{
		"0.0.0.0":         "0.0.0.0 is an unspecified address" + tail,
		"::":              ":: is an unspecified address" + tail,
		"127.0.0.1":       "127.0.0.1 is a loopback address" + tail,
		"64:ff9b::7f00:1": "64:ff9b::7f00:1 is a NAT64 address" + tail,
		"240.0.0.1":       "240.0.0.1 is a reserved address" + tail,
	} {
		err := CheckAddr(netip.MustParseAddr(addr), false)
		if err == nil || err.(*Error).Message != want {
			t.Errorf("%s: %v, want %q", addr, err, want)
		}
	}
	d := &Dialer{Resolver: mapResolver{"loop.test": addrs("127.0.0.1"), "zero.test": addrs("0.0.0.0")}}
	for name, want := range map[string]string{
		"loop.test": "loop.test resolves to 127.0.0.1, a loopback address" + tail,
		"zero.test": "zero.test resolves to 0.0.0.0, an unspecified address" + tail,
	} {
		c, err := d.DialContext(shortCtx(t), "tcp", name+":80")
		wantRefused(t, c, err)
		if err.(*Error).Message != want {
			t.Errorf("%s: %q, want %q", name, err.(*Error).Message, want)
		}
	}
	// every class takes the article its sound needs
	for c, want := range map[Class]string{
		ClassUnspecified: "an", ClassInvalid: "an", ClassLoopback: "a", ClassPrivate: "a", ClassSharedCGNAT: "a",
		ClassLinkLocal: "a", ClassMetadata: "a", ClassMulticast: "a", ClassDocumentation: "a", ClassBenchmark: "a",
		ClassReserved: "a", ClassNAT64: "a", Class6to4: "a", ClassTeredo: "a", ClassPublic: "a",
	} {
		if got := c.Article(); got != want {
			t.Errorf("%s: %q, want %q", c, got, want)
		}
	}
}
