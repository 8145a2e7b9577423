package prompt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

const (
	// gutter starts every terminal row that shows argument text, so that
	// nothing in the arguments can appear at the start of a row the way
	// the prompt's own lines do.
	gutter = "  │ "
	// contGutter starts the rows of an argument line wrapped to fit.
	contGutter = "  ┆ "
	// gutterCols is the room kept for the gutter when wrapping: its four
	// columns plus slack for terminals that draw box characters wide.
	gutterCols = 6
	// labelCols is the width of the " tool:   " labels in the header.
	labelCols = 9

	defaultMaxValue = 200
	defaultMaxLines = 40
	defaultWidth    = 80
	minWidth        = 32
	maxWidth        = 240
	// ruleCols is the longest a horizontal rule gets.
	ruleCols = 72
)

// layout bounds one rendering. Zero maxValue or maxLines means no limit.
type layout struct {
	maxValue int // bytes of one string, key or number
	maxLines int // terminal rows of arguments
	width    int // terminal columns
}

// Render returns the prompt text for r as the terminal shows it, without
// the question line that Ask prints after it: a header naming the tool and
// the reason, then the arguments pretty-printed in input order behind a
// gutter, then a closing rule. A string, key or number longer than
// maxValue bytes is cut with "… (N more bytes; press v to view all)", and
// at most maxLines rows of arguments are shown before "… N more lines".
// Zero or negative limits mean the defaults (200 bytes, 40 lines). Rows
// are wrapped to fit 80 columns. Everything taken from r is sanitised; the
// text contains no escape sequence or control character other than '\n'.
func Render(r Request, maxValue, maxLines int) string {
	if maxValue <= 0 {
		maxValue = defaultMaxValue
	}
	if maxLines <= 0 {
		maxLines = defaultMaxLines
	}
	return join(render(r, layout{maxValue: maxValue, maxLines: maxLines, width: defaultWidth}))
}

// minReasonBytes is the least of a reason shown before it is cut: enough
// for the whole of what it leads with, such as fetch's origin (a host
// name is at most 253 bytes), so that no cut hides where a call goes.
const minReasonBytes = 512

// reasonLimit is the cut of a reason under a value limit of maxValue
// (0: none).
func reasonLimit(maxValue int) int {
	if maxValue > 0 && maxValue < minReasonBytes {
		return minReasonBytes
	}
	return maxValue
}

// join turns rows into terminal text.
func join(rows []string) string { return strings.Join(rows, "\n") + "\n" }

// render lays r out as terminal rows.
func render(r Request, l layout) []string {
	l.width = min(max(l.width, minWidth), maxWidth)
	rule := strings.Repeat("─", min(l.width-1, ruleCols))
	title := "── modebox: a tool call needs your approval "
	rows := []string{title + strings.Repeat("─", max(min(l.width-1, ruleCols)-len([]rune(title)), 2))}
	rows = field(rows, " tool:   ", orNone(limitedLine(r.Tool, l.maxValue)), l.width)
	rows = field(rows, " reason: ", orNone(limitedLine(r.Reason, reasonLimit(l.maxValue))), l.width)

	args := bytes.TrimSpace(r.Args)
	s := &sink{width: max(l.width-gutterCols, 16), max: l.maxLines}
	var notes []string
	switch {
	case len(args) == 0:
		rows = append(rows, " args:   (none)")
	case json.Valid(args) && prettyJSON(args, l.maxValue, s) == nil:
		rows = append(rows, " args:   (untrusted; every row of them starts with │)")
	default:
		rows = append(rows, " args:   (not valid JSON; shown as raw text, every row starts with │)")
		s = &sink{width: s.width, max: s.max}
		head, rest := cut(string(r.Args), l.maxValue)
		for _, line := range strings.Split(Sanitize(head), "\n") {
			s.add(line)
		}
		if rest > 0 {
			notes = append(notes, "  └ "+cutHint(rest))
		}
	}
	rows = append(rows, s.rows...)
	if s.more > 0 {
		notes = append(notes, fmt.Sprintf("  └ … %d more lines (press v to view all)", s.more))
	}
	rows = append(rows, notes...)
	return append(rows, rule)
}

// field appends a header row "label value", wrapping value to width with
// continuation rows indented past the label.
func field(rows []string, label, value string, width int) []string {
	w := max(width-labelCols-1, 16)
	pad := strings.Repeat(" ", labelCols)
	for first := true; first || value != ""; first = false {
		head, rest := split(value, w)
		if first {
			rows = append(rows, label+head)
		} else {
			rows = append(rows, pad+head)
		}
		value = rest
	}
	return rows
}

// orNone returns s, or "(none)" if s is empty.
func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// question returns the line that asks for the answer to r.
func question(r Request) string {
	tool, rest := cut(r.Tool, 64)
	name := sanitize(tool, modeLine)
	if rest > 0 {
		name += "…"
	}
	if r.Once {
		return fmt.Sprintf("Allow %s? [y] once  [v] view all  [N] no: ", orNone(name))
	}
	return fmt.Sprintf("Allow %s? [y] once  [a] always, this run  [v] view all  [N] no: ", orNone(name))
}
