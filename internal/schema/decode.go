package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/jsontext"
)

// decodeJSON decodes exactly one JSON value, keeping numbers as json.Number
// so that large integers and decimals are compared exactly.
//
// Tool arguments are small and plain, so most are decoded by a direct
// scanner (decodePlain) that allocates only the values; anything it does
// not handle (a string with an escape, invalid UTF-8 or a control
// character, nesting past maxPlainDepth, or malformed text) is decoded by
// encoding/json's Decoder from the start, so the value and the error
// message are always what that Decoder gives.
func decodeJSON(data []byte) (any, error) {
	if v, ok := decodePlain(data); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the top-level value")
	}
	return v, nil
}

// maxPlainDepth bounds the nesting decodePlain handles (encoding/json's own
// limit is 10000; deeper values take its path).
const maxPlainDepth = 100

// decodePlain decodes data when it is one plain JSON value: it reports
// false, having decoded nothing of use, for anything outside that.
func decodePlain(data []byte) (any, bool) {
	p := plainDecoder{data: data}
	p.space()
	v, ok := p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	if p.i != len(p.data) {
		return nil, false
	}
	return v, true
}

type plainDecoder struct {
	data []byte
	i    int
}

func (p *plainDecoder) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *plainDecoder) literal(word string, v any) (any, bool) {
	if len(p.data)-p.i < len(word) || string(p.data[p.i:p.i+len(word)]) != word {
		return nil, false
	}
	p.i += len(word)
	return v, true
}

func (p *plainDecoder) value(depth int) (any, bool) {
	if p.i >= len(p.data) {
		return nil, false
	}
	switch c := p.data[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, false
}

func (p *plainDecoder) object(depth int) (any, bool) {
	if depth > maxPlainDepth {
		return nil, false
	}
	p.i++ // {
	m := map[string]any{}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return m, true
	}
	for {
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, false
		}
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, false
		}
		p.i++
		p.space()
		v, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		m[k.(string)] = v // a repeated key: the last one wins, as in encoding/json
		p.space()
		if p.i >= len(p.data) {
			return nil, false
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return m, true
		default:
			return nil, false
		}
	}
}

func (p *plainDecoder) array(depth int) (any, bool) {
	if depth > maxPlainDepth {
		return nil, false
	}
	p.i++ // [
	a := []any{}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return a, true
	}
	for {
		p.space()
		v, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		p.space()
		if p.i >= len(p.data) {
			return nil, false
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return a, true
		default:
			return nil, false
		}
	}
}

// str decodes a string with no escape, no control character and valid
// UTF-8: its value is its bytes.
func (p *plainDecoder) str() (any, bool) {
	start := p.i + 1
	ascii := true
	for j := start; j < len(p.data); j++ {
		c := p.data[j]
		switch {
		case c == '"':
			s := p.data[start:j]
			if !ascii && !utf8.Valid(s) {
				return nil, false
			}
			p.i = j + 1
			return string(s), true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, false
}

// number checks JSON's number grammar and keeps the text.
func (p *plainDecoder) number() (any, bool) {
	start := p.i
	end, ok := scanNumber(p.data, start)
	if !ok {
		return nil, false
	}
	p.i = end
	return json.Number(p.data[start:end]), true
}

// scanNumber returns the end of the JSON number that starts at d[i], and
// false when the text there is not one (jsontext.Number).
func scanNumber(d []byte, i int) (int, bool) {
	end := jsontext.Number(d, i)
	return end, end >= 0
}
