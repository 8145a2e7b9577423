package tsx

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Original maps a position in Code to the text the user sent. genLine is
// 1-based; genCol is a 1-based byte column, or 0 when only the line is known
// (as in QuickJS 2021 stack traces), in which case the first mapping on
// that line that points into the program is used. It returns a 1-based line
// and 1-based byte column in the user's text, and ok=false when the
// position maps to nothing or only to the wrapper around the program (for
// example esbuild's helper functions).
func (p *Program) Original(genLine, genCol int) (line, col int, ok bool) {
	if p.Direct {
		return p.directOriginal(genLine, genCol)
	}
	mappings, _ := p.sourceMap()
	if genLine < 1 || genLine > len(mappings) {
		return 0, 0, false
	}
	segs := mappings[genLine-1]
	var s segment
	if genCol <= 0 {
		for _, sg := range segs {
			if p.inBody(sg.srcLine) {
				s, ok = sg, true
				break
			}
		}
	} else if len(segs) > 0 {
		c := p.genColUTF16(genLine, genCol)
		i := sort.Search(len(segs), func(i int) bool { return segs[i].genCol > c }) - 1
		// Before the first mapping (indentation) counts as the first.
		s = segs[max(i, 0)]
		ok = p.inBody(s.srcLine)
	}
	if !ok {
		return 0, 0, false
	}
	// Source line n (0-based) of the wrapped text is body line n.
	line = p.offset + s.srcLine
	return line, byteColumn(p.LineText(line), s.srcCol) + 1, true
}

// inBody reports whether a 0-based line of the wrapped source holds
// program text rather than the wrapper.
func (p *Program) inBody(srcLine int) bool {
	return srcLine >= 1 && srcLine <= p.bodyLines
}

// genColUTF16 converts a 1-based byte column on a line of Code to the
// 0-based UTF-16 column that source maps use.
func (p *Program) genColUTF16(genLine, genCol int) int {
	_, codeLines := p.sourceMap()
	if genLine > len(codeLines) {
		return genCol - 1
	}
	start, end := codeLines[genLine-1], len(p.Code)
	if genLine < len(codeLines) {
		end = codeLines[genLine] - 1
	}
	text := p.Code[start:end]
	text = text[:min(genCol-1, len(text))]
	n := 0
	for _, r := range text {
		n += utf16Len(r)
	}
	return n + (genCol - 1 - len(text))
}

// byteColumn converts a 0-based UTF-16 column on line to a 0-based byte
// column, clamped to the end of the line.
func byteColumn(line string, col16 int) int {
	n := 0
	for i, r := range line {
		if n >= col16 {
			return i
		}
		n += utf16Len(r)
	}
	return len(line)
}

// utf16Len returns how many UTF-16 code units encode r.
func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

// RewriteStack rewrites the positions of filename in a stack trace from
// Code to the user's text: "filename:LINE" (QuickJS 2021 prints only the
// line, as in "    at f (main.js:12)") becomes the original line, and
// "filename:LINE:COL" the original line and column. Positions that map to
// nothing in the program, such as frames in esbuild's helpers, are left as
// they are.
func (p *Program) RewriteStack(stack string, filename string) string {
	if filename == "" || !strings.Contains(stack, filename+":") {
		return stack
	}
	re := regexp.MustCompile(regexp.QuoteMeta(filename) + `:(\d+)(?::(\d+))?`)
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(stack, -1) {
		if m[0] > 0 && isPathByte(stack[m[0]-1]) {
			continue // part of a longer file name, like "xmain.js"
		}
		genLine, err := strconv.Atoi(stack[m[2]:m[3]])
		if err != nil {
			continue
		}
		genCol := 0
		if m[4] >= 0 {
			if genCol, err = strconv.Atoi(stack[m[4]:m[5]]); err != nil || genCol < 1 {
				continue
			}
		}
		line, col, ok := p.Original(genLine, genCol)
		if !ok {
			continue
		}
		b.WriteString(stack[last:m[0]])
		b.WriteString(filename)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(line))
		if genCol > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(col))
		}
		last = m[1]
	}
	b.WriteString(stack[last:])
	return b.String()
}

// isPathByte reports whether c can be part of a file name or path.
func isPathByte(c byte) bool {
	return isIdentByte(c) || c == '.' || c == '-' || c == '/' || c == '\\'
}
