package webfetch

import (
	"context"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/http/httpguts"

	"github.com/modebox/modebox/internal/codes"
)

// leakToken is the red team's injected credential: API_KEY="Bearer
// <leakToken>" from the environment, as Authorization. leakMixed is one
// whose case a host name or a header name folds.
const (
	leakToken = "abcdef0123456789deadbeef"
	leakMixed = "AbCdEf0123456789DeAdBeEf"
)

// containsFold reports whether s contains sub, ignoring ASCII case (what
// the guest could recover from a host or header name that was folded).
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// echoingRedirector builds its answers from the Authorization it got:
// /to/<kind> redirects to a Location holding the token, /hdr sends it
// back as header names, /land/<x> lands.
func echoingRedirector(t *testing.T, port *int) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request) {
		_, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		p := strconv.Itoa(*port)
		switch r.URL.Path {
		case "/to/host":
			w.Header().Set("Location", "https://"+tok+".evil.test:443/x")
		case "/to/scheme":
			w.Header().Set("Location", tok+"://x/")
		case "/to/ip":
			w.Header().Set("Location", "http://10."+tok+"/")
		case "/to/wild":
			w.Header().Set("Location", "http://"+tok+".localhost:"+p+"/")
		case "/to/hex":
			w.Header().Set("Location", "https://"+hex.EncodeToString([]byte(tok))+".evil.test/")
		case "/to/loop":
			// listed by the wildcard, resolves to loopback: refused
			w.Header().Set("Location", "http://"+tok+".loop.localhost:"+p+"/")
		case "/to/path":
			w.Header().Set("Location", "/land/"+strings.ToLower(tok))
		case "/hdr":
			w.Header().Set("X-"+tok, "1")
			w.Header().Set(tok, "2")
			w.Header().Set("X-Ordinary", "3")
			w.Write([]byte("ok"))
			return
		default:
			w.Write([]byte("landed"))
			return
		}
		w.WriteHeader(http.StatusFound)
	})
}

// leakClient is a client whose entry for srv injects Authorization from
// API_KEY="Bearer <tok>", plus a wildcard entry *.localhost on the same
// port (headers: none); its resolver knows <tok>.loop.localhost only
// (as loopback, which the wildcard does not open).
func leakClient(t *testing.T, srv *server, tok string) *Client {
	env := map[string]string{"API_KEY": "Bearer " + tok}
	stub := newStub()
	stub.set(strings.ToLower(tok)+".loop.localhost", "127.0.0.1")
	return mustNew(t, Config{
		Allow:    []string{"http://" + srv.entry(), "http://*.localhost:" + strconv.Itoa(srv.port())},
		Headers:  map[string]map[string]string{"http://" + srv.entry(): {"Authorization": "env:API_KEY"}},
		Getenv:   func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Resolver: stub,
	})
}

// TestRedactRedirectErrors: a listed server that builds a redirect target
// from the credential it got (in the host, the scheme, an IP-looking
// host, a host a wildcard entry lists but DNS does not know or resolves
// to loopback, the hex of the token) must not get it to the program through the error message,
// whose host names are lower-cased; nor through the final URL.
func TestRedactRedirectErrors(t *testing.T) {
	for _, tok := range []string{leakToken, leakMixed} {
		var port int
		srv := echoingRedirector(t, &port)
		port = srv.port()
		c := leakClient(t, srv, tok)
		s := session(t, c)
		for _, kind := range []string{"host", "scheme", "ip", "wild", "loop", "hex"} {
			for _, approved := range []bool{false, true} {
				_, err := s.Do(context.Background(), Request{URL: srv.URL + "/to/" + kind}, approved)
				if err == nil {
					t.Fatalf("%s %s: no error", tok, kind)
				}
				var fe *Error
				if !errors.As(err, &fe) {
					t.Fatalf("%s %s: %v is not a *webfetch.Error", tok, kind, err)
				}
				if CodeOf(err) == "" {
					t.Errorf("%s %s: no code: %v", tok, kind, err)
				}
				for _, leak := range []string{tok, hex.EncodeToString([]byte(tok))} {
					if containsFold(err.Error(), leak) || containsFold(fe.Message, leak) {
						t.Errorf("%s %s approved=%v: the token reached the program: %v", tok, kind, approved, err)
					}
				}
				if !strings.Contains(err.Error(), Redacted) {
					t.Errorf("%s %s: nothing redacted: %v", tok, kind, err)
				}
			}
		}
		// the wildcard case fails as the red team saw it, minus the token
		_, err := s.Do(context.Background(), Request{URL: srv.URL + "/to/wild"}, false)
		wantCode(t, err, codes.FetchFailed)
		if !strings.Contains(err.Error(), Redacted+".localhost cannot be resolved") {
			t.Errorf("wildcard: %v", err)
		}
		// a redirect that lands: the final URL (path lower-cased by the
		// server) does not carry it either
		r, err := s.Do(context.Background(), Request{URL: srv.URL + "/to/path"}, false)
		if err != nil {
			t.Fatal(err)
		}
		if containsFold(r.URL, tok) || r.URL != srv.URL+"/land/"+Redacted || !r.Redirected {
			t.Errorf("final URL %q", r.URL)
		}
	}
}

