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
		"１２７.０.０.１:80", "ftp://example.com:21", "https://example.com/path", "https://user@example.com",
		"https://example.com:", "*.example.com:443 private", "example.com:443  private", "example.com:443 PRIVATE",
		"https://example.com:443/", "example.com",
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

// Schemes and the private mark: what each entry opens, one rule for
// fetch() and the shell's proxy.
func TestEntrySchemesAndPrivateMark(t *testing.T) {
	cases := []struct {
		in, str string
		scheme  string
		private bool // OpensPrivate
	}{
		{"api.example.com:443", "api.example.com:443", "", false},
		{"https://api.example.com", "https://api.example.com:443", "https", false},
		{"http://api.example.com", "http://api.example.com:80", "http", false},
		{"https://api.example.com:8443", "https://api.example.com:8443", "https", false},
		{"db.internal:5432 private", "db.internal:5432 private", "", true},
		{"http://svc.internal:8080 private", "http://svc.internal:8080 private", "http", true},
		{"127.0.0.1:8080", "127.0.0.1:8080", "", true},         // an IP entry reaches exactly that IP
		{"127.0.0.1:8080 private", "127.0.0.1:8080", "", true}, // the mark adds nothing
		{"https://[::1]", "https://[::1]:443", "https", true},
		{"*.example.com:443", "*.example.com:443", "", false},
		{"localhost:8080", "localhost:8080", "", false}, // a name: public addresses only
	}
	for _, c := range cases {
		e, err := ParseEntry(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if e.String() != c.str || e.Scheme != c.scheme || e.OpensPrivate() != c.private {
			t.Errorf("%s: %q scheme %q opensPrivate %v", c.in, e.String(), e.Scheme, e.OpensPrivate())
		}
		if again, err := ParseEntry(e.String()); err != nil || again != e {
			t.Errorf("%s: %q does not parse back: %v", c.in, e.String(), err)
		}
	}
	l, err := ParseAllowlist([]string{"api.example.com:443", "https://api.example.com:443", "http://plain.example.com:8080", "*.example.com:8080"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		scheme, host string
		port         int
		want         string
	}{
		{"https", "api.example.com", 443, "https://api.example.com:443"}, // the entry naming the scheme wins
		{"http", "api.example.com", 443, "api.example.com:443"},
		{"http", "plain.example.com", 8080, "http://plain.example.com:8080"},
		{"https", "plain.example.com", 8080, "*.example.com:8080"}, // the http entry does not match https
		{"", "plain.example.com", 8080, "http://plain.example.com:8080"},
	} {
		e, ok := l.MatchScheme(c.scheme, c.host, c.port)
		if !ok || e.String() != c.want {
			t.Errorf("%s://%s:%d: %v %q, want %q", c.scheme, c.host, c.port, ok, e.String(), c.want)
		}
	}
	// a proxy target is host:port only
	for _, s := range []string{"db.internal:5432 private", "https://api.example.com:443"} {
		if _, err := ParseHostPort(s); err == nil {
			t.Errorf("ParseHostPort accepted %q", s)
		}
	}
}
