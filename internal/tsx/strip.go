package tsx

import "strings"

// stripTypes is the TypeScript fast path: it turns a TypeScript program
// body into JavaScript by replacing its type-only syntax with spaces, so
// that every line and column stays where it was (as Node.js's
// --experimental-strip-types does). It recognises a subset of TypeScript
// with certainty and declines (ok=false) on anything else, and the program
// then goes through esbuild as before. The subset:
//
//   - type annotations on variables (let x: T, let x!: T), on parameters of
//     functions, arrow functions and object-literal methods (x: T, x?: T),
//     on catch bindings, and return types (with x is T and asserts x);
//   - type parameters of functions, methods and arrow functions
//     (function f<T extends U = V>, <T,>(x: T) => x);
//   - type arguments of calls and new (f<T>(x), new Map<K, V>());
//   - x as T, x as const, x satisfies T and the non-null assertion x!;
//   - interface declarations and type aliases at the start of a statement.
//
// It declines on enums, namespaces and modules, declare, abstract, classes
// (and so accessibility modifiers and parameter properties), decorators,
// overloads (a function without a body), this parameters, import and
// export, <T>x assertions, instantiation
// expressions (f<T> not followed by a call), an arrow function with a
// return type where a conditional's ":" could also belong, and whenever
// blanking a type would let the code around it join into a different
// expression (x as T at the end of a line followed by one that starts with
// "(", "[" or "`", say). The tokenizer (striptok.go) declines on what it
// cannot read exactly.
//
// What is left is JavaScript that esbuild's JavaScript transform prints
// exactly as its TypeScript transform prints the original (the tests check
// that on every corpus program, on generated programs and in a fuzz test).
//
// direct reports whether the JavaScript left passes direct's check (the
// tokens of the program outside its types, see directTokens).
func stripTypes(body string) (out string, isDirect, ok bool) {
	if strings.Contains(body, "<!--") || strings.Contains(body, "-->") {
		return "", false, false // HTML-like comments: not for the fast path
	}
	toks, ok := tokenize(body, getTokens())
	if !ok {
		putTokens(toks)
		return "", false, false
	}
	s := &stripper{body: body, toks: toks}
	defer func() {
		putTokens(s.toks)
		if r := recover(); r != nil {
			if _, d := r.(declined); !d {
				panic(r)
			}
			out, isDirect, ok = "", false, false
		}
	}()
	s.scan(len(toks)-1, ctxBlock)
	if s.i != len(toks)-1 {
		return "", false, false
	}
	out = body
	if s.out != nil {
		out = string(s.out)
	}
	return out, directTokens(body, toks), true
}

// declined is the panic value that abandons the fast path.
type declined struct{}

// decline abandons the fast path: the program goes to esbuild.
func decline() { panic(declined{}) }

// ctxKind is what a scan walks through.
type ctxKind uint8

const (
	ctxBlock   ctxKind = iota // statements: the body, a block, a function body
	ctxParen                  // inside ( )
	ctxBracket                // inside [ ]
	ctxTmpl                   // a template substitution
	ctxExpr                   // an expression that ends at "," or ";" (an initializer, a default, a property value)
)

// stripper holds the state of one stripTypes call.
type stripper struct {
	body  string
	toks  []token
	out   []byte // the body with types blanked, allocated on the first blank
	i     int    // the next token
	asEnd int    // the token after the last "as T" (x as unknown as T)
}

func (s *stripper) tok(i int) *token { return &s.toks[i] }

func (s *stripper) isPunct(i int, text string) bool {
	t := &s.toks[i]
	return t.kind == tPunct && t.str(s.body) == text
}

func (s *stripper) isIdent(i int, text string) bool {
	t := &s.toks[i]
	return t.kind == tIdent && t.str(s.body) == text
}

// blank replaces tokens from..to-1 (and what lies between them) with
// spaces, keeping line breaks.
func (s *stripper) blank(from, to int) {
	if from >= to {
		return
	}
	if s.out == nil {
		s.out = []byte(s.body)
	}
	for k := s.toks[from].start; k < s.toks[to-1].end; k++ {
		if s.out[k] != '\n' {
			s.out[k] = ' '
		}
	}
	for k := from; k < to; k++ {
		s.toks[k].stripped = true
	}
}

// prev returns the token before the next one (nil at the start).
func (s *stripper) prev() *token {
	if s.i == 0 {
		return nil
	}
	return &s.toks[s.i-1]
}

// forbidden are identifiers that, outside a property name, mean syntax the
// fast path does not strip (or JavaScript it does not want to guess about).
var forbidden = map[string]bool{
	"enum": true, "namespace": true, "module": true, "declare": true, "abstract": true,
	"class": true, "implements": true, "private": true, "public": true, "protected": true,
	"override": true, "accessor": true, "readonly": true, "import": true, "export": true,
	"using": true, "interface": true, "as": true, "satisfies": true, "static": true,
	"global": true,
}

// scan walks the tokens from s.i up to the token at end (not consumed),
// stripping types. In ctxExpr it returns early, at a "," or ";", or where
// a line break ends the expression before an identifier.
func (s *stripper) scan(end int, ctx ctxKind) {
	q := 0             // conditional "?" not yet matched by ":"
	colonTern := false // the last ":" closed a conditional
	for s.i < end {
		t := s.tok(s.i)
		p := s.prev()
		afterDot := p != nil && p.kind == tPunct && (p.str(s.body) == "." || p.str(s.body) == "?.")
		switch t.kind {
		case tTmplHead:
			s.template()
			continue
		case tIdent:
			if afterDot {
				s.i++
				continue
			}
			if ctx == ctxExpr && t.nl && p != nil && endsExpr(s.body, p) == yes && t.str(s.body) != "in" && t.str(s.body) != "instanceof" {
				return // the line break ends the expression
			}
			if s.word(end, ctx) {
				continue
			}
			s.i++
			continue
		case tPunct:
		default:
			s.i++
			continue
		}
		switch t.str(s.body) {
		case "(":
			s.paren(q > 0)
		case "[":
			s.i++
			s.scan(t.match, ctxBracket)
			s.i = t.match + 1
		case "{":
			if s.braceIsObject(p, colonTern, ctx) {
				s.object()
			} else {
				s.i++
				s.scan(t.match, ctxBlock)
				s.i = t.match + 1
			}
		case "?":
			q++
			s.i++
		case ":":
			colonTern = q > 0
			if q > 0 {
				q--
			} else if ctx != ctxBlock {
				decline() // no label or case here: a type (esbuild takes (a = 0: T) => a)
			}
			s.i++
		case ",", ";":
			if ctx == ctxExpr {
				return
			}
			if t.str(s.body) == ";" {
				q = 0
			}
			s.i++
		case "!":
			if p != nil && !t.nl {
				if p.kind == tPunct && (p.str(s.body) == "++" || p.str(s.body) == "--") {
					decline() // x++!: esbuild reads a non-null assertion after x++
				}
				switch endsExpr(s.body, p) {
				case yes:
					if n := s.tok(s.i + 1); !n.nl && (n.kind == tNum || n.kind == tStr ||
						(n.kind == tIdent && !binaryWords[n.str(s.body)])) {
						decline() // x! y: blanked, x and y would join (type!A={})
					}
					if s.i >= 2 && (s.isIdent(s.i-2, "break") || s.isIdent(s.i-2, "continue")) {
						decline() // break label!: a label, not an expression
					}
					if n := s.tok(s.i + 1); !n.nl && n.kind == tRegex {
						decline() // x!/a/: after an assertion "/" divides, but it was read as a regex (x!!/#/)
					}
					s.blank(s.i, s.i+1) // a non-null assertion
				case unsure:
					decline()
				}
			}
			s.i++
		case "<":
			if p == nil || endsExpr(s.body, p) == no || (p.kind == tIdent && p.str(s.body) == "async" && !t.nl) {
				s.genericArrow(q > 0) // or <T>x, which declines
				continue
			}
			if t.nl || endsExpr(s.body, p) != yes {
				decline() // unclear
			}
			if j, ok := s.typeArgs(s.i); ok {
				if !s.isPunct(j, "(") || s.tok(j).nl {
					decline() // an instantiation expression, a tagged template, or a comparison chain
				}
				s.blank(s.i, j)
				s.i = j
			} else if s.mayBeTypeArgs(s.i) {
				decline() // type arguments of a kind this parser does not know?
			} else if n := s.tok(s.i + 1); n.kind == tPunct && n.str(s.body) == "<" && n.start == t.end {
				s.i += 2 // a shift
			} else {
				s.i++ // a comparison
			}
		default:
			s.i++
		}
	}
}

// template scans a template literal with substitutions.
func (s *stripper) template() {
	for {
		t := s.tok(s.i)
		s.i++
		s.scan(t.match, ctxTmpl)
		s.i = t.match
		if s.tok(s.i).kind == tTmplTail {
			s.i++
			return
		}
	}
}

// word handles an identifier at s.i that starts something the stripper
// handles; it reports false if the identifier is only an identifier.
func (s *stripper) word(end int, ctx ctxKind) bool {
	t := s.tok(s.i)
	next := s.tok(s.i + 1)
	switch t.str(s.body) {
	case "let", "const", "var":
		if t.str(s.body) == "let" {
			if !(next.kind == tIdent || s.isPunct(s.i+1, "[") || s.isPunct(s.i+1, "{")) {
				if next.kind == tPunct && next.str(s.body) != "=" && next.str(s.body) != ";" && next.str(s.body) != "," && next.str(s.body) != ")" {
					decline()
				}
				return false
			}
			if next.nl || (next.kind == tIdent && (next.str(s.body) == "in" || next.str(s.body) == "instanceof" || next.str(s.body) == "of" || next.str(s.body) == "as")) {
				decline() // let on a line of its own may be an identifier
			}
		}
		s.declarations(end)
		return true
	case "function":
		s.function()
		return true
	case "catch":
		if s.isPunct(s.i+1, "(") {
			s.catch()
			return true
		}
		return false
	case "type", "interface":
		if ctx != ctxBlock && ctx != ctxExpr {
			if t.str(s.body) == "interface" {
				decline()
			}
			return false
		}
		return s.typeDeclaration()
	case "as", "satisfies":
		p := s.prev()
		if p == nil || t.nl || (endsExpr(s.body, p) != yes && s.asEnd != s.i) {
			decline()
		}
		s.asExpr()
		return true
	}
	if forbidden[t.str(s.body)] {
		decline()
	}
	return false
}

// bindingPattern declines a declaration's or a parameter's destructuring
// pattern at s.i that holds a "!": in a pattern it is never a non-null
// assertion (esbuild rejects const {...d!} = o and function f([a!])), and
// a "!" in a default value ({a = !b}) is rare enough to leave to esbuild.
func (s *stripper) bindingPattern() {
	for j := s.i + 1; j < s.tok(s.i).match; j++ {
		if s.isPunct(j, "!") {
			decline()
		}
	}
}

