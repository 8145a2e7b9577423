package netguard

import "testing"

func TestParseEntry(t *testing.T) {
	ok := map[string]Entry{
		"example.com:443":   {Host: "example.com", Port: 443},
		"Example.COM:443":   {Host: "example.com", Port: 443},
		"bücher.example:80": {Host: "xn--bcher-kva.example", Port: 80},
		"*.example.com:443": {Host: "*.example.com", Port: 443, Wildcard: true},
		"127.0.0.1:8080":    {Host: "127.0.0.1", Port: 8080},
		"[::1]:8080":        {Host: "::1", Port: 8080},
		"[0:0::1]:8080":     {Host: "::1", Port: 8080},
		"localhost:65535":   {Host: "localhost", Port: 65535},
	}
	for s, want := range ok {
		e, err := ParseEntry(s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		if e.Host != want.Host || e.Port != want.Port || e.Wildcard != want.Wildcard || e.Exact() == want.Wildcard {
			t.Errorf("%s: %+v", s, e)
		}
		if e.IP.IsValid() != (e.Host == "127.0.0.1" || e.Host == "::1") {
			t.Errorf("%s: IP %v", s, e.IP)
		}
		if again, err := ParseEntry(e.String()); err != nil || again != e {
			t.Errorf("%s: String %q does not parse back: %v", s, e.String(), err)
		}
	}
	bad := []string{
		"example.com", "example.com:", "example.com:0", "example.com:65536", "example.com:080",
		"example.com:+80", "example.com:-1", "example.com:http", ":80", "::1:80", "[::1]", "[::1:80",
		"[fe80::1%eth0]:80", "[127.0.0.1]:80", "2130706433:80", "0x7f000001:80", "127.1:80", "0177.0.0.1:80",
		"localhost.:80", "a..b:80", "*:80", "*.:80", "**.example.com:80", "*.*.example.com:80",
		"*.127.0.0.1:80", "*.0.1:80", "foo.*.com:80", "user@example.com:80", "exa mple.com:80",
		"１２７.０.０.１:80", "http://example.com:80",
	}
	for _, s := range bad {
		if e, err := ParseEntry(s); err == nil {
			t.Errorf("%s: accepted as %+v", s, e)
		}
	}
	if _, err := ParseAllowlist([]string{"a.com:1", "bad"}); err == nil {
		t.Error("ParseAllowlist accepted a bad entry")
	}
}

func TestAllowlistMatch(t *testing.T) {
	l, err := ParseAllowlist([]string{"*.example.com:443", "api.example.com:443", "127.0.0.1:8080", "[::1]:8080", "*.b.example.com:8443"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		host  string
		port  int
		entry string // "" = no match
	}{
		{"api.example.com", 443, "api.example.com:443"}, // exact wins over the wildcard
		{"API.Example.com", 443, "api.example.com:443"},
		{"www.example.com", 443, "*.example.com:443"},
		{"a.b.c.example.com", 443, "*.example.com:443"}, // any depth
		{"example.com", 443, ""},                        // not the apex
		{"evilexample.com", 443, ""},
		{"example.com.evil.net", 443, ""},
		{"www.example.com", 80, ""},
		{"x.b.example.com", 8443, "*.b.example.com:8443"},
		{"b.example.com", 8443, ""},
		{"127.0.0.1", 8080, "127.0.0.1:8080"},
		{"127.0.0.1", 8081, ""},
		{"::1", 8080, "[::1]:8080"},
		{"0:0::1", 8080, "[::1]:8080"},
		{"::ffff:127.0.0.1", 8080, ""}, // another spelling is another host
		{"localhost", 8080, ""},
	}
	for _, tc := range cases {
		e, ok := l.Match(tc.host, tc.port)
		if ok != (tc.entry != "") || (ok && e.String() != tc.entry) {
			t.Errorf("%s:%d: got %v %q, want %q", tc.host, tc.port, ok, e.String(), tc.entry)
		}
	}
}

func TestParseEntryRefusesMappedEntries(t *testing.T) {
	for _, s := range []string{"[::ffff:127.0.0.1]:80", "[::ffff:7f00:1]:80"} {
		if _, err := ParseEntry(s); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
	if _, err := ParseEntry("*.example.com:443"); err != nil {
		t.Error(err)
	}
}
