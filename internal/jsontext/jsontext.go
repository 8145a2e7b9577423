// Package jsontext checks JSON text: Valid answers what encoding/json's
// Valid answers, without its byte-at-a-time state machine, for the texts
// that cross the engine's boundary at every host call.
package jsontext

import "encoding/json"

// maxDepth is the nesting Valid follows itself; deeper texts go to
// encoding/json, whose own limit (10,000) then decides.
const maxDepth = 256

// Valid reports whether data is exactly one JSON value with only
// whitespace around it, as json.Valid does: strings may hold any bytes
// but control characters (invalid UTF-8 too), escapes must be JSON's.
func Valid(data []byte) bool {
	ok, _ := ValidShallow(data)
	return ok
}

// ValidShallow is Valid, and also reports shallow: false when data nests
// arrays and objects deeper than 256 before any error. Such a text is
// answered by encoding/json (whose own limit is 10,000), and its depth is
// the caller's to measure when it matters.
func ValidShallow(data []byte) (ok, shallow bool) {
	var inObject [maxDepth / 64]uint64 // a bit per open container: an object
	depth := 0
	d := data
	i := Space(d, 0)
	for {
		// a value starts at i
		if i >= len(d) {
			return false, true
		}
		switch c := d[i]; {
		case c == '{' || c == '[':
			if depth == maxDepth {
				return json.Valid(data), false
			}
			if c == '{' {
				inObject[depth/64] |= 1 << (depth % 64)
			} else {
				inObject[depth/64] &^= 1 << (depth % 64)
			}
			depth++
			i = Space(d, i+1)
			if i < len(d) && (c == '{' && d[i] == '}' || c == '[' && d[i] == ']') {
				i++
				depth--
				break // an empty container is a value
			}
			if c == '{' {
				if i = member(d, i); i < 0 {
					return false, true
				}
			}
			continue
		case c == '"':
			i = str(d, i)
		case c == 't':
			i = literal(d, i, "true")
		case c == 'f':
			i = literal(d, i, "false")
		case c == 'n':
			i = literal(d, i, "null")
		case c == '-' || c >= '0' && c <= '9':
			i = Number(d, i)
		default:
			return false, true
		}
		if i < 0 {
			return false, true
		}
		// after a value: close containers until another value is due
		for {
			i = Space(d, i)
			if depth == 0 {
				return i == len(d), true
			}
			if i >= len(d) {
				return false, true
			}
			obj := inObject[(depth-1)/64]&(1<<((depth-1)%64)) != 0
			if d[i] == ',' {
				i = Space(d, i+1)
				if obj {
					if i = member(d, i); i < 0 {
						return false, true
					}
				}
				break
			}
			if obj && d[i] == '}' || !obj && d[i] == ']' {
				depth--
				i++
				continue
			}
			return false, true
		}
	}
}

// Space returns the index of the first byte at or after i that is not
// JSON whitespace (space, tab, newline, carriage return).
func Space(d []byte, i int) int {
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// member reads an object's key and colon at i; it returns where the
// value starts, or -1.
func member(d []byte, i int) int {
	if i >= len(d) || d[i] != '"' {
		return -1
	}
	if i = str(d, i); i < 0 {
		return -1
	}
	i = Space(d, i)
	if i >= len(d) || d[i] != ':' {
		return -1
	}
	return Space(d, i+1)
}

// str reads the string at d[i] == '"'; it returns the index past it, or -1.
func str(d []byte, i int) int {
	for i++; i < len(d); i++ {
		c := d[i]
		switch {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			i++
			if i >= len(d) {
				return -1
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) || !hex(d[i+1]) || !hex(d[i+2]) || !hex(d[i+3]) || !hex(d[i+4]) {
					return -1
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

func hex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func literal(d []byte, i int, lit string) int {
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// Number reads a JSON number, -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
// (RFC 8259's grammar), at d[i:]; it returns the index past it, or -1
// when the text there is not one. It is the one reading of that grammar
// for the packages that scan JSON text themselves.
func Number(d []byte, i int) int {
	if i < len(d) && d[i] == '-' {
		i++
	}
	if i >= len(d) {
		return -1
	}
	switch {
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		i = digits(d, i)
	default:
		return -1
	}
	if i < len(d) && d[i] == '.' {
		j := digits(d, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(d, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}
