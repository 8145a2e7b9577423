package intl

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
)

// Over generated strings from every Unicode plane, each granularity's
// segments tile the input: ends strictly increase and the last is the
// input's UTF-16 length, and the segments joined give the input back.
func TestSegmentsTileInput(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pools := [][2]rune{{0x20, 0x7e}, {0x300, 0x36f}, {0x1f1e6, 0x1f1ff}, {0x1f3fb, 0x1f3ff}, {0x200d, 0x200d}, {0xfe0f, 0xfe0f},
		{0x1f468, 0x1f469}, {0x4e00, 0x4e20}, {0xe01, 0xe3a}, {0x900, 0x97f}, {0xac00, 0xac10}, {0x1100, 0x11ff}, {0xd, 0xd}, {0xa, 0xa},
		{0x10000, 0x10ffff}, {0xe000, 0xfffd}}
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for n := r.IntN(30); n > 0; n-- {
			p := pools[r.IntN(len(pools))]
			b.WriteRune(p[0] + r.Int32N(p[1]-p[0]+1))
		}
		text := b.String()
		units := utf16.Encode([]rune(text))
		for _, g := range []string{"grapheme", "word", "sentence"} {
			s := &segmenter{locale: "en", granularity: g}
			got := s.segment(text)
			prev := 0
			var joined []uint16
			for k, e := range got.E {
				if e <= prev {
					t.Fatalf("%s %q: end %d after %d", g, text, e, prev)
				}
				joined = append(joined, units[prev:e]...)
				prev = e
				if g == "word" && len(got.W) != len(got.E) {
					t.Fatalf("%s %q: %d flags for %d segments (at %d)", g, text, len(got.W), len(got.E), k)
				}
			}
			if prev != len(units) || string(utf16.Decode(joined)) != text {
				t.Fatalf("%s %q: segments end at %d of %d", g, text, prev, len(units))
			}
		}
	}
}

// The host's reply through Handle: ends as UTF-16 indices (an emoji is two
// units, a flag four) and word-likeness.
func TestSegmentReply(t *testing.T) {
	rep := Handle([]byte(`["seg",["en"],{"granularity":"word"},"segment","Hi 👋🏽, 🇺🇸 ok"]`))
	var got segments
	if rep[0] != 'j' || json.Unmarshal(rep[1:], &got) != nil {
		t.Fatalf("reply %q", rep)
	}
	want := segments{E: []int{2, 3, 7, 8, 9, 13, 14, 16}, W: []bool{true, false, false, false, false, false, false, true}}
	if g, w := jsonOf(got), jsonOf(want); g != w {
		t.Fatalf("got %s, want %s", g, w)
	}
	if rep := string(Handle([]byte(`["seg",["en"],{"granularity":"line"},"segment","x"]`))); !strings.HasPrefix(rep, `e{"e":"RangeError"`) {
		t.Fatalf("granularity line: %q", rep)
	}
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }
