package tsx

import "strings"

// importProblem is a leading import declaration that cannot be kept,
// located by its byte offset in the body.
type importProblem struct {
	offset int
	msg    string
}

const msgImport = "import declarations are not supported: a program is the body of an async function and has no modules"

// dropLeadingImports blanks out a leading hashbang line and handles the
// import declarations at the start of a program, before its first other
// statement. A program is compiled as the
// body of a function, where esbuild rejects any import. TypeScript
// type-only imports (import type ..., import { type A, type B } ...) are
// blanked out with spaces, keeping every line and column in place; any other
// import is reported as a problem.
func dropLeadingImports(body string, lang Lang) (string, []importProblem) {
	var (
		buf      []byte
		problems []importProblem
	)
	blank := func(from, to int) {
		if buf == nil {
			buf = []byte(body)
		}
		for k := from; k < to; k++ {
			if buf[k] != '\n' {
				buf[k] = ' '
			}
		}
	}
	start := 0
	if strings.HasPrefix(body, "#!") { // a hashbang line is only valid first in a file
		if start = strings.IndexByte(body, '\n'); start < 0 {
			start = len(body)
		}
		blank(0, start)
	}
	i := skipTrivia(body, start)
	for hasWordAt(body, i, "import") {
		next := skipTrivia(body, i+len("import"))
		if next < len(body) && (body[next] == '(' || body[next] == '.') {
			break // import(...) or import.meta: an expression
		}
		toks, end := importTokens(body, i+len("import"))
		if end < 0 {
			break // malformed: leave it to esbuild's diagnostics
		}
		if lang == TS && typeOnly(toks) {
			blank(i, end)
		} else {
			problems = append(problems, importProblem{offset: i, msg: msgImport})
			if len(problems) == maxDiagnostics {
				break // as many as esbuild reports; the body is not compiled
			}
		}
		i = skipTrivia(body, end)
	}
	if buf != nil {
		body = string(buf)
	}
	return body, problems
}

// importToken is one token of an import declaration; str marks a string
// literal, whose text is left out.
type importToken struct {
	text string
	str  bool
}

// importTokens reads the tokens of an import declaration from just after
// the import keyword up to its module specifier (and a following ";" on the
// same line). It returns the byte offset just past the declaration, or -1 if
// the declaration does not end as expected.
func importTokens(s string, i int) ([]importToken, int) {
	var toks []importToken
	for {
		i = skipTrivia(s, i)
		if i >= len(s) {
			return nil, -1
		}
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) || s[j] != c {
				return nil, -1
			}
			i = j + 1
			if len(toks) == 0 || toks[len(toks)-1].text == "from" {
				toks = append(toks, importToken{str: true})
				j = i
				for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
					j++
				}
				if j < len(s) && s[j] == ';' {
					i = j + 1
				}
				return toks, i
			}
			toks = append(toks, importToken{str: true})
		case isIdentByte(c):
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			toks = append(toks, importToken{text: s[i:j]})
			i = j
		case c == '{' || c == '}' || c == ',' || c == '*':
			toks = append(toks, importToken{text: s[i : i+1]})
			i++
		default:
			return nil, -1 // "=", ";", "`" ...: not a plain import
		}
	}
}

// typeOnly reports whether the tokens after "import" make a type-only
// import, which TypeScript erases completely.
func typeOnly(toks []importToken) bool {
	if len(toks) < 3 {
		return false
	}
	if toks[0].text == "type" && !toks[0].str {
		// "import type from 'x'" and "import type, { a } from 'x'" import a
		// default export named type.
		return toks[1].text != "," && !(toks[1].text == "from" && toks[2].str)
	}
	if toks[0].text != "{" {
		return false
	}
	specs, expectType := 0, true
	for _, t := range toks[1:] {
		switch {
		case t.text == "}":
			return specs > 0
		case t.text == ",":
			expectType = true
		case expectType:
			if t.text != "type" || t.str {
				return false
			}
			specs++
			expectType = false
		}
	}
	return false
}

// skipTrivia skips whitespace and comments from offset i.
func skipTrivia(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\v' || s[i] == '\f':
			i++
		case strings.HasPrefix(s[i:], "\ufeff"):
			i += len("\ufeff")
		case strings.HasPrefix(s[i:], "//"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return len(s)
			}
			i += j
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return len(s)
			}
			i += 2 + j + 2
		default:
			return i
		}
	}
	return i
}

// hasWordAt reports whether the identifier word starts at offset i and is
// not the prefix of a longer identifier.
func hasWordAt(s string, i int, word string) bool {
	if !strings.HasPrefix(s[i:], word) {
		return false
	}
	end := i + len(word)
	return end == len(s) || !isIdentByte(s[end])
}

// isIdentByte reports whether c can be part of an identifier. Bytes of
// non-ASCII characters count, which is close enough for import clauses.
func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 ||
		('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}
