package tsx

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The tokenizer of the type stripper (strip.go). It reads a whole program
// body into tokens before anything is stripped, so that the stripper can
// look ahead (to the parenthesis that closes a parameter list, say). It is
// exact for the JavaScript it accepts and declines (returns ok=false)
// wherever it cannot be: a "/" whose meaning (division or regular
// expression) depends on more than the previous token, escapes in
// identifiers, non-ASCII characters that are not letters or digits outside
// strings and comments, carriage returns, U+2028 and U+2029 anywhere
// (Transform has made every line break a "\n"), unterminated literals
// and unbalanced brackets.

// tokKind is the kind of a token.
type tokKind uint8

const (
	tIdent    tokKind = iota // identifier or keyword
	tNum                     // numeric literal
	tStr                     // string literal
	tTmplFull                // template literal without substitutions
	tTmplHead                // `...${
	tTmplMid                 // }...${
	tTmplTail                // }...`
	tRegex                   // regular expression literal
	tPunct                   // punctuator; "<" and ">" are always single tokens
	tEOF                     // the end of the body
)

// token is one token of the body.
type token struct {
	kind       tokKind
	nl         bool // a line break comes between the previous token and this one
	hdr        bool // "(" or ")" of an if, while, for or with header
	obj        bool // "{" or "}" of an object literal (set by the stripper)
	stripped   bool // blanked out by the stripper
	prop       bool // an identifier after "." or "?.": a property name, whatever the word
	start, end int  // byte offsets in the body
	match      int  // for ( [ { and template heads and middles: the index of the closing token
}

// str returns the token's text in body.
func (t *token) str(body string) string { return body[t.start:t.end] }

// punctuators lists the punctuators of more than one byte, longest first
// where one is a prefix of another. ">" and "<" never start one: a type
// argument list may end in ">>", and ">=" after a type is ">" then "=".
var punctuators = []string{
	"...", "===", "!==", "**=", "&&=", "||=", "??=",
	"=>", "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
	"**", "&&", "||", "??", "?.", "++", "--",
}

// reserved holds the reserved words that never end an expression.
var reserved = map[string]bool{
	"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "enum": true,
	"export": true, "extends": true, "finally": true, "for": true, "function": true, "if": true,
	"import": true, "in": true, "instanceof": true, "new": true, "return": true, "switch": true,
	"throw": true, "try": true, "typeof": true, "var": true, "void": true, "while": true,
	"with": true, "implements": true, "interface": true, "package": true, "private": true,
	"protected": true, "public": true, "static": true,
}

// unsureWords are identifiers that may or may not be keywords where they
// stand: the stripper declines rather than guess whether one ends an
// expression.
var unsureWords = map[string]bool{"of": true, "await": true, "yield": true, "let": true}

// tri is a three-valued answer.
type tri uint8

const (
	no tri = iota
	yes
	unsure
)

// endsExpr tells whether token t can be the last token of an expression,
// so that what follows it on the line continues that expression.
func endsExpr(body string, t *token) tri {
	switch t.kind {
	case tNum, tStr, tTmplFull, tTmplTail, tRegex:
		return yes
	case tIdent:
		if t.prop {
			return yes // x.catch, x?.of
		}
		if unsureWords[t.str(body)] {
			return unsure
		}
		if reserved[t.str(body)] {
			return no
		}
		return yes
	case tPunct:
		switch t.str(body) {
		case ")":
			if t.hdr {
				return no
			}
			return yes
		case "]":
			return yes
		case "}":
			if t.obj {
				return yes
			}
			return unsure
		case "!":
			if t.stripped {
				return yes // a non-null assertion
			}
		}
	}
	return no
}

// tokenPool holds token slices for reuse (see getTokens).
var tokenPool sync.Pool

// getTokens returns an empty token slice from the pool, or nil.
func getTokens() []token {
	if p, ok := tokenPool.Get().(*[]token); ok {
		return (*p)[:0]
	}
	return nil
}

