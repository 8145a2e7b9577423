package webfetch

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/http/httpproxy"

	"github.com/modebox/modebox/internal/codes"
)

func TestListedLoopback(t *testing.T) {
	srv := newServer(t, nil)
	c := mustNew(t, Config{Allow: []string{srv.entry()}})
	s := session(t, c)
	ctx := context.Background()

	t.Run("GET", func(t *testing.T) {
		r, err := s.Do(ctx, Request{URL: srv.URL + "/a?q=1", Headers: map[string]string{"X-Test": "yes"}}, false)
		if err != nil {
			t.Fatal(err)
		}
		e := decodeEcho(t, r.Body)
		if r.Status != 200 || r.StatusText != "OK" || e.Method != "GET" || e.Path != "/a?q=1" || e.Headers["X-Test"][0] != "yes" {
			t.Fatalf("got %d %q %+v", r.Status, r.StatusText, e)
		}
		if r.Headers["content-type"] != "application/json" || r.URL != srv.URL+"/a?q=1" || r.Redirected {
			t.Fatalf("response %+v", r)
		}
	})
	t.Run("POST JSON", func(t *testing.T) {
		body := []byte(`{"a":[1,2,3]}`)
		r, err := s.Do(ctx, Request{URL: srv.URL, Method: "post", Body: body, Headers: map[string]string{"content-type": "application/json"}}, false)
		if err != nil {
			t.Fatal(err)
		}
		e := decodeEcho(t, r.Body)
		if e.Method != "POST" || !bytes.Equal(e.Body, body) || e.Headers["Content-Type"][0] != "application/json" {
			t.Fatalf("server saw %+v", e)
		}
	})
	t.Run("binary", func(t *testing.T) {
		body := make([]byte, 256*4)
		for i := range body {
			body[i] = byte(i)
		}
		bin := newServer(t, func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
		c := mustNew(t, Config{Allow: []string{srv.entry(), bin.entry()}})
		s := session(t, c)
		r, err := s.Do(ctx, Request{URL: srv.URL, Method: "PUT", Body: body}, false)
		if err != nil {
			t.Fatal(err)
		}
		if e := decodeEcho(t, r.Body); !bytes.Equal(e.Body, body) {
			t.Fatal("binary request body changed")
		}
		r, err = s.Do(ctx, Request{URL: bin.URL}, false)
		if err != nil || !bytes.Equal(r.Body, body) {
			t.Fatalf("binary response: %v", err)
		}
	})
	t.Run("HEAD", func(t *testing.T) {
		r, err := s.Do(ctx, Request{URL: srv.URL, Method: "HEAD"}, false)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != 200 || len(r.Body) != 0 || srv.last().Method != "HEAD" {
			t.Fatalf("HEAD: %+v", r)
		}
	})
	t.Run("methods", func(t *testing.T) {
		for _, m := range []string{"PATCH", "DELETE", "OPTIONS"} {
			if _, err := s.Do(ctx, Request{URL: srv.URL, Method: m}, false); err != nil || srv.last().Method != m {
				t.Fatalf("%s: %v", m, err)
			}
		}
	})
	t.Run("IPv6 loopback", func(t *testing.T) {
		srv6 := &server{}
		srv6.Server = httptest.NewUnstartedServer(srv6.wrap(nil))
		ln, err := listen6()
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("no IPv6 loopback on this CI machine:", err)
			}
			t.Skip("no IPv6 loopback:", err)
		}
		srv6.Listener = ln
		srv6.Start()
		defer srv6.Close()
		entry := "[::1]:" + strconv.Itoa(srv6.port())
		c := mustNew(t, Config{Allow: []string{entry}})
		if _, err := session(t, c).Do(ctx, Request{URL: "http://" + entry + "/"}, false); err != nil {
			t.Fatal(err)
		}
	})
}

