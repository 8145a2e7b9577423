package tsx

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// esbuild's parser and the type stripper (strip.go) are recursive: each
// level of nesting in a program is a level of Go stack, 1.5–6.5 KB of it
// in esbuild, so 300,000 parentheses (600 KB of program) took a goroutine
// past Go's 1 GB stack limit, and that is a fatal error that ends the
// process. Nested functions and blocks also cost esbuild time that grows
// with the square of their depth, nested arrow functions with the cube
// (1,500 of them: 7.7 s), all of it before a run starts and outside its
// time limit. QuickJS itself refuses far less nesting (its parser's stack
// ends at 500–1,000 levels of functions or literals, "stack overflow"), so
// no program refused here would have run.
//
// checkNesting bounds both, on an estimate that never falls below what
// those parsers nest, read from the program's tokens:
//
//   - every open bracket ( [ { and template substitution is a level;
//   - within a bracket, each token that makes a parser recurse without a
//     bracket adds a level: prefix operators, assignments, "**", "?",
//     ":", "=>", "...", "<", "@", the keywords new, typeof, void, delete,
//     await, yield and extends, TypeScript's type operators and its
//     modifiers public, private, protected, override and declare (the
//     expression's levels), and if, else, while, for, do and with (the
//     statement's levels; ":" is counted here too, for labels);
//   - a "," ends the expression's levels of its bracket, a ";" ends both,
//     except before "else" or "while" (the statement's levels go on);
//   - so does a line break where JavaScript inserts a ";" (nestScan.asi):
//     in a block or the body, between an operand, a "}" or a break,
//     continue, return or debugger and a word that cannot continue it,
//     unless a decorator waits for what it decorates.
//
// The nesting is the sum over the open brackets; the scopes are the open
// braces plus the arrows counted in each bracket. Where the lexer cannot
// tell a regular expression from a division (after "}", "++", "--" or a
// contextual keyword, or "!" after an operand, TypeScript's non-null
// assertion), it takes the regular expression and counts every character
// of it that could nest as a level for the rest of the program; if the two
// readings would lex what follows differently (a quote, a comment or a "}"
// inside), the program is refused. A program too short in brackets,
// operators and words to pass either limit is not scanned (nestingBound).

// MaxNesting bounds the nesting estimate of a program that is compiled by
// esbuild or stripped of its types.
const MaxNesting = 2000

// MaxScopes bounds the estimate of nested functions and blocks.
const MaxScopes = 500

// nestFrame is one open bracket of checkNesting.
type nestFrame struct {
	open   byte // '(' '[' '{' or '$' (a template substitution); 0 for the body
	hdr    bool // the "(" of an if, while, for or with header
	stmt   int  // statement levels counted in this bracket
	expr   int  // expression levels counted in this bracket
	arrows int  // arrows counted in this bracket (scopes)
	// a decorator was read in this bracket and what it decorates has not
	// begun (no "class" since): a line break ends nothing (nestScan.asi)
	decorator bool
}

// nestRegexWords are the keywords after which a "/" starts a regular
// expression. After the words that are keywords only in strict code
// (public, static, ...) or in some places (of, await, ...), a "/" is
// ambiguous (nestAmbiguousWords); after other keywords it is an error
// either way, and esbuild stops there.
var nestRegexWords = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "new": true, "delete": true, "void": true,
	"throw": true, "case": true, "do": true, "else": true, "extends": true, "default": true,
}

// nestExprWords are the keywords that add an expression level.
var nestExprWords = map[string]bool{
	"new": true, "typeof": true, "void": true, "delete": true, "await": true, "yield": true, "extends": true,
	// TypeScript's type operators
	"keyof": true, "readonly": true, "unique": true, "infer": true, "is": true, "asserts": true,
	// TypeScript's modifiers that esbuild reads by recursing once for
	// each, however many are repeated ("public public … x" in a class,
	// "declare declare … const x")
	"public": true, "private": true, "protected": true, "override": true, "declare": true,
}

// nestStmtWords are the keywords that add a statement level.
var nestStmtWords = map[string]bool{"if": true, "else": true, "while": true, "for": true, "do": true, "with": true}

// nestOperandWords are the keywords after which a "/" is a division.
var nestOperandWords = map[string]bool{"this": true, "super": true, "null": true, "true": true, "false": true}

