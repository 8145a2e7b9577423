package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// argsFrame is an open object or array while prettyArgs walks arguments.
type argsFrame struct {
	obj bool // an object
	n   int  // members so far
	key bool // an object's next token is a key
}

// prettyArgs indents arguments (JSON) without escaping & < >, so that
// they read as written; what is not one JSON value is shown as it is. It
// walks the JSON tokens, so the keys are shown in the order the tool
// receives them and every key is shown, repeated ones too; strings are
// shown as JSON strings in which a lone surrogate escape (which decoding
// would turn into U+FFFD, merging keys that differ in it) stays the
// literal escape, such as \ud800.
func prettyArgs(raw json.RawMessage) string {
	s, err := walkArgs(raw)
	if err != nil {
		return string(raw)
	}
	return s
}

// walkArgs is prettyArgs's indented text, or an error when raw is not
// one JSON value.
func walkArgs(raw []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b strings.Builder
	var stack []*argsFrame
	var prev int64
	done := false
	newline := func(depth int) {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat("  ", depth))
	}
	afterValue := func() {
		if len(stack) == 0 {
			done = true
		} else if f := stack[len(stack)-1]; f.obj {
			f.key = true
		}
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", err
		}
		cur := dec.InputOffset()
		text := bytes.TrimLeft(raw[prev:cur], " \t\r\n,:")
		prev = cur
		if done {
			return "", errors.New("more than one JSON value")
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f.n > 0 {
				newline(len(stack))
			}
			b.WriteByte(byte(d))
			afterValue()
			continue
		}
		var f *argsFrame
		if len(stack) > 0 {
			f = stack[len(stack)-1]
			if !f.obj || f.key { // an array's element or an object's key
				if f.n > 0 {
					b.WriteByte(',')
				}
				newline(len(stack))
				f.n++
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			b.WriteByte(byte(t))
			stack = append(stack, &argsFrame{obj: t == '{', key: t == '{'})
			continue
		case string:
			q, err := quoteJSONString(text)
			if err != nil {
				return "", err
			}
			b.WriteString(q)
			if f != nil && f.obj && f.key {
				b.WriteString(": ")
				f.key = false
				continue
			}
		default: // a number, true, false or null, as written
			b.Write(text)
		}
		afterValue()
	}
	if !done {
		return "", io.ErrUnexpectedEOF
	}
	return b.String(), nil
}

// quoteJSONString rewrites lit, a JSON string literal as written, as a
// JSON string literal without needless escapes: escaped characters are
// shown as themselves (quotes, backslashes and control characters stay
// escaped), a surrogate pair as its character, and a lone surrogate as
// its escape, in lower case.
func quoteJSONString(lit []byte) (string, error) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", fmt.Errorf("not a string literal: %q", lit)
	}
	s := lit[1 : len(lit)-1]
	var b strings.Builder
	b.WriteByte('"')
	hex4 := func(i int) (rune, bool) {
		if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(s[i+2:i+6]), 16, 32)
		return rune(v), err == nil
	}
	writeRune := func(r rune) {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			_, size := utf8.DecodeRune(s[i:])
			b.Write(s[i : i+size]) // invalid UTF-8 stays, for visibleHTML to mark
			i += size
			continue
		}
		if i+1 >= len(s) {
			return "", errors.New("a string ends in a backslash")
		}
		switch e := s[i+1]; e {
		case 'u':
			r, ok := hex4(i)
			if !ok {
				return "", errors.New(`a bad \u escape`)
			}
			switch {
			case utf16.IsSurrogate(r) && r < 0xdc00:
				if lo, ok := hex4(i + 6); ok && lo >= 0xdc00 && lo <= 0xdfff {
					b.WriteRune(utf16.DecodeRune(r, lo))
					i += 12
					continue
				}
				fmt.Fprintf(&b, `\u%04x`, r)
			case utf16.IsSurrogate(r):
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				writeRune(r)
			}
			i += 6
		case '"', '\\', '/':
			writeRune(rune(e))
			i += 2
		case 'b':
			writeRune('\b')
			i += 2
		case 'f':
			writeRune('\f')
			i += 2
		case 'n':
			writeRune('\n')
			i += 2
		case 'r':
			writeRune('\r')
			i += 2
		case 't':
			writeRune('\t')
			i += 2
		default:
			return "", fmt.Errorf(`a bad escape \%c`, e)
		}
	}
	b.WriteByte('"')
	return b.String(), nil
}
