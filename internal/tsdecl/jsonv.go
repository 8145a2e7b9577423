package tsdecl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// object is a JSON object that keeps the order of its keys. Parsed JSON
// values are nil (null), bool, json.Number, string, []any or *object.
type object struct {
	keys  []string
	vals  []any          // vals[i] is the value of keys[i]
	index map[string]int // for large objects only
}

// indexFrom is the size from which an object gets a key index.
const indexFrom = 16

// find returns the position of key k, or -1.
func (o *object) find(k string) int {
	if o.index != nil {
		if i, ok := o.index[k]; ok {
			return i
		}
		return -1
	}
	for i, key := range o.keys {
		if key == k {
			return i
		}
	}
	return -1
}

// set sets key k, keeping the position of an earlier duplicate.
func (o *object) set(k string, v any) {
	if i := o.find(k); i >= 0 {
		o.vals[i] = v
		return
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
	if o.index != nil {
		o.index[k] = len(o.keys) - 1
	} else if len(o.keys) == indexFrom {
		o.index = make(map[string]int, 2*indexFrom)
		for i, key := range o.keys {
			o.index[key] = i
		}
	}
}

// get returns the value of key k.
func (o *object) get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	if i := o.find(k); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// str returns the value of key k when it is a string.
func (o *object) str(k string) string {
	v, _ := o.get(k)
	s, _ := v.(string)
	return s
}

// has reports whether any of the keys is present.
func (o *object) has(keys ...string) bool {
	for _, k := range keys {
		if _, ok := o.get(k); ok {
			return true
		}
	}
	return false
}

// parseJSON decodes data keeping object key order and number text.
func parseJSON(data []byte) (any, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v) // for its error message
		if err == nil {
			err = fmt.Errorf("invalid JSON")
		}
		return nil, err
	}
	p := parser{data: data}
	return p.value(), nil
}

// parser reads JSON already known to be valid.
type parser struct {
	data []byte
	pos  int
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() any {
	p.skipSpace()
	switch c := p.data[p.pos]; c {
	case '{':
		p.pos++
		o := &object{}
		for {
			p.skipSpace()
			if p.data[p.pos] == '}' {
				p.pos++
				return o
			}
			if p.data[p.pos] == ',' {
				p.pos++
				p.skipSpace()
			}
			k := p.str()
			p.skipSpace()
			p.pos++ // ':'
			v := p.value()
			o.set(k, v)
		}
	case '[':
		p.pos++
		a := []any{}
		for {
			p.skipSpace()
			if p.data[p.pos] == ']' {
				p.pos++
				return a
			}
			if p.data[p.pos] == ',' {
				p.pos++
			}
			a = append(a, p.value())
		}
	case '"':
		return p.str()
	case 't':
		p.pos += 4
		return true
	case 'f':
		p.pos += 5
		return false
	case 'n':
		p.pos += 4
		return nil
	default:
		start := p.pos
		for p.pos < len(p.data) && strings.IndexByte("+-.0123456789eE", p.data[p.pos]) >= 0 {
			p.pos++
		}
		return json.Number(p.data[start:p.pos])
	}
}

// str reads a string token at pos.
func (p *parser) str() string {
	start := p.pos
	p.pos++
	escaped := false
	for p.data[p.pos] != '"' {
		if p.data[p.pos] == '\\' {
			escaped = true
			p.pos++
		}
		p.pos++
	}
	p.pos++
	if !escaped {
		return string(p.data[start+1 : p.pos-1])
	}
	var s string
	_ = json.Unmarshal(p.data[start:p.pos], &s)
	return s
}

// quote renders s as a double-quoted JS string literal.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	q := strings.TrimSuffix(b.String(), "\n")
	if !strings.ContainsFunc(q, isControl) {
		return q
	}
	// DEL, the C1 controls (U+0085 among them, a line break to some
	// readers) and the bidi format characters, which the encoder passes
	// through
	var e strings.Builder
	for _, r := range q {
		if isControl(r) {
			fmt.Fprintf(&e, "\\u%04x", r)
		} else {
			e.WriteRune(r)
		}
	}
	return e.String()
}

// literal renders a JSON value as a TypeScript literal type.
func literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case json.Number:
		return x.String()
	case string:
		return quote(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = literal(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *object:
		if len(x.keys) == 0 {
			return "{}"
		}
		parts := make([]string, len(x.keys))
		for i, k := range x.keys {
			parts[i] = propKey(k) + ": " + literal(x.vals[i])
		}
		return "{ " + strings.Join(parts, "; ") + " }"
	}
	return "unknown"
}

// jsonText renders a JSON value compactly as JSON, for doc comments.
func jsonText(v any) string {
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = jsonText(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case *object:
		parts := make([]string, len(x.keys))
		for i, k := range x.keys {
			parts[i] = quote(k) + ":" + jsonText(x.vals[i])
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return literal(v)
}