// nestAmbiguousWords are the identifiers after which a "/" may start a
// regular expression or be a division.
var nestAmbiguousWords = map[string]bool{
	"of": true, "await": true, "yield": true, "let": true, "async": true, "get": true, "set": true, "as": true, "satisfies": true, "type": true,
	"implements": true, "interface": true, "package": true, "private": true, "protected": true, "public": true, "static": true,
	// TypeScript's abstract constructor type, "abstract new () => T",
	// and a type parameter's variance, "<out T>", which esbuild reads
	// across a line break
	"abstract": true, "out": true, "override": true, "declare": true,
	// the end of a TypeScript type (as const, => void), or a variable
	"const": true, "void": true, "keyof": true, "readonly": true, "unique": true, "infer": true, "is": true, "asserts": true,
}

// The classes of nestWordClass.
const (
	wordStmt uint8 = 1 << iota
	wordExpr
	wordAmbiguous
	wordOperand
	wordRegex
)

// nestWordClass maps each keyword of the sets above to its classes, for
// one lookup a word.
var nestWordClass = func() map[string]uint8 {
	m := map[string]uint8{}
	for set, class := range map[*map[string]bool]uint8{
		&nestStmtWords: wordStmt, &nestExprWords: wordExpr, &nestAmbiguousWords: wordAmbiguous,
		&nestOperandWords: wordOperand, &nestRegexWords: wordRegex, &reserved: wordRegex,
	} {
		for w := range *set {
			m[w] |= class
		}
	}
	return m
}()

// nestingError is checkNesting's refusal: a message and the byte offset
// in the body where the limit was passed.
type nestingError struct {
	msg    string
	offset int
}

// checkNesting returns a refusal when body (a program's body, JavaScript
// or TypeScript) may nest deeper than MaxNesting or MaxScopes, or when it
// cannot be lexed with certainty where that decides the estimate; nil
// otherwise.
func checkNesting(body string) *nestingError {
	if nestingBound(body) {
		return nil
	}
	n := nestScan{body: body, stack: make([]nestFrame, 1, 16), nest: 1, maxNesting: MaxNesting, maxScopes: MaxScopes}
	return n.run()
}

// nestingBound reports whether body is too short in what could nest for
// either estimate to pass its limit, so that the scan is not needed: every
// level of the nesting estimate is a punctuation byte, a word, or the
// body, and every scope a "{" or an "=>" (ambiguous counts the same of
// its spans). It reads each byte once, several times faster than the
// scan.
func nestingBound(body string) bool {
	levels, scopes := nestingCounts(body)
	return levels <= MaxNesting && scopes <= MaxScopes
}

// nestingCounts returns nestingBound's upper bounds of the two estimates.
func nestingCounts(body string) (levels, scopes int) {
	levels = 1
	word := false
	for i := 0; i < len(body); i++ {
		switch c := body[i]; nestByteClass[c] {
		case byteIdent:
			if !word {
				levels++
				word = true
			}
			continue
		case bytePunct:
			levels++
			switch {
			case c == '{':
				scopes++
			case c == '=' && i+1 < len(body) && body[i+1] == '>':
				scopes++
			}
		}
		word = false
	}
	return levels, scopes
}

// The classes of nestByteClass.
const (
	byteSpace uint8 = iota
	byteIdent       // identifier and number characters, and every non-ASCII byte
	bytePunct       // everything else
)

// nestByteClass classifies the bytes for nestingBound.
var nestByteClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			t[c] = byteSpace
		case c >= 0x80 || isIdentByte(byte(c)):
			t[c] = byteIdent
		default:
			t[c] = bytePunct
		}
	}
	return t
}()

// nestScan is the state of checkNesting.
type nestScan struct {
	body                  string
	maxNesting, maxScopes int // the limits
	peakNest, peakScopes  int // the highest estimates seen (for tests)
	stack                 []nestFrame
	nest                  int  // the nesting estimate: the frames' levels, plus ambiguous's
	scopes                int  // the scopes estimate: open braces and arrows, plus ambiguous's
	operand               bool // the previous token ends an operand ("/" divides, "+" is binary)
	prevDot               bool // the previous token is "." or "?." (a word is a property name)
	prevHdr               bool // the previous token is if, while, for or with (its "(" is a header)
	regexOK               bool // the previous token lets "/" start a regular expression for certain
	ambig                 bool // the previous token leaves "/" ambiguous
	onLine                bool // a token came since the last line break ("-->" then is no comment)
	closed                bool // the previous token is "}"
	restricted            bool // the previous token is break, continue, return or debugger
}

