package prompt

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// maxIndentDepth caps indentation so that deeply nested arguments cannot
// push lines arbitrarily far to the right.
const maxIndentDepth = 12

// dupMark follows an object member whose key appeared earlier in the same
// object: decoders disagree about which of the two a tool would see.
const dupMark = "   ← duplicate key"

// sink collects argument lines: it wraps each line to the content width,
// puts the gutter in front of every terminal row, and stops keeping rows
// after max of them (0 = no limit), counting the lines it left out.
type sink struct {
	width int      // columns available after the gutter
	max   int      // rows kept, 0 = all
	rows  []string // rows with their gutter
	more  int      // lines not (fully) shown
}

// add appends one logical line.
func (s *sink) add(line string) {
	if s.more > 0 {
		s.more++
		return
	}
	g := gutter
	for {
		if s.max > 0 && len(s.rows) >= s.max {
			s.more++
			return
		}
		head, rest := split(line, s.width)
		s.rows = append(s.rows, g+head)
		if rest == "" {
			return
		}
		line, g = rest, contGutter
	}
}

// split returns the longest prefix of s that fits in w columns (at least
// one character) and the rest. Widths are conservative: printable ASCII is
// one column, every other character two, so a row never overflows.
func split(s string, w int) (string, string) {
	cols := 0
	for i, r := range s {
		c := 2
		if r >= 0x20 && r < 0x7f {
			c = 1
		}
		if cols+c > w && i > 0 {
			return s[:i], s[i:]
		}
		cols += c
	}
	return s, ""
}

// indent returns the indentation for depth, capped at maxIndentDepth.
func indent(depth int) string {
	return strings.Repeat("  ", min(depth, maxIndentDepth))
}

// pretty writes JSON as indented lines in input order.
type pretty struct {
	dec      *json.Decoder
	maxValue int
	out      *sink
}

// prettyJSON writes the valid JSON document raw to out, one member or
// element per line, with strings, keys and numbers cut after maxValue
// bytes (0 = no limit).
func prettyJSON(raw []byte, maxValue int, out *sink) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	p := &pretty{dec: dec, maxValue: maxValue, out: out}
	last, err := p.value("", 0)
	if err != nil {
		return err
	}
	out.add(last)
	return nil
}

// value writes the next value, starting on a line that begins with lead,
// and returns its last line unwritten so the caller can append to it.
func (p *pretty) value(lead string, depth int) (string, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return "", err
	}
	switch t := tok.(type) {
	case json.Delim:
		return p.container(lead, depth, t)
	case string:
		return lead + limited(t, p.maxValue), nil
	case json.Number:
		return lead + limitedLine(string(t), p.maxValue), nil
	case bool:
		return lead + strconv.FormatBool(t), nil
	case nil:
		return lead + "null", nil
	}
	return "", errors.New("prompt: unexpected JSON token")
}

// container writes an object or array whose opening delimiter was read.
func (p *pretty) container(lead string, depth int, open json.Delim) (string, error) {
	closer := "]"
	if open == '{' {
		closer = "}"
	}
	if !p.dec.More() {
		if _, err := p.dec.Token(); err != nil {
			return "", err
		}
		return lead + string(open) + closer, nil
	}
	p.out.add(lead + string(open))
	in := indent(depth + 1)
	var seen map[string]struct{}
	for p.dec.More() {
		item, dup := in, false
		if open == '{' {
			tok, err := p.dec.Token()
			if err != nil {
				return "", err
			}
			key, _ := tok.(string)
			if seen == nil {
				seen = make(map[string]struct{})
			}
			if _, dup = seen[key]; !dup {
				seen[key] = struct{}{}
			}
			item = in + limited(key, p.maxValue) + ": "
		}
		last, err := p.value(item, depth+1)
		if err != nil {
			return "", err
		}
		if p.dec.More() {
			last += ","
		}
		if dup {
			last += dupMark
		}
		p.out.add(last)
	}
	if _, err := p.dec.Token(); err != nil {
		return "", err
	}
	return indent(depth) + closer, nil
}
