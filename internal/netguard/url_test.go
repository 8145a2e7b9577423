package netguard

import (
	"errors"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

func TestCheckURLRefused(t *testing.T) {
	refused := []string{
		// numeric host forms that resolvers and browsers read as 127.0.0.1 / 0.0.0.0
		"http://2130706433/",
		"http://0x7f000001/",
		"http://0X7F000001/",
		"http://0177.0.0.1/",
		"http://0177.0000.0000.0001/",
		"http://127.1/",
		"http://127.0.1/",
		"http://0/",
		"http://0x7f.1/",
		"http://017700000001/",
		"http://0x/",
		"http://127.0.0.01/",
		"http://1.2.3.4.5/",
		"http://foo.123/",
		"http://2852039166/", // 169.254.169.254
		"http://0xa9fea9fe/", // 169.254.169.254
		"http://0251.0376.0251.0376/",
		"http://169.254.43518/", // 169.254.169.254
		// non-ASCII digits and dots that map to an address
		"http://１２７.０.０.１/",
		"http://127。0。0。1/",
		"http://127．0．0．1/",
		"http://①②⑦.0.0.1/",
		"http://%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1/", // percent-encoded full-width digits
		"http://１６９.２５４.１６９.２５４/",
		// trailing dots and empty labels
		"http://localhost./",
		"http://127.0.0.1./",
		"http://localhost。/",
		"http://a..b/",
		"http://.a/",
		// userinfo and parser confusion
		"http://user@evil@127.0.0.1/",
		"http://user@127.0.0.1/",
		"http://user:pass@example.com/",
		"http://evil.com\\@127.0.0.1/",
		"http:/\\127.0.0.1/",
		"http:\\\\127.0.0.1/",
		"http://127.0.0.1:80@evil.com/",
		"http://127.0.0.1%2523@evil.com/",
		"//host/",
		"//127.0.0.1/",
		"127.0.0.1/",
		"host:80",
		"http:127.0.0.1",
		"http:/127.0.0.1/",
		"http:///127.0.0.1",
		"http://",
		"http://:80/",
		"http://%31%32%37.0.0.1/",
		"http://0000%8000",    // decodes to invalid UTF-8 (a fuzz find)
		"http://a%C0%AE.com/", // overlong encoding
		"http://127.0.0.1%00.example.com/",
		"http://exa mple.com/",
		"http://example.com/\r\nX: y",
		"http://example.com/\x7f",
		"http://example.com\t/",
		"http://ex\xffample.com/",
		"http://under_score.example/",
		// zones
		"http://[fe80::1%25eth0]/",
		"http://[::1%25lo]/",
		"http://[fe80::1%eth0]/",
		// ports
		"http://example.com:0/",
		"http://example.com:65536/",
		"http://example.com:080/",
		"http://example.com:/",
		"http://example.com:+80/",
		// brackets
		"http://[::1/",
		"http://[127.0.0.1]/",
		"http://[example.com]/",
		// other schemes
		"file:///etc/passwd",
		"file://localhost/etc/passwd",
		"gopher://127.0.0.1/_GET%20/",
		"ftp://example.com/",
		"data:text/plain,hello",
		"javascript:alert(1)",
		"ws://example.com/",
		"mailto:a@example.com",
		"HTTP://" + strings.Repeat("a", MaxURLLength),
	}
	for _, raw := range refused {
		t.Run(raw, func(t *testing.T) {
			tg, err := CheckURL(raw)
			if err == nil {
				t.Fatalf("accepted: host %q port %d", tg.Host, tg.Port)
			}
			var ge *Error
			if !errors.As(err, &ge) || ge.Code != codes.BadURL || codes.Code(ge.ErrorCode()) != codes.BadURL {
				t.Fatalf("%v is not a BAD_URL *Error", err)
			}
		})
	}
}

// TestCheckURLAddressForms: IP literals in canonical form pass the URL
// check (they are what they say), and Classify refuses them.
func TestCheckURLAddressForms(t *testing.T) {
	cases := map[string]Class{
		"http://127.0.0.1/":                              ClassLoopback,
		"http://0.0.0.0/":                                ClassUnspecified,
		"http://169.254.169.254/":                        ClassMetadata,
		"http://100.100.100.200/":                        ClassMetadata,
		"http://10.1.2.3/":                               ClassPrivate,
		"http://[::]/":                                   ClassUnspecified,
		"http://[::1]/":                                  ClassLoopback,
		"http://[0:0:0:0:0:0:0:1]/":                      ClassLoopback,
		"http://[::ffff:127.0.0.1]/":                     ClassLoopback,
		"http://[::ffff:7f00:1]/":                        ClassLoopback,
		"http://[0:0:0:0:0:ffff:169.254.169.254]/":       ClassMetadata,
		"http://[::ffff:a9fe:a9fe]:8080/":                ClassMetadata,
		"http://[64:ff9b::7f00:1]/":                      ClassNAT64,
		"http://[64:ff9b::a9fe:a9fe]/":                   ClassNAT64,
		"http://[64:ff9b:1::a9fe:a9fe]/":                 ClassNAT64,
		"http://[2002:7f00:1::]/":                        Class6to4,
		"http://[2002:a9fe:a9fe::1]/":                    Class6to4,
		"http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/": ClassTeredo,   // Teredo, client 127.0.0.1
		"http://[::127.0.0.1]/":                          ClassReserved, // IPv4-compatible
		"http://[::ffff:0:127.0.0.1]/":                   ClassReserved, // SIIT
		"http://[fd00:ec2::254]/":                        ClassMetadata,
		"http://[fe80::1]/":                              ClassLinkLocal,
		"http://[fc00::1]/":                              ClassPrivate,
		"http://[ff02::1]/":                              ClassMulticast,
		"http://[2001:db8::1]/":                          ClassDocumentation,
	}
	for raw, want := range cases {
		tg, err := CheckURL(raw)
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		if !tg.IP.IsValid() {
			t.Errorf("%s: no IP", raw)
			continue
		}
		if got := Classify(tg.IP); got != want {
			t.Errorf("%s: class %q, want %q", raw, got, want)
		}
		if CheckAddr(tg.IP, false) == nil {
			t.Errorf("%s: CheckAddr allows it", raw)
		}
	}
}

func TestCheckURLAccepted(t *testing.T) {
	cases := []struct {
		raw, host, url string
		port           int
	}{
		{"https://Example.COM/path?q=1#f", "example.com", "https://example.com/path?q=1#f", 443},
		{"HTTP://example.com", "example.com", "http://example.com", 80},
		{"http://example.com:80/", "example.com", "http://example.com/", 80},
		{"http://example.com:8080/", "example.com", "http://example.com:8080/", 8080},
		{"https://example.com:443/", "example.com", "https://example.com/", 443},
		{"http://bücher.example/", "xn--bcher-kva.example", "http://xn--bcher-kva.example/", 80},
		{"http://ｌｏｃａｌｈｏｓｔ/", "localhost", "http://localhost/", 80}, // a name: the resolver and the dialer decide
		{"http://8.8.8.8/", "8.8.8.8", "http://8.8.8.8/", 80},
		{"http://[2606:4700::1111]:8443/", "2606:4700::1111", "http://[2606:4700::1111]:8443/", 8443},
		{"http://[2606:4700:0::1111]/", "2606:4700::1111", "http://[2606:4700::1111]/", 80},
		{"http://a-b.c1.example/", "a-b.c1.example", "http://a-b.c1.example/", 80},
		{"http://1e1.example/", "1e1.example", "http://1e1.example/", 80},
	}
	for _, tc := range cases {
		tg, err := CheckURL(tc.raw)
		if err != nil {
			t.Errorf("%s: %v", tc.raw, err)
			continue
		}
		if tg.Host != tc.host || tg.Port != tc.port || tg.URL.String() != tc.url {
			t.Errorf("%s: got %q %d %q", tc.raw, tg.Host, tg.Port, tg.URL)
		}
	}
}

func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"http://example.com/", "http://0x7f.1/", "http://[::ffff:127.0.0.1]/", "http://１２７.０.０.１/", "https://a.b:8080/x?y#z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		tg, err := CheckURL(raw)
		if err != nil {
			return
		}
		// what passes is canonical: checking it again gives the same target
		again, err := CheckURL(tg.URL.String())
		if err != nil || again.Host != tg.Host || again.Port != tg.Port {
			t.Fatalf("%q → %q → %v %+v", raw, tg.URL, err, again)
		}
		if tg.IP.IsValid() != (again.IP.IsValid()) {
			t.Fatal("IP")
		}
		for _, c := range tg.Host {
			if c > 0x7e || c <= ' ' {
				t.Fatalf("non-ASCII host %q", tg.Host)
			}
		}
	})
}

// TestCheckURLBoundAfterEscaping: the length bound holds for the canonical
// URL, which escapes what the raw one may leave bare: 3,000 "}" are 3 KB
// raw and 9 KB escaped (refused), 2,000 are 6 KB escaped (accepted, and
// checking the canonical URL again accepts it too). The fuzzer found a URL
// that passed and whose canonical form did not.
func TestCheckURLBoundAfterEscaping(t *testing.T) {
	if _, err := CheckURL("http://a/" + strings.Repeat("}", 3000)); err == nil || !strings.Contains(err.Error(), "once escaped") {
		t.Fatalf("a URL 9 KB long once escaped: %v", err)
	}
	tg, err := CheckURL("http://a/" + strings.Repeat("}", 2000))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CheckURL(tg.URL.String()); err != nil {
		t.Fatalf("the canonical URL is refused: %v", err)
	}
}
