package netproxy

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

// serverResolver fails every lookup the way the system resolver does,
// naming the DNS server it asked.
type serverResolver struct{}

func (serverResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	return nil, &net.DNSError{Err: "no such host", Name: host, Server: "10.255.255.53:53", IsNotFound: true}
}

// TestResolveFailureNamesNoDNSServer: a name that does not resolve is
// refused with RESOLVE_FAILED saying "cannot resolve NAME: REASON"; the
// host's DNS server address (its network layout) is not told to the
// sandboxed command.
func TestResolveFailureNamesNoDNSServer(t *testing.T) {
	p := startProxy(t, Config{Allow: []string{"example.test:80"}, Resolver: serverResolver{}})
	status, body := connectStatus(t, p, "example.test:80")
	want := "modebox proxy: RESOLVE_FAILED: cannot resolve example.test: no such host\n"
	if status != 502 || body != want {
		t.Errorf("CONNECT: %d %q, want 502 %q", status, body, want)
	}
	resp, body := rawHTTP(t, p, "GET http://example.test:80/ HTTP/1.1\r\nHost: example.test\r\n\r\n")
	if resp.StatusCode != 502 || body != want {
		t.Errorf("GET: %d %q, want 502 %q", resp.StatusCode, body, want)
	}
	for _, e := range p.events.all() {
		if strings.Contains(e.Reason, "10.255.255.53") || (e.Code == codes.ResolveFailed) != strings.Contains(e.Reason, "cannot resolve example.test: no such host") {
			t.Errorf("event %+v", e)
		}
	}
}