// declarations handles let, const and var declarations from the keyword.
func (s *stripper) declarations(end int) {
	s.i++
	for {
		t := s.tok(s.i)
		switch {
		case t.kind == tIdent && !reserved[t.str(s.body)] && !forbidden[t.str(s.body)]:
			s.i++
		case s.isPunct(s.i, "{"):
			s.bindingPattern()
			s.object()
		case s.isPunct(s.i, "["):
			s.bindingPattern()
			s.i++
			s.scan(t.match, ctxBracket)
			s.i = t.match + 1
		default:
			decline()
		}
		if s.isPunct(s.i, "!") && !s.tok(s.i).nl {
			if !s.isPunct(s.i+1, ":") {
				decline()
			}
			s.blank(s.i, s.i+1) // a definite assignment assertion
			s.i++
		}
		if s.isPunct(s.i, ":") {
			j := s.typeEnd(s.i + 1)
			n := s.tok(j)
			switch {
			case n.kind == tPunct && (n.str(s.body) == "=" || n.str(s.body) == "," || n.str(s.body) == ";" || n.str(s.body) == "}" || n.str(s.body) == ")"):
			case n.kind == tEOF:
			case n.nl && n.kind == tIdent && n.str(s.body) != "in" && n.str(s.body) != "of" && n.str(s.body) != "instanceof" && n.str(s.body) != "as" && n.str(s.body) != "satisfies":
			default:
				decline()
			}
			s.blank(s.i, j)
			s.i = j
		}
		if n := s.tok(s.i); n.kind == tIdent && !n.nl && (n.str(s.body) == "as" || n.str(s.body) == "satisfies") {
			decline() // let A as T: no assertion here, esbuild rejects it
		}
		if s.isPunct(s.i, "=") {
			s.i++
			s.scan(end, ctxExpr)
		}
		if s.i < end && s.isPunct(s.i, ",") {
			s.i++
			continue
		}
		return
	}
}

// function handles a function declaration or expression from the
// function keyword.
func (s *stripper) function() {
	s.i++
	if s.isPunct(s.i, "*") {
		s.i++
	}
	if t := s.tok(s.i); t.kind == tIdent {
		if reserved[t.str(s.body)] || forbidden[t.str(s.body)] {
			decline()
		}
		s.i++
	}
	s.functionRest()
}

// functionRest handles a function's type parameters, parameters, return
// type and body, from s.i.
func (s *stripper) functionRest() {
	if s.isPunct(s.i, "<") {
		j, ok := s.typeParams(s.i)
		if !ok || !s.isPunct(j, "(") {
			decline()
		}
		s.blank(s.i, j)
		s.i = j
	}
	if !s.isPunct(s.i, "(") {
		decline()
	}
	close := s.tok(s.i).match
	s.params(s.i, close)
	s.i = close + 1
	if s.isPunct(s.i, ":") {
		j := s.returnTypeEnd(s.i + 1)
		s.blank(s.i, j)
		s.i = j
	}
	if !s.isPunct(s.i, "{") {
		decline() // an overload or a declaration without a body
	}
	body := s.tok(s.i).match
	s.i++
	s.scan(body, ctxBlock)
	s.i = body + 1
}

// params handles the parameter list between the parentheses at open and
// close.
func (s *stripper) params(open, close int) {
	s.i = open + 1
	for s.i < close {
		if s.isPunct(s.i, "...") {
			s.i++
		}
		t := s.tok(s.i)
		switch {
		case t.kind == tIdent && t.str(s.body) != "this" && !reserved[t.str(s.body)] && !forbidden[t.str(s.body)] && !unsureWords[t.str(s.body)]:
			s.i++
		case s.isPunct(s.i, "{"):
			s.bindingPattern()
			s.object()
		case s.isPunct(s.i, "["):
			s.bindingPattern()
			s.i++
			s.scan(t.match, ctxBracket)
			s.i = t.match + 1
		default:
			decline()
		}
		if s.isPunct(s.i, "?") {
			n := s.tok(s.i + 1)
			if n.kind != tPunct || (n.str(s.body) != ":" && n.str(s.body) != "," && n.str(s.body) != ")") {
				decline()
			}
			s.blank(s.i, s.i+1)
			s.i++
		}
		if s.isPunct(s.i, ":") {
			j := s.typeEnd(s.i + 1)
			if n := s.tok(j); n.kind != tPunct || (n.str(s.body) != "," && n.str(s.body) != ")" && n.str(s.body) != "=") {
				decline()
			}
			s.blank(s.i, j)
			s.i = j
		}
		if s.isPunct(s.i, "=") {
			s.i++
			s.scan(close, ctxExpr)
		}
		if s.isPunct(s.i, ",") {
			s.i++
		} else if s.i != close {
			decline()
		}
	}
}

// catch handles catch (e: T) { ... } from the catch keyword.
func (s *stripper) catch() {
	open := s.i + 1
	close := s.tok(open).match
	s.params(open, close)
	s.i = close + 1
	if !s.isPunct(s.i, "{") {
		decline()
	}
}