func (n *nestScan) top() *nestFrame { return &n.stack[len(n.stack)-1] }

// check compares the estimates with the limits after a token at offset.
func (n *nestScan) check(offset int) *nestingError {
	nest, scopes := n.nest, n.scopes
	n.peakNest, n.peakScopes = max(n.peakNest, nest), max(n.peakScopes, scopes)
	switch {
	case nest > n.maxNesting:
		return &nestingError{fmt.Sprintf("the program nests too deeply here: more than %d levels of brackets, operators and statements inside one another (modebox compiles at most %d)", MaxNesting, MaxNesting), offset}
	case scopes > n.maxScopes:
		return &nestingError{fmt.Sprintf("the program nests too deeply here: more than %d functions and blocks inside one another (modebox compiles at most %d)", MaxScopes, MaxScopes), offset}
	}
	return nil
}

// add counts a level in the current bracket and checks the estimates.
func (n *nestScan) add(offset int, stmt bool) *nestingError {
	if stmt {
		n.top().stmt++
	} else {
		n.top().expr++
	}
	n.nest++
	return n.check(offset)
}

// pop closes the current bracket, and its levels.
func (n *nestScan) pop() nestFrame {
	f := n.stack[len(n.stack)-1]
	n.stack = n.stack[:len(n.stack)-1]
	n.nest -= 1 + f.stmt + f.expr
	n.scopes -= f.arrows
	if f.open == '{' {
		n.scopes--
	}
	return f
}

// endExpr ends the expression levels of the current bracket, and its
// statement levels too if stmt.
func (n *nestScan) endExpr(stmt bool) {
	f := n.top()
	n.nest -= f.expr
	n.scopes -= f.arrows
	f.expr, f.arrows = 0, 0
	if stmt {
		n.nest -= f.stmt
		f.stmt = 0
		f.decorator = false
	}
}

func (n *nestScan) run() *nestingError {
	s := n.body
	i := 0
	if strings.HasPrefix(s, "#!") {
		for i < len(s) && s[i] != '\n' {
			i++
		}
	}
	n.regexOK = true
	for {
		i = n.skipSpace(i)
		if i >= len(s) {
			return nil
		}
		c := s[i]
		start := i
		newLine := !n.onLine
		n.onLine = true
		switch {
		case c == '"' || c == '\'':
			i = skipString(s, i)
			n.setOperand()
		case c == '`' || c == '}' && len(n.stack) > 1 && n.top().open == '$':
			if c == '}' {
				n.pop() // the end of a substitution: the template goes on
			}
			var sub bool
			i, sub = skipTemplate(s, i+1)
			if sub {
				if err := n.push('$', false, i); err != nil {
					return err
				}
				n.setStart()
			} else {
				n.setOperand()
			}
		case isDigit(c) || (c == '.' && i+1 < len(s) && isDigit(s[i+1])):
			for i < len(s) && (isIdentByte(s[i]) || s[i] == '.' ||
				((s[i] == '+' || s[i] == '-') && (s[i-1]|0x20 == 'e') && !strings.HasPrefix(strings.ToLower(s[start:i]), "0x"))) {
				i++
			}
			n.setOperand()
		case isASCIIIdentStart(c) || c == '\\' || c == '#' || c >= 0x80:
			i = skipWord(s, i)
			if newLine {
				n.asi(s[start:i])
			}
			if err := n.word(s[start:i], start); err != nil {
				return err
			}
		case c == '/':
			if n.regexOK || (!n.operand && !n.ambig) {
				// unterminated, it is an error where esbuild stops, or a
				// division this lexer did not foresee: read on as one
				if j, ok := scanRegexLenient(s, i); ok {
					i = j
					n.setOperand()
					continue
				}
			}
			if n.ambig {
				if j, ok := scanRegexLenient(s, i); ok {
					if err := n.ambiguous(i, j); err != nil {
						return err
					}
					i = j
					n.setOperand()
					continue
				}
			}
			i = n.punct(i)
			if err := n.operator(s[start:i], start); err != nil {
				return err
			}
		default:
			i = n.punct(i)
			if err := n.operator(s[start:i], start); err != nil {
				return err
			}
		}
	}
}

