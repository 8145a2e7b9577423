package netproxy

import (
	"strconv"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/dnstest"
)

// The rule fetch() uses, against a real loopback DNS server that
// rebinds: a listed name reaches loopback only when its entry is marked
// " private"; a plain name entry is refused whatever the DNS answers in
// turn; an IP entry reaches exactly its IP; a scheme in an entry is
// ignored (the proxy cannot see it), and a client cannot smuggle the mark
// into its target.
func TestProxyNameEntriesAndRebindingDNS(t *testing.T) {
	echo := newEchoTarget(t, "tcp4", "127.0.0.1:0")
	port := strconv.Itoa(echo.port)
	dns := dnstest.Start(t)
	dns.Set("plain.test", "8.8.8.8,127.0.0.1", "127.0.0.1", "10.0.0.1")
	dns.Set("internal.test", "127.0.0.1")
	dns.Set("tls.test", "127.0.0.1")
	p := startProxy(t, Config{
		Allow:    []string{"plain.test:" + port, "internal.test:" + port + " private", "https://tls.test:" + port + " private", "127.0.0.1:" + port},
		Resolver: dns.Resolver(),
	})
	for range 3 {
		if status, body := connectStatus(t, p, "plain.test:"+port); status != 403 || !strings.Contains(body, "plain.test resolves to") {
			t.Fatalf("CONNECT plain.test: %d %q", status, body)
		}
	}
	if n := dns.Lookups("plain.test"); n != 3 {
		t.Fatalf("%d lookups: the name is resolved at each dial", n)
	}
	if echo.accepts() != 0 {
		t.Fatal("a plain name entry reached loopback")
	}
	for _, target := range []string{"internal.test:" + port, "tls.test:" + port, "127.0.0.1:" + port} {
		if status, body := connectStatus(t, p, target); status != 200 {
			t.Fatalf("CONNECT %s: %d %q", target, status, body)
		}
	}
	if status, _ := connectStatus(t, p, "plain.test:"+port+" private"); status == 200 {
		t.Fatal("a client's target carried the private mark")
	}
	waitFor(t, "three tunnels", func() bool { return echo.accepts() == 3 })
}
