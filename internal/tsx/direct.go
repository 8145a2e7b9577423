package tsx

import "strings"

// directBlock lists words and characters whose presence sends a JavaScript
// program through esbuild even when QuickJS could take it as it is: module
// syntax (import, export), classes (esbuild lowers class fields, static
// blocks and private names), `using` declarations, decorators, and HTML-like
// comments. The check is on the raw text, strings and comments included,
// so it can only err towards esbuild.
var directBlock = []string{"import", "export", "class", "static", "using", "#", "@", "<!--", "-->"}

// direct reports whether a JavaScript body can be handed to QuickJS as it
// is, wrapped but not run through esbuild. Such a program is ES2020 that
// QuickJS 2021-03-27 parses itself: if it does not parse, the run reports a
// compile error and the caller compiles it with TransformFull, which gives
// esbuild's diagnostics (or its lowering, for syntax QuickJS lacks).
func direct(body string, lang Lang) bool {
	if lang != JS {
		return false // TypeScript always needs its types stripped
	}
	for _, w := range directBlock {
		if strings.Contains(body, w) {
			return false
		}
	}
	return true
}

// directOriginal is Original for a program that was not run through
// esbuild: line n+1 of Code is line n of the body, byte for byte.
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
