package config

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// kind is the JSON type of a node.
type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

// node is one parsed JSON value with its position in the source, so that
// errors found while checking the value can point at it.
type node struct {
	kind     kind
	off, end int    // byte offsets of the value in the source
	str      string // string value, or number text
	b        bool
	members  []member // object members, in source order
	elems    []*node  // array elements
}

// member is one key/value pair of an object.
type member struct {
	key    string
	keyOff int
	val    *node
}

// raw returns the source text of the value.
func (n *node) raw(data []byte) json.RawMessage {
	return json.RawMessage(append([]byte(nil), data[n.off:n.end]...))
}

// maxDepth caps nesting so that a hostile file cannot exhaust the stack.
const maxDepth = 1000

// syntaxError is a JSON syntax error at a byte offset.
type syntaxError struct {
	off int
	msg string
}

// parser is a strict RFC 8259 JSON parser that records offsets. It exists
// instead of encoding/json so that errors can say what was unexpected, with
// line and column, and so that duplicate keys can be found.
type parser struct {
	data  []byte
	pos   int
	depth int
}

// parseJSON parses exactly one JSON value (after an optional UTF-8 byte
// order mark) surrounded by optional whitespace.
func parseJSON(data []byte) (*node, *syntaxError) {
	p := &parser{data: data}
	if strings.HasPrefix(string(data), "\uFEFF") {
		p.pos = 3
	}
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, &syntaxError{off: p.pos, msg: "the file is empty; it must hold a JSON object"}
	}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.data) {
		return nil, &syntaxError{off: p.pos, msg: "unexpected " + p.charAt(p.pos) + " after the end of the top-level value"}
	}
	return n, nil
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// unexpected reports the byte at p.pos (or the end of input) as unexpected,
// with a context phrase such as "expected a value", and a hint for the
// usual mistakes (comments, single quotes).
func (p *parser) unexpected(context string) *syntaxError {
	if p.pos >= len(p.data) {
		return &syntaxError{off: p.pos, msg: "unexpected end of input, " + context}
	}
	c := p.data[p.pos]
	msg := "unexpected " + p.charAt(p.pos)
	switch {
	case c == '/' && p.pos+1 < len(p.data) && (p.data[p.pos+1] == '/' || p.data[p.pos+1] == '*'):
		msg += " (comments are not allowed in JSON)"
	case c == '\'':
		msg += ", " + context + " (JSON strings use double quotes)"
	default:
		msg += ", " + context
	}
	return &syntaxError{off: p.pos, msg: msg}
}

// charAt renders the character starting at off for a message.
func (p *parser) charAt(off int) string {
	r, _ := utf8.DecodeRune(p.data[off:])
	if r == utf8.RuneError {
		return "byte " + strconv.QuoteToASCII(string(p.data[off:off+1]))
	}
	return strconv.QuoteRune(r)
}

func (p *parser) value() (*node, *syntaxError) {
	if p.pos >= len(p.data) {
		return nil, p.unexpected("expected a value")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		start := p.pos
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		return &node{kind: kindString, off: start, end: p.pos, str: s}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return p.literal()
	default:
		return nil, p.unexpected("expected a value")
	}
}

func (p *parser) enter() *syntaxError {
	p.depth++
	if p.depth > maxDepth {
		return &syntaxError{off: p.pos, msg: "nesting too deep"}
	}
	return nil
}

func (p *parser) object() (*node, *syntaxError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	n := &node{kind: kindObject, off: p.pos}
	p.pos++ // {
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		n.end = p.pos
		return n, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			if len(n.members) > 0 && p.pos < len(p.data) && p.data[p.pos] == '}' {
				return nil, &syntaxError{off: p.pos, msg: "unexpected '}' after ',' (trailing commas are not allowed in JSON)"}
			}
			return nil, p.unexpected("expected a double-quoted key")
		}
		keyOff := p.pos
		key, err := p.string()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.unexpected("expected ':' after the key")
		}
		p.pos++
		p.skipSpace()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{key: key, keyOff: keyOff, val: v})
		p.skipSpace()
		if p.pos < len(p.data) {
			switch p.data[p.pos] {
			case ',':
				p.pos++
				continue
			case '}':
				p.pos++
				n.end = p.pos
				return n, nil
			case '"':
				return nil, p.unexpected("expected ',' or '}' (missing comma?)")
			}
		}
		return nil, p.unexpected("expected ',' or '}'")
	}
}