func TestUnlistedRefused(t *testing.T) {
	listed := newServer(t, nil)
	other := newServer(t, nil)
	stub := newStub()
	stub.set("other.test", "127.0.0.1")
	c := mustNew(t, Config{Allow: []string{listed.entry()}, Resolver: stub})
	s := session(t, c)
	ctx := context.Background()

	_, err := s.Do(ctx, Request{URL: other.URL}, false)
	wantCode(t, err, codes.FetchNotAllowed)
	// an approval never opens a loopback address
	_, err = s.Do(ctx, Request{URL: other.URL}, true)
	wantCode(t, err, codes.FetchAddressRefused)
	if !strings.Contains(err.Error(), "loopback") || !strings.Contains(err.Error(), other.entry()) {
		t.Errorf("message should name the class and the entry to add: %v", err)
	}
	// the gate learns it before asking
	_, err = c.Check(Request{URL: other.URL})
	wantCode(t, err, codes.FetchAddressRefused)
	// a name that resolves to loopback, approved
	u := "http://other.test:" + strconv.Itoa(other.port()) + "/"
	chk, err := c.Check(Request{URL: u})
	if err != nil || chk.Listed {
		t.Fatalf("Check of an unlisted name: %+v %v", chk, err)
	}
	_, err = s.Do(ctx, Request{URL: u}, true)
	wantCode(t, err, codes.FetchAddressRefused)
	if other.hits.Load() != 0 {
		t.Fatalf("the unlisted server got %d requests", other.hits.Load())
	}
	// the metadata address, approved
	_, err = s.Do(ctx, Request{URL: "http://169.254.169.254/latest/meta-data/"}, true)
	wantCode(t, err, codes.FetchAddressRefused)
	if !strings.Contains(err.Error(), "metadata") {
		t.Errorf("message should name the class: %v", err)
	}
}

// TestAddressHintWorks follows the hint of a refused non-public address
// as printed: the entry it names, added to the allowlist, opens the
// address. The hint for a name once said to list "host:port" exactly,
// which a name entry never opens for loopback.
func TestAddressHintWorks(t *testing.T) {
	srv := newServer(t, nil)
	port := strconv.Itoa(srv.port())
	stub := newStub()
	stub.set("svc.test", "127.0.0.1")
	quoted := regexp.MustCompile(`list ("[^"]+")`)
	for _, c := range []struct {
		allow []string
		url   string
	}{
		{nil, "http://svc.test:" + port + "/"},                        // approved, unlisted name
		{[]string{"*.test:" + port}, "http://svc.test:" + port + "/"}, // a wildcard
		{nil, "http://127.0.0.1:" + port + "/"},                       // approved, unlisted IP
	} {
		s := session(t, mustNew(t, Config{Allow: c.allow, Resolver: stub}))
		_, err := s.Do(context.Background(), Request{URL: c.url}, true)
		wantCode(t, err, codes.FetchAddressRefused)
		m := quoted.FindStringSubmatch(err.Error())
		if m == nil {
			t.Fatalf("%s: no entry to list in %v", c.url, err)
		}
		entry, uerr := strconv.Unquote(m[1])
		if uerr != nil {
			t.Fatal(uerr)
		}
		s = session(t, mustNew(t, Config{Allow: append(c.allow, entry), Resolver: stub}))
		if _, err := s.Do(context.Background(), Request{URL: c.url}, false); err != nil {
			t.Errorf("%s: the hint's entry %q does not open it: %v", c.url, entry, err)
		}
	}
}

