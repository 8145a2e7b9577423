package netguard

import (
	"net/netip"
	"testing"

	"code.dny.dev/ssrf"
)

// FuzzClassify checks the classifier on arbitrary addresses: mapped and
// zoned forms classify like the address they stand for, CheckAddr agrees
// with IsPublic, an allowance never opens the unspecified or multicast
// ranges, and nothing ssrf refuses is public for us (apart from the one
// documented difference, IPv4-mapped forms of public IPv4 addresses).
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "169.254.169.254", "::1", "::ffff:127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::",
		"2001::1", "fe80::1", "fd00:ec2::254", "100.100.100.200", "8.8.8.8", "2606:4700::1", "0.0.0.0", "224.0.0.1", "ff02::1"} {
		a := netip.MustParseAddr(s)
		b := a.As16()
		f.Add(b[:], a.Is4(), "eth0")
	}
	g := ssrf.New(ssrf.WithAnyPort(), ssrf.WithAnyNetwork())
	f.Fuzz(func(t *testing.T, raw []byte, v4 bool, zone string) {
		var b [16]byte
		copy(b[:], raw)
		a := netip.AddrFrom16(b)
		if v4 {
			a = netip.AddrFrom4([4]byte(b[12:]))
		}
		c := Classify(a)
		if (CheckAddr(a, false) == nil) != (c == ClassPublic) {
			t.Fatalf("%s: CheckAddr and Classify disagree (%s)", a, c)
		}
		if c == ClassUnspecified || c == ClassMulticast {
			if CheckAddr(a, true) == nil {
				t.Fatalf("%s: an allowance opened %s", a, c)
			}
		}
		if a.Is4() {
			if m := netip.AddrFrom16(a.As16()); Classify(m) != c {
				t.Fatalf("%s: mapped form classifies as %s, not %s", a, Classify(m), c)
			}
		}
		if a.Is6() && zone != "" && !a.Is4In6() {
			if z := a.WithZone(zone); Classify(z) != c {
				t.Fatalf("%s%%%s: zoned form classifies as %s, not %s", a, zone, Classify(z), c)
			}
		}
		if c == ClassPublic && g.SafeAddr(a) != nil {
			if !(a.Is4In6() && g.SafeAddr(a.Unmap()) == nil) {
				t.Fatalf("%s: public for us, refused by ssrf", a)
			}
		}
	})
}
