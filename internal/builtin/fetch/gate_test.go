package fetch

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/webfetch"
)

func testGate(t *testing.T, url string) (g struct{ reason, key string }) {
	t.Helper()
	cl, err := webfetch.New(webfetch.Config{Allow: []string{"one.example.com:443", "two.example.com:443"}})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(map[string]any{"url": url, "method": "POST", "body": "x"})
	gi := gate(cl, raw)
	if gi.Reject != nil {
		t.Fatalf("%s refused: %v", url, gi.Reject)
	}
	g.reason, g.key = gi.Reason, gi.ApprovalKey
	return g
}

// TestGateListedKeyedByOrigin checks that requests to listed hosts carry
// an approval key per origin, so an approval "for the rest of the run"
// given on a data-flow question for one listed origin does not cover
// another.
func TestGateListedKeyedByOrigin(t *testing.T) {
	a := testGate(t, "https://one.example.com/x")
	b := testGate(t, "https://two.example.com/x")
	if a.reason != "" || b.reason != "" {
		t.Errorf("listed hosts need approval: %q %q", a.reason, b.reason)
	}
	if a.key == "" || a.key == b.key {
		t.Errorf("listed origins share an approval key: %q %q", a.key, b.key)
	}
	if a.key != testGate(t, "https://one.example.com/other?q=1").key {
		t.Errorf("one origin, two keys")
	}
}

// TestGateReasonWording checks the unlisted reason: the phrase "not on the
// fetch allowlist" once, and the full origin first even when the URL is cut.
func TestGateReasonWording(t *testing.T) {
	g := testGate(t, "https://elsewhere.example.net/path")
	if n := strings.Count(g.reason, "not on the fetch allowlist"); n != 1 {
		t.Errorf("the phrase appears %d times: %q", n, g.reason)
	}
	host := strings.Repeat("a", 60) + "." + strings.Repeat("b", 60) + "." + strings.Repeat("c", 60) + "." + strings.Repeat("d", 40) + ".example.net"
	g = testGate(t, "https://"+host+"/"+strings.Repeat("p", 300))
	origin := "https://" + host + ":443"
	if !strings.HasPrefix(g.reason, "fetch to "+origin) {
		t.Errorf("the reason does not lead with the full origin: %q", g.reason)
	}
	if g.key != "fetch "+origin {
		t.Errorf("key %q", g.key)
	}
}