func TestDNSNames(t *testing.T) {
	srv := newServer(t, nil)
	port := strconv.Itoa(srv.port())
	stub := newStub()
	stub.set("a.test", "127.0.0.1")
	stub.set("svc.test", "127.0.0.1")
	stub.set("deep.a.test", "::ffff:127.0.0.1")
	stub.set("rebind.test", "8.8.8.8", "127.0.0.1")
	stub.set("mixed.test", "8.8.8.8,127.0.0.1")
	stub.set("mixed2.test", "127.0.0.1,8.8.8.8")
	stub.set("meta.test", "169.254.169.254")
	stub.set("nat64.test", "64:ff9b::7f00:1")
	stub.set("plain.test", "127.0.0.1")
	c := mustNew(t, Config{Allow: []string{"*.test:" + port, "svc.test:" + port + " private", "plain.test:" + port}, Resolver: stub})
	s := session(t, c)
	ctx := context.Background()
	get := func(host string) (*Response, error) {
		return s.Do(ctx, Request{URL: "http://" + host + ":" + port + "/"}, false)
	}

	t.Run("plain name entry never opens loopback", func(t *testing.T) {
		before := srv.hits.Load()
		_, err := get("plain.test")
		wantCode(t, err, codes.FetchAddressRefused)
		if !strings.Contains(err.Error(), `"plain.test:`+port+` private"`) {
			t.Errorf("message should say how to open it: %v", err)
		}
		if srv.hits.Load() != before {
			t.Fatal("the request reached loopback")
		}
	})
	t.Run("name entry marked private opens loopback", func(t *testing.T) {
		r, err := get("svc.test")
		if err != nil {
			t.Fatal(err)
		}
		if e := decodeEcho(t, r.Body); e.Host != "svc.test:"+port {
			t.Fatalf("Host header %q", e.Host)
		}
	})
	before := srv.hits.Load()
	for _, host := range []string{"a.test", "deep.a.test", "meta.test", "nat64.test", "mixed.test", "mixed2.test"} {
		t.Run("wildcard never opens private/"+host, func(t *testing.T) {
			chk, err := c.Check(Request{URL: "http://" + host + ":" + port + "/"})
			if err != nil || !chk.Listed || !chk.Entry.Wildcard {
				t.Fatalf("Check: %+v %v", chk, err)
			}
			_, err = get(host)
			wantCode(t, err, codes.FetchAddressRefused)
			if !strings.Contains(err.Error(), "wildcard") {
				t.Errorf("message should explain the wildcard: %v", err)
			}
			// approval changes nothing
			_, err = s.Do(ctx, Request{URL: "http://" + host + ":" + port + "/"}, true)
			wantCode(t, err, codes.FetchAddressRefused)
		})
	}
	t.Run("rebinding", func(t *testing.T) {
		// a validator that resolved first would have seen a public address
		if as, _ := stub.LookupNetIP(ctx, "ip", "rebind.test"); as[0].String() != "8.8.8.8" {
			t.Fatal("stub")
		}
		_, err := get("rebind.test")
		wantCode(t, err, codes.FetchAddressRefused)
		if stub.count("rebind.test") != 2 {
			t.Fatalf("lookups: %d", stub.count("rebind.test"))
		}
		if !strings.Contains(err.Error(), "rebind.test resolves to 127.0.0.1") {
			t.Errorf("message: %v", err)
		}
	})
	if n := srv.hits.Load() - before; n != 0 {
		t.Fatalf("the server got %d refused requests", n)
	}
	t.Run("unknown name", func(t *testing.T) {
		_, err := get("nowhere.test")
		wantCode(t, err, codes.FetchFailed)
	})
}