func (p *parser) array() (*node, *syntaxError) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	n := &node{kind: kindArray, off: p.pos}
	p.pos++ // [
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		n.end = p.pos
		return n, nil
	}
	for {
		p.skipSpace()
		if len(n.elems) > 0 && p.pos < len(p.data) && p.data[p.pos] == ']' {
			return nil, &syntaxError{off: p.pos, msg: "unexpected ']' after ',' (trailing commas are not allowed in JSON)"}
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		p.skipSpace()
		if p.pos < len(p.data) {
			switch p.data[p.pos] {
			case ',':
				p.pos++
				continue
			case ']':
				p.pos++
				n.end = p.pos
				return n, nil
			case '"', '{', '[':
				return nil, p.unexpected("expected ',' or ']' (missing comma?)")
			}
		}
		return nil, p.unexpected("expected ',' or ']'")
	}
}

// string reads a string starting at the opening quote and returns its
// decoded value.
func (p *parser) string() (string, *syntaxError) {
	start := p.pos
	p.pos++ // opening quote
	escaped := false
	for {
		if p.pos >= len(p.data) {
			return "", &syntaxError{off: start, msg: "unterminated string"}
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			raw := p.data[start:p.pos]
			if !escaped {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", &syntaxError{off: start, msg: "invalid string: " + err.Error()}
			}
			return s, nil
		case c == '\\':
			escaped = true
			if err := p.escape(); err != nil {
				return "", err
			}
		case c < 0x20:
			if c == '\n' {
				return "", &syntaxError{off: p.pos, msg: "line break inside a string (unterminated string, or write \\n)"}
			}
			return "", &syntaxError{off: p.pos, msg: "control character " + strconv.QuoteRune(rune(c)) + " inside a string (escape it)"}
		case c < utf8.RuneSelf:
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size <= 1 {
				return "", &syntaxError{off: p.pos, msg: "invalid UTF-8 in a string (the file must be UTF-8 encoded)"}
			}
			p.pos += size
		}
	}
}

// escape checks one backslash escape at p.pos and moves past it.
func (p *parser) escape() *syntaxError {
	start := p.pos
	p.pos++ // backslash
	if p.pos >= len(p.data) {
		return &syntaxError{off: start, msg: "unterminated string"}
	}
	switch p.data[p.pos] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		p.pos++
		return nil
	case 'u':
		p.pos++
		for i := 0; i < 4; i++ {
			if p.pos >= len(p.data) || !isHex(p.data[p.pos]) {
				return &syntaxError{off: start, msg: "invalid escape: \\u must be followed by four hex digits"}
			}
			p.pos++
		}
		return nil
	default:
		return &syntaxError{off: start, msg: "invalid escape \\" + strings.Trim(p.charAt(p.pos), "'") + " in a string"}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number reads a number with the RFC 8259 grammar.
func (p *parser) number() (*node, *syntaxError) {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	digits := func(what string) *syntaxError {
		if p.pos >= len(p.data) || !isDigit(p.data[p.pos]) {
			return p.unexpected("expected a digit " + what)
		}
		for p.pos < len(p.data) && isDigit(p.data[p.pos]) {
			p.pos++
		}
		return nil
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
		if p.pos < len(p.data) && isDigit(p.data[p.pos]) {
			return nil, &syntaxError{off: start, msg: "invalid number: leading zeros are not allowed"}
		}
	} else if err := digits("after '-'"); err != nil {
		return nil, err
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if err := digits("after '.'"); err != nil {
			return nil, err
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if err := digits("in the exponent"); err != nil {
			return nil, err
		}
	}
	return &node{kind: kindNumber, off: start, end: p.pos, str: string(p.data[start:p.pos])}, nil
}

// literal reads true, false or null.
func (p *parser) literal() (*node, *syntaxError) {
	start := p.pos
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_') {
			break
		}
		p.pos++
	}
	word := string(p.data[start:p.pos])
	n := &node{off: start, end: p.pos}
	switch word {
	case "true", "false":
		n.kind, n.b = kindBool, word == "true"
		return n, nil
	case "null":
		n.kind = kindNull
		return n, nil
	}
	switch strings.ToLower(word) {
	case "true", "false", "null":
		return nil, &syntaxError{off: start, msg: "invalid literal " + strconv.Quote(word) + " (JSON writes true, false and null in lower case)"}
	}
	p.pos = start
	return nil, p.unexpected("expected a value (strings must be double-quoted)")
}

// lineCol converts a byte offset to a 1-based line and a 1-based column
// counted in bytes (a byte order mark does not count).
func lineCol(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	line, lineStart := 1, 0
	if strings.HasPrefix(string(data), "\uFEFF") {
		lineStart = 3
	}
	for i := 0; i < off; i++ {
		if data[i] == '\n' {
			line++
			lineStart = i + 1
		}
	}
	return line, off - lineStart + 1
}
