package schema

import "unicode/utf8"

// simpleValidJSON is simpleValid on JSON text, without decoding it: it
// reports true only when data is one plain value (what decodePlain
// decodes) that simpleValid accepts once decoded. It allocates nothing,
// which is most of what validating a small tool call costs. false means
// "decode it and ask simpleValid, then the full validator", as before.
//
// It checks every occurrence of a repeated key (the decoded object keeps
// the last), and counts the nodes of every occurrence against the budget:
// both only make it answer false more often.
func simpleValidJSON(s *simpleSchema, data []byte) bool {
	p := jsonScan{d: data, budget: simpleMaxNodes}
	p.space()
	if !p.value(s, 0) {
		return false
	}
	p.space()
	return p.i == len(p.d)
}

type jsonScan struct {
	d      []byte
	i      int
	budget int
}

func (p *jsonScan) space() {
	for p.i < len(p.d) {
		switch p.d[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value checks the value at p.i against s; a nil s accepts any plain
// value (simpleValid does not look at it).
func (p *jsonScan) value(s *simpleSchema, depth int) bool {
	if p.i >= len(p.d) {
		return false
	}
	if s != nil {
		if p.budget--; p.budget < 0 {
			return false
		}
	}
	var t uint8
	c := p.d[p.i]
	switch {
	case c == '{':
		t = tObject
	case c == '[':
		t = tArray
	case c == '"':
		t = tString
	case c == 't' || c == 'f':
		t = tBoolean
	case c == 'n':
		t = tNull
	case c == '-' || c >= '0' && c <= '9':
		t = tNumber
	default:
		return false
	}
	if s != nil && s.enum != nil && t != tString {
		return false
	}
	switch t {
	case tObject:
		return p.object(s, depth+1)
	case tArray:
		return p.array(s, depth+1)
	case tString:
		return p.str(s)
	case tBoolean:
		if !p.literal("true") && !p.literal("false") {
			return false
		}
	case tNull:
		if !p.literal("null") {
			return false
		}
	case tNumber:
		start := p.i
		if !p.number() {
			return false
		}
		if plainInteger(string(p.d[start:p.i])) {
			t |= tInteger
		}
	}
	return s == nil || s.types == 0 || s.types&t != 0
}

func (p *jsonScan) literal(w string) bool {
	if len(p.d)-p.i < len(w) || string(p.d[p.i:p.i+len(w)]) != w {
		return false
	}
	p.i += len(w)
	return true
}

func (p *jsonScan) object(s *simpleSchema, depth int) bool {
	if depth > maxPlainDepth || s != nil && (s.types != 0 && s.types&tObject == 0 || len(s.required) > 64) {
		return false
	}
	var seen uint64 // bit i: s.required[i] was there
	p.i++           // {
	p.space()
	if p.i < len(p.d) && p.d[p.i] == '}' {
		p.i++
		return s == nil || len(s.required) == 0
	}
	for {
		p.space()
		if p.i >= len(p.d) || p.d[p.i] != '"' {
			return false
		}
		start := p.i + 1
		if !p.str(nil) {
			return false
		}
		key := p.d[start : p.i-1]
		p.space()
		if p.i >= len(p.d) || p.d[p.i] != ':' {
			return false
		}
		p.i++
		p.space()
		var sub *simpleSchema
		if s != nil && s.small {
			found := false
			for k := range s.props {
				if sp := &s.props[k]; sp.name == string(key) {
					sub, seen, found = sp.s, seen|sp.req, true
					break
				}
			}
			if !found {
				if s.reqExtra {
					for j, r := range s.required {
						if r == string(key) {
							seen |= 1 << j
						}
					}
				}
				if s.noAdditional {
					return false
				}
				sub = s.additional
			}
		} else if s != nil {
			for j, r := range s.required {
				if r == string(key) {
					seen |= 1 << j
				}
			}
			if ps, ok := s.properties[string(key)]; ok {
				sub = ps
			} else if s.noAdditional {
				return false
			} else {
				sub = s.additional
			}
		}
		if !p.value(sub, depth) {
			return false
		}
		p.space()
		if p.i >= len(p.d) {
			return false
		}
		switch p.d[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return s == nil || seen == 1<<len(s.required)-1
		default:
			return false
		}
	}
}

func (p *jsonScan) array(s *simpleSchema, depth int) bool {
	if depth > maxPlainDepth || s != nil && s.types != 0 && s.types&tArray == 0 {
		return false
	}
	var items *simpleSchema
	if s != nil {
		items = s.items
	}
	p.i++ // [
	p.space()
	if p.i < len(p.d) && p.d[p.i] == ']' {
		p.i++
		return true
	}
	for {
		p.space()
		if !p.value(items, depth) {
			return false
		}
		p.space()
		if p.i >= len(p.d) {
			return false
		}
		switch p.d[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return true
		default:
			return false
		}
	}
}

// str checks a plain string (no escape, no control character, valid
// UTF-8: decodePlain's) against s's string keywords.
func (p *jsonScan) str(s *simpleSchema) bool {
	start := p.i + 1
	ascii := true
	for j := start; j < len(p.d); j++ {
		switch c := p.d[j]; {
		case c == '"':
			b := p.d[start:j]
			if !ascii && !utf8.Valid(b) {
				return false
			}
			p.i = j + 1
			if s == nil {
				return true
			}
			if s.types != 0 && s.types&tString == 0 {
				return false
			}
			if s.minLen > 0 || s.maxLen >= 0 {
				n := utf8.RuneCount(b)
				if n < s.minLen || s.maxLen >= 0 && n > s.maxLen {
					return false
				}
			}
			if s.enum != nil {
				for _, e := range s.enum {
					if e == string(b) {
						return true
					}
				}
				return false
			}
			return true
		case c == '\\' || c < 0x20:
			return false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return false
}

// number checks JSON's number grammar, and that the number is within
// [MaxNumberScale] (the full validator refuses one beyond).
func (p *jsonScan) number() bool {
	end, ok := scanNumber(p.d, p.i)
	if !ok || !scaleInRange(p.d[p.i:end]) {
		return false
	}
	p.i = end
	return true
}