func TestCheckDoesNoDNS(t *testing.T) {
	stub := newStub()
	stub.set("api.test", "127.0.0.1")
	c := mustNew(t, Config{Allow: []string{"api.test:443"}, Resolver: stub})
	chk, err := c.Check(Request{URL: "https://api.test/v1/items?token=abc", Method: "post", Body: []byte("{}"), Headers: map[string]string{"Content-Type": "application/json"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "POST https://api.test/v1/items?token=abc (body 2 bytes, application/json), allowed by api.test:443"
	if chk.Summary != want || !chk.Listed || chk.Target.Port != 443 {
		t.Fatalf("got %+v\nwant summary %q", chk, want)
	}
	chk, err = c.Check(Request{URL: "https://elsewhere.test/" + strings.Repeat("x", 500)})
	if err != nil || chk.Listed || !strings.Contains(chk.Summary, "not on the fetch allowlist") || len(chk.Summary) > 300 {
		t.Fatalf("got %+v %v", chk, err)
	}
	chk, err = c.Check(Request{URL: "https://api.test/download?name=\u202egnp.exe", Method: "POST", Body: []byte("x"), Headers: map[string]string{"Content-Type": "text/\u202eplain"}})
	if err != nil || !strings.Contains(chk.Summary, "name=%E2%80%AEgnp.exe") || !strings.Contains(chk.Summary, "text/???plain") {
		t.Fatalf("bidi control in the summary: %q %v", chk.Summary, err)
	}
	if stub.total() != 0 {
		t.Fatal("Check resolved a name")
	}
	for _, r := range []Request{
		{URL: "https://api.test/", Method: "CONNECT"},
		{URL: "https://api.test/", Method: "TRACE"},
		{URL: "https://api.test/", Method: "GET", Body: []byte("x")},
	} {
		_, err := c.Check(r)
		wantCode(t, err, codes.FetchBadRequest)
	}
	_, err = c.Check(Request{URL: "file:///etc/passwd"})
	wantCode(t, err, codes.FetchBadURL)
}

func TestSecretHeaders(t *testing.T) {
	const secret = "s3cr3t-token-value"
	other := newServer(t, nil)
	var target string
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, target, http.StatusTemporaryRedirect)
			return
		}
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		w.Header().Set("X-Key-Echo", r.Header.Get("X-Api-Key"))
		w.Write([]byte("you sent: " + r.Header.Get("Authorization")))
	})
	target = other.URL + "/landing"
	env := map[string]string{"TOKEN": "Bearer " + secret}
	// the servers are plain http: the entry with headers says so
	c := mustNew(t, Config{
		Allow: []string{"http://" + srv.entry(), other.entry()},
		Headers: map[string]map[string]string{"http://" + srv.entry(): {
			"authorization": "env:TOKEN",
			"X-Api-Key":     "literal-key-123",
			"X-Plain":       "plain",
		}},
		Getenv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
	})
	s := session(t, c)
	ctx := context.Background()

	r, err := s.Do(ctx, Request{URL: srv.URL + "/", Headers: map[string]string{"Authorization": "guest-value"}}, false)
	if err != nil {
		t.Fatal(err)
	}
	seen := srv.last()
	if got := seen.Headers["Authorization"]; len(got) != 1 || got[0] != "Bearer "+secret {
		t.Fatalf("server saw Authorization %q", got)
	}
	if seen.Headers["X-Plain"][0] != "plain" || seen.Headers["X-Api-Key"][0] != "literal-key-123" {
		t.Fatalf("server saw %v", seen.Headers)
	}
	all := string(r.Body) + r.URL + r.StatusText
	for _, v := range r.Headers {
		all += v
	}
	if strings.Contains(all, secret) || strings.Contains(all, "literal-key-123") {
		t.Fatalf("a secret reached the guest: %q", all)
	}
	if r.Headers["x-echo"] != Redacted || string(r.Body) != "you sent: "+Redacted {
		t.Fatalf("got %q %q", r.Headers["x-echo"], r.Body)
	}

	// a redirect to another listed host carries no injected header and
	// none of the guest's credentials
	r, err = s.Do(ctx, Request{URL: srv.URL + "/redirect", Headers: map[string]string{"Cookie": "a=b", "Authorization": "guest", "X-Other": "kept"}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Redirected || r.URL != other.URL+"/landing" {
		t.Fatalf("got %+v", r)
	}
	got := other.last().Headers
	for _, h := range []string{"Authorization", "X-Api-Key", "X-Plain", "Cookie"} {
		if len(got[h]) > 0 {
			t.Errorf("%s reached the other host: %q", h, got[h])
		}
	}
	if got["X-Other"][0] != "kept" {
		t.Errorf("ordinary guest header dropped: %v", got)
	}

	// errors carry no secret either
	dead := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		hj, _ := w.(http.Hijacker)
		conn, _, _ := hj.Hijack()
		conn.Close()
	})
	c2 := mustNew(t, Config{Allow: []string{"http://" + dead.entry()}, Headers: map[string]map[string]string{"http://" + dead.entry(): {"Authorization": "env:TOKEN"}},
		Getenv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	_, err = session(t, c2).Do(ctx, Request{URL: dead.URL}, false)
	wantCode(t, err, codes.FetchFailed)
	if strings.Contains(err.Error(), secret) {
		t.Fatal(err)
	}
}

func TestProxyEnvironmentIgnored(t *testing.T) {
	proxy := newServer(t, nil)
	srv := newServer(t, nil)
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
		t.Setenv(k, proxy.URL)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	stub := newStub()
	stub.set("svc.test", "127.0.0.1")
	host := "svc.test:" + strconv.Itoa(srv.port())
	// sanity: a client configured from the environment would use the proxy
	pu, err := httpproxy.FromEnvironment().ProxyFunc()(&url.URL{Scheme: "http", Host: host})
	if err != nil || pu == nil {
		t.Fatalf("the environment does not name a proxy for %s: %v %v", host, pu, err)
	}
	c := mustNew(t, Config{Allow: []string{host + " private"}, Resolver: stub})
	if _, err := session(t, c).Do(context.Background(), Request{URL: "http://" + host + "/"}, false); err != nil {
		t.Fatal(err)
	}
	if proxy.hits.Load() != 0 || srv.hits.Load() != 1 {
		t.Fatalf("proxy got %d, server %d", proxy.hits.Load(), srv.hits.Load())
	}
}

func TestNoCookiesKept(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/set" {
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: "abc", Path: "/"})
			http.SetCookie(w, &http.Cookie{Name: "other", Value: "x", Path: "/", Expires: timeFixed})
		}
		w.Write([]byte(r.Header.Get("Cookie")))
	})
	c := mustNew(t, Config{Allow: []string{srv.entry()}})
	ctx := context.Background()
	s := session(t, c)
	r, err := s.Do(ctx, Request{URL: srv.URL + "/set"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if parts := strings.Split(r.Headers["set-cookie"], "\n"); len(parts) != 2 || !strings.HasPrefix(parts[0], "sid=abc") {
		t.Fatalf("set-cookie %q", r.Headers["set-cookie"])
	}
	for _, s := range []*Session{s, session(t, c)} {
		r, err = s.Do(ctx, Request{URL: srv.URL + "/check"}, false)
		if err != nil || len(r.Body) != 0 {
			t.Fatalf("cookie sent: %q %v", r.Body, err)
		}
	}
}

func TestRequestValidation(t *testing.T) {
	srv := newServer(t, nil)
	c := mustNew(t, Config{Allow: []string{srv.entry()}, MaxRequestBody: 1024, MaxHeaderBytes: 4096})
	s := session(t, c)
	ctx := context.Background()
	cases := []struct {
		name string
		r    Request
		code codes.Code
	}{
		{"CRLF in value", Request{Headers: map[string]string{"X-A": "b\r\nX-Injected: 1"}}, codes.FetchBadRequest},
		{"LF in value", Request{Headers: map[string]string{"X-A": "b\nX-Injected: 1"}}, codes.FetchBadRequest},
		{"CR in value", Request{Headers: map[string]string{"X-A": "b\rc"}}, codes.FetchBadRequest},
		{"NUL in value", Request{Headers: map[string]string{"X-A": "b\x00"}}, codes.FetchBadRequest},
		{"CRLF in name", Request{Headers: map[string]string{"X-A\r\nX-B": "c"}}, codes.FetchBadRequest},
		{"colon in name", Request{Headers: map[string]string{"X-A:": "c"}}, codes.FetchBadRequest},
		{"empty name", Request{Headers: map[string]string{"": "c"}}, codes.FetchBadRequest},
		{"Host", Request{Headers: map[string]string{"host": "evil.com"}}, codes.FetchBadRequest},
		{"Content-Length", Request{Headers: map[string]string{"Content-Length": "0"}}, codes.FetchBadRequest},
		{"Transfer-Encoding", Request{Headers: map[string]string{"Transfer-Encoding": "chunked"}}, codes.FetchBadRequest},
		{"Connection", Request{Headers: map[string]string{"Connection": "close"}}, codes.FetchBadRequest},
		{"Keep-Alive", Request{Headers: map[string]string{"Keep-Alive": "1"}}, codes.FetchBadRequest},
		{"TE", Request{Headers: map[string]string{"TE": "trailers"}}, codes.FetchBadRequest},
		{"Upgrade", Request{Headers: map[string]string{"Upgrade": "websocket"}}, codes.FetchBadRequest},
		{"Proxy-Authorization", Request{Headers: map[string]string{"Proxy-Authorization": "x"}}, codes.FetchBadRequest},
		{"Accept-Encoding", Request{Headers: map[string]string{"Accept-Encoding": "identity"}}, codes.FetchBadRequest},
		{"same name twice", Request{Headers: map[string]string{"X-A": "1", "x-a": "2"}}, codes.FetchBadRequest},
		{"CONNECT", Request{Method: "CONNECT"}, codes.FetchBadRequest},
		{"TRACE", Request{Method: "TRACE"}, codes.FetchBadRequest},
		{"custom method", Request{Method: "PROPFIND"}, codes.FetchBadRequest},
		{"method with space", Request{Method: "GET /x HTTP/1.1\r\n"}, codes.FetchBadRequest},
		{"body on GET", Request{Body: []byte("x")}, codes.FetchBadRequest},
		{"body over cap", Request{Method: "POST", Body: make([]byte, 1025)}, codes.FetchTooLarge},
		{"headers over cap", Request{Headers: map[string]string{"X-Big": strings.Repeat("a", 5000)}}, codes.FetchTooLarge},
		{"URL with CRLF", Request{URL: srv.URL + "/\r\nX-Injected: 1"}, codes.FetchBadURL},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.r.URL == "" {
				tc.r.URL = srv.URL + "/"
			}
			_, err := s.Do(ctx, tc.r, true)
			wantCode(t, err, tc.code)
		})
	}
	if srv.hits.Load() != 0 {
		t.Fatalf("refused requests reached the server: %d", srv.hits.Load())
	}
	if _, err := s.Do(ctx, Request{URL: srv.URL, Method: "POST", Body: make([]byte, 1024)}, false); err != nil {
		t.Fatalf("a body at the cap: %v", err)
	}
}