// putTokens returns toks to the pool; the caller no longer uses it.
func putTokens(toks []token) {
	if cap(toks) > 0 && cap(toks) <= 64<<10 {
		tokenPool.Put(&toks)
	}
}

// tokenize splits body into tokens, ending with a tEOF token, appending
// them to toks[:0].
func tokenize(body string, toks []token) ([]token, bool) {
	if toks == nil {
		toks = make([]token, 0, len(body)/2+8)
	}
	toks = toks[:0]
	if strings.IndexByte(body, '\r') >= 0 {
		return toks, false // a line break other than "\n"
	}
	var stack []int // indices of open ( [ { and template heads/middles
	i, nl := 0, false
	for {
		// whitespace and comments
		for i < len(body) {
			c := body[i]
			if c == '\n' {
				nl = true
				i++
			} else if c == ' ' || c == '\t' || c == '\v' || c == '\f' {
				i++
			} else if c == '/' && i+1 < len(body) && body[i+1] == '/' {
				for i < len(body) && body[i] != '\n' {
					if body[i] >= 0x80 && !scanRune(body, i) {
						return nil, false
					}
					i++
				}
			} else if c == '/' && i+1 < len(body) && body[i+1] == '*' {
				j := i + 2
				for ; ; j++ {
					if j+1 >= len(body) {
						return nil, false // unterminated
					}
					if body[j] == '*' && body[j+1] == '/' {
						break
					}
					if body[j] == '\n' {
						nl = true
					} else if body[j] >= 0x80 && !scanRune(body, j) {
						return nil, false
					}
				}
				i = j + 2
			} else {
				break
			}
		}
		t := token{start: i, nl: nl, match: -1}
		nl = false
		if i >= len(body) {
			if len(stack) > 0 {
				return nil, false
			}
			t.kind, t.end = tEOF, i
			return append(toks, t), true
		}
		c := body[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for ; j < len(body) && body[j] != c; j++ {
				if body[j] == '\\' {
					j++
				} else if body[j] == '\n' {
					return nil, false
				}
				if j < len(body) && body[j] >= 0x80 && !scanRune(body, j) {
					return nil, false
				}
			}
			if j >= len(body) {
				return nil, false
			}
			t.kind, t.end = tStr, j+1
		case c == '`':
			end, sub, ok := scanTemplate(body, i+1)
			if !ok {
				return nil, false
			}
			t.kind, t.end = tTmplFull, end
			if sub {
				t.kind = tTmplHead
				stack = append(stack, len(toks))
			}
		case c == '}' && len(stack) > 0 && toks[stack[len(stack)-1]].kind != tPunct:
			// the end of a template substitution
			end, sub, ok := scanTemplate(body, i+1)
			if !ok {
				return nil, false
			}
			open := stack[len(stack)-1]
			toks[open].match = len(toks)
			stack = stack[:len(stack)-1]
			t.kind, t.end = tTmplTail, end
			if sub {
				t.kind = tTmplMid
				stack = append(stack, len(toks))
			}
		case isDigit(c) || (c == '.' && i+1 < len(body) && isDigit(body[i+1])):
			j, ok := scanNumber(body, i)
			if !ok {
				return nil, false
			}
			t.kind, t.end = tNum, j
		case isASCIIIdentStart(c) || c >= 0x80:
			j := i
			for j < len(body) {
				if body[j] < 0x80 {
					if !isIdentByte(body[j]) {
						break
					}
					j++
					continue
				}
				r, n := utf8.DecodeRuneInString(body[j:])
				if !(unicode.IsLetter(r) || (j > i && (unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc)))) {
					return nil, false // a space, or a character we do not classify
				}
				j += n
			}
			if j == i {
				return nil, false
			}
			t.kind, t.end = tIdent, j
			if n := len(toks); n > 0 && toks[n-1].kind == tPunct && (toks[n-1].str(body) == "." || toks[n-1].str(body) == "?.") {
				t.prop = true
			}
		case c == '/' && regexAllowed(body, toks) == yes:
			j, ok := scanRegex(body, i)
			if !ok {
				return nil, false
			}
			t.kind, t.end = tRegex, j
		case c == '/' && regexAllowed(body, toks) == unsure:
			return nil, false
		default:
			switch c {
			case '#', '@', '\\':
				return nil, false // private names, decorators, escapes
			}
			if !isPunctByte(c) {
				return nil, false
			}
			n := 1
			if c != '<' && c != '>' && c != '(' && c != ')' && c != '{' && c != '}' && c != '[' && c != ']' && c != ';' && c != ',' && c != ':' {
				for _, p := range punctuators {
					if p[0] == c && len(body)-i >= len(p) && body[i:i+len(p)] == p {
						n = len(p)
						break
					}
				}
				if n == 2 && body[i:i+2] == "?." && i+2 < len(body) && isDigit(body[i+2]) {
					n = 1 // a ? .5 : b
				}
			}
			t.kind, t.end = tPunct, i+n
			switch body[i : i+n] {
			case "(", "[", "{":
				if c == '(' && len(toks) > 0 && isHeaderWord(body, toks, len(toks)-1) {
					t.hdr = true
				}
				stack = append(stack, len(toks))
			case ")", "]", "}":
				if len(stack) == 0 {
					return nil, false
				}
				open := stack[len(stack)-1]
				if toks[open].kind != tPunct || toks[open].str(body)[0] != opener(c) {
					return nil, false
				}
				toks[open].match = len(toks)
				t.hdr = toks[open].hdr
				stack = stack[:len(stack)-1]
			}
		}
		toks = append(toks, t)
		i = t.end
	}
}

