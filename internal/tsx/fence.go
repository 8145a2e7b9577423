package tsx

import (
	"strings"
	"unicode"
)

// normalizeNewlines turns CRLF and lone CR line breaks into LF, so that
// every later step (esbuild, the source map, QuickJS) counts lines alike.
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// stripFence removes a markdown code fence that wraps the whole of src
// (```ts ... ``` or ~~~ ... ~~~, with blank lines allowed around it). It
// returns the text between the fence lines and how many lines of src come
// before that text, so that body line n is line n+offset of src. Lines of
// the body are kept byte for byte. If src is not wholly fenced it is
// returned unchanged with offset 0.
func stripFence(src string) (body string, offset int) {
	// Most programs are not fenced: look at the first non-blank byte
	// before splitting the text into lines.
	if t := strings.TrimLeftFunc(src, unicode.IsSpace); t == "" || (t[0] != '`' && t[0] != '~') {
		return src, 0
	}
	lines := strings.Split(src, "\n")
	first, last := -1, -1
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 || first == last {
		return src, 0
	}
	open := strings.TrimLeft(lines[first], " \t")
	marker, ok := fenceMarker(open)
	if !ok {
		return src, 0
	}
	info := strings.TrimSpace(open[len(marker):])
	if marker[0] == '`' && strings.Contains(info, "`") {
		return src, 0 // an inline code span, not a fence
	}
	closing := strings.TrimSpace(lines[last])
	if len(closing) < len(marker) || strings.Trim(closing, marker[:1]) != "" {
		return src, 0
	}
	return strings.Join(lines[first+1:last], "\n"), first + 1
}

// fenceMarker returns the run of three or more backticks or tildes that
// starts line, if any.
func fenceMarker(line string) (string, bool) {
	if line == "" || (line[0] != '`' && line[0] != '~') {
		return "", false
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 {
		return "", false
	}
	return line[:n], true
}