func TestRequestLimit(t *testing.T) {
	srv := newServer(t, nil)
	c := mustNew(t, Config{Allow: []string{srv.entry()}, MaxRequests: 3})
	s := session(t, c)
	for i := 0; i < 3; i++ {
		if _, err := s.Do(context.Background(), Request{URL: srv.URL}, false); err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.Do(context.Background(), Request{URL: srv.URL}, false)
	wantCode(t, err, codes.FetchRequestLimit)
	if srv.hits.Load() != 3 {
		t.Fatalf("hits %d", srv.hits.Load())
	}
	// a new session has its own budget
	if _, err := session(t, c).Do(context.Background(), Request{URL: srv.URL}, false); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = s.Do(context.Background(), Request{URL: srv.URL}, false)
	wantCode(t, err, codes.FetchFailed)
}

func TestConfig(t *testing.T) {
	env := func(k string) (string, bool) {
		v, ok := map[string]string{"SET": "value", "EMPTY": "", "CRLF": "a\r\nb"}[k]
		return v, ok
	}
	cases := []struct {
		name string
		cfg  Config
		want string // substring of the error; "" = valid
	}{
		{"defaults", Config{}, ""},
		{"entries", Config{Allow: []string{"127.0.0.1:8080", "[::1]:8080", "*.example.com:443", "api.example.com:443"}}, ""},
		{"no port", Config{Allow: []string{"example.com"}}, "no port"},
		{"bad port", Config{Allow: []string{"example.com:0"}}, "port"},
		{"duplicate", Config{Allow: []string{"a.com:1", "A.com:1"}}, "twice"},
		{"numeric host", Config{Allow: []string{"2130706433:80"}}, "non-canonical"},
		{"negative MaxBytes", Config{MaxBytes: -1}, "MaxBytes"},
		{"negative Timeout", Config{Timeout: -1}, "Timeout"},
		{"negative MaxRequests", Config{MaxRequests: -1}, "MaxRequests"},
		{"headers for unlisted", Config{Headers: map[string]map[string]string{"a.com:443": {"X": "y"}}}, "not in the allow list"},
		{"env missing", Config{Allow: []string{"a.com:443"}, Headers: map[string]map[string]string{"a.com:443": {"Authorization": "env:MISSING_VAR"}}, Getenv: env}, "MISSING_VAR is not set"},
		{"env empty", Config{Allow: []string{"a.com:443"}, Headers: map[string]map[string]string{"a.com:443": {"Authorization": "env:EMPTY"}}, Getenv: env}, "EMPTY is empty"},
		{"env CRLF", Config{Allow: []string{"a.com:443"}, Headers: map[string]map[string]string{"a.com:443": {"Authorization": "env:CRLF"}}, Getenv: env}, "control characters"},
		{"env ok", Config{Allow: []string{"a.com:443"}, Headers: map[string]map[string]string{"a.com:443": {"Authorization": "env:SET", "X-Lit": "lit"}}, Getenv: env}, ""},
		{"forbidden injected", Config{Allow: []string{"a.com:443"}, Headers: map[string]map[string]string{"a.com:443": {"Host": "b.com"}}}, "may not be injected"},
		{"bad name", Config{Allow: []string{"a.com:443"}, Headers: map[string]map[string]string{"a.com:443": {"X Y": "b"}}}, "not a valid header name"},
		{"twice", Config{Allow: []string{"a.com:443"}, Headers: map[string]map[string]string{"a.com:443": {"X-A": "1", "x-a": "2"}}}, "twice"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.cfg)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantCode(t, err, codes.FetchConfig)
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%v does not say %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "a\r\nb") {
				t.Fatal("the error shows the value")
			}
		})
	}
}

