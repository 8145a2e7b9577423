package netguard

import (
	"encoding/binary"
	"math/rand/v2"
	"net/netip"
	"testing"

	"code.dny.dev/ssrf"

	"github.com/modebox/modebox/internal/codes"
)

func TestClassify(t *testing.T) {
	cases := map[string]Class{
		"8.8.8.8":                              ClassPublic,
		"1.1.1.1":                              ClassPublic,
		"0.0.0.0":                              ClassUnspecified,
		"0.255.255.255":                        ClassUnspecified,
		"1.0.0.0":                              ClassPublic,
		"9.255.255.255":                        ClassPublic,
		"10.0.0.0":                             ClassPrivate,
		"10.255.255.255":                       ClassPrivate,
		"11.0.0.0":                             ClassPublic,
		"100.63.255.255":                       ClassPublic,
		"100.64.0.0":                           ClassSharedCGNAT,
		"100.100.100.200":                      ClassMetadata,
		"100.127.255.255":                      ClassSharedCGNAT,
		"100.128.0.0":                          ClassPublic,
		"126.255.255.255":                      ClassPublic,
		"127.0.0.1":                            ClassLoopback,
		"127.255.255.255":                      ClassLoopback,
		"128.0.0.0":                            ClassPublic,
		"169.254.0.1":                          ClassLinkLocal,
		"169.254.169.254":                      ClassMetadata,
		"172.15.255.255":                       ClassPublic,
		"172.16.0.0":                           ClassPrivate,
		"172.31.255.255":                       ClassPrivate,
		"172.32.0.0":                           ClassPublic,
		"192.0.0.8":                            ClassReserved,
		"192.0.2.1":                            ClassDocumentation,
		"192.88.99.1":                          Class6to4,
		"192.168.1.1":                          ClassPrivate,
		"198.18.0.1":                           ClassBenchmark,
		"198.19.255.255":                       ClassBenchmark,
		"198.20.0.0":                           ClassPublic,
		"224.0.0.1":                            ClassMulticast,
		"239.255.255.255":                      ClassMulticast,
		"240.0.0.1":                            ClassReserved,
		"255.255.255.255":                      ClassReserved,
		"::":                                   ClassUnspecified,
		"::1":                                  ClassLoopback,
		"::2":                                  ClassReserved,
		"::ffff:127.0.0.1":                     ClassLoopback,
		"::ffff:7f00:1":                        ClassLoopback,
		"::ffff:169.254.169.254":               ClassMetadata,
		"::ffff:8.8.8.8":                       ClassPublic,
		"::ffff:0.0.0.0":                       ClassUnspecified,
		"::127.0.0.1":                          ClassReserved,
		"64:ff9b::7f00:1":                      ClassNAT64,
		"64:ff9b::a9fe:a9fe":                   ClassNAT64,
		"64:ff9b::808:808":                     ClassNAT64,
		"64:ff9b:1::1":                         ClassNAT64,
		"100::1":                               ClassReserved, // discard-only
		"2001::1":                              ClassTeredo,
		"2001:0:4136:e378:8000:63bf:3fff:fdd2": ClassTeredo,
		"2001:1::1":                            ClassReserved,
		"2001:1ff:ffff::":                      ClassReserved,
		"2001:200::1":                          ClassPublic,
		"2001:db8::1":                          ClassDocumentation,
		"2001:4860:4860::8888":                 ClassPublic,
		"2002:7f00:1::":                        Class6to4,
		"2002:a9fe:a9fe::":                     Class6to4,
		"2003::1":                              ClassPublic,
		"2606:4700::1111":                      ClassPublic,
		"2620:4f:8000::1":                      ClassReserved,
		"3fff::1":                              ClassDocumentation,
		"3fff:1000::":                          ClassPublic,
		"4000::1":                              ClassReserved,
		"fc00::1":                              ClassPrivate,
		"fd00:ec2::254":                        ClassMetadata,
		"fe80::1":                              ClassLinkLocal,
		"fe80::1%eth0":                         ClassLinkLocal,
		"febf::1":                              ClassLinkLocal,
		"fec0::1":                              ClassReserved, // site-local (deprecated)
		"ff02::1":                              ClassMulticast,
		"::1%lo":                               ClassLoopback,
		"::ffff:127.0.0.1%eth0":                ClassLoopback,
	}
	for s, want := range cases {
		if got := Classify(netip.MustParseAddr(s)); got != want {
			t.Errorf("%s: %q, want %q", s, got, want)
		}
	}
	if Classify(netip.Addr{}) != ClassInvalid || CheckAddr(netip.Addr{}, true) == nil {
		t.Error("the zero Addr")
	}
}

func TestCheckAddrAllowance(t *testing.T) {
	for s, ok := range map[string]bool{
		"127.0.0.1": true, "::1": true, "10.0.0.1": true, "169.254.169.254": true, "::ffff:127.0.0.1": true,
		"0.0.0.0": false, "::": false, "::ffff:0.0.0.0": false, "224.0.0.1": false, "ff02::1": false,
	} {
		a := netip.MustParseAddr(s)
		if CheckAddr(a, false) == nil {
			t.Errorf("%s allowed without an allowance", s)
		}
		if err := CheckAddr(a, true); (err == nil) != ok {
			t.Errorf("%s with an allowance: %v", s, err)
		}
	}
	err := CheckAddr(netip.MustParseAddr("::ffff:169.254.169.254"), false)
	if err == nil || err.(*Error).Code != codes.AddressRefused || err.Error() != "ADDRESS_REFUSED: 169.254.169.254 is a cloud metadata address; it is reachable only through an allowlist entry that names this IP, or a host entry marked private" {
		t.Errorf("message: %v", err)
	}
}

