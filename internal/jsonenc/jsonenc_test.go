package jsonenc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modebox/modebox/internal/jsongen"
)

// TestRoundTrip: over generated values (every JSON type, every Unicode
// plane, & < > " \ NUL and the line separators, deep nesting, large
// strings), Marshal keeps a compact json.RawMessage byte for byte, what
// it writes decodes to the value it was given, it writes no HTML escape
// and no trailing newline.
func TestRoundTrip(t *testing.T) {
	for seed := range uint64(300) {
		v := jsongen.New(seed).Any()
		var raw bytes.Buffer
		if err := json.Compact(&raw, []byte(v.Source)); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		b, err := Marshal(struct {
			Args json.RawMessage `json:"args"`
		}{raw.Bytes()})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if want := `{"args":` + raw.String() + `}`; string(b) != want {
			t.Fatalf("seed %d: the raw message was rewritten", seed)
		}

		b, err = Marshal(v.Want)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var got any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !reflect.DeepEqual(got, v.Want) {
			t.Fatalf("seed %d: the value does not round-trip", seed)
		}
		for _, esc := range []string{`\u0026`, `\u003c`, `\u003e`} {
			if bytes.Contains(b, []byte(esc)) {
				t.Fatalf("seed %d: Marshal wrote %s", seed, esc)
			}
		}
		if bytes.HasSuffix(b, []byte{'\n'}) {
			t.Fatalf("seed %d: trailing newline", seed)
		}
	}
}

func TestExamples(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{"Promise<number> && a > b", `"Promise<number> && a > b"`},
		{json.RawMessage("{\"a\": \"x && <y>\u2028\"}"), "{\"a\":\"x && <y>\u2028\"}"},
		{[]any{nil, true, 1.5, "\x00"}, `[null,true,1.5,"\u0000"]`},
	} {
		b, err := Marshal(c.in)
		if err != nil || string(b) != c.want {
			t.Errorf("Marshal(%#v) = %s, %v; want %s", c.in, b, err, c.want)
		}
	}
	if _, err := Marshal(json.RawMessage(`{`)); err == nil {
		t.Error("an invalid raw message was encoded")
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Error("a func was encoded")
	}
}