// opener returns the opening bracket of closing bracket c.
func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// isHeaderWord reports whether toks[k] is the keyword before the "(" of an
// if, while, for (or for await) or with header.
func isHeaderWord(body string, toks []token, k int) bool {
	t := &toks[k]
	if t.kind != tIdent || t.prop {
		return false
	}
	switch t.str(body) {
	case "if", "while", "for", "with":
		return true
	case "await":
		return k > 0 && toks[k-1].kind == tIdent && toks[k-1].str(body) == "for"
	}
	return false
}

// regexAllowed tells whether a "/" after toks starts a regular expression
// (yes), is division (no), or cannot be told from the previous token
// (unsure).
func regexAllowed(body string, toks []token) tri {
	if len(toks) == 0 {
		return yes
	}
	p := &toks[len(toks)-1]
	switch p.kind {
	case tNum, tStr, tTmplFull, tTmplTail, tRegex:
		return no
	case tTmplHead, tTmplMid:
		return yes
	case tIdent:
		if p.prop {
			return no // a property name
		}
		switch p.str(body) {
		case "this", "super", "null", "true", "false":
			return no
		}
		if unsureWords[p.str(body)] || p.str(body) == "async" || p.str(body) == "get" || p.str(body) == "set" ||
			p.str(body) == "as" || p.str(body) == "satisfies" || p.str(body) == "type" {
			return unsure
		}
		if reserved[p.str(body)] {
			return yes
		}
		return no
	}
	switch p.str(body) {
	case ")":
		if p.hdr {
			return yes
		}
		return no
	case "]":
		return no
	case "}", "++", "--", ">":
		// a block or an object literal; x++ / y or ++/re/; a type
		// argument list or a comparison
		return unsure
	case "!":
		if len(toks) > 1 && endsExpr(body, &toks[len(toks)-2]) != no && !p.nl {
			return unsure // maybe a non-null assertion
		}
	}
	return yes
}