// skipSpace skips white space and comments from i. An unterminated
// comment ends the scan (esbuild stops there).
func (n *nestScan) skipSpace(i int) int {
	s := n.body
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\n' || c == '\r':
			n.onLine = false
			i++
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			i++
		case c == '/' && i+1 < len(s) && s[i+1] == '/',
			// HTML-like comments, which esbuild reads as line comments:
			// "<!--" anywhere, "-->" first on its line
			c == '<' && strings.HasPrefix(s[i:], "<!--"),
			c == '-' && !n.onLine && strings.HasPrefix(s[i:], "-->"):
			for i < len(s) && s[i] != '\n' && s[i] != '\r' && !lineSeparatorAt(s, i) {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return len(s)
			}
			if strings.ContainsAny(s[i+2:i+2+end], "\n\r\u2028\u2029") {
				n.onLine = false
			}
			i += 2 + end + 2
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !isUnicodeSpace(r) {
				return i
			}
			if r == 0x2028 || r == 0x2029 {
				n.onLine = false
			}
			i += size
		default:
			return i
		}
	}
	return i
}

// isUnicodeSpace reports whether r is white space or a line terminator to
// JavaScript beyond ASCII.
func isUnicodeSpace(r rune) bool {
	switch r {
	case 0xA0, 0xFEFF, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}

// lineSeparatorAt reports whether s[i:] starts with U+2028 or U+2029,
// which end a line comment.
func lineSeparatorAt(s string, i int) bool {
	return strings.HasPrefix(s[i:], "\u2028") || strings.HasPrefix(s[i:], "\u2029")
}

// skipString skips the string literal at i, to its closing quote or, if
// unterminated, to the end of its line.
func skipString(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n', '\r':
			return j
		}
	}
	return len(s)
}

// skipTemplate skips template characters from i (past "`" or "}") to the
// closing "`" or past the next "${"; sub tells which. Unterminated, it
// skips to the end.
func skipTemplate(s string, i int) (end int, sub bool) {
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
		case '`':
			return i + 1, false
		case '$':
			if i+1 < len(s) && s[i+1] == '{' {
				return i + 2, true
			}
			i++
		default:
			i++
		}
	}
	return len(s), false
}

// skipWord skips an identifier or keyword (escapes, private names and
// non-ASCII characters included) at i.
func skipWord(s string, i int) int {
	j := i
	if s[j] == '#' {
		j++
	}
	for j < len(s) {
		c := s[j]
		switch {
		case c == '\\':
			j += 2
		case c < 0x80 && isIdentByte(c):
			j++
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[j:])
			if isUnicodeSpace(r) {
				return max(j, i+1)
			}
			j += size
		default:
			return max(j, i+1)
		}
	}
	return max(min(j, len(s)), i+1)
}

// scanRegexLenient scans a regular expression literal at the "/" at i,
// to the end of its flags; ok is false when none ends on the line.
func scanRegexLenient(s string, i int) (int, bool) {
	class := false
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\n' || c == '\r' || lineSeparatorAt(s, j):
			return 0, false
		case c == '\\':
			j++
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			j++
			for j < len(s) && s[j] < 0x80 && isIdentByte(s[j]) {
				j++
			}
			return j, true
		}
	}
	return 0, false
}

// ambiguous handles the regular expression s[i:j] that may be a division
// instead: what the other reading makes of it must lex the same way after
// it (no quote, comment or "}" inside), and every character of it that
// could open a level counts as one for the rest of the program.
func (n *nestScan) ambiguous(i, j int) *nestingError {
	span := n.body[i+1 : j]
	if k := strings.IndexAny(span, "'\"`}"); k >= 0 || strings.Contains(span, "//") || strings.Contains(span, "/*") {
		return &nestingError{"modebox cannot tell whether this \"/\" starts a regular expression or divides, and the two readings differ in what follows; add a \";\" before it, or parentheses around what it divides", i}
	}
	words, levels := false, 0
	for k := 0; k < len(span); k++ {
		c := span[k]
		switch {
		case isIdentByte(c) || c >= 0x80:
			if !words {
				levels++
				words = true
			}
		case c == ' ' || c == '\t' || c == '\v' || c == '\f': // nestingBound's spaces
			words = false
		default:
			levels++
			words = false
		}
	}
	n.nest += levels
	n.scopes += strings.Count(span, "{") + strings.Count(span, "=>")
	return n.check(i)
}

