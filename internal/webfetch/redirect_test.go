package webfetch

import (
	"bytes"
	"context"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/netguard"
)

// redirector answers /r?status=N&to=URL with that redirect, and anything
// else with the echo.
func redirector(t testing.TB) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/r" {
			st, _ := strconv.Atoi(r.URL.Query().Get("status"))
			w.Header()["Location"] = []string{r.URL.Query().Get("to")}
			w.WriteHeader(st)
			return
		}
		w.Write([]byte("landed"))
	})
}

func redirURL(base string, status int, to string) string {
	return fmt.Sprintf("%s/r?status=%d&to=%s", base, status, url.QueryEscape(to))
}

var redirectStatuses = []int{301, 302, 303, 307, 308}

func TestRedirectsToForbiddenTargets(t *testing.T) {
	src := redirector(t)
	victim := newServer(t, nil)
	vp := strconv.Itoa(victim.port())
	stub := newStub()
	stub.set("a.test", "127.0.0.1")
	c := mustNew(t, Config{Allow: []string{src.entry(), "*.test:" + vp}, Resolver: stub, MaxRequests: 10000})
	s := session(t, c)
	targets := []string{
		"http://169.254.169.254/latest/meta-data/",
		"http://[::ffff:169.254.169.254]/",
		"http://[0:0:0:0:0:ffff:a9fe:a9fe]/",
		"http://[64:ff9b::a9fe:a9fe]/",
		"http://100.100.100.200/",
		"file:///etc/passwd",
		"gopher://127.0.0.1:" + vp + "/_GET%20/",
		"ftp://127.0.0.1:" + vp + "/",
		"data:text/plain,hi",
		"javascript:alert(1)",
		"http://127.0.0.1:" + vp + "/",      // unlisted loopback port
		"http://[::1]:" + vp + "/",          // unlisted
		"http://0x7f000001:" + vp + "/",     // numeric form
		"http://2130706433:" + vp + "/",     // numeric form
		"http://127.1:" + vp + "/",          // short form
		"http:/\\127.0.0.1:" + vp + "/",     // backslash
		"//127.0.0.1:" + vp + "/",           // scheme-relative
		"http://user@127.0.0.1:" + vp + "/", // credentials
		"http://a.test:" + vp + "/",         // listed by wildcard, resolves to loopback
		"http://localhost:" + vp + "/",      // unlisted name
	}
	for _, st := range redirectStatuses {
		for _, to := range targets {
			for _, method := range []string{"GET", "POST"} {
				for _, approved := range []bool{false, true} {
					name := fmt.Sprintf("%d/%s/%s/approved=%v", st, method, to, approved)
					t.Run(name, func(t *testing.T) {
						var body []byte
						if method == "POST" {
							body = []byte("x=1")
						}
						_, err := s.Do(context.Background(), Request{URL: redirURL(src.URL, st, to), Method: method, Body: body}, approved)
						if strings.HasPrefix(to, "http://a.test") {
							wantCode(t, err, codes.FetchAddressRefused)
						} else {
							wantCode(t, err, codes.FetchRedirect)
						}
					})
				}
			}
		}
	}
	if victim.hits.Load() != 0 {
		t.Fatalf("redirects reached the victim %d times", victim.hits.Load())
	}
}

func TestRedirectsFollowed(t *testing.T) {
	src := redirector(t)
	dst := newServer(t, nil)
	c := mustNew(t, Config{Allow: []string{src.entry(), dst.entry()}})
	s := session(t, c)
	ctx := context.Background()
	cases := []struct {
		status             int
		method, wantMethod string
		keepBody           bool
	}{
		{301, "GET", "GET", false},
		{301, "POST", "GET", false},
		{302, "POST", "GET", false},
		{302, "PUT", "PUT", true}, // the Fetch standard rewrites only POST
		{303, "POST", "GET", false},
		{303, "PUT", "GET", false},
		{303, "DELETE", "GET", false},
		{303, "HEAD", "HEAD", false},
		{307, "POST", "POST", true},
		{307, "PATCH", "PATCH", true},
		{308, "POST", "POST", true},
		{308, "PUT", "PUT", true},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d %s", tc.status, tc.method), func(t *testing.T) {
			var body []byte
			hdr := map[string]string{"X-Keep": "1"}
			if tc.method != "GET" && tc.method != "HEAD" {
				body = []byte(`{"k":"v"}`)
				hdr["Content-Type"] = "application/json"
			}
			r, err := s.Do(ctx, Request{URL: redirURL(src.URL, tc.status, dst.URL+"/landing?x=1"), Method: tc.method, Body: body, Headers: hdr}, false)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Redirected || r.URL != dst.URL+"/landing?x=1" || r.Status != 200 {
				t.Fatalf("got %+v", r)
			}
			e := dst.last()
			if e.Method != tc.wantMethod || e.Path != "/landing?x=1" || e.Headers["X-Keep"][0] != "1" {
				t.Fatalf("destination saw %+v", e)
			}
			if (tc.keepBody && (len(e.Body) == 0 || !bytes.Equal(e.Body, body))) || (!tc.keepBody && len(e.Body) != 0) {
				t.Fatalf("body %q, keep %v", e.Body, tc.keepBody)
			}
			if !tc.keepBody && len(e.Headers["Content-Type"]) > 0 {
				t.Fatalf("Content-Type kept without the body: %v", e.Headers)
			}
		})
	}
	t.Run("relative", func(t *testing.T) {
		r, err := s.Do(ctx, Request{URL: redirURL(src.URL, 302, "/landing")}, false)
		if err != nil || string(r.Body) != "landed" || r.URL != src.URL+"/landing" {
			t.Fatalf("%+v %v", r, err)
		}
	})
	t.Run("300 and 304 are not followed", func(t *testing.T) {
		for _, st := range []int{300, 304} {
			r, err := s.Do(ctx, Request{URL: redirURL(src.URL, st, dst.URL)}, false)
			if err != nil || r.Status != st || r.Redirected {
				t.Fatalf("%d: %+v %v", st, r, err)
			}
		}
	})
}

