package engine

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/tsx"
)

// TestJournalCloneIsDeep: a clone shares no bytes with its journal (the
// values are packed into one buffer), an append to one of its values
// cannot reach the next, and empty values stay nil.
func TestJournalCloneIsDeep(t *testing.T) {
	j := &Journal{Seed: 7, Clock: []float64{1.5}, Calls: []JournalCall{
		{ID: 1, Tool: "a", Args: "d1", OK: true, Value: json.RawMessage(`{"x":1}`)},
		{ID: 2, Tool: "b", Args: "d2", Value: nil},
		{ID: 3, Tool: "a", Args: "d3", OK: true, Value: json.RawMessage(`"y"`)},
		{ID: 4, Tool: "c", Args: "d4", OK: true, Value: json.RawMessage{}},
	}}
	want := `{"seed":7,"clock":[1.5],"calls":[{"id":1,"tool":"a","args":"d1","ok":true,"value":{"x":1}},` +
		`{"id":2,"tool":"b","args":"d2","ok":false,"value":null},{"id":3,"tool":"a","args":"d3","ok":true,"value":"y"},` +
		`{"id":4,"tool":"c","args":"d4","ok":true,"value":null}]}`
	c := j.Clone()
	if got, _ := json.Marshal(c); string(got) != want {
		t.Fatalf("clone %s, want %s", got, want)
	}
	if c.Calls[1].Value != nil || c.Calls[3].Value != nil {
		t.Fatal("an empty value is not nil in the clone")
	}
	_ = append(c.Calls[0].Value, "X"...) // room for it, were the cap not cut
	if string(c.Calls[2].Value) != `"y"` {
		t.Fatalf("an append to one value changed the next: %s", c.Calls[2].Value)
	}
	j.Calls[0].Value[1] = 'Z'
	j.Clock[0] = 9
	if string(c.Calls[0].Value) != `{"x":1}` || c.Clock[0] != 1.5 {
		t.Fatal("the clone shares memory with its journal")
	}
	if !reflect.DeepEqual((*Journal)(nil).Clone(), (*Journal)(nil)) {
		t.Fatal("nil.Clone() is not nil")
	}
}

// The digest a journal (and every sealed token) holds for a call's
// arguments is the first 12 bytes of their SHA-256 in unpadded base64url
// (the fixed value is openssl's, not this code's):
// a change would make every token sealed before it fail to resume.
func TestArgsDigestFormat(t *testing.T) {
	if got, want := argsDigest([]byte(`{"a":1,"b":2}`)), "QyWM_3g_5wNtikMD"; got != want {
		t.Fatalf("argsDigest = %q, want %q", got, want)
	}
	for _, s := range []string{"", "{}", `"\u00e9"`, strings.Repeat("x", 1000)} {
		sum := sha256.Sum256([]byte(s))
		if got, want := argsDigest([]byte(s)), base64.RawURLEncoding.EncodeToString(sum[:12]); got != want {
			t.Fatalf("argsDigest(%q) = %q, want %q", s, got, want)
		}
	}
}

// A replay whose call has the same tool but other arguments stops with
// REPLAY_MISMATCH before the tool runs; the same arguments replay.
func TestReplayWithOtherArgumentsIsAMismatch(t *testing.T) {
	h := &echoHost{}
	first := runJS(t, `return (await tools.add({a: 1, b: 2})).b`, Limits{}, h)
	if first.Err != nil || string(first.Value) != "2" || first.Journal == nil || len(first.Journal.Calls) != 1 {
		t.Fatalf("%s %+v %+v", first.Value, first.Err, first.Journal)
	}
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	replay := func(src string) *Result {
		p, err := tsx.Transform(src, tsx.JS)
		if err != nil {
			t.Fatal(err)
		}
		return e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Host: h, Replay: first.Journal.Clone()})
	}
	same := replay(`return (await tools.add({a: 1, b: 2})).b`)
	if same.Err != nil || string(same.Value) != "2" {
		t.Fatalf("same arguments: %s %+v", same.Value, same.Err)
	}
	for _, src := range []string{`return (await tools.add({a: 1, b: 3})).b`, `return (await tools.add({b: 2, a: 1})).b`, `return (await tools.add()).b`} {
		r := replay(src)
		if r.Err == nil || r.Err.Code != codes.ReplayMismatch {
			t.Fatalf("%s: %s %+v", src, r.Value, r.Err)
		}
	}
	if len(h.args) != 1 {
		t.Fatalf("the tool ran %d times", len(h.args))
	}
}
