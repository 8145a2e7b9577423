package webfetch

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// echoShapes is a server that hands back parts of the credentials it got,
// the way httpbin's /bearer, /cookies and /basic-auth do, and in the
// encodings a careless or hostile service might use.
func echoShapes(t *testing.T) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		_, cred, _ := strings.Cut(auth, " ")
		var out any
		switch r.URL.Path {
		case "/bearer": // httpbin: {"authenticated": true, "token": "<token>"}
			out = map[string]any{"authenticated": true, "token": cred}
		case "/whole":
			out = map[string]any{"authorization": auth}
			// digests of the body would let the guest test guesses
			w.Header().Set("Content-Md5", "not checked")
			w.Header().Set("Repr-Digest", "sha-256=:not checked:")
			w.Header().Set("Etag", `W/"3f-made-from-the-body"`) // Express's: the body's length in hex
		case "/cookies": // httpbin: {"cookies": {"name": "value", ...}}
			m := map[string]string{}
			for _, c := range r.Cookies() {
				m[c.Name] = c.Value
			}
			out = map[string]any{"cookies": m}
		case "/basic":
			dec, _ := base64.StdEncoding.DecodeString(cred)
			user, pass, _ := strings.Cut(string(dec), ":")
			out = map[string]any{"authenticated": true, "user": user, "userpass": string(dec), "password": pass}
		case "/encoded":
			// the token re-encoded in every common way, alone and inside
			// longer text (so at each base64 alignment)
			var lines []string
			for _, s := range []string{cred, "x" + cred, "xy" + cred + "z", "Authorization: " + auth} {
				lines = append(lines,
					base64.StdEncoding.EncodeToString([]byte(s)),
					base64.URLEncoding.EncodeToString([]byte(s)),
					base64.RawURLEncoding.EncodeToString([]byte(s)))
			}
			lines = append(lines,
				url.QueryEscape(cred), url.PathEscape(cred),
				pctLower(url.QueryEscape(cred)),
				hex.EncodeToString([]byte(cred)), strings.ToUpper(hex.EncodeToString([]byte(cred))),
				jsonString(cred, false), jsonString(cred, true))
			w.Write([]byte(strings.Join(lines, "\n")))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(out)
		w.Write(b)
	})
}

// pctLower writes the hex digits of percent escapes in lower case.
func pctLower(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = lower(b[i+1]), lower(b[i+2])
		}
	}
	return string(b)
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// jsonString is s as a JSON string body (no quotes), escaped as Go does,
// or with "/" escaped too, as PHP does.
func jsonString(s string, slash bool) string {
	b, _ := json.Marshal(s)
	js := string(b[1 : len(b)-1])
	if slash {
		js = strings.ReplaceAll(js, "/", `\/`)
	}
	return js
}