// punct reads the punctuator at i: the longest of JavaScript's that
// starts there.
func (n *nestScan) punct(i int) int {
	s := n.body
	c := s[i]
	var cands []string
	switch c {
	case '>':
		cands = punctsGT
	case '<':
		cands = punctsLT
	case '=':
		cands = punctsEq
	case '!':
		cands = punctsNot
	case '*':
		cands = punctsStar
	case '.':
		cands = punctsDot
	case '&':
		cands = punctsAmp
	case '|':
		cands = punctsBar
	case '?':
		if strings.HasPrefix(s[i:], "?.") && i+2 < len(s) && isDigit(s[i+2]) {
			return i + 1 // a ? .5 : b
		}
		cands = punctsQuestion
	case '+':
		cands = punctsPlus
	case '-':
		cands = punctsMinus
	case '/', '%', '^':
		if i+1 < len(s) && s[i+1] == '=' {
			return i + 2
		}
	}
	for _, p := range cands {
		if strings.HasPrefix(s[i:], p) {
			return i + len(p)
		}
	}
	return i + 1
}

// The punctuators of more than one byte, by first byte, longest first.
var (
	punctsGT       = []string{">>>=", ">>>", ">>=", ">>", ">="}
	punctsLT       = []string{"<<=", "<<", "<="}
	punctsEq       = []string{"===", "==", "=>"}
	punctsNot      = []string{"!==", "!="}
	punctsStar     = []string{"**=", "**", "*="}
	punctsDot      = []string{"..."}
	punctsAmp      = []string{"&&=", "&&", "&="}
	punctsBar      = []string{"||=", "||", "|="}
	punctsQuestion = []string{"??=", "??", "?."}
	punctsPlus     = []string{"++", "+="}
	punctsMinus    = []string{"--", "-="}
)

// push opens a bracket.
func (n *nestScan) push(open byte, hdr bool, offset int) *nestingError {
	n.stack = append(n.stack, nestFrame{open: open, hdr: hdr})
	n.nest++
	if open == '{' {
		n.scopes++
	}
	return n.check(offset)
}

// setOperand records that the previous token ends an operand.
func (n *nestScan) setOperand() {
	n.operand, n.regexOK, n.ambig, n.prevDot, n.prevHdr, n.closed, n.restricted = true, false, false, false, false, false, false
}

// setStart records that the previous token starts or continues an
// expression: "/" starts a regular expression, "+" is a prefix.
func (n *nestScan) setStart() {
	n.operand, n.regexOK, n.ambig, n.prevDot, n.prevHdr, n.closed, n.restricted = false, true, false, false, false, false, false
}

// word handles an identifier or keyword w at offset.
func (n *nestScan) word(w string, offset int) *nestingError {
	if n.prevDot {
		n.setOperand() // a property name, whatever the word
		return nil
	}
	hdr := w == "if" || w == "while" || w == "for" || w == "with" || (w == "await" && n.prevHdr) // for await (
	class := uint8(0)
	if len(w) >= 2 && len(w) <= 10 && 'a' <= w[0] && w[0] <= 'z' {
		class = nestWordClass[w]
	}
	switch {
	case class&wordStmt != 0:
		if err := n.add(offset, true); err != nil {
			return err
		}
		n.setStart()
	case class&wordExpr != 0:
		if err := n.add(offset, false); err != nil {
			return err
		}
		n.setStart()
		if class&wordAmbiguous != 0 {
			n.regexOK, n.ambig = false, true
		}
	case class&wordAmbiguous != 0:
		n.setOperand()
		n.operand, n.ambig = false, true
	case class&wordOperand != 0:
		n.setOperand()
	case class&wordRegex != 0:
		n.setStart()
	default:
		n.setOperand()
	}
	n.prevHdr = hdr
	n.restricted = w == "break" || w == "continue" || w == "return" || w == "debugger"
	return nil
}