// TestRedactHeaderNames: a server that sends the credential back as a
// header name (which the guest sees lower-cased) gets it redacted there
// too, under a name that is still a valid header name; the values of
// names that collapse are kept, joined with ", ".
func TestRedactHeaderNames(t *testing.T) {
	for _, tok := range []string{leakToken, leakMixed} {
		var port int
		srv := echoingRedirector(t, &port)
		port = srv.port()
		r, err := session(t, leakClient(t, srv, tok)).Do(context.Background(), Request{URL: srv.URL + "/hdr"}, false)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range r.Headers {
			if containsFold(k, tok) || containsFold(v, tok) {
				t.Errorf("%s: the token reached the program: %q: %q", tok, k, v)
			}
			if !httpguts.ValidHeaderFieldName(k) || k != strings.ToLower(k) {
				t.Errorf("%s: %q is not a lower-case header name", tok, k)
			}
		}
		if got := r.Headers["x-redacted"]; got != "1, 2" && got != "2, 1" {
			t.Errorf("%s: x-redacted: %q (headers %v)", tok, got, r.Headers)
		}
		if r.Headers["x-ordinary"] != "3" {
			t.Errorf("%s: ordinary header: %v", tok, r.Headers)
		}
	}
}

// TestRedactLiteralSecrets: a literal injected value that looks like a
// secret is redacted whatever its header's name (and each word of it, so
// the token of "Token <token>" echoed alone), and one under a broader set
// of credential-like names is too, however short; an obviously public
// value (an Accept or another value of application/json, a User-Agent,
// an API version, a short flag) is not, so the response's content-type
// and date are left alone.
func TestRedactLiteralSecrets(t *testing.T) {
	const lit = "litsecret-0123456789abc"
	const opaque = "Zq8vTn3kLm9pQr7x" // no credential-like name
	const pass = "hunter2!"           // under X-Passphrase
	const upstream = "upstream-0123456789"
	injected := map[string]string{
		"X-Credentials":  lit,
		"X-Opaque":       opaque,
		"X-Passphrase":   pass,
		"X-Upstream":     "Token " + upstream,
		"Accept":         "application/json",
		"X-Format":       "application/json; charset=utf-8",
		"User-Agent":     "acme-client/1.0 (support@example.com)",
		"X-Api-Version":  "2022-11-28",
		"X-Mode":         "fast",
		"X-Bypass-Cache": "yes",
	}
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("X-Echo-Cred", r.Header.Get("X-Credentials"))
		w.Header().Set("X-Echo-Ua", r.Header.Get("User-Agent"))
		w.Header().Set("X-Served", "2022-11-28")
		var b strings.Builder
		for _, h := range []string{"X-Credentials", "X-Opaque", "X-Passphrase", "Accept", "X-Format", "User-Agent", "X-Api-Version", "X-Mode", "X-Bypass-Cache"} {
			b.WriteString(h + "=" + r.Header.Get(h) + "\n")
		}
		_, tok, _ := strings.Cut(r.Header.Get("X-Upstream"), " ")
		b.WriteString("upstream token=" + strings.ToUpper(tok) + "\n")
		w.Write([]byte(b.String()))
	})
	c := mustNew(t, Config{
		Allow:   []string{"http://" + srv.entry()},
		Headers: map[string]map[string]string{"http://" + srv.entry(): injected},
	})
	r, err := session(t, c).Do(context.Background(), Request{URL: srv.URL + "/"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.last().Headers; got["X-Credentials"][0] != lit || got["X-Upstream"][0] != "Token "+upstream {
		t.Fatalf("the server saw %v", got)
	}
	all := string(r.Body)
	for k, v := range r.Headers {
		all += "\n" + k + ": " + v
	}
	for _, leak := range []string{lit, opaque, pass, upstream} {
		if containsFold(all, leak) {
			t.Errorf("%q reached the program: %s", leak, all)
		}
	}
	if r.Headers["content-type"] != "application/json; charset=utf-8" || r.Headers["x-served"] != "2022-11-28" {
		t.Errorf("a public injected value was redacted: %v", r.Headers)
	}
	for _, want := range []string{
		"X-Credentials=" + Redacted + "\n", "X-Opaque=" + Redacted + "\n", "X-Passphrase=" + Redacted + "\n",
		"upstream token=" + Redacted + "\n",
		"Accept=application/json\n", "X-Format=application/json; charset=utf-8\n",
		"User-Agent=acme-client/1.0 (support@example.com)\n", "X-Api-Version=2022-11-28\n",
		"X-Mode=fast\n", "X-Bypass-Cache=yes\n",
	} {
		if !strings.Contains(string(r.Body), want) {
			t.Errorf("body lacks %q: %q", want, r.Body)
		}
	}
	if r.Headers["x-echo-cred"] != Redacted || r.Headers["x-echo-ua"] != "acme-client/1.0 (support@example.com)" {
		t.Errorf("headers %v", r.Headers)
	}
}

// TestSecretLiteral is the rule for literal injected values.
func TestSecretLiteral(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        bool
	}{
		{"X-Credentials", "litsecret-0123456789abc", true},
		{"X-Credentials", "short", true}, // the name says so
		{"Authorization", "Bearer abc", true},
		{"Cookie", "a=b", true},
		{"X-Api-Key", "k1", true},
		{"X-Apikey", "k1", true},
		{"X-Api-User", "bob", true},
		{"X-Passphrase", "pw", true},
		{"X-Sig", "abc", true},
		{"X-Private", "abc", true},
		{"X-Csrf", "abc", true},
		{"X-Opaque", "Zq8vTn3kLm9pQr7x", true},         // looks like a token
		{"X-Tenant", "acme-corp-production", true},     // 8 bytes or more, no space: could be one
		{"X-Upstream", "Token abcdefgh12345678", true}, // a token-like word
		{"X-Client-Id", "1234567890", true},            // ids too
		{"Accept", "application/json", false},          // public by name
		{"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36", false},
		{"Notion-Version", "2022-06-28", false},           // API versions
		{"X-Github-Api-Version", "2022-11-28", false},     // even under "api"
		{"X-Format", "application/vnd.api+json", false},   // a media type
		{"X-Mode", "fast", false},                         // short
		{"X-Bypass-Cache", "yes", false},                  // "pass" inside a word is no credential
		{"X-Client", "acme client 1.0", false},            // short words
		{"X-Client", "modebox integration", false},        // written words
		{"X-Client", "acme Zq8vTn3kLm9pQr7x", true},       // a made word among them
		{"X-Client", "acme key:abcdefgh_ijkl", true},      // a symbol tokens are made of
		{"X-Api-Key-Version", "k-0123456789abcdef", true}, // the name says key, whatever its suffix
		{"X-Api-Version", "2024-01-01", false},            // an API version
		{"Anthropic-Beta", "prompt-caching-2024-07-31", false},
		{"Accept-Encoding", "identity", false},
		{"Accept-Language", "en-GB,en;q=0.9", false},
		{"Sec-Fetch-Mode", "navigate", false},
		{"Sec-Ch-Ua-Platform", "\"Linux\"", false},
		{"If-Modified-Since", "Wed, 21 Oct 2015 07:28:00 GMT", false},
		{"If-None-Match", "\"33a64df551425fcc55e4d42a148795d9f25f89d4\"", false},
		{"Prefer", "return=representation", false},
		{"Referer", "https://app.example.com/dashboard", false},
		{"Referer", "https://app.example.com/cb?token=Zq8vTn3kLm9pQr7x", true}, // tokens travel in queries
		{"Referer", "https://user:pw@app.example.com/", true},
		{"Sec-Token", "abc", true},                       // the name says token, whatever its prefix
		{"X-Passphrase-Version", "hunter2hunter2", true}, // only an api part gives way to -Version
		{"X-Apikey-Version", "k-0123456789abcdef", true}, // "key" is a credential word
		{"Acceptxyz", "Zq8vTn3kLm9pQr7x", true},          // not Accept nor Accept-*
		{"Accept", "application/json, text/plain, */*", false},
	} {
		if got := secretLiteral(http.CanonicalHeaderKey(tc.name), tc.value); got != tc.want {
			t.Errorf("%s: %q: got %v, want %v", tc.name, tc.value, got, tc.want)
		}
	}
}
