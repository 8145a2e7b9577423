package webfetch

import (
	"context"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

// TestRefusalWording: a refused redirect mentions an approval only when
// one scoped the request, and address classes take the right article.
func TestRefusalWording(t *testing.T) {
	src := redirector(t)
	c := mustNew(t, Config{Allow: []string{src.entry()}, Resolver: newStub()})
	s := session(t, c)
	ctx := context.Background()
	to := "http://elsewhere.test:8080/"

	_, err := s.Do(ctx, Request{URL: redirURL(src.URL, 302, to)}, false)
	wantCode(t, err, codes.FetchRedirect)
	if msg := err.Error(); strings.Contains(msg, "approval") || !strings.Contains(msg, `(add "elsewhere.test:8080" to it to allow it)`) {
		t.Errorf("no approval involved: %v", err)
	}

	_, err = s.Do(ctx, Request{URL: redirURL(src.URL, 302, to)}, true)
	wantCode(t, err, codes.FetchRedirect)
	if msg := err.Error(); !strings.Contains(msg, "the approval covers only "+src.entry()) {
		t.Errorf("approved: %v", err)
	}

	_, err = s.Do(ctx, Request{URL: "http://0.0.0.0:8080/"}, false)
	wantCode(t, err, codes.FetchNotAllowed)
	if msg := err.Error(); !strings.Contains(msg, "an approval cannot open an unspecified address") {
		t.Errorf("article: %v", err)
	}
}