func TestErrorIs(t *testing.T) {
	err := error(newError(codes.FetchTimeout, context.DeadlineExceeded, "x"))
	if !errorsIs(err, &Error{Code: codes.FetchTimeout}) || errorsIs(err, &Error{Code: codes.FetchFailed}) || !errorsIs(err, context.DeadlineExceeded) {
		t.Fatal("errors.Is")
	}
	b, _ := json.Marshal(err.(*Error).Code)
	if string(b) != `"FETCH_TIMEOUT"` {
		t.Fatal(string(b))
	}
}

func TestEncodedLoopbackForms(t *testing.T) {
	srv := newServer(t, nil)
	p := strconv.Itoa(srv.port())
	c := mustNew(t, Config{Allow: []string{srv.entry()}})
	s := session(t, c)
	for _, host := range []string{"2130706433", "0x7f000001", "0177.0.0.1", "127.1", "0x7f.1", "017700000001",
		"１２７.０.０.１", "127。0。0。1", "127.0.0.1.", "%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1"} {
		for _, approved := range []bool{false, true} {
			_, err := s.Do(context.Background(), Request{URL: "http://" + host + ":" + p + "/"}, approved)
			wantCode(t, err, codes.FetchBadURL)
		}
	}
	// other spellings of the listed address are other hosts: never opened
	for _, host := range []string{"[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::1]", "0.0.0.0", "127.0.0.2", "[::]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]"} {
		_, err := s.Do(context.Background(), Request{URL: "http://" + host + ":" + p + "/"}, true)
		wantCode(t, err, codes.FetchAddressRefused)
	}
	for _, host := range []string{"[fe80::1%25eth0]", "[::1%25lo]", "user@evil@127.0.0.1", "evil.com\\@127.0.0.1"} {
		_, err := s.Do(context.Background(), Request{URL: "http://" + host + ":" + p + "/"}, true)
		wantCode(t, err, codes.FetchBadURL)
	}
	if srv.hits.Load() != 0 {
		t.Fatalf("%d requests reached the server", srv.hits.Load())
	}
}
