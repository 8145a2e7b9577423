package modebox

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClipSource: over lines of generated characters of every UTF-8
// length, a clipped Source is valid UTF-8, at most MaxSourceLine bytes
// plus the two marks, holds the character at the column, and is the line
// itself when it fits.
func TestClipSource(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	chars := []string{"a", "é", "€", "😀", " ", "(", "'"}
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(1000) {
			b.WriteString(chars[rng.IntN(len(chars))])
		}
		line := b.String()
		col := 0
		if len(line) > 0 && rng.IntN(4) > 0 {
			col = 1 + rng.IntN(len(line))
			for !utf8.RuneStart(line[col-1]) {
				col--
			}
		}
		got := clipSource(line, col)
		switch {
		case !utf8.ValidString(got):
			t.Fatalf("invalid UTF-8 from %q at %d", line, col)
		case len(line) <= MaxSourceLine && got != line:
			t.Fatalf("a short line changed: %q", got)
		case len(got) > MaxSourceLine+2*len("…")+6: // 3 bytes each side to finish a character
			t.Fatalf("%d bytes", len(got))
		case col > 0:
			// the 100 bytes either side of the column are shown
			a, b := max(0, col-1-100), min(len(line), col-1+100)
			for a > 0 && !utf8.RuneStart(line[a]) {
				a++
			}
			for b < len(line) && !utf8.RuneStart(line[b]) {
				b--
			}
			if !strings.Contains(got, line[a:b]) {
				t.Fatalf("column %d: %q not in %q", col, line[a:b], got)
			}
		}
	}
}