// operator handles the punctuator p at offset.
func (n *nestScan) operator(p string, offset int) *nestingError {
	wasOperand, wasHdr := n.operand, n.prevHdr
	switch p {
	case "(", "[", "{":
		if err := n.push(p[0], p == "(" && wasHdr, offset); err != nil {
			return err
		}
		n.setStart()
		return nil
	case ")", "]", "}":
		hdr := false
		if len(n.stack) > 1 {
			hdr = n.pop().hdr
		} // an unmatched closer closes nothing: the estimate stays high
		switch {
		case p == "}":
			n.setOperand()
			n.operand, n.ambig = false, true // a block or an expression
			n.closed = true
		case hdr:
			n.setStart() // if (...) /re/
		default:
			n.setOperand()
		}
		return nil
	case ",":
		n.endExpr(false)
	case ";":
		n.endExpr(!n.stmtGoesOn(offset + 1))
	case ".", "?.":
		n.setStart()
		n.prevDot = true
		return nil
	case "++", "--":
		if err := n.add(offset, false); err != nil {
			return err
		}
		n.setOperand()
		n.operand, n.ambig = false, true // x++ / y, or ++/re/.lastIndex
		return nil
	case "+", "-":
		if !wasOperand {
			if err := n.add(offset, false); err != nil {
				return err
			}
		}
	case ":":
		if err := n.add(offset, true); err != nil {
			return err
		}
	case "=>":
		n.top().arrows++
		n.scopes++
		if err := n.add(offset, false); err != nil {
			return err
		}
	case "!":
		if err := n.add(offset, false); err != nil {
			return err
		}
		n.setStart()
		if wasOperand {
			n.regexOK, n.ambig = false, true // TypeScript's x! / y, or a prefix
		}
		return nil
	case "<":
		// a type argument list (f<a, f<a, …: esbuild tries each to the
		// end, and nests) does not end at ",": a statement level
		if err := n.add(offset, true); err != nil {
			return err
		}
	case ">", ">>", ">>>":
		n.setStart()
		n.regexOK, n.ambig = false, true // the end of a type argument list, or a comparison
		return nil
	case "@":
		n.top().decorator = true
		if err := n.add(offset, false); err != nil {
			return err
		}
	case "~", "?", "**", "...",
		"=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??=":
		if err := n.add(offset, false); err != nil {
			return err
		}
	}
	n.setStart()
	return nil
}

// nestContinues are the words that may continue an expression or a
// declaration after an operand or a "}" on an earlier line, so that no
// ";" is inserted before them (a TypeScript "as", "satisfies", "is" or
// "extends" after a line break is no operator to esbuild; it is here, to
// be safe).
var nestContinues = map[string]bool{
	"in": true, "instanceof": true, "of": true, "from": true,
	"as": true, "satisfies": true, "is": true, "extends": true, "implements": true,
}

// nestGoesOn are the words before which the statement levels go on after
// an inserted ";": an if's else, a do's while, a try's catch and finally.
var nestGoesOn = map[string]bool{"else": true, "while": true, "catch": true, "finally": true}

// asi ends the levels of the current bracket before the word w, which
// follows a line break, where JavaScript inserts a ";" there: the bracket
// is a block or the body (no ";" is inserted inside parentheses, brackets
// or a substitution), and either the previous token is break, continue,
// return or debugger (a line break ends those statements whatever
// follows), or it ends an operand or is a "}" and w cannot continue what
// came before (an operand followed by a word is a syntax error, which the
// inserted ";" mends). Without it, a program of lines without semicolons
// counted a level for each assignment.
func (n *nestScan) asi(w string) {
	if f := n.top(); f.decorator {
		// "@d⏎class", "@d⏎abstract class", "@d⏎static m() {}": what a
		// decorator decorates may start on the next line, and a class
		// expression goes on nesting inside whatever was open
		f.decorator = w != "class" || n.prevDot // "@d.⏎class" is a name
		return
	}
	if n.asiEnds(w) {
		n.endExpr(!nestGoesOn[w])
	}
}

// asiEnds reports whether asi ends the current bracket's levels before
// the word w after a line break (TestASIAgreesWithEsbuild checks each
// place where it does against esbuild).
func (n *nestScan) asiEnds(w string) bool {
	f := n.top()
	if f.decorator || !n.restricted && (!(n.operand || n.closed) || nestContinues[w]) { // after "." neither is set: a name follows
		return false
	}
	return f.open == 0 || f.open == '{'
}

// stmtGoesOn reports whether the next token from i is the word "else"
// or "while": the statement levels before a ";" go on (an if's else, a
// do's while, whose condition may hold a function and its statements).
func (n *nestScan) stmtGoesOn(i int) bool {
	onLine := n.onLine
	i = n.skipSpace(i)
	n.onLine = onLine
	return wordAt(n.body, i, "else") || wordAt(n.body, i, "while")
}

// wordAt reports whether the word w starts at s[i] and ends there.
func wordAt(s string, i int, w string) bool {
	j := i + len(w)
	return strings.HasPrefix(s[i:], w) && (j == len(s) || !(isIdentByte(s[j]) || s[j] == '\\' || s[j] >= 0x80))
}
