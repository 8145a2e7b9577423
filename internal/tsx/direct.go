package tsx

import "strings"

// directBlock lists words and characters whose presence sends a JavaScript
// program through esbuild even when QuickJS could take it as it is: module
// syntax (import, export), classes (esbuild lowers class fields, static
// blocks and private names), `using` declarations, decorators, and HTML-like
// comments.
var directBlock = []string{"import", "export", "class", "static", "using", "#", "@", "<!--", "-->"}

// directWords are the words of directBlock, looked for as identifiers.
var directWords = map[string]bool{"import": true, "export": true, "class": true, "static": true, "using": true}

// direct reports whether a JavaScript body (a JavaScript program, or a
// TypeScript program after stripTypes) can be handed to QuickJS as it is,
// wrapped but not run through esbuild. Such a program is ES2020 that
// QuickJS 2021-03-27 parses itself: if it does not parse, the run reports a
// compile error and the caller compiles it with TransformFull, which gives
// esbuild's diagnostics (or its lowering, for syntax QuickJS lacks).
//
// The words of directBlock are looked for as identifiers (not property
// names after "." or "?.") in the tokens of the body (striptok.go), so that
// a "#" or "@" in a string or a comment does not count. Where the
// tokenizer declines (it does on "#" and "@" outside strings and
// comments), the check is on the raw text, strings and comments included,
// so it can only err towards esbuild.
func direct(body string) bool {
	raw := true
	for _, w := range directBlock {
		if strings.Contains(body, w) {
			raw = false
			break
		}
	}
	if raw {
		return true // the common case: no need to tokenize
	}
	if strings.Contains(body, "<!--") || strings.Contains(body, "-->") {
		return false
	}
	toks, ok := tokenize(body, getTokens())
	defer putTokens(toks)
	return ok && directTokens(body, toks)
}

// directTokens is direct's check on the tokens of a body: no word of
// directWords as an identifier outside a property name after "." or "?."
// (and no "#" or "@", on which the tokenizer declines). Tokens blanked by
// stripTypes do not count.
func directTokens(body string, toks []token) bool {
	for k := range toks {
		t := &toks[k]
		if t.kind == tIdent && !t.stripped && directWords[t.str(body)] {
			if k == 0 || toks[k-1].kind != tPunct || (toks[k-1].str(body) != "." && toks[k-1].str(body) != "?.") {
				return false
			}
		}
	}
	return true
}

// directOriginal is Original for a program that was not run through
// esbuild: line n+1 of Code is line n of the body, byte for byte (types
// stripped from a TypeScript program are spaces of the same length).
func (p *Program) directOriginal(genLine, genCol int) (line, col int, ok bool) {
	bodyLine := genLine - 1
	if bodyLine < 1 || bodyLine > p.bodyLines {
		return 0, 0, false
	}
	line = p.offset + bodyLine
	text := p.LineText(line)
	if genCol <= 0 {
		// Only the line is known: point at its first non-blank byte, as
		// esbuild's first mapping on a line does.
		return line, len(text) - len(strings.TrimLeft(text, " \t")) + 1, true
	}
	return line, min(genCol, len(text)+1), true
}
