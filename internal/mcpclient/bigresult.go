package mcpclient

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// convertLine converts a JSON-RPC response line for the sandbox without
// the SDK, when it is one of the plainest results of a tools/call, which
// are also the common big ones:
//
//	{"jsonrpc":"2.0","id":ID,"result":{"content":[{"type":"text","text":"…"}, …]}}
//	{"jsonrpc":"2.0","id":ID,"result":{"structuredContent":VALUE,"content":[…]}}
//
// (members in any order, whitespace anywhere; the result may also have
// "isError":false and an object "_meta"; the content blocks must be text
// blocks like the one above; structuredContent may be null). The value is
// what convertResult returns for the same line decoded by the SDK: the
// structured value, or the text of one block as a JSON string, or the
// text blocks as {"content":[…]}, each as json.Marshal writes it (object
// members sorted, the last of a duplicate name kept, numbers as float64).
// Plain text of one block needs no change: the value is the text's bytes
// within line, not a copy; otherwise it is written once.
// Anything else (other members, a duplicate, an escaped member name,
// a number out of float64's range, nesting the SDK refuses) is not
// converted here: ok is false and the SDK decodes the line.
func convertLine(line []byte) (id jsonrpc.ID, out json.RawMessage, ok bool) {
	id, out, _, ok = convertLineStructured(line)
	return id, out, ok
}

// convertLineStructured is convertLine that also reports whether out is
// the result's structuredContent.
func convertLineStructured(line []byte) (id jsonrpc.ID, out json.RawMessage, isStructured, ok bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' || !json.Valid(line) || !depthWithin(line, maxDepth) {
		return id, nil, false, false
	}
	var idRaw, res []byte
	version := false
	if !eachMember(line, func(key, val []byte) bool {
		switch string(key) {
		case "jsonrpc":
			if version || string(val) != `"2.0"` {
				return false
			}
			version = true
		case "id":
			if idRaw != nil {
				return false
			}
			idRaw = val
		case "result":
			if res != nil || val[0] != '{' {
				return false
			}
			res = val
		default:
			return false
		}
		return true
	}) || !version || idRaw == nil || res == nil {
		return id, nil, false, false
	}
	// the id as the SDK reads it
	probe := append(append([]byte(`{"jsonrpc":"2.0","id":`), idRaw...), `,"result":{}}`...)
	m, err := jsonrpc.DecodeMessage(probe)
	resp, isResp := m.(*jsonrpc.Response)
	if err != nil || !isResp {
		return id, nil, false, false
	}
	var content, structured []byte
	var isError, meta bool
	if !eachMember(res, func(key, val []byte) bool {
		switch string(key) {
		case "content":
			if content != nil || val[0] != '[' {
				return false
			}
			content = val
		case "isError":
			if isError || string(val) != "false" {
				return false
			}
			isError = true
		case "structuredContent":
			if structured != nil {
				return false
			}
			structured = val
		case "_meta":
			if meta || val[0] != '{' {
				return false
			}
			meta = true
		default:
			return false
		}
		return true
	}) {
		return id, nil, false, false
	}
	var texts [][]byte
	if content != nil {
		good := true
		eachElement(content, func(block []byte) {
			text, ok := textBlock(block)
			good = good && ok
			texts = append(texts, text)
		})
		if !good {
			return id, nil, false, false
		}
	}
	if structured != nil && string(structured) != "null" {
		out, ok = canonicalValue(structured)
		return resp.ID, out, true, ok
	}
	if len(texts) == 1 {
		out, ok = canonicalString(texts[0])
		return resp.ID, out, false, ok
	}
	// no text block or several: {"content":[{"type":"text","text":…},…]}
	size := len(`{"content":[]}`)
	for _, t := range texts {
		size += len(`{"type":"text","text":},`) + len(t) + 8
	}
	out = make([]byte, 0, size)
	out = append(out, `{"content":[`...)
	for i, t := range texts {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, `{"type":"text","text":`...)
		out = appendCanonicalString(out, t)
		out = append(out, '}')
	}
	return resp.ID, append(out, "]}"...), false, true
}

// textBlock returns the raw text of a content block that is exactly
// {"type":"text","text":"…"}; ok is false for any other block.
func textBlock(block []byte) (text []byte, ok bool) {
	if block[0] != '{' {
		return nil, false
	}
	typ := false
	if !eachMember(block, func(key, val []byte) bool {
		switch string(key) {
		case "type":
			if typ || string(val) != `"text"` {
				return false
			}
			typ = true
		case "text":
			if text != nil || val[0] != '"' {
				return false
			}
			text = val
		default:
			return false
		}
		return true
	}) || !typ || text == nil {
		return nil, false
	}
	return text, true
}

// canonicalValue returns what json.Marshal writes for the value Go's
// decoders make of the valid JSON raw (objects as maps, numbers as
// float64), written into one buffer; ok is false for a number out of
// float64's range (the decoders refuse it).
func canonicalValue(raw []byte) (json.RawMessage, bool) {
	c := &canonicalizer{out: make([]byte, 0, len(raw)+16)}
	if !c.value(raw) {
		return nil, false
	}
	return c.out, true
}

// canonicalizer writes canonical JSON; members is scratch space for the
// members of the objects being written, innermost last.
type canonicalizer struct {
	out     []byte
	members []member
}

// member is one member of an object being written sorted.
type member struct {
	name []byte // decoded (the raw name itself when it has no escapes)
	val  []byte // raw
}

// value appends the canonical form of the valid JSON value raw.
func (c *canonicalizer) value(raw []byte) bool {
	switch raw[0] {
	case '"':
		c.out = appendCanonicalString(c.out, raw)
		return true
	case '{':
		start := len(c.members)
		eachMember(raw, func(key, val []byte) bool {
			c.members = append(c.members, member{name: decodeName(key), val: val})
			return true
		})
		ms := c.members[start:]
		// the last of a duplicate name wins, as in a map
		slices.SortStableFunc(ms, func(a, b member) int { return bytes.Compare(a.name, b.name) })
		c.out = append(c.out, '{')
		first := true
		for i := start; i < len(c.members); i++ {
			m := c.members[i]
			if i+1 < len(c.members) && bytes.Equal(c.members[i+1].name, m.name) {
				continue
			}
			if !first {
				c.out = append(c.out, ',')
			}
			first = false
			c.out = append(c.out, '"')
			for _, r := range string(m.name) {
				c.out = appendEncoded(c.out, r)
			}
			c.out = append(c.out, '"', ':')
			if !c.value(m.val) {
				return false
			}
		}
		c.members = c.members[:start]
		c.out = append(c.out, '}')
		return true
	case '[':
		c.out = append(c.out, '[')
		ok, first := true, true
		eachElement(raw, func(v []byte) {
			if !ok {
				return
			}
			if !first {
				c.out = append(c.out, ',')
			}
			first = false
			ok = c.value(v)
		})
		c.out = append(c.out, ']')
		return ok
	case 't', 'f', 'n':
		c.out = append(c.out, raw...)
		return true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return false
	}
	c.out = appendFloat(c.out, f)
	return true
}

// decodeName decodes a member name (the body of a valid JSON string): the
// raw bytes themselves when they hold no escape and are UTF-8.
func decodeName(body []byte) []byte {
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return body
	}
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		r, n := nextRune(body, i)
		out = utf8.AppendRune(out, r)
		i += n
	}
	return out
}

// appendFloat appends f as json.Marshal writes a float64.
func appendFloat(out []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	out = strconv.AppendFloat(out, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9, as json.Marshal writes it
		if n := len(out); n >= 4 && out[n-4] == 'e' && out[n-3] == '-' && out[n-2] == '0' {
			out[n-2] = out[n-1]
			out = out[:n-1]
		}
	}
	return out
}

// appendCanonicalString appends the JSON string raw (with its quotes) as
// json.Marshal writes the string it decodes to.
func appendCanonicalString(out, raw []byte) []byte {
	body := raw[1 : len(raw)-1]
	out = append(out, '"')
	for i := 0; i < len(body); {
		r, n := nextRune(body, i)
		out = appendEncoded(out, r)
		i += n
	}
	return append(out, '"')
}

// maxDepth is the deepest nesting the SDK's decoder accepts.
const maxDepth = 1000

// depthWithin reports whether valid JSON data nests at most max levels of
// objects and arrays.
func depthWithin(data []byte, max int) bool {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			i = skipString(data, i) - 1
		case '{', '[':
			depth++
			if depth > max {
				return false
			}
		case '}', ']':
			depth--
		}
	}
	return true
}