// paren handles a parenthesis in an expression or statement: a control
// header, an arrow function's parameters, or a parenthesized expression
// or argument list. inCond is set when a conditional's "?" is open, so a
// ":" after the parenthesis may be the conditional's.
func (s *stripper) paren(inCond bool) {
	open := s.i
	t := s.tok(open)
	close := t.match
	after := s.tok(close + 1)
	p := s.prev()
	if t.hdr {
		s.i++
		s.scan(close, ctxParen)
		s.i = close + 1
		return
	}
	asyncArrow := p != nil && p.kind == tIdent && p.str(s.body) == "async" && !t.nl
	callee := p != nil && endsExpr(s.body, p) != no && !asyncArrow
	if callee && endsExpr(s.body, p) == unsure && after.kind == tPunct && (after.str(s.body) == "=>" || after.str(s.body) == ":") {
		decline() // after a block, (x) => y starts a statement; after a word like of, who knows
	}
	switch {
	case after.kind == tPunct && after.str(s.body) == "=>":
		if after.nl || callee {
			decline()
		}
		s.params(open, close)
		s.i = close + 1
		return
	case after.kind == tPunct && after.str(s.body) == ":" && !callee && !(p != nil && (p.kind == tIdent && p.str(s.body) == "case")):
		if inCond {
			decline() // (x): T => y, or a conditional's branch?
		}
		s.params(open, close)
		j := s.typeEndArrow(close + 2)
		if !s.isPunct(j, "=>") {
			decline()
		}
		for k := close + 1; k <= j; k++ {
			if s.tok(k).nl {
				decline() // blanked, it would leave a line break before "=>"
			}
		}
		s.blank(close+1, j)
		s.i = j
		return
	}
	s.i++
	s.scan(close, ctxParen)
	s.i = close + 1
}

// genericArrow handles the type parameters of a generic arrow function,
// <T>(x: T) => x, from the "<" at s.i where an expression starts; anything
// else there (a <T>x assertion) declines. inCond is paren's.
func (s *stripper) genericArrow(inCond bool) {
	j, ok := s.typeParams(s.i)
	if !ok || !s.isPunct(j, "(") || s.tok(j).nl {
		decline()
	}
	after := s.tok(s.tok(j).match + 1)
	if after.kind != tPunct || (after.str(s.body) != "=>" && after.str(s.body) != ":") {
		decline()
	}
	for k := s.i + 1; k <= j; k++ {
		if s.tok(k).nl {
			decline() // blanked, it could leave a line break after async
		}
	}
	s.blank(s.i, j)
	s.i = j
	s.paren(inCond)
}

// braceIsObject tells whether the "{" at s.i opens an object literal (or
// an object pattern) rather than a block.
func (s *stripper) braceIsObject(p *token, colonTern bool, ctx ctxKind) bool {
	t := s.tok(s.i)
	if p == nil {
		return false
	}
	switch p.kind {
	case tTmplHead, tTmplMid:
		return true
	case tNum, tStr, tTmplFull, tTmplTail, tRegex:
		if t.nl {
			return false
		}
		decline()
	case tIdent:
		switch p.str(s.body) {
		case "else", "do", "try", "finally":
			return false
		case "return", "yield", "throw", "await":
			if t.nl {
				decline()
			}
			return true
		}
		if reserved[p.str(s.body)] {
			return true // typeof {}, in {}, case {} ...
		}
		if t.nl && endsExpr(s.body, p) == yes {
			return false
		}
		decline()
	}
	switch p.str(s.body) {
	case ";", "{", "}", ")", "=>":
		if p.str(s.body) == "}" && p.obj {
			decline()
		}
		return false
	case ":":
		return colonTern || ctx != ctxBlock
	case "]":
		if t.nl {
			return false
		}
		decline()
	}
	return true
}

// object handles an object literal or pattern from its "{".
func (s *stripper) object() {
	open := s.i
	close := s.tok(open).match
	s.tok(open).obj = true
	s.tok(close).obj = true
	s.i++
	for s.i < close {
		if s.isPunct(s.i, "...") {
			s.i++
			s.scan(close, ctxExpr)
		} else {
			start := s.i
			j := s.i
			// modifiers: async, get, set, *
			if t := s.tok(j); t.kind == tIdent && (t.str(s.body) == "async" || t.str(s.body) == "get" || t.str(s.body) == "set") && s.isKeyStart(j+1) {
				j++
			}
			if s.isPunct(j, "*") {
				j++
			}
			method := j != start
			switch t := s.tok(j); {
			case t.kind == tIdent || t.kind == tStr || t.kind == tNum:
				j++
			case s.isPunct(j, "["):
				s.i = j + 1
				s.scan(t.match, ctxBracket)
				j = t.match + 1
			default:
				decline()
			}
			n := s.tok(j)
			switch {
			case s.isPunct(j, "(") || s.isPunct(j, "<"):
				s.i = j
				s.functionRest()
			case method:
				decline()
			case s.isPunct(j, ":"):
				s.i = j + 1
				s.scan(close, ctxExpr)
			case n.kind == tPunct && (n.str(s.body) == "," || n.str(s.body) == "=" || n.str(s.body) == "}"):
				if s.tok(start).kind != tIdent || j != start+1 {
					decline()
				}
				s.i = start
				s.scan(close, ctxExpr)
			default:
				decline()
			}
		}
		if s.isPunct(s.i, ",") {
			s.i++
		} else if s.i != close {
			decline()
		}
	}
	s.i = close + 1
}

// isKeyStart reports whether a property key (or "*") starts at token i.
func (s *stripper) isKeyStart(i int) bool {
	t := s.tok(i)
	return t.kind == tIdent || t.kind == tStr || t.kind == tNum || s.isPunct(i, "[") || s.isPunct(i, "*")
}

