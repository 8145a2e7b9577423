package mcpserver

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var approvalLinkRe = regexp.MustCompile(`href="(https?://[^"]+/approve/[^"]+)"`)

// getPage fetches u with c and returns the status and body.
func getPage(t *testing.T, c *http.Client, u string, header http.Header) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res.StatusCode, string(b)
}

// cookieThief is a service on another port of 127.0.0.1 that the
// approver's browser visits: browsers send it every cookie of 127.0.0.1
// whose path matches (cookies are not isolated by port, and SameSite does
// not help: it is the same site). Its pages redirect to its own /runs, so
// that a cookie scoped to /runs reaches it too.
type cookieThief struct {
	url  string
	mu   sync.Mutex
	seen []string // Cookie headers received
}

func newCookieThief(t *testing.T) *cookieThief {
	th := &cookieThief{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		th.mu.Lock()
		if c := r.Header.Get("Cookie"); c != "" {
			th.seen = append(th.seen, c)
		}
		th.mu.Unlock()
		if r.URL.Path != "/runs" {
			http.Redirect(w, r, "/runs", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>a local dev server</title><p>hello</p>`))
	}))
	t.Cleanup(ts.Close)
	th.url = ts.URL
	return th
}

func (th *cookieThief) cookies() []string {
	th.mu.Lock()
	defer th.mu.Unlock()
	return append([]string(nil), th.seen...)
}

// The attack of a service on another port of 127.0.0.1: the approver
// signed in to the runs page in their browser, then the browser visits
// the service, which receives the runs page's cookie. With the cookie
// alone (no bearer, never the printed link) it must get neither the
// pending approval links nor an approval: /runs refuses it, and the call
// waiting for approval does not run. The person's own browser still sees
// the pending link on the runs page.
func TestRunsCookieFromAnotherPort(t *testing.T) {
	eng, rec := newEngine(t)
	_, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	base := strings.TrimSuffix(endpoint, DefaultPath)
	links, completed := make(chan string, 4), make(chan string, 4)
	cs := urlClient(t, endpoint, links, completed)
	done := runAsync(t, cs, `try { return (await files.delete({path: "/stolen"})).deleted } catch (e) { return e.code }`)
	link := recv(t, links, "the approval link")

	// The person's browser signs in with the printed link and sees the
	// pending approval; the token leaves the address bar.
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	var landed *url.URL
	browser := &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		landed = req.URL
		return nil
	}}
	status, page := getPage(t, browser, base+"/runs?token=tok", nil)
	if status != http.StatusOK || !strings.Contains(page, link) {
		t.Fatalf("the person's runs page: %d, pending link listed %v\n%s", status, strings.Contains(page, link), page)
	}
	if landed == nil || strings.Contains(landed.String(), "tok") {
		t.Errorf("the sign-in did not drop the token from the address: %v", landed)
	}
	// A reload in the same browser works too.
	if status, page = getPage(t, browser, landed.String(), nil); status != http.StatusOK || !strings.Contains(page, link) {
		t.Errorf("reloading the runs page: %d, pending link listed %v", status, strings.Contains(page, link))
	}

	// The browser visits the other service; it receives the cookies.
	thief := newCookieThief(t)
	getPage(t, browser, thief.url+"/", nil)
	stolen := slices.Compact(slices.Sorted(slices.Values(thief.cookies())))
	if len(stolen) == 0 {
		t.Fatal("the browser sent the other port no cookie (the test no longer shows the attack)")
	}

	// The service replays each cookie header it got, without the bearer
	// (as a program, not a browser: no Origin, no Sec-Fetch-Site).
	attacker := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var found []string
	for _, c := range stolen {
		for _, u := range []string{base + "/runs", base + "/runs?visit=", base + "/runs?token="} {
			status, body := getPage(t, attacker, u, http.Header{"Cookie": {c}})
			for _, m := range approvalLinkRe.FindAllStringSubmatch(body, -1) {
				found = append(found, m[1])
			}
			if status == http.StatusOK {
				t.Errorf("GET %s with the cookie %q alone: %d, want it refused", u, c, status)
			}
		}
	}
	for _, l := range slices.Compact(slices.Sorted(slices.Values(found))) {
		d := stealApproval(t, attacker, l, stolen)
		t.Errorf("the cookie alone revealed the pending link %s; posting approve from it: %d %.200s", l, d.status, d.answer)
	}

	// The person denies; the call never ran.
	if d := decideOnPage(t, link, "deny"); d.status != http.StatusOK {
		t.Fatalf("the person's deny: %d %s", d.status, d.answer)
	}
	wantResult(t, recv(t, done, "the run's result"), `"APPROVAL_DENIED"`)
	if got := rec.list(); len(got) != 0 {
		t.Fatalf("the call ran: %v", got)
	}
}

// stealApproval opens an approval link as a program would (no browser,
// no Origin) and posts approve from its form, with the stolen cookies.
func stealApproval(t *testing.T, c *http.Client, link string, stolen []string) pageDecision {
	t.Helper()
	res, err := c.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := csrfField.FindSubmatch(page)
	if m == nil {
		return pageDecision{page: string(page), status: res.StatusCode}
	}
	cookie := strings.Join(stolen, "; ")
	for _, sc := range res.Cookies() {
		cookie += "; " + sc.Name + "=" + sc.Value
	}
	req, _ := http.NewRequest(http.MethodPost, link, strings.NewReader(url.Values{"csrf": {string(m[1])}, "decision": {"approve"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Cookie", cookie)
	res, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return pageDecision{page: string(page), status: res.StatusCode, answer: string(answer)}
}

// A sign-in to the runs page is one visit: the address without the
// browser's cookie (history) shows nothing, signing in again ends the
// browser's previous visit, and a visit ends after visitLife.
func TestRunsSignIn(t *testing.T) {
	eng, _ := newEngine(t)
	ts, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	h := ts.Config.Handler.(*httpHandler)
	base := strings.TrimSuffix(endpoint, DefaultPath)
	signIn := func(c *http.Client) (string, *http.Cookie) {
		t.Helper()
		noFollow := *c
		noFollow.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		res, err := noFollow.Get(base + "/runs?token=tok")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		var ck *http.Cookie
		for _, c := range res.Cookies() {
			if c.Name == runsCookie {
				ck = c
			}
		}
		loc := res.Header.Get("Location")
		if res.StatusCode != http.StatusSeeOther || ck == nil || !strings.HasPrefix(loc, "/runs?visit=") || strings.Contains(loc, "tok") {
			t.Fatalf("sign-in: %d, Location %q, cookie %v", res.StatusCode, loc, ck)
		}
		if !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/runs" || ck.MaxAge <= 0 || ck.MaxAge > int(visitLife/time.Second) {
			t.Errorf("the visit cookie %+v", ck)
		}
		return base + loc, ck
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	first, _ := signIn(browser)
	if status, _ := getPage(t, browser, first, nil); status != http.StatusOK {
		t.Fatalf("the visit: %d", status)
	}
	// The address alone, as history keeps it.
	if status, _ := getPage(t, http.DefaultClient, first, nil); status != http.StatusUnauthorized {
		t.Errorf("the visit's address without its cookie: %d", status)
	}
	if status, _ := getPage(t, http.DefaultClient, base+"/runs?token=wrong", nil); status != http.StatusUnauthorized {
		t.Errorf("a wrong token: %d", status)
	}
	// The same browser signs in again: the first visit ends.
	second, ck := signIn(browser)
	if status, _ := getPage(t, browser, first, nil); status != http.StatusUnauthorized {
		t.Errorf("the first visit after signing in again: %d", status)
	}
	if status, _ := getPage(t, http.DefaultClient, first, http.Header{"Cookie": {runsCookie + "=" + ck.Value}}); status != http.StatusUnauthorized {
		t.Errorf("the first visit's address with the second visit's cookie: %d", status)
	}
	if status, _ := getPage(t, browser, second, nil); status != http.StatusOK {
		t.Errorf("the second visit: %d", status)
	}
	// The bearer header still opens the page, with or without a visit.
	if status, _ := getPage(t, http.DefaultClient, base+"/runs", http.Header{"Authorization": {"Bearer tok"}}); status != http.StatusOK {
		t.Errorf("the bearer: %d", status)
	}
	// visitLife later the visit is over.
	h.visits.mu.Lock()
	h.visits.now = func() time.Time { return time.Now().Add(visitLife) }
	h.visits.mu.Unlock()
	if status, body := getPage(t, browser, second, nil); status != http.StatusUnauthorized || !strings.Contains(body, string(CodeUnauthorized)) {
		t.Errorf("an expired visit: %d %s", status, body)
	}
	// Visits are bounded: past maxVisits the oldest goes.
	h.visits.mu.Lock()
	h.visits.now = time.Now
	h.visits.mu.Unlock()
	oldest, ck := signIn(http.DefaultClient)
	for range maxVisits {
		signIn(http.DefaultClient)
	}
	if status, _ := getPage(t, http.DefaultClient, oldest, http.Header{"Cookie": {runsCookie + "=" + ck.Value}}); status != http.StatusUnauthorized {
		t.Errorf("the oldest of %d visits: %d", maxVisits+1, status)
	}
	h.visits.mu.Lock()
	n := len(h.visits.m)
	h.visits.mu.Unlock()
	if n > maxVisits {
		t.Errorf("%d visits kept, at most %d", n, maxVisits)
	}
}