// skipSpace returns the index of the first non-space byte from i.
func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string that starts at i.
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index just past the value that starts at i, in
// valid JSON.
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				i = skipString(data, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for i < len(data) {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// eachMember calls fn with the raw name (between its quotes, escapes as
// sent) and the raw value of each member of the valid JSON object obj,
// until fn returns false; it reports whether fn never did.
func eachMember(obj []byte, fn func(key, val []byte) bool) bool {
	i := skipSpace(obj, 1)
	for i < len(obj) && obj[i] != '}' {
		end := skipString(obj, i)
		key := obj[i+1 : end-1]
		i = skipSpace(obj, end)
		i = skipSpace(obj, i+1) // past ':'
		vend := skipValue(obj, i)
		if !fn(key, obj[i:vend]) {
			return false
		}
		i = skipSpace(obj, vend)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	return true
}

// eachElement calls fn with each element of the valid JSON array arr.
func eachElement(arr []byte, fn func(v []byte)) {
	i := skipSpace(arr, 1)
	for i < len(arr) && arr[i] != ']' {
		end := skipValue(arr, i)
		fn(arr[i:end])
		i = skipSpace(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
	}
}

// canonicalString returns the JSON string that json.Marshal writes for
// the string the valid JSON string raw (with its quotes) decodes to. When
// raw is already that, it is raw itself; otherwise it is written in one
// allocation of its final size.
func canonicalString(raw []byte) (out json.RawMessage, ok bool) {
	body := raw[1 : len(raw)-1]
	size, same := 2, true
	for i := 0; i < len(body); {
		r, n := nextRune(body, i)
		w := encodedLen(r)
		if w != n || body[i] == '\\' || r == utf8.RuneError {
			same = false
		}
		size += w
		i += n
	}
	if same {
		return raw[:len(raw):len(raw)], true
	}
	out = make([]byte, 0, size)
	out = append(out, '"')
	for i := 0; i < len(body); {
		r, n := nextRune(body, i)
		out = appendEncoded(out, r)
		i += n
	}
	return append(out, '"'), true
}

// nextRune decodes the character at body[i] of a valid JSON string's
// body: a UTF-8 sequence or an escape; n is how many bytes it took. As
// Go's decoders do, a byte that is not UTF-8 and a \u escape of a lone
// surrogate decode to U+FFFD; a pair of surrogate escapes to its
// character.
func nextRune(body []byte, i int) (r rune, n int) {
	c := body[i]
	if c != '\\' {
		if c < utf8.RuneSelf {
			return rune(c), 1
		}
		return utf8.DecodeRune(body[i:])
	}
	switch body[i+1] {
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		v := hex4(body[i+2 : i+6])
		if !utf16.IsSurrogate(v) {
			return v, 6
		}
		if v < 0xDC00 && i+12 <= len(body) && body[i+6] == '\\' && body[i+7] == 'u' {
			if pair := utf16.DecodeRune(v, hex4(body[i+8:i+12])); pair != utf8.RuneError {
				return pair, 12
			}
		}
		return utf8.RuneError, 6
	}
	return rune(body[i+1]), 2 // \" \\ \/
}

// hex4 decodes four hex digits.
func hex4(h []byte) rune {
	var v rune
	for _, c := range h {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			v |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			v |= rune(c-'A') + 10
		}
	}
	return v
}

// encodedLen is the length of r as json.Marshal writes it in a string.
func encodedLen(r rune) int {
	switch {
	case r == '"' || r == '\\' || r == '\b' || r == '\f' || r == '\n' || r == '\r' || r == '\t':
		return 2
	case r < 0x20 || r == '<' || r == '>' || r == '&' || r == 0x2028 || r == 0x2029:
		return 6
	}
	return utf8.RuneLen(r)
}

const hexDigits = "0123456789abcdef"

// appendEncoded appends r as json.Marshal writes it in a string.
func appendEncoded(out []byte, r rune) []byte {
	switch r {
	case '"', '\\':
		return append(out, '\\', byte(r))
	case '\b':
		return append(out, '\\', 'b')
	case '\f':
		return append(out, '\\', 'f')
	case '\n':
		return append(out, '\\', 'n')
	case '\r':
		return append(out, '\\', 'r')
	case '\t':
		return append(out, '\\', 't')
	}
	if r < 0x20 || r == '<' || r == '>' || r == '&' || r == 0x2028 || r == 0x2029 {
		return append(out, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
	}
	return utf8.AppendRune(out, r)
}