// asExpr handles "as T", "as const" and "satisfies T" from the keyword.
func (s *stripper) asExpr() {
	kw := s.i
	var j int
	if s.isIdent(kw, "as") && s.isIdent(kw+1, "const") {
		j = kw + 2
		// esbuild reads "as const & T" and "as const | T" as one type
		if s.isPunct(j, "&") || s.isPunct(j, "|") {
			decline()
		}
	} else {
		j = s.typeEnd(kw + 1)
	}
	n := s.tok(j)
	if n.nl {
		switch n.kind {
		case tIdent:
			if n.str(s.body) == "as" || n.str(s.body) == "satisfies" {
				decline()
			}
		case tNum, tStr, tEOF:
		case tPunct:
			switch n.str(s.body) {
			case ";", ")", "]", "}", ",", ":":
			default:
				decline()
			}
		default:
			decline()
		}
	} else {
		switch n.kind {
		case tIdent:
			switch n.str(s.body) {
			case "as", "satisfies", "in", "instanceof":
			default:
				decline()
			}
		case tEOF, tTmplMid, tTmplTail:
		case tPunct:
			switch n.str(s.body) {
			case ")", "]", "}", ",", ";", ":", "&&", "||", "??", "==", "===", "!=", "!==", "&", "|", "^", ">":
			default:
				decline() // "+ c" would bind to what came before "as"
			}
		default:
			decline()
		}
	}
	s.blank(kw, j)
	s.i = j
	s.asEnd = j
}

// typeDeclaration handles an interface or a type alias at s.i, if it is
// one (at the start of a statement, its name on the same line); it
// reports false for the identifier type or interface used as a name.
func (s *stripper) typeDeclaration() bool {
	kw := s.i
	t := s.tok(kw)
	name := s.tok(kw + 1)
	if name.kind != tIdent || name.nl {
		if t.str(s.body) == "interface" || (name.kind == tIdent && !reserved[name.str(s.body)]) {
			decline()
		}
		return false // type used as a name
	}
	if reserved[name.str(s.body)] && !(name.str(s.body) == "extends" && t.str(s.body) == "interface") {
		if t.str(s.body) == "interface" {
			decline()
		}
		return false // type in x = type in y, say
	}
	// Where does the previous statement end?
	pk := kw - 1
	for pk >= 0 && s.tok(pk).stripped {
		pk--
	}
	hazard := false
	if pk >= 0 {
		p := s.tok(pk)
		switch {
		case p.kind == tPunct && (p.str(s.body) == ";" || (p.str(s.body) == "{" && !p.obj)):
		case t.nl && (endsExpr(s.body, p) == yes || (p.kind == tPunct && p.str(s.body) == "}" && !p.obj)):
			hazard = true
		default:
			decline()
		}
	}
	j := kw + 2
	if s.isPunct(j, "<") {
		k, ok := s.typeParams(j)
		if !ok {
			decline()
		}
		j = k
	}
	if t.str(s.body) == "type" {
		if !s.isPunct(j, "=") {
			decline()
		}
		j = s.typeEnd(j + 1)
		n := s.tok(j)
		if !(n.nl || n.kind == tEOF || (n.kind == tPunct && (n.str(s.body) == ";" || n.str(s.body) == "}"))) {
			decline()
		}
		if n.kind == tPunct && n.str(s.body) == ";" {
			j++ // esbuild prints an empty statement, and TypeScript's alias takes it
		}
	} else {
		extends := false
		for (!extends && s.isIdent(j, "extends")) || (extends && s.isPunct(j, ",")) {
			extends = true // a comma only between the names extends lists
			if s.tok(j+1).kind != tIdent {
				decline()
			}
			k, ok := s.primary(j + 1) // a name, with type arguments
			if !ok {
				decline()
			}
			j = k
		}
		if !s.isPunct(j, "{") || !s.members(j) {
			decline()
		}
		j = s.tok(j).match + 1
	}
	if hazard {
		n := s.tok(j)
		switch n.kind {
		case tIdent:
			if n.str(s.body) == "in" || n.str(s.body) == "instanceof" || n.str(s.body) == "as" || n.str(s.body) == "satisfies" || n.str(s.body) == "of" {
				decline()
			}
		case tNum, tStr, tEOF:
		case tPunct:
			if n.str(s.body) != ";" && n.str(s.body) != "}" {
				decline()
			}
		default:
			decline()
		}
	}
	s.blank(kw, j)
	s.i = j
	return true
}

// typeEnd parses a type starting at token i and returns the index of the
// token after it, declining if there is no type there.
func (s *stripper) typeEnd(i int) int {
	j, ok := s.typ(i, false)
	if !ok {
		decline()
	}
	return j
}

// returnTypeEnd is typeEnd for a function's return type, which may be a
// type predicate (x is T, asserts x, asserts x is T).
func (s *stripper) returnTypeEnd(i int) int {
	j, ok := s.returnType(i)
	if !ok {
		decline()
	}
	return j
}

// returnType is typ for a return type (see returnTypeEnd).
func (s *stripper) returnType(i int) (int, bool) {
	if s.isIdent(i, "asserts") && s.tok(i+1).kind == tIdent && !s.tok(i+1).nl && !s.isIdent(i+1, "is") {
		i += 2
		if !s.isIdent(i, "is") || s.tok(i).nl {
			return i, true
		}
		return s.typ(i+1, false)
	}
	if t := s.tok(i); t.kind == tIdent && s.isIdent(i+1, "is") && !s.tok(i+1).nl {
		return s.typ(i+2, false)
	}
	return s.typ(i, false)
}

// typeEndArrow is returnTypeEnd for an arrow function's return type: a
// function type there (whose "=>" would be ambiguous) declines.
func (s *stripper) typeEndArrow(i int) int {
	j := s.returnTypeEnd(i)
	for k := i; k < j; k++ {
		if s.isPunct(k, "=>") {
			decline()
		}
	}
	return j
}

// binaryWords are the words that can follow an expression on its line as
// an operator.
var binaryWords = map[string]bool{"as": true, "satisfies": true, "in": true, "instanceof": true}

