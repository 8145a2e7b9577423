package mcpserver

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// pageDecision is what a person saw on an approval page and what the
// server answered to the decision posted from it.
type pageDecision struct {
	page   string // the approval page's HTML
	status int    // of the POST
	answer string // the HTML (or error text) answering the POST
}

// decideOnPage is a person deciding on an approval page with a plain HTTP
// client, as a browser does: it opens link (keeping the page's cookie),
// then posts decision from the page, same origin, with the page's token.
func decideOnPage(t *testing.T, link, decision string) pageDecision {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Jar: jar}
	res, err := c.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("approval page %s: %d %s", link, res.StatusCode, page)
	}
	m := csrfField.FindSubmatch(page)
	if m == nil {
		t.Fatalf("no form on the approval page:\n%s", page)
	}
	u, _ := url.Parse(link)
	req, _ := http.NewRequest(http.MethodPost, link, strings.NewReader(url.Values{"csrf": {string(m[1])}, "decision": {decision}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", u.Scheme+"://"+u.Host)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	res, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return pageDecision{page: string(page), status: res.StatusCode, answer: string(answer)}
}
