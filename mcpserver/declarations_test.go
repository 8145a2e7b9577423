package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// The search tool's answer without a query (the declarations) is cut at
// MaxResultText in its structuredContent as in its text: both hold the
// same text, which says it was cut and how to get less.
func TestDeclarationsCutInBoth(t *testing.T) {
	eng, _ := newEngine(t)
	cs := connect(t, New(eng, Options{MaxResultText: 300}), clientOptions(nil), newVersion)
	res := call(t, cs, "search", map[string]any{})
	b, _ := json.Marshal(res.StructuredContent)
	var sc struct {
		Declarations string `json:"declarations"`
	}
	if err := json.Unmarshal(b, &sc); err != nil {
		t.Fatal(err)
	}
	txt := text(t, res)
	if n := utf8.RuneCountInString(sc.Declarations); n > 600 {
		t.Errorf("structuredContent holds %d characters of declarations (MaxResultText 300)", n)
	}
	if sc.Declarations != txt || !strings.Contains(txt, "cut at 300 of") || !strings.Contains(txt, "pass a namespace, or a query") ||
		strings.Contains(txt, "structuredContent has all of it") {
		t.Errorf("text:\n%s\nstructured:\n%s", txt, sc.Declarations)
	}
	// below the cap: whole, as before
	cs = connect(t, New(eng, Options{}), clientOptions(nil), newVersion)
	res = call(t, cs, "search", map[string]any{"namespace": "math"})
	b, _ = json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &sc); err != nil || sc.Declarations != text(t, res) || strings.Contains(sc.Declarations, "cut at") {
		t.Errorf("math: %s", b)
	}
}
