// Package jsongen generates JSON values for property tests of everything
// that carries a program's values across a boundary and back (a paused
// call's arguments through a continuation token, a journal, a resume).
//
// A generated value has two forms: Source, a JavaScript expression a
// program can embed (JSON text whose strings are written with a random mix
// of raw characters and \u escapes), and Want, the value a Go
// json.Unmarshal of the program's JSON.stringify of it gives (lone
// surrogates become U+FFFD, -0 becomes 0). Strings draw from every Unicode
// plane, the characters JSON and HTML treat specially (& < > " \ / NUL,
// controls, U+2028, U+2029, U+FEFF), lone surrogates and whole pairs;
// values nest deeply; some strings are large.
package jsongen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Value is one generated value.
type Value struct {
	// Source is a JavaScript expression for the value.
	Source string
	// Want is the value as Go decodes the program's JSON of it: nil,
	// bool, float64, string, []any or map[string]any.
	Want any
}

// Gen generates values from a seeded source, so a failing case can be
// reproduced from its seed.
type Gen struct {
	r *rand.Rand
	// MaxDepth bounds nesting (default 8); Deep makes one chain of
	// MaxDeep nested arrays and objects (default 64) in some values.
	MaxDepth, MaxDeep int
	// Large is the size in UTF-16 units of the large strings some values
	// get (default 16 Ki; random text hardly compresses, and a continuation token holds at most 1 MiB).
	Large int
}

// New returns a generator seeded with seed.
func New(seed uint64) *Gen {
	return &Gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), MaxDepth: 8, MaxDeep: 64, Large: 16 << 10}
}

// special are the characters that encoders treat differently.
var special = []rune{'&', '<', '>', '"', '\\', '/', 0, '\b', '\f', '\n', '\r', '\t', 0x1f, 0x7f, 0x2028, 0x2029, 0xfeff, 0xfffd, 0xffff, '\'', '`', '$', ' '}

// Units returns a random string as UTF-16 code units (lone surrogates
// included) of about n units.
func (g *Gen) Units(n int) []uint16 {
	var u []uint16
	for len(u) < n {
		switch g.r.IntN(10) {
		case 0, 1:
			u = append(u, uint16(special[g.r.IntN(len(special))]))
		case 2: // a lone surrogate
			u = append(u, uint16(0xd800+g.r.IntN(0x800)))
		case 3: // astral: planes 1 to 16
			r := rune(0x10000 + g.r.IntN(0x100000))
			a, b := utf16.EncodeRune(r)
			u = append(u, uint16(a), uint16(b))
		case 4: // BMP outside the surrogates
			c := g.r.IntN(0xf800)
			if c >= 0xd800 {
				c += 0x800
			}
			u = append(u, uint16(c))
		default: // ASCII, so texts look like texts
			u = append(u, uint16(0x20+g.r.IntN(0x5f)))
		}
	}
	return u
}

// GoString is what Go decodes from JSON of the units: lone surrogates
// become U+FFFD.
func GoString(u []uint16) string {
	var b strings.Builder
	for _, r := range utf16.Decode(u) {
		b.WriteRune(r)
	}
	return b.String()
}

// Quote writes the units as a JSON (and JavaScript) string literal, each
// unit raw or escaped at random; units JSON cannot hold raw are always
// escaped.
func (g *Gen) Quote(u []uint16) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(u); i++ {
		c := u[i]
		esc := g.r.IntN(3) == 0
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(c))
			continue
		case c < 0x20:
			esc = true
		case c >= 0xd800 && c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] < 0xe000:
			if esc {
				fmt.Fprintf(&b, `\u%04x\u%04x`, c, u[i+1])
			} else {
				b.WriteRune(utf16.DecodeRune(rune(c), rune(u[i+1])))
			}
			i++
			continue
		case c >= 0xd800 && c < 0xe000:
			esc = true // lone: only an escape can say it
		}
		if esc {
			fmt.Fprintf(&b, `\u%04x`, c)
		} else {
			b.WriteRune(rune(c))
		}
	}
	b.WriteByte('"')
	return b.String()
}

// String returns a random string value of about n units.
func (g *Gen) String(n int) Value {
	u := g.Units(n)
	return Value{Source: g.Quote(u), Want: GoString(u)}
}

// Any returns a random value of any JSON type.
func (g *Gen) Any() Value {
	v := g.value(0)
	if g.r.IntN(4) == 0 {
		v = g.deep(v)
	}
	if g.r.IntN(6) == 0 {
		big := g.String(g.Large)
		v = Value{Source: "[" + big.Source + "," + v.Source + "]", Want: []any{big.Want, v.Want}}
	}
	return v
}

// deep wraps v in MaxDeep alternating arrays and objects.
func (g *Gen) deep(v Value) Value {
	for i := 0; i < g.MaxDeep; i++ {
		if i%2 == 0 {
			v = Value{Source: "[" + v.Source + "]", Want: []any{v.Want}}
		} else {
			v = Value{Source: `{"d&<>":` + v.Source + "}", Want: map[string]any{"d&<>": v.Want}}
		}
	}
	return v
}

func (g *Gen) value(depth int) Value {
	k := g.r.IntN(10)
	if depth >= g.MaxDepth && k >= 6 {
		k = g.r.IntN(6)
	}
	switch k {
	case 0:
		return Value{Source: "null", Want: nil}
	case 1:
		b := g.r.IntN(2) == 0
		return Value{Source: strconv.FormatBool(b), Want: b}
	case 2, 3:
		return g.number()
	case 4, 5:
		return g.String(g.r.IntN(40))
	case 6, 7:
		n := g.r.IntN(6)
		src, want := make([]string, n), make([]any, n)
		for i := range n {
			v := g.value(depth + 1)
			src[i], want[i] = v.Source, v.Want
		}
		return Value{Source: "[" + strings.Join(src, ",") + "]", Want: want}
	default:
		n := g.r.IntN(6)
		var src []string
		want := map[string]any{}
		for range n {
			ku := g.Units(g.r.IntN(12))
			key := GoString(ku)
			if _, dup := want[key]; dup || key == "__proto__" || !utf8.ValidString(key) {
				continue
			}
			if hasLone(ku) {
				// two lone surrogates may decode to the same Go key
				continue
			}
			v := g.value(depth + 1)
			src = append(src, g.Quote(ku)+":"+v.Source)
			want[key] = v.Want
		}
		return Value{Source: "{" + strings.Join(src, ",") + "}", Want: want}
	}
}

func hasLone(u []uint16) bool {
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c >= 0xd800 && c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] < 0xe000 {
			i++
			continue
		}
		if c >= 0xd800 && c < 0xe000 {
			return true
		}
	}
	return false
}

// number returns a number that survives JSON both ways: integers (to
// 2^53), fractions, tiny and huge magnitudes.
func (g *Gen) number() Value {
	var f float64
	switch g.r.IntN(5) {
	case 0:
		f = float64(g.r.Int64N(1<<53)) * float64(1-2*g.r.IntN(2))
	case 1:
		f = float64(g.r.IntN(2000) - 1000)
	case 2:
		f = math.Float64frombits(g.r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 0.5
		}
	case 3:
		f = g.r.Float64() * math.Pow(10, float64(g.r.IntN(600)-300))
	default:
		f = g.r.NormFloat64()
	}
	if f == 0 {
		f = 0 // JSON.stringify(-0) is "0"
	}
	return Value{Source: strconv.FormatFloat(f, 'g', -1, 64), Want: f}
}
