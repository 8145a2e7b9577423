package prompt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello, world", "hello, world"},
		{"unicode kept", "héllo 世界 ✓", "héllo 世界 ✓"},
		{"newline kept", "a\nb", "a\nb"},
		{"tab as spaces", "a\tb", "a    b"},
		{"csi colour", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"cursor up", "x\x1b[1Ay", `x\x1b[1Ay`},
		{"clear screen", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"osc 8 hyperlink", "\x1b]8;;http://x\x07click\x1b]8;;\x07", `\x1b]8;;http://x\x07click\x1b]8;;\x07`},
		{"osc 8 with ST", "\x1b]8;;http://x\x1b\\click", `\x1b]8;;http://x\x1b\click`},
		{"title set", "\x1b]0;evil\x07", `\x1b]0;evil\x07`},
		{"title set 2", "\x1b]2;evil\x1b\\", `\x1b]2;evil\x1b\`},
		{"cr overwrite", "approve\r[modebox] approved automatically", `approve\x0d[modebox] approved automatically`},
		{"crlf", "a\r\nb", "a\\x0d\nb"},
		{"backspaces", "rm -rf /\b\b\b\b\b\b\b\bls", `rm -rf /\x08\x08\x08\x08\x08\x08\x08\x08ls`},
		{"bell", "\a", `\x07`},
		{"NUL", "a\x00b", `a\x00b`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"vertical tab form feed", "\v\f", `\x0b\x0c`},
		{"C1 CSI", "\u009b2J", `\u009b2J`},
		{"C1 OSC and ST", "\u009d0;x\u009c", `\u009d0;x\u009c`},
		{"C1 NEL", "a\u0085b", `a\u0085b`},
		{"raw C1 byte is invalid UTF-8", "a\x9bb", `a\x9bb`},
		{"bidi RLO", "\u202egnp.exe", `\u{202e}gnp.exe`},
		{"bidi all embeddings", "\u202a\u202b\u202c\u202d\u202e", `\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}`},
		{"bidi isolates", "\u2066\u2067\u2068\u2069", `\u{2066}\u{2067}\u{2068}\u{2069}`},
		{"bidi marks", "\u200e\u200f\u061c", `\u{200e}\u{200f}\u{061c}`},
		{"zero width", "a\u200bb\u200cc\u200dd\u2060e\ufeff", `a\u{200b}b\u{200c}c\u{200d}d\u{2060}e\u{feff}`},
		{"soft hyphen", "ex\u00adec", `ex\u{00ad}ec`},
		{"tag characters", "ok\U000E0041\U000E007F", `ok\u{e0041}\u{e007f}`},
		{"line separators", "a\u2028b\u2029c", `a\u{2028}b\u{2029}c`},
		{"hangul filler", "\u3164\u115f", `\u{3164}\u{115f}`},
		{"variation selector", "a\ufe0f", `a\u{fe0f}`},
		{"private use", "\ue000", `\u{e000}`},
		{"zalgo", "a" + strings.Repeat("\u0301", 6), "a" + strings.Repeat("\u0301", 4) + `\u{0301}\u{0301}`},
		{"invalid UTF-8", "a\xff\xfeb", `a\xff\xfeb`},
		{"truncated sequence", "a\xe4\xb8", `a\xe4\xb8`},
		{"overlong encoding", "\xc0\xaf", `\xc0\xaf`},
		{"surrogate half", "\xed\xa0\x80", `\xed\xa0\x80`},
		{"literal U+FFFD kept", "\ufffd", "\ufffd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Sanitize(tt.in)
			if got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			checkSafe(t, got, true)
		})
	}
}

// checkSafe fails if s could control a terminal: a control character
// (other than '\n' when newlines are allowed), DEL, a C1 control, invalid
// UTF-8 or a hidden format character.
func checkSafe(t *testing.T, s string, newlines bool) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("not valid UTF-8: %q", s)
	}
	for _, r := range s {
		switch {
		case r == '\n' && newlines:
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
			t.Errorf("control %U in %q", r, s)
		case hidden(r):
			t.Errorf("hidden %U in %q", r, s)
		}
	}
}

func TestSanitizeAllCodePoints(t *testing.T) {
	var b strings.Builder
	for r := rune(0); r <= 0x10ffff; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		b.WriteRune(r)
	}
	for i := 0; i < 256; i++ {
		b.WriteByte(byte(i)) // bytes 0x80 and up are invalid on their own
	}
	all := b.String()
	checkSafe(t, Sanitize(all), true)
	// The modes differ only below U+0080.
	some := all[:0x3000] + all[len(all)-256:]
	checkSafe(t, sanitize(some, modeLine), false)
	checkSafe(t, sanitize(some, modeQuoted), false)
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{`say "hi"`, `"say \"hi\""`},
		{`a\b`, `"a\\b"`},
		{"a\nb\tc\rd", `"a\nb\tc\rd"`},
		{"\x1b[2J", `"\x1b[2J"`},
		{"\u202e", `"\u{202e}"`},
	}
	for _, tt := range tests {
		if got := quote(tt.in); got != tt.want {
			t.Errorf("quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestCut(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		head string
		rest int
	}{
		{"hello", 0, "hello", 0},
		{"hello", 5, "hello", 0},
		{"hello", 3, "hel", 2},
		{"héllo", 2, "h", 5}, // does not split é
		{"世界", 4, "世", 3},    // does not split 界
		{"\xff\xff\xff\xff\xff", 2, "\xff\xff", 3},
		{"a\x80\x80\x80\x80\x80", 4, "a\x80\x80\x80", 2},
	}
	for _, tt := range tests {
		head, rest := cut(tt.s, tt.n)
		if head != tt.head || rest != tt.rest {
			t.Errorf("cut(%q, %d) = %q, %d; want %q, %d", tt.s, tt.n, head, rest, tt.head, tt.rest)
		}
	}
}
