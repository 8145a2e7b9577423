package schema

import (
	"encoding/json"
	"unicode/utf8"
)

// A simple schema is one whose every keyword this file checks directly:
// type, properties, required, additionalProperties, items, string enums,
// minLength and maxLength, and annotations (title, description, default,
// examples, $comment, deprecated, readOnly, writeOnly). Tool schemas
// inferred from Go types, and most small hand-written ones, are simple.
//
// For a simple schema, Validate first asks simpleValid, which answers
// true only for a value the full validator certainly accepts; any other
// value (invalid, or one it is not sure of: an integer written 1.0, a very
// large value) goes to the full validator, which also writes the report.
// So the verdicts are the library's, only faster for the common case.
type simpleSchema struct {
	types      uint8 // typeBits; 0 = any type
	properties map[string]*simpleSchema
	required   []string
	// small: props are the properties again, as there are few
	// (smallProps), since a short scan finds a key faster than the map;
	// reqExtra says some required name is not among them
	small    bool
	props    []simpleProp
	reqExtra bool
	// additional: nil = any additional property is allowed (absent or
	// true); noAdditional = none is allowed (false); else its schema
	additional   *simpleSchema
	noAdditional bool
	items        *simpleSchema // nil: any items
	enum         []string      // non-nil: the value is one of these strings
	minLen       int
	maxLen       int // -1: none
}

// simpleProp is a property of a simpleSchema: its name, its schema, and
// the bits of the required names it is (bit j: required[j]).
type simpleProp struct {
	name string
	s    *simpleSchema
	req  uint64
}

// smallProps is how many properties a schema may have for props.
const smallProps = 8

const (
	tObject = 1 << iota
	tArray
	tString
	tNumber
	tInteger
	tBoolean
	tNull
)

var typeBits = map[string]uint8{
	"object": tObject, "array": tArray, "string": tString, "number": tNumber,
	"integer": tInteger, "boolean": tBoolean, "null": tNull,
}

// simpleMaxNodes bounds the values simpleValid looks at; a larger value
// goes to the full validator (and its step bound).
const simpleMaxNodes = 2000

// compileSimple returns the simple form of a decoded schema document, or
// nil when it is not simple. The document must be the root (it may carry a
// draft 2020-12 "$schema").
func compileSimple(doc any) *simpleSchema {
	m, ok := doc.(map[string]any)
	if !ok {
		return nil // true/false schemas: the library is fast enough
	}
	if s, ok := m["$schema"]; ok && s != "https://json-schema.org/draft/2020-12/schema" {
		return nil
	}
	return simpleOf(m, 0)
}

func simpleOf(v any, depth int) *simpleSchema {
	m, ok := v.(map[string]any)
	if !ok || depth > 32 {
		return nil
	}
	s := &simpleSchema{maxLen: -1}
	for k, x := range m {
		switch k {
		case "$schema", "title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly":
		case "type":
			switch t := x.(type) {
			case string:
				b, ok := typeBits[t]
				if !ok {
					return nil
				}
				s.types = b
			case []any:
				if len(t) == 0 {
					return nil
				}
				for _, e := range t {
					name, _ := e.(string)
					b, ok := typeBits[name]
					if !ok {
						return nil
					}
					s.types |= b
				}
			default:
				return nil
			}
		case "properties":
			pm, ok := x.(map[string]any)
			if !ok {
				return nil
			}
			s.properties = make(map[string]*simpleSchema, len(pm))
			for name, ps := range pm {
				p := simpleOf(ps, depth+1)
				if p == nil {
					return nil
				}
				s.properties[name] = p
			}
		case "required":
			list, ok := x.([]any)
			if !ok {
				return nil
			}
			for _, e := range list {
				name, ok := e.(string)
				if !ok {
					return nil
				}
				s.required = append(s.required, name)
			}
		case "additionalProperties":
			switch a := x.(type) {
			case bool:
				s.noAdditional = !a
			default:
				s.additional = simpleOf(a, depth+1)
				if s.additional == nil {
					return nil
				}
			}
		case "items":
			s.items = simpleOf(x, depth+1)
			if s.items == nil {
				return nil
			}
		case "enum":
			list, ok := x.([]any)
			if !ok || len(list) == 0 {
				return nil
			}
			s.enum = []string{}
			for _, e := range list {
				str, ok := e.(string)
				if !ok {
					return nil // numbers compare by value, objects deeply: the library's
				}
				s.enum = append(s.enum, str)
			}
		case "minLength", "maxLength":
			n, ok := x.(json.Number)
			if !ok {
				return nil
			}
			i, err := n.Int64()
			if err != nil || i < 0 || i > 1<<30 {
				return nil
			}
			if k == "minLength" {
				s.minLen = int(i)
			} else {
				s.maxLen = int(i)
			}
		default:
			return nil
		}
	}
	if len(s.properties) <= smallProps && len(s.required) <= 64 {
		s.small = true
		for name, ps := range s.properties {
			p := simpleProp{name: name, s: ps}
			for j, r := range s.required {
				if r == name {
					p.req |= 1 << j
				}
			}
			s.props = append(s.props, p)
		}
		for _, r := range s.required {
			if _, ok := s.properties[r]; !ok {
				s.reqExtra = true
			}
		}
	}
	return s
}

// simpleValid reports whether v (as decodeJSON or json.Unmarshal gives it)
// certainly satisfies s. false means "ask the full validator".
func simpleValid(s *simpleSchema, v any) bool {
	budget := simpleMaxNodes
	return s.valid(v, &budget)
}

func (s *simpleSchema) valid(v any, budget *int) bool {
	if *budget--; *budget < 0 {
		return false
	}
	var t uint8
	switch x := v.(type) {
	case nil:
		t = tNull
	case bool:
		t = tBoolean
	case string:
		t = tString
		if s.minLen > 0 || s.maxLen >= 0 {
			n := utf8.RuneCountInString(x)
			if n < s.minLen || s.maxLen >= 0 && n > s.maxLen {
				return false
			}
		}
	case json.Number:
		if !NumberInRange(string(x)) {
			return false // the full validator refuses it
		}
		t = tNumber
		if plainInteger(string(x)) {
			t |= tInteger
		}
	case float64:
		if !floatInRange(x) {
			return false // the full validator refuses it
		}
		t = tNumber // an integer-valued float64 is left to the library for "integer"
	case map[string]any:
		t = tObject
	case []any:
		t = tArray
	default:
		return false
	}
	if s.types != 0 && s.types&t == 0 {
		return false
	}
	if s.enum != nil {
		str, ok := v.(string)
		if !ok {
			return false
		}
		found := false
		for _, e := range s.enum {
			if e == str {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for _, name := range s.required {
			if _, ok := x[name]; !ok {
				return false
			}
		}
		for name, pv := range x {
			if ps, ok := s.properties[name]; ok {
				if !ps.valid(pv, budget) {
					return false
				}
				continue
			}
			if s.noAdditional {
				return false
			}
			if s.additional != nil && !s.additional.valid(pv, budget) {
				return false
			}
		}
	case []any:
		if s.items != nil {
			for _, e := range x {
				if !s.items.valid(e, budget) {
					return false
				}
			}
		}
	}
	return true
}

// plainInteger reports whether a JSON number's text is an integer in
// every draft's sense: digits only, no fraction, no exponent.
func plainInteger(n string) bool {
	if len(n) > 0 && n[0] == '-' {
		n = n[1:]
	}
	if n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}
