package mcpserver

import (
	"strings"
	"testing"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/codes"
)

// TestReferenceListsEveryCode checks that the reference the search tool
// serves lists every error code a model can meet, under its area, with
// its description from the registry; and none of the codes that only HTTP
// clients and operators see.
func TestReferenceListsEveryCode(t *testing.T) {
	eng, err := modebox.New(modebox.EngineConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ref := New(eng, Options{}).reference()
	if testing.Verbose() {
		t.Logf("reference (%d bytes):\n%s", len(ref), ref)
	}
	_, list, ok := strings.Cut(ref, "\n * Error codes (")
	if !ok {
		t.Fatalf("the reference has no error codes:\n%s", ref)
	}
	list, _, _ = strings.Cut(list, "\n */\n")
	area, seen := "", 0
	for _, line := range strings.Split(list, "\n")[1:] {
		if a, doc, ok := strings.Cut(strings.TrimPrefix(line, " * "), ": "); ok && !strings.HasPrefix(line, " *   ") {
			if codes.Area(a).Doc() != doc {
				t.Errorf("area line %q is not the registry's %q", line, codes.Area(a).Doc())
			}
			area = a
			continue
		}
		code, summary, ok := strings.Cut(strings.TrimPrefix(line, " *   "), ": ")
		info, known := codes.Lookup(codes.Code(code))
		switch {
		case !ok || !known:
			t.Errorf("%q lists no code of the registry", line)
		case summary != info.Summary || string(info.Area) != area:
			t.Errorf("%q: want %s under %s with %q", line, code, info.Area, info.Summary)
		default:
			seen++
		}
	}
	want := 0
	for _, i := range codes.All() {
		if !i.Area.ModelSees() {
			if strings.Contains(ref, "\n *   "+string(i.Code)+": ") {
				t.Errorf("the reference lists %s, which only %s sees", i.Code, i.Area)
			}
			continue
		}
		want++
		if !strings.Contains(ref, "\n *   "+string(i.Code)+": "+i.Summary+"\n") {
			t.Errorf("the reference does not list %s: %s", i.Code, i.Summary)
		}
	}
	if seen != want || want < 70 {
		t.Errorf("the reference lists %d codes, the registry has %d a model can meet", seen, want)
	}
}
