package jsongen

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The two forms agree: Source is JSON text (and so a JavaScript
// expression) that Go decodes to Want.
func TestSourceDecodesToWant(t *testing.T) {
	for seed := range uint64(300) {
		v := New(seed).Any()
		var got any
		if err := json.Unmarshal([]byte(v.Source), &got); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !reflect.DeepEqual(got, v.Want) {
			t.Fatalf("seed %d: Source and Want differ", seed)
		}
	}
}

// Strings reach every plane, the special characters and lone surrogates.
func TestUnitsCoverTheClass(t *testing.T) {
	g := New(1)
	u := g.Units(1 << 16)
	var lone, astral, amp, nul bool
	for i, c := range u {
		switch {
		case c == '&':
			amp = true
		case c == 0:
			nul = true
		case c >= 0xd800 && c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] < 0xe000:
			astral = true
		}
	}
	lone = hasLone(u)
	if !lone || !astral || !amp || !nul {
		t.Fatalf("lone %v astral %v & %v NUL %v", lone, astral, amp, nul)
	}
}