// difference is one documented way in which Classify and ssrf differ.
type difference struct {
	prefix netip.Prefix
	// oursPublic and ssrfPublic are the two verdicts inside prefix.
	oursPublic, ssrfPublic bool
	why                    string
	// check verifies the explanation for one address.
	check func(a netip.Addr) bool
}

// documentedDifferences lists every range where Classify and
// code.dny.dev/ssrf (default Guardian) disagree, with the reason.
var documentedDifferences = []difference{
	{
		prefix:     netip.MustParsePrefix("::ffff:0:0/96"),
		oursPublic: true, ssrfPublic: false,
		why: "IPv4-mapped IPv6: ssrf refuses all of ::ffff:0:0/96 because it lies outside 2000::/3; " +
			"Classify unmaps first and classifies the IPv4 address, which is what the Dialer dials " +
			"(it dials Normalize(a)). So a mapped address is public for us exactly when ssrf allows the " +
			"embedded IPv4 address; mapped private addresses are refused by both.",
		check: func(a netip.Addr) bool {
			return ssrf.New(ssrf.WithAnyPort(), ssrf.WithAnyNetwork()).SafeAddr(a.Unmap()) == nil
		},
	},
}

// TestCrossCheckSSRF compares Classify with code.dny.dev/ssrf on over a
// million random addresses and on every range boundary ±1.
func TestCrossCheckSSRF(t *testing.T) {
	g := ssrf.New(ssrf.WithAnyPort(), ssrf.WithAnyNetwork())
	var prefixes []netip.Prefix
	for _, r := range v4Ranges {
		prefixes = append(prefixes, r.prefix)
	}
	for _, r := range v6Outside {
		prefixes = append(prefixes, r.prefix)
	}
	for _, r := range v6Inside {
		prefixes = append(prefixes, r.prefix)
	}
	prefixes = append(prefixes, global6, ssrf.IPv6GlobalUnicast, ssrf.IPv6NAT64Prefix,
		netip.MustParsePrefix("::ffff:0:0/96"), netip.MustParsePrefix("::/96"), netip.MustParsePrefix("100::/64"))
	prefixes = append(prefixes, ssrf.IPv4DeniedPrefixes...)
	prefixes = append(prefixes, ssrf.IPv6DeniedPrefixes...)

	var sample []netip.Addr
	for _, p := range prefixes {
		first, last := p.Masked().Addr(), lastAddr(p)
		sample = append(sample, first, last, first.Prev(), last.Next())
		if first.Is4() { // the same boundaries, IPv4-mapped
			for _, a := range []netip.Addr{first, last, first.Prev(), last.Next()} {
				if a.IsValid() {
					sample = append(sample, netip.AddrFrom16(a.As16()))
				}
			}
		}
	}
	for _, m := range metadata {
		sample = append(sample, m, m.Prev(), m.Next())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 400_000
	for i := 0; i < n; i++ {
		var b4 [4]byte
		binary.BigEndian.PutUint32(b4[:], rng.Uint32())
		v4 := netip.AddrFrom4(b4)
		sample = append(sample, v4, netip.AddrFrom16(v4.As16())) // plain and mapped
		var b16 [16]byte
		binary.BigEndian.PutUint64(b16[:8], rng.Uint64())
		binary.BigEndian.PutUint64(b16[8:], rng.Uint64())
		switch i % 3 {
		case 0: // anywhere
		case 1: // inside 2000::/3, where the interesting ranges are
			b16[0] = 0x20 | b16[0]&0x1f
		case 2: // inside one of the listed prefixes
			p := prefixes[rng.IntN(len(prefixes))]
			if p.Addr().Is4() {
				b16 = [16]byte{10: 0xff, 11: 0xff}
				copy(b16[12:], randomIn(rng, p).AsSlice())
			} else {
				b16 = randomIn(rng, p).As16()
			}
		}
		sample = append(sample, netip.AddrFrom16(b16))
	}
	var invalid int
	counts := make([]int, len(documentedDifferences))
	for _, a := range sample {
		if !a.IsValid() {
			invalid++
			continue
		}
		ours := IsPublic(a)
		theirs := g.SafeAddr(a) == nil
		if ours == theirs {
			continue
		}
		explained := false
		for i, d := range documentedDifferences {
			if d.prefix.Contains(a) && d.oursPublic == ours && d.ssrfPublic == theirs && d.check(a) {
				counts[i]++
				explained = true
				break
			}
		}
		if !explained {
			if ours {
				t.Errorf("%s: ssrf refuses it, Classify says %q", a, Classify(a))
			} else {
				t.Errorf("%s: Classify says %q, ssrf allows it, and no documented difference explains it", a, Classify(a))
			}
		}
	}
	t.Logf("compared %d addresses (%d random v4, %d random mapped v4, %d random v6, the rest boundaries)", len(sample)-invalid, n, n, n)
	for i, d := range documentedDifferences {
		t.Logf("documented difference %s (ours public=%v, ssrf public=%v): %d addresses", d.prefix, d.oursPublic, d.ssrfPublic, counts[i])
	}
	if len(sample)-invalid < 1_000_000 {
		t.Fatalf("only %d addresses", len(sample)-invalid)
	}
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

func randomIn(rng *rand.Rand, p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		if rng.IntN(2) == 1 {
			b[i/8] |= 0x80 >> (i % 8)
		}
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

func BenchmarkClassify(b *testing.B) {
	as := []netip.Addr{netip.MustParseAddr("8.8.8.8"), netip.MustParseAddr("2606:4700::1111"), netip.MustParseAddr("::ffff:127.0.0.1")}
	for i := 0; b.Loop(); i++ {
		Classify(as[i%len(as)])
	}
}
