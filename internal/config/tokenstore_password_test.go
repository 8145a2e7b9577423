package config

import (
	"strings"
	"testing"
)

// A password in the tokenStore URL's query string is refused in
// modebox.json like one in its user info; the environment may hold it.
func TestTokenStoreQueryPasswordRefused(t *testing.T) {
	for _, s := range []string{
		"postgres://modebox@db/modebox?password=hunter2",
		"postgres://modebox@db/modebox?sslmode=disable&password=hunter2",
		"postgresql://db/modebox?PassWord=hunter2",
		"postgres://modebox@db/modebox?passfile=/tmp/pass",
		"postgres://modebox@db/modebox?sslpassword=hunter2",
	} {
		msg, _ := TokenStoreProblem(s, true)
		if msg == "" || strings.Contains(msg, "hunter2") {
			t.Errorf("%s in modebox.json: %q", s, msg)
		}
		if msg, _ := TokenStoreProblem(s, false); msg != "" {
			t.Errorf("%s in the environment: %q", s, msg)
		}
	}
	if msg, _ := TokenStoreProblem("postgres://modebox@db/modebox?sslmode=disable&application_name=x", true); msg != "" {
		t.Errorf("a URL without a password: %q", msg)
	}
}
