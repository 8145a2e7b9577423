// Package jsonstruct decodes a JSON object into a flat struct of scalar
// fields (bools, strings, numbers) the way encoding/json does, without its
// reflection-heavy general path: the common shape of a Go tool's input.
// A Decoder decodes only what it can decode exactly as json.Unmarshal
// would; anything else (another shape, an escape in a string, an unknown
// key, null, an error) it declines, and the caller uses json.Unmarshal.
package jsonstruct

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/jsontext"
)

// Decoder decodes JSON objects into one struct type.
type Decoder struct {
	fields []field
}

type field struct {
	name  string
	index int
	kind  reflect.Kind
	bits  int
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// For returns a Decoder for t, or nil when t is not a struct whose fields
// a Decoder handles: exported, not embedded, of kind bool, string, int*,
// uint* (not uintptr) or float*, without custom unmarshalling, with JSON
// names made of ASCII letters, digits and "_" that differ even when case
// is ignored (encoding/json matches keys case-insensitively). Unexported
// fields and fields tagged "-" are skipped, as encoding/json skips them.
func For(t reflect.Type) *Decoder {
	if t.Kind() != reflect.Struct || implements(t) {
		return nil
	}
	d := &Decoder{}
	folded := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			return nil
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if opts != "" && opts != "omitempty" && opts != "omitzero" {
			return nil // ",string" and friends: not this decoder's
		}
		if name == "" {
			name = f.Name
		}
		if !simpleName(name) || implements(f.Type) {
			return nil
		}
		k := f.Type.Kind()
		switch k {
		case reflect.Bool, reflect.String,
			reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64:
		default:
			return nil
		}
		low := strings.ToLower(name)
		if folded[low] {
			return nil
		}
		folded[low] = true
		bits := 0
		if k != reflect.Bool && k != reflect.String {
			bits = f.Type.Bits()
		}
		d.fields = append(d.fields, field{name: name, index: i, kind: k, bits: bits})
	}
	return d
}

func implements(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(unmarshalerType) || p.Implements(unmarshalerType) ||
		t.Implements(textUnmarshalerType) || p.Implements(textUnmarshalerType)
}

func simpleName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Decode decodes data into v, which must be a pointer to the zero value
// of the Decoder's type (as json.Unmarshal would start from). It returns
// false when it declined: v may then hold part of the object, so the
// caller starts again from a zero value with json.Unmarshal. When it
// returns true, v holds exactly what json.Unmarshal(data, v) gives, and
// json.Unmarshal would not have failed.
func (d *Decoder) Decode(data []byte, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	s := rv.Elem()
	p := jsontext.Space(data, 0)
	if p >= len(data) || data[p] != '{' {
		return false
	}
	p = jsontext.Space(data, p+1)
	if p < len(data) && data[p] == '}' {
		return jsontext.Space(data, p+1) == len(data)
	}
	for {
		// key
		if p >= len(data) || data[p] != '"' {
			return false
		}
		key, q, ok := plainString(data, p)
		if !ok {
			return false
		}
		f := d.lookup(key)
		if f == nil {
			return false
		}
		p = jsontext.Space(data, q)
		if p >= len(data) || data[p] != ':' {
			return false
		}
		p = jsontext.Space(data, p+1)
		if p, ok = f.store(s.Field(f.index), data, p); !ok {
			return false
		}
		p = jsontext.Space(data, p)
		if p >= len(data) {
			return false
		}
		switch data[p] {
		case ',':
			p = jsontext.Space(data, p+1)
		case '}':
			return jsontext.Space(data, p+1) == len(data)
		default:
			return false
		}
	}
}

func (d *Decoder) lookup(key []byte) *field {
	for i := range d.fields {
		if d.fields[i].name == string(key) {
			return &d.fields[i]
		}
	}
	return nil
}

// store decodes the value at data[p:] into fv; it returns the offset just
// after the value.
func (f *field) store(fv reflect.Value, data []byte, p int) (int, bool) {
	if p >= len(data) {
		return 0, false
	}
	switch f.kind {
	case reflect.String:
		if data[p] != '"' {
			return 0, false
		}
		str, q, ok := plainString(data, p)
		if !ok {
			return 0, false
		}
		fv.SetString(string(str))
		return q, true
	case reflect.Bool:
		switch {
		case hasWord(data, p, "true"):
			fv.SetBool(true)
			return p + 4, true
		case hasWord(data, p, "false"):
			fv.SetBool(false)
			return p + 5, true
		}
		return 0, false
	}
	q := jsontext.Number(data, p)
	ok := q >= 0
	if !ok {
		return 0, false
	}
	lit := string(data[p:q])
	switch f.kind {
	case reflect.Float32, reflect.Float64:
		if n, ok := smallInteger(data[p:q]); ok {
			fv.SetFloat(n)
			break
		}
		n, err := strconv.ParseFloat(lit, f.bits)
		if err != nil || fv.OverflowFloat(n) {
			return 0, false
		}
		fv.SetFloat(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(lit, 10, 64)
		if err != nil || fv.OverflowUint(n) {
			return 0, false
		}
		fv.SetUint(n)
	default:
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil || fv.OverflowInt(n) {
			return 0, false
		}
		fv.SetInt(n)
	}
	return q, true
}

// smallInteger is strconv.ParseFloat(string(lit), 64) for an integer
// literal of at most 15 digits, which a float64 holds exactly ("-0" is
// -0); a float32 field then rounds it once, as ParseFloat(lit, 32) does.
func smallInteger(lit []byte) (float64, bool) {
	neg := len(lit) > 0 && lit[0] == '-'
	d := lit
	if neg {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range d {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	f := float64(n)
	if neg {
		f = -f // -0 too
	}
	return f, true
}

func hasWord(data []byte, p int, w string) bool {
	return len(data)-p >= len(w) && string(data[p:p+len(w)]) == w
}

// plainString reads the string starting at data[p] (a quote) when it
// needs no unquoting: no escape, no control character, valid UTF-8. It
// returns its contents and the offset after the closing quote.
func plainString(data []byte, p int) ([]byte, int, bool) {
	ascii := true
	for i := p + 1; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			s := data[p+1 : i]
			if !ascii && !utf8.Valid(s) {
				return nil, 0, false
			}
			return s, i + 1, true
		case c == '\\' || c < 0x20:
			return nil, 0, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, 0, false
}