// keywordTypes are the types TypeScript names with a keyword, which take
// no type arguments.
var keywordTypes = map[string]bool{
	"any": true, "unknown": true, "never": true, "string": true, "number": true, "boolean": true,
	"object": true, "symbol": true, "bigint": true, "undefined": true, "void": true, "null": true,
	"this": true, "true": true, "false": true,
}

// typeWords are reserved words that are also types.
var typeWords = map[string]bool{"void": true, "null": true, "this": true, "true": true, "false": true}

// typ parses a type from token i: it returns the index after the type and
// whether there was one. noCond leaves out a conditional type (in the
// extends clause of one).
func (s *stripper) typ(i int, noCond bool) (int, bool) {
	// function and constructor types
	isNew := s.isIdent(i, "new")
	if isNew {
		i++
	}
	if s.isPunct(i, "<") {
		j, ok := s.typeParams(i)
		if !ok || !s.isPunct(j, "(") {
			return 0, false
		}
		i = j
		if !s.isPunct(s.tok(i).match+1, "=>") {
			return 0, false
		}
	}
	if s.isPunct(i, "(") && s.isPunct(s.tok(i).match+1, "=>") {
		if !s.typeParamList(i) {
			return 0, false
		}
		return s.typ(s.tok(i).match+2, noCond)
	}
	if isNew {
		return 0, false
	}
	j, ok := s.union(i)
	if !ok {
		return 0, false
	}
	if !noCond && s.isIdent(j, "extends") && !s.tok(j).nl {
		k, ok := s.typ(j+1, true)
		if !ok || !s.isPunct(k, "?") {
			return 0, false
		}
		if k, ok = s.typ(k+1, false); !ok || !s.isPunct(k, ":") {
			return 0, false
		}
		return s.typ(k+1, false)
	}
	return j, true
}

// typeParamList checks the parameter list of a function type or method
// signature at the "(" at i: [...]name[?][: T], a binding pattern in
// place of the name, separated by commas.
func (s *stripper) typeParamList(i int) bool {
	close := s.tok(i).match
	k := i + 1
	for k < close {
		if s.isPunct(k, "...") {
			k++
		}
		switch t := s.tok(k); {
		case t.kind == tIdent && (!reserved[t.str(s.body)] || t.str(s.body) == "this"):
			k++
		case s.isPunct(k, "{") || s.isPunct(k, "["):
			if !s.pattern(k) {
				return false
			}
			k = t.match + 1
		default:
			return false
		}
		if s.isPunct(k, "?") {
			k++
		}
		if s.isPunct(k, ":") {
			var ok bool
			if k, ok = s.typ(k+1, false); !ok {
				return false
			}
		}
		if s.isPunct(k, ",") {
			k++
		} else if k != close {
			return false
		}
	}
	return true
}

// pattern checks a binding pattern in a type's parameter list from its
// "{" or "[": an object pattern of key, key: target and ...name, or an
// array pattern of targets, holes and ...target, the rest last; a target
// is a name or a nested pattern. Defaults and computed keys decline.
func (s *stripper) pattern(i int) bool {
	close := s.tok(i).match
	obj := s.isPunct(i, "{")
	for k := i + 1; k < close; {
		switch {
		case !obj && s.isPunct(k, ","): // a hole
			k++
			continue
		case s.isPunct(k, "..."):
			switch {
			case obj && s.isBindingName(k+1): // an object's rest is a name
				k += 2
			case obj:
				return false
			default:
				if k = s.target(k + 1); k < 0 {
					return false
				}
			}
			return k == close // the rest is last, with no comma after it
		case obj:
			t := s.tok(k)
			switch {
			case s.isPunct(k+1, ":") && (t.kind == tIdent || t.kind == tStr || t.kind == tNum):
				if k = s.target(k + 2); k < 0 {
					return false
				}
			case s.isBindingName(k):
				k++
			default:
				return false
			}
		default:
			if k = s.target(k); k < 0 {
				return false
			}
		}
		if s.isPunct(k, ",") {
			k++
		} else if k != close {
			return false
		}
	}
	return true
}

// target checks the target of a binding pattern's element at k, a name or
// a nested pattern, and returns the index after it, or -1.
func (s *stripper) target(k int) int {
	switch {
	case s.isBindingName(k):
		return k + 1
	case s.isPunct(k, "{") || s.isPunct(k, "["):
		if s.pattern(k) {
			return s.tok(k).match + 1
		}
	}
	return -1
}

// isBindingName reports whether the token at k is an identifier a binding
// may certainly take as its name.
func (s *stripper) isBindingName(k int) bool {
	t := s.tok(k)
	if t.kind != tIdent {
		return false
	}
	w := t.str(s.body)
	return !reserved[w] && !unsureWords[w] && !typeWords[w] && !forbidden[w] && w != "super" && w != "arguments" && w != "eval"
}

