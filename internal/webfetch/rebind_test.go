package webfetch

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/dnstest"
)

// The attacker's case against a real (loopback) DNS server: an exact
// name entry (what a user writes for api.example.com:443) whose DNS
// answers with loopback, or rebinds to it, or answers with a mixed list,
// never reaches the loopback service; the same name marked " private"
// does, and an IP entry reaches its IP.
func TestNameEntryNeverReachesLoopbackThroughDNS(t *testing.T) {
	srv := newServer(t, nil)
	port := strconv.Itoa(srv.port())
	dns := dnstest.Start(t)
	dns.Set("api.test", "127.0.0.1")
	dns.Set("rebind.test", "8.8.8.8,127.0.0.1", "127.0.0.1", "10.0.0.1")
	dns.Set("internal.test", "127.0.0.1")
	c := mustNew(t, Config{
		Allow:    []string{"api.test:" + port, "rebind.test:" + port, "internal.test:" + port + " private", srv.entry()},
		Resolver: dns.Resolver(),
		Timeout:  5 * time.Second,
	})
	s := session(t, c)
	ctx := context.Background()
	get := func(host string) error {
		_, err := s.Do(ctx, Request{URL: "http://" + host + ":" + port + "/"}, true) // approval changes nothing
		return err
	}
	for _, host := range []string{"api.test", "rebind.test", "rebind.test", "rebind.test"} {
		err := get(host)
		wantCode(t, err, codes.FetchAddressRefused)
		if !strings.Contains(err.Error(), host+" resolves to") {
			t.Errorf("%s: %v", host, err)
		}
	}
	if dns.Lookups("rebind.test") != 3 || dns.Lookups("api.test") != 1 {
		t.Fatalf("the name was not resolved at each dial: %d, %d lookups", dns.Lookups("rebind.test"), dns.Lookups("api.test"))
	}
	if srv.hits.Load() != 0 {
		t.Fatal("a name entry reached loopback")
	}
	// the explicit forms reach it: the DNS server and the service work
	if err := get("internal.test"); err != nil {
		t.Fatalf("private-marked name entry: %v", err)
	}
	if _, err := s.Do(ctx, Request{URL: srv.URL + "/"}, false); err != nil {
		t.Fatalf("IP entry: %v", err)
	}
	if srv.hits.Load() != 2 {
		t.Fatalf("hits %d", srv.hits.Load())
	}
}

// Secret headers go over TLS only: an entry without a scheme, meant for
// https://host:port, does not send them to http://host:port (the
// attacker's downgrade); an entry written with http:// does; an entry
// written with https:// does not match plain http at all.
func TestSecretHeadersOnlyOverTLS(t *testing.T) {
	const secret = "Bearer tls-only-secret"
	tlsSrv := newTLSServer(t, nil)
	plain := newServer(t, nil)
	entry := tlsSrv.entry()
	c := mustNew(t, Config{
		Allow:   []string{entry, "http://" + plain.entry()},
		Headers: map[string]map[string]string{entry: {"Authorization": secret}, "http://" + plain.entry(): {"Authorization": secret}},
		RootCAs: tlsSrv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs,
	})
	s := session(t, c)
	ctx := context.Background()
	// the downgrade: same host and port, plain http
	_, err := s.Do(ctx, Request{URL: "http://" + entry + "/"}, true)
	wantCode(t, err, codes.FetchInsecure)
	if _, err := c.Check(Request{URL: "http://" + entry + "/"}); err == nil || !strings.Contains(err.Error(), string(codes.FetchInsecure)) {
		t.Errorf("Check (the gate before any approval) let it through: %v", err)
	}
	if tlsSrv.hits.Load() != 0 {
		t.Fatal("a plain http request reached the TLS port")
	}
	// https: the header is sent
	if _, err := s.Do(ctx, Request{URL: "https://" + entry + "/"}, false); err != nil {
		t.Fatal(err)
	}
	if got := tlsSrv.last().Headers["Authorization"]; len(got) != 1 || got[0] != secret {
		t.Fatalf("over TLS the server saw %q", got)
	}
	// http:// written in the entry: the user said so
	if _, err := s.Do(ctx, Request{URL: plain.URL + "/"}, false); err != nil {
		t.Fatal(err)
	}
	if got := plain.last().Headers["Authorization"]; len(got) != 1 || got[0] != secret {
		t.Fatalf("the http:// entry's header: %q", got)
	}

	// an https:// entry's headers never go over http, even where another
	// entry lists plain http for the same host and port
	c2 := mustNew(t, Config{
		Allow:   []string{"https://" + plain.entry(), "http://" + plain.entry()},
		Headers: map[string]map[string]string{"https://" + plain.entry(): {"Authorization": secret}},
	})
	chk, err := c2.Check(Request{URL: plain.URL + "/"})
	if err != nil || !chk.Listed || chk.Entry.Scheme != "http" {
		t.Fatalf("http to the host: %+v, %v", chk.Entry, err)
	}
	if _, err := session(t, c2).Do(ctx, Request{URL: plain.URL + "/"}, false); err != nil {
		t.Fatal(err)
	}
	if got := plain.last().Headers["Authorization"]; len(got) != 0 {
		t.Fatalf("the https:// entry's header went over http: %q", got)
	}
}