func TestRedirectHopLimit(t *testing.T) {
	loop := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		if n > 0 {
			http.Redirect(w, r, "/?n="+strconv.Itoa(n-1), http.StatusFound)
			return
		}
		w.Write([]byte("done"))
	})
	c := mustNew(t, Config{Allow: []string{loop.entry()}, MaxRedirects: 3})
	s := session(t, c)
	if r, err := s.Do(context.Background(), Request{URL: loop.URL + "/?n=3"}, false); err != nil || string(r.Body) != "done" {
		t.Fatalf("3 redirects: %v", err)
	}
	before := loop.hits.Load()
	_, err := s.Do(context.Background(), Request{URL: loop.URL + "/?n=100"}, false)
	wantCode(t, err, codes.FetchRedirect)
	if n := loop.hits.Load() - before; n != 4 {
		t.Fatalf("%d requests for a limit of 3 redirects", n)
	}
	// negative: no redirect is followed
	c = mustNew(t, Config{Allow: []string{loop.entry()}, MaxRedirects: -1})
	_, err = session(t, c).Do(context.Background(), Request{URL: loop.URL + "/?n=1"}, false)
	wantCode(t, err, codes.FetchRedirect)
}

func TestRedirectHTTPSToHTTP(t *testing.T) {
	plain := newServer(t, nil)
	tlsSrv := newTLSServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/down":
			http.Redirect(w, r, plain.URL+"/", http.StatusFound)
		case "/same":
			http.Redirect(w, r, "/ok", http.StatusMovedPermanently)
		default:
			w.Write([]byte("tls ok"))
		}
	})
	pool := tlsSrv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	c := mustNew(t, Config{Allow: []string{tlsSrv.entry(), plain.entry()}, RootCAs: pool})
	s := session(t, c)
	ctx := context.Background()
	r, err := s.Do(ctx, Request{URL: tlsSrv.URL + "/same"}, false)
	if err != nil || string(r.Body) != "tls ok" || !strings.HasPrefix(r.URL, "https://") {
		t.Fatalf("https: %+v %v", r, err)
	}
	_, err = s.Do(ctx, Request{URL: tlsSrv.URL + "/down"}, false)
	wantCode(t, err, codes.FetchRedirect)
	if plain.hits.Load() != 0 {
		t.Fatal("the downgrade reached the plain server")
	}
	// the roots are checked: without the test CA the handshake fails
	c = mustNew(t, Config{Allow: []string{tlsSrv.entry()}, RootCAs: x509.NewCertPool()})
	_, err = session(t, c).Do(ctx, Request{URL: tlsSrv.URL + "/"}, false)
	wantCode(t, err, codes.FetchFailed)
}

// TestApprovedRedirects: an approved request to an unlisted host may be
// redirected within its own host and port only. (Unlisted hosts must be
// public, which tests cannot reach, so nextHop is tested directly.)
func TestApprovedRedirects(t *testing.T) {
	c := mustNew(t, Config{Allow: []string{"listed.example:443"}})
	first, err := netguard.CheckURL("https://pub.example/a")
	if err != nil {
		t.Fatal(err)
	}
	h := &hop{target: first, method: "POST", body: []byte("b"), headers: http.Header{"Authorization": {"x"}}, origin: originOf(first)}
	cases := []struct {
		loc      string
		approved bool
		ok       bool
	}{
		{"/b", true, true},
		{"https://pub.example:443/c", true, true},
		{"/b", false, false},
		{"https://pub.example:8443/", true, false},
		{"https://other.example/", true, false},
		{"https://listed.example/", false, true},
		{"http://pub.example/", true, false},
	}
	for _, tc := range cases {
		next, err := c.nextHop(h, tc.loc, 307, tc.approved, first)
		if (err == nil) != tc.ok {
			t.Errorf("%s approved=%v: %v", tc.loc, tc.approved, err)
			continue
		}
		if err != nil {
			wantCode(t, err, codes.FetchRedirect)
			continue
		}
		cross := next.target.Host != "pub.example"
		if cross != (next.headers.Get("Authorization") == "") {
			t.Errorf("%s: Authorization %q", tc.loc, next.headers.Get("Authorization"))
		}
	}
}