// members checks the body of an object type or interface from its "{":
// properties, methods, call and construct signatures, index signatures and
// get/set accessors, separated by ";", "," or line breaks; or a mapped
// type.
func (s *stripper) members(i int) bool {
	close := s.tok(i).match
	k := i + 1
	if s.mapped(k, close) {
		return true
	}
	for k < close {
		start := k
		if s.isIdent(k, "readonly") && s.isMemberKey(k+1) {
			k++
		}
		if (s.isIdent(k, "get") || s.isIdent(k, "set")) && s.isMemberKey(k+1) && !s.isPunct(k+1, "(") {
			k++
		}
		switch t := s.tok(k); {
		case s.isPunct(k, "(") || s.isPunct(k, "<") || (s.isIdent(k, "new") && (s.isPunct(k+1, "(") || s.isPunct(k+1, "<"))):
			// a call or construct signature
			if t.str(s.body) == "new" {
				k++
			}
		case t.kind == tNum && strings.HasSuffix(t.str(s.body), "n"):
			return false // a BigInt key: esbuild rejects it in a type
		case t.kind == tIdent || t.kind == tStr || t.kind == tNum:
			k++
		case s.isPunct(k, "["):
			// [k: T]: U is an index signature, [expr] a computed key
			if s.tok(k+1).kind == tIdent && s.isPunct(k+2, ":") {
				e, ok := s.typ(k+3, false)
				if !ok || e != t.match {
					return false
				}
			} else if !s.entityName(k+1, t.match) {
				return false
			}
			k = t.match + 1
		default:
			return false
		}
		if s.isPunct(k, "?") {
			k++
		}
		var ok bool
		if s.isPunct(k, "<") {
			if k, ok = s.typeParams(k); !ok || !s.isPunct(k, "(") {
				return false
			}
		}
		if s.isPunct(k, "(") {
			if !s.typeParamList(k) {
				return false
			}
			k = s.tok(k).match + 1
		}
		if s.isPunct(k, ":") {
			if k, ok = s.returnType(k + 1); !ok {
				return false
			}
		}
		if k == start {
			return false
		}
		switch {
		case s.isPunct(k, ";") || s.isPunct(k, ","):
			k++
		case k == close || s.tok(k).nl:
		default:
			return false
		}
	}
	return true
}

// isMemberKey reports whether a member's key (or signature) starts at k,
// so that a readonly, get or set before it is a modifier.
func (s *stripper) isMemberKey(k int) bool {
	t := s.tok(k)
	return t.kind == tIdent || t.kind == tStr || t.kind == tNum || s.isPunct(k, "[") || s.isPunct(k, "(")
}

// entityName reports whether tokens i..end-1 are a dotted name (a computed
// key such as [Symbol.iterator]). A name that starts with a reserved word
// or a word TypeScript may read as a type operator (esbuild rejects
// {[keyof]}) is not one: the stripper declines.
func (s *stripper) entityName(i, end int) bool {
	if i >= end || s.tok(i).kind != tIdent {
		return false
	}
	if w := s.tok(i).str(s.body); reserved[w] || unsureWords[w] || typeOperatorWords[w] {
		return false
	}
	for i++; i < end; i += 2 {
		if !s.isPunct(i, ".") || i+1 >= end || s.tok(i+1).kind != tIdent {
			return false
		}
	}
	return true
}

// typeOperatorWords are the words that TypeScript's type grammar gives a
// meaning of their own.
var typeOperatorWords = map[string]bool{
	"keyof": true, "unique": true, "infer": true, "readonly": true, "asserts": true, "is": true,
	"abstract": true, "declare": true, "as": true, "satisfies": true, "type": true, "namespace": true,
	"module": true, "global": true,
}

// mapped reports whether tokens k..close-1 are the inside of a mapped type:
// [+-]readonly? [K in T (as U)?] [+-]?? : V ;?
func (s *stripper) mapped(k, close int) bool {
	if s.isPunct(k, "+") || s.isPunct(k, "-") {
		if !s.isIdent(k+1, "readonly") {
			return false
		}
		k++
	}
	if s.isIdent(k, "readonly") {
		k++
	}
	if !s.isPunct(k, "[") || s.tok(k+1).kind != tIdent || !s.isIdent(k+2, "in") {
		return false
	}
	end := s.tok(k).match
	j, ok := s.typ(k+3, false)
	if ok && s.isIdent(j, "as") {
		j, ok = s.typ(j+1, false)
	}
	if !ok || j != end {
		return false
	}
	k = end + 1
	if s.isPunct(k, "+") || s.isPunct(k, "-") {
		if !s.isPunct(k+1, "?") {
			return false
		}
		k++
	}
	if s.isPunct(k, "?") {
		k++
	}
	if s.isPunct(k, ":") {
		if k, ok = s.typ(k+1, false); !ok {
			return false
		}
	}
	if s.isPunct(k, ";") || s.isPunct(k, ",") {
		k++
	}
	return k == close
}

// tuple checks a tuple type from its "[": elements [...][name[?]:] T[?],
// separated by commas.
func (s *stripper) tuple(i int) bool {
	close := s.tok(i).match
	k := i + 1
	for k < close {
		if s.isPunct(k, "...") {
			k++
		}
		if s.tok(k).kind == tIdent && (s.isPunct(k+1, ":") || (s.isPunct(k+1, "?") && s.isPunct(k+2, ":"))) {
			k += 2
			if s.isPunct(k-1, "?") {
				k++
			}
		}
		var ok bool
		if k, ok = s.typ(k, false); !ok {
			return false
		}
		if s.isPunct(k, "?") {
			k++
		}
		if s.isPunct(k, ",") {
			k++
		} else if k != close {
			return false
		}
	}
	return true
}

// union parses A | B | ... (with an optional leading "|").
func (s *stripper) union(i int) (int, bool) { return s.joined(i, "|", s.intersection) }

// intersection parses A & B & ... (with an optional leading "&").
func (s *stripper) intersection(i int) (int, bool) { return s.joined(i, "&", s.operand) }

// joined parses part op part op ... (with an optional leading op).
func (s *stripper) joined(i int, op string, part func(int) (int, bool)) (int, bool) {
	if s.isPunct(i, op) {
		i++
	}
	for {
		j, ok := part(i)
		if !ok {
			return 0, false
		}
		if !s.isPunct(j, op) {
			return j, true
		}
		i = j + 1
	}
}

