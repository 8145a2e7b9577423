package prompt

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// escMode selects how sanitize treats the characters that have a meaning
// in the surrounding text (newline, tab, quote, backslash).
type escMode int

const (
	// modeText keeps newlines and turns tabs into spaces (Sanitize).
	modeText escMode = iota
	// modeLine keeps everything on one line: a newline becomes `\n`.
	modeLine
	// modeQuoted escapes like a JSON string body: `\"`, `\\`, `\n`,
	// `\t`, `\r`, so a quoted value cannot end early or span lines.
	modeQuoted
)

// tabSpaces is what a tab becomes in modeText and modeLine.
const tabSpaces = "    "

// maxMarks is how many combining marks in a row are shown as they are.
// Longer runs ("zalgo" text) can draw over neighbouring lines in some
// terminals, so the rest are escaped.
const maxMarks = 4

// Sanitize makes untrusted text safe to write to a terminal. Newlines are
// kept and tabs become four spaces. Every other C0 control, DEL and ESC
// becomes a visible escape such as \x1b or \x0d; C1 controls (U+0080 to
// U+009F) become \u009b and the like. Characters a terminal would not show
// as themselves — Unicode bidi controls (U+202A–U+202E, U+2066–U+2069,
// U+200E, U+200F, U+061C), zero-width and other format characters, line and
// paragraph separators, private-use and unassigned code points, invisible
// fillers and variation selectors — become \u{202e} and the like. Bytes
// that are not valid UTF-8 become \xNN. The result never contains a byte
// below 0x20 other than '\n', nor DEL.
func Sanitize(s string) string { return sanitize(s, modeText) }

// sanitize is Sanitize with a choice of how newline, tab, quote and
// backslash are written.
func sanitize(s string, mode escMode) string {
	var b strings.Builder
	b.Grow(len(s))
	marks := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			marks = 0
			continue
		}
		i += size
		if unicode.In(r, unicode.Mn, unicode.Me) {
			marks++
		} else {
			marks = 0
		}
		switch {
		case r == '\n' && mode == modeText:
			b.WriteByte('\n')
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t' && mode == modeQuoted:
			b.WriteString(`\t`)
		case r == '\t':
			b.WriteString(tabSpaces)
		case r == '\r' && mode == modeQuoted:
			b.WriteString(`\r`)
		case r == '"' && mode == modeQuoted:
			b.WriteString(`\"`)
		case r == '\\' && mode == modeQuoted:
			b.WriteString(`\\`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\u%04x`, r)
		case hidden(r) || marks > maxMarks:
			fmt.Fprintf(&b, `\u{%04x}`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// hidden reports whether r must not reach the terminal as itself because it
// is invisible or changes how the text around it is shown.
func hidden(r rune) bool {
	// Not graphic: Cf (bidi controls, zero-width characters, soft hyphen,
	// BOM, tags), Zl, Zp, Co, Cs and unassigned code points.
	if !unicode.IsGraphic(r) {
		return true
	}
	switch {
	case r == 0x034f, // combining grapheme joiner
		r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0, // Hangul fillers
		r == 0x17b4, r == 0x17b5, // Khmer inherent vowels (invisible)
		r >= 0x180b && r <= 0x180f,   // Mongolian variation selectors
		r >= 0xfe00 && r <= 0xfe0f,   // variation selectors
		r >= 0xe0100 && r <= 0xe01ef: // variation selectors supplement
		return true
	}
	return false
}

// quote returns s as a double-quoted, escaped, one-line string.
func quote(s string) string { return `"` + sanitize(s, modeQuoted) + `"` }

// cut returns the longest prefix of s of at most n bytes that does not
// split a UTF-8 sequence, and how many bytes of s it leaves out. n <= 0
// means no limit.
func cut(s string, n int) (string, int) {
	if n <= 0 || len(s) <= n {
		return s, 0
	}
	i := n
	for j := 0; j < utf8.UTFMax-1 && i > 0 && !utf8.RuneStart(s[i]); j++ {
		i--
	}
	if !utf8.RuneStart(s[i]) {
		i = n // not valid UTF-8 here: cut at the byte limit
	}
	return s[:i], len(s) - i
}

// cutHint is the note shown after a value cut to n bytes with rest left out.
func cutHint(rest int) string {
	return fmt.Sprintf("… (%d more bytes; press v to view all)", rest)
}

// limited quotes s cut to at most n bytes, followed by a hint if cut.
func limited(s string, n int) string {
	head, rest := cut(s, n)
	if rest == 0 {
		return quote(head)
	}
	return quote(head) + cutHint(rest)
}

// limitedLine sanitises s onto one line, cut to at most n bytes.
func limitedLine(s string, n int) string {
	head, rest := cut(s, n)
	if rest == 0 {
		return sanitize(head, modeLine)
	}
	return sanitize(head, modeLine) + cutHint(rest)
}