// scanTemplate scans template characters from i (just past "`" or "}") to
// the closing "`" or the next "${". It returns the offset past it and
// whether a substitution follows.
func scanTemplate(s string, i int) (end int, sub, ok bool) {
	for i < len(s) {
		switch c := s[i]; {
		case c == '\\':
			i += 2
		case c == '`':
			return i + 1, false, true
		case c == '$' && i+1 < len(s) && s[i+1] == '{':
			return i + 2, true, true
		case c >= 0x80:
			if !scanRune(s, i) {
				return 0, false, false
			}
			i++
		default:
			i++
		}
	}
	return 0, false, false
}

// scanRegex scans a regular expression literal starting at the "/" at i.
func scanRegex(s string, i int) (int, bool) {
	j, class := i+1, false
	for ; j < len(s); j++ {
		c := s[j]
		switch {
		case c == '\n':
			return 0, false
		case c == '\\':
			j++
			if j < len(s) && s[j] == '\n' {
				return 0, false
			}
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			j++
			for j < len(s) && isIdentByte(s[j]) && s[j] < 0x80 {
				j++
			}
			return j, true
		case c >= 0x80 && !scanRune(s, j):
			return 0, false
		}
	}
	return 0, false
}

// scanRune reports whether the non-ASCII character at s[i] is acceptable in
// a string, template or comment: U+2028 and U+2029 end lines in comments and
// the stripper does not follow them.
func scanRune(s string, i int) bool {
	if s[i] < 0xc0 {
		return true // a continuation byte, checked with its first byte
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r != '\u2028' && r != '\u2029'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isASCIIIdentStart(c byte) bool {
	return c == '_' || c == '$' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// scanNumber scans a numeric literal from i: decimal (1_000, 1.5, .5, 1.,
// 1e-7), hexadecimal, octal or binary with a prefix, or a BigInt. Legacy
// octal (017, 08) and a literal followed by an identifier character or a
// digit are refused.
func scanNumber(s string, i int) (int, bool) {
	digits := func(j int, ok func(byte) bool) int {
		for j < len(s) && (ok(s[j]) || (s[j] == '_' && j+1 < len(s) && ok(s[j+1]) && ok(s[j-1]))) {
			j++
		}
		return j
	}
	dec := func(c byte) bool { return isDigit(c) }
	j, integer := i, true
	if s[i] == '0' && i+1 < len(s) && (s[i+1]|0x20 == 'x' || s[i+1]|0x20 == 'o' || s[i+1]|0x20 == 'b') {
		base := map[byte]func(byte) bool{
			'x': func(c byte) bool { return isDigit(c) || ('a' <= c|0x20 && c|0x20 <= 'f') },
			'o': func(c byte) bool { return '0' <= c && c <= '7' },
			'b': func(c byte) bool { return c == '0' || c == '1' },
		}[s[i+1]|0x20]
		k := digits(i+2, base)
		if k == i+2 || (i+2 < len(s) && s[i+2] == '_') {
			return 0, false
		}
		j = k
	} else {
		if s[i] == '0' && i+1 < len(s) && (isDigit(s[i+1]) || s[i+1] == '_') {
			return 0, false // legacy octal
		}
		j = digits(i, dec)
		if j < len(s) && s[j] == '.' {
			integer = false
			j = digits(j+1, dec)
		}
		if j < len(s) && s[j]|0x20 == 'e' {
			integer = false
			k := j + 1
			if k < len(s) && (s[k] == '+' || s[k] == '-') {
				k++
			}
			if k >= len(s) || !isDigit(s[k]) {
				return 0, false
			}
			j = digits(k, dec)
		}
	}
	if j < len(s) && s[j] == 'n' && integer {
		j++
	}
	if j < len(s) && (isIdentByte(s[j]) || s[j] == '\\') {
		return 0, false // 3in, 1_, 0x1g ...
	}
	return j, true
}

func isPunctByte(c byte) bool {
	switch c {
	case '{', '}', '(', ')', '[', ']', ';', ',', '<', '>', '+', '-', '*', '/', '%',
		'&', '|', '^', '!', '~', '?', ':', '=', '.':
		return true
	}
	return false
}