// operand parses a type with its prefix operators and postfix [] and [K].
func (s *stripper) operand(i int) (int, bool) {
	t := s.tok(i)
	if t.kind == tIdent {
		switch t.str(s.body) {
		case "keyof", "readonly", "unique":
			if n := s.tok(i + 1); n.kind == tIdent || (n.kind == tPunct && (n.str(s.body) == "(" || n.str(s.body) == "[" || n.str(s.body) == "{")) {
				return s.operand(i + 1)
			}
		case "infer":
			if n := s.tok(i + 1); n.kind == tIdent && !s.isIdent(i+2, "extends") {
				return i + 2, true
			}
			return 0, false
		}
	}
	j, ok := s.primary(i)
	if !ok {
		return 0, false
	}
	for s.isPunct(j, "[") && !s.tok(j).nl {
		k := s.tok(j).match
		if k != j+1 {
			if e, ok := s.typ(j+1, false); !ok || e != k {
				return 0, false
			}
		}
		j = k + 1
	}
	return j, true
}

// primary parses a type name (with type arguments), a literal type, typeof
// x, a parenthesized type, an object type, a mapped type or a tuple.
func (s *stripper) primary(i int) (int, bool) {
	t := s.tok(i)
	switch t.kind {
	case tIdent:
		j := i // the name's first token
		if t.str(s.body) == "typeof" {
			i++
			if t := s.tok(i); t.kind != tIdent || t.str(s.body) == "import" {
				return 0, false
			}
		} else if (reserved[t.str(s.body)] && !typeWords[t.str(s.body)]) || forbidden[t.str(s.body)] || typeOperatorWords[t.str(s.body)] {
			return 0, false
		}
		i++
		for s.isPunct(i, ".") && s.tok(i+1).kind == tIdent {
			i += 2
		}
		if s.isPunct(i, "<") && !s.tok(i).nl {
			if i == j+1 && keywordTypes[t.str(s.body)] {
				return 0, false // unknown<T>: esbuild rejects type arguments here
			}
			return s.typeArgs(i)
		}
		return i, true
	case tStr, tNum, tTmplFull:
		return i + 1, true
	case tPunct:
		switch t.str(s.body) {
		case "-":
			if n := s.tok(i + 1); n.kind == tNum && n.start == t.end {
				return i + 2, true
			}
		case "(":
			if j, ok := s.typ(i+1, false); ok && j == t.match {
				return j + 1, true
			}
		case "{":
			if s.members(i) {
				return t.match + 1, true
			}
		case "[":
			if s.tuple(i) {
				return t.match + 1, true
			}
		}
	}
	return 0, false
}

// typeArgs parses type arguments <A, B> from the "<" at i and returns the
// index after the ">".
func (s *stripper) typeArgs(i int) (int, bool) {
	i++
	for {
		j, ok := s.typ(i, false)
		if !ok {
			return 0, false
		}
		switch {
		case s.isPunct(j, ">"):
			return j + 1, true
		case s.isPunct(j, ","):
			i = j + 1
		default:
			return 0, false
		}
	}
}

// mayBeTypeArgs reports whether the "<" at i could open a type argument
// list for a parser that knows more types than typeArgs: whether a ">"
// closes it before any token that cannot stand in a type outside brackets
// (";", "=", "&&", "+" ...) or the end of the enclosing brackets.
func (s *stripper) mayBeTypeArgs(i int) bool {
	depth := 0
	for k := i; ; k++ {
		t := s.tok(k)
		switch t.kind {
		case tIdent, tNum, tStr, tTmplFull:
			continue
		case tTmplHead:
			k = s.lastOfTemplate(k)
			continue
		case tPunct:
		default:
			return false // a regular expression, the end
		}
		switch t.str(s.body) {
		case "<":
			depth++
		case ">":
			if depth--; depth == 0 {
				return true
			}
		case "(", "[", "{":
			k = t.match
		case ".", ",", "|", "&", "=>", "?", ":", "-", "!": // T! and ?T: esbuild reads JSDoc's types too
		default:
			return false
		}
	}
}

// lastOfTemplate returns the index of the last token of the template
// literal whose head is at i.
func (s *stripper) lastOfTemplate(i int) int {
	for s.tok(i).kind != tTmplTail {
		i = s.tok(i).match
	}
	return i
}

// typeParams parses type parameters <T extends U = V, ...> from the "<"
// at i and returns the index after the ">".
func (s *stripper) typeParams(i int) (int, bool) {
	i++
	for {
		t := s.tok(i)
		if t.kind != tIdent || reserved[t.str(s.body)] || t.str(s.body) == "in" || t.str(s.body) == "out" || t.str(s.body) == "const" {
			return 0, false
		}
		if n := s.tok(i + 1); n.kind == tIdent && n.str(s.body) != "extends" {
			return 0, false // a modifier such as in, out or const
		}
		j := i + 1
		var ok bool
		if s.isIdent(j, "extends") {
			if j, ok = s.typ(j+1, false); !ok {
				return 0, false
			}
		}
		if s.isPunct(j, "=") {
			if j, ok = s.typ(j+1, false); !ok {
				return 0, false
			}
		}
		switch {
		case s.isPunct(j, ">"):
			return j + 1, true
		case s.isPunct(j, ","):
			if s.isPunct(j+1, ">") {
				if gt, n := s.tok(j+1), s.tok(j+2); n.kind == tPunct && n.start == gt.end && (s.body[n.start] == '=' || s.body[n.start] == '>') {
					return 0, false // esbuild reads ",>=" and ",>>" as "," then ">=" or ">>"
				}
				return j + 2, true
			}
			i = j + 1
		default:
			return 0, false
		}
	}
}