// TestRedactDerivedSecrets: a listed server that echoes only the token of
// an injected "Authorization: Bearer <token>", only a cookie's value of an
// injected Cookie, the decoded user:password of Basic credentials, or any
// of them re-encoded (base64, base64url, percent, hex, JSON escapes) must
// not hand the secret to the guest.
func TestRedactDerivedSecrets(t *testing.T) {
	const token = "tok/en+Secret==42<a&b>" // characters each encoding changes
	const sess = "sess-Value-0123456789"
	const user, pass = "alice", "pa55w0rd-long"
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	bearer := echoShapes(t)
	basicSrv := echoShapes(t)
	env := map[string]string{
		"AUTH":   "Bearer " + token,
		"COOKIE": "session=" + sess + "; theme=dark",
		"BASIC":  "Basic " + basic,
	}
	c := mustNew(t, Config{
		Allow: []string{"http://" + bearer.entry(), "http://" + basicSrv.entry()},
		Headers: map[string]map[string]string{
			"http://" + bearer.entry():   {"Authorization": "env:AUTH", "Cookie": "env:COOKIE"},
			"http://" + basicSrv.entry(): {"Authorization": "env:BASIC"},
		},
		Getenv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
	})
	s := session(t, c)
	get := func(u string) *Response {
		t.Helper()
		r, err := s.Do(context.Background(), Request{URL: u}, false)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	var leaks []string
	for _, sec := range []string{token, sess, pass, user + ":" + pass} {
		leaks = append(leaks, sec, base64.StdEncoding.EncodeToString([]byte(sec)), base64.URLEncoding.EncodeToString([]byte(sec)),
			url.QueryEscape(sec), url.PathEscape(sec), hex.EncodeToString([]byte(sec)), jsonString(sec, false), jsonString(sec, true))
	}
	check := func(what string, r *Response) {
		t.Helper()
		all := string(r.Body)
		for _, v := range r.Headers {
			all += "\n" + v
		}
		for _, l := range leaks {
			if strings.Contains(all, l) {
				t.Errorf("%s: %q reached the guest in %q", what, l, all)
			}
		}
		if !strings.Contains(all, Redacted) {
			t.Errorf("%s: nothing redacted in %q", what, all)
		}
	}

	r := get(bearer.URL + "/bearer")
	check("/bearer", r)
	if string(r.Body) != `{"authenticated":true,"token":"`+Redacted+`"}` {
		t.Errorf("/bearer body %q", r.Body)
	}
	r = get(bearer.URL + "/cookies")
	check("/cookies", r)
	// a cookie value shorter than the minimum stays: "dark" is no secret
	if string(r.Body) != `{"cookies":{"session":"`+Redacted+`","theme":"dark"}}` {
		t.Errorf("/cookies body %q", r.Body)
	}
	r = get(basicSrv.URL + "/basic")
	check("/basic", r)
	if string(r.Body) != `{"authenticated":true,"password":"`+Redacted+`","user":"alice","userpass":"`+Redacted+`"}` {
		t.Errorf("/basic body %q", r.Body)
	}
	r = get(bearer.URL + "/encoded")
	check("/encoded", r)
	// every line lost its secret (the first nine, the token's base64 at
	// each alignment, keep only the characters that mix in neighbouring
	// bytes, and padding)
	for i, line := range strings.Split(string(r.Body), "\n") {
		if !strings.Contains(line, Redacted) {
			t.Errorf("/encoded line %d not redacted: %q", i, line)
		}
		if rest := strings.ReplaceAll(line, Redacted, ""); i < 9 && len(rest) > 8 {
			t.Errorf("/encoded line %d keeps %q", i, rest)
		}
	}
}

// TestRedactedContentLength: when redaction rewrote the body, the
// content-length the guest sees is the new body's, not the server's
// (which would tell the secret's length), and digests of the original
// body are dropped.
func TestRedactedContentLength(t *testing.T) {
	srv := echoShapes(t)
	env := map[string]string{"AUTH": "Bearer 0123456789abcdefghijklmnopqrstuvwxyz"}
	c := mustNew(t, Config{
		Allow:   []string{"http://" + srv.entry()},
		Headers: map[string]map[string]string{"http://" + srv.entry(): {"Authorization": "env:AUTH"}},
		Getenv:  func(k string) (string, bool) { v, ok := env[k]; return v, ok },
	})
	r, err := session(t, c).Do(context.Background(), Request{URL: srv.URL + "/whole"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(r.Body), Redacted) {
		t.Fatalf("not redacted: %q", r.Body)
	}
	if got := r.Headers["content-length"]; got != strconv.Itoa(len(r.Body)) {
		t.Errorf("content-length %q for a body of %d bytes", got, len(r.Body))
	}
	for _, h := range []string{"content-md5", "repr-digest", "etag"} {
		if v, ok := r.Headers[h]; ok {
			t.Errorf("%s: %q passed on for a rewritten body", h, v)
		}
	}
	// an unredacted body keeps the server's header
	r, err = session(t, c).Do(context.Background(), Request{URL: srv.URL + "/none"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Headers["content-length"]; got != strconv.Itoa(len(r.Body)) || got == "" {
		t.Errorf("content-length %q for a body of %d bytes", got, len(r.Body))
	}
}
