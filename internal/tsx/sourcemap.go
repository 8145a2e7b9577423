package tsx

import (
	"encoding/json"
	"errors"
	"fmt"
)

// segment is one decoded source map mapping. All fields are 0-based;
// columns count UTF-16 code units, as source map v3 requires. srcLine is -1
// for a segment that marks generated text as coming from no source.
type segment struct {
	genCol  int
	srcLine int
	srcCol  int
}

// decodeSourceMap reads a source map v3 JSON document with a single source
// and returns its mappings grouped by generated line (index 0 is line 1),
// each line's segments in increasing genCol order.
func decodeSourceMap(data []byte) ([][]segment, error) {
	var raw struct {
		Version  int      `json:"version"`
		Sources  []string `json:"sources"`
		Mappings string   `json:"mappings"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("source map: %w", err)
	}
	if raw.Version != 3 {
		return nil, fmt.Errorf("source map: version %d, want 3", raw.Version)
	}
	return decodeMappings(raw.Mappings)
}

// decodeMappings decodes the "mappings" field of a source map v3: lines
// separated by ";", segments by ",", each segment one to five base64 VLQ
// numbers relative to the previous segment (the generated column only
// relative within its line). Segments of any source but the first are
// treated as unmapped.
func decodeMappings(m string) ([][]segment, error) {
	var (
		lines                [][]segment
		cur                  []segment
		genCol               int
		src, srcLine, srcCol int
		fields               [5]int
		pos                  int
	)
	for pos <= len(m) {
		if pos == len(m) || m[pos] == ';' {
			lines = append(lines, cur)
			cur, genCol = nil, 0
			pos++
			continue
		}
		if m[pos] == ',' {
			pos++
			continue
		}
		n := 0
		for pos < len(m) && m[pos] != ',' && m[pos] != ';' {
			if n == len(fields) {
				return nil, errors.New("source map: segment with more than 5 fields")
			}
			v, next, err := decodeVLQ(m, pos)
			if err != nil {
				return nil, err
			}
			fields[n], pos = v, next
			n++
		}
		genCol += fields[0]
		seg := segment{genCol: genCol, srcLine: -1}
		switch n {
		case 1:
		case 4, 5: // the fifth field, a name index, is not needed
			src += fields[1]
			srcLine += fields[2]
			srcCol += fields[3]
			if src == 0 {
				seg.srcLine, seg.srcCol = srcLine, srcCol
			}
		default:
			return nil, fmt.Errorf("source map: segment with %d fields", n)
		}
		if genCol < 0 || srcLine < 0 || srcCol < 0 {
			return nil, errors.New("source map: negative position")
		}
		cur = append(cur, seg)
	}
	return lines, nil
}

// decodeVLQ decodes one base64 VLQ number starting at s[pos] and returns it
// with the offset just past it.
func decodeVLQ(s string, pos int) (int, int, error) {
	var result, shift int
	for {
		if pos >= len(s) {
			return 0, pos, errors.New("source map: truncated VLQ")
		}
		d := base64Digit(s[pos])
		if d < 0 {
			return 0, pos, fmt.Errorf("source map: bad base64 digit %q", s[pos])
		}
		pos++
		result |= (d & 31) << shift
		shift += 5
		if d&32 == 0 {
			break
		}
		if shift > 60 {
			return 0, pos, errors.New("source map: VLQ overflow")
		}
	}
	if result&1 != 0 {
		return -(result >> 1), pos, nil
	}
	return result >> 1, pos, nil
}

// base64Digit returns the value of a base64 digit, or -1.
func base64Digit(c byte) int {
	switch {
	case 'A' <= c && c <= 'Z':
		return int(c - 'A')
	case 'a' <= c && c <= 'z':
		return int(c-'a') + 26
	case '0' <= c && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	default:
		return -1
	}
}
