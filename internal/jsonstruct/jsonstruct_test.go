package jsonstruct

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The types the property tests decode into: every scalar kind, tags with
// and without options, skipped fields, named scalar types.
type (
	add struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	named  string
	scalar struct {
		S    string  `json:"s"`
		N    named   `json:"n,omitempty"`
		T    bool    `json:"t"`
		F32  float32 `json:"f32"`
		F64  float64
		I    int    `json:"i"`
		I8   int8   `json:"i8"`
		I16  int16  `json:"i16"`
		I32  int32  `json:"i32"`
		I64  int64  `json:"i64,omitzero"`
		U    uint   `json:"u"`
		U8   uint8  `json:"u8"`
		U16  uint16 `json:"u16"`
		U32  uint32 `json:"u32"`
		U64  uint64 `json:"u64"`
		Skip string `json:"-"`
		low  int
	}
)

// keys the generator uses: each type's names, their case variants,
// unknown names, names with escapes.
var keys = []string{"a", "b", "A", "B", "s", "n", "t", "f32", "F64", "f64", "i", "i8", "i16", "i32", "i64",
	"u", "u8", "u16", "u32", "u64", "Skip", "-", "low", "x", `\u0061`, `a\n`, "ü"}

var numbers = []string{"0", "-0", "1", "-1", "41", "1.5", "-2.25e3", "1e308", "1e309", "-1e400", "5e-324", "1e-400",
	"127", "128", "-128", "-129", "255", "256", "32767", "32768", "65535", "65536", "2147483647", "2147483648",
	"4294967295", "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
	"-9223372036854775809", "18446744073709551615", "18446744073709551616", "3.4028235e38", "3.5e38",
	"1.0", "1E2", "1e+2", "0.1", "123456789012345678901234567890", "01", "1.", ".5", "+1", "-", "1e", "0x10", "NaN",
	"1234567", "-9999999", "12345678", "16777216", "16777217", "-16777217", "123456789012", "999999999999999",
	"-999999999999999", "1000000000000000", "9007199254740993", "-00", "-01"}

func genString(r *rand.Rand) string {
	var b strings.Builder
	b.WriteByte('"')
	for range r.IntN(8) {
		switch r.IntN(10) {
		case 0:
			b.WriteString([]string{`\"`, `\\`, `\n`, `\u0000`, `\ud83d\ude00`, `\ud800`, `\/`}[r.IntN(7)])
		case 1:
			b.WriteByte(byte(r.IntN(0x20))) // a raw control byte: invalid JSON
		case 2:
			b.WriteByte(byte(0x80 + r.IntN(0x80))) // a stray byte: invalid UTF-8
		case 3:
			planes := []rune{0x7f, 0x7ff, 0xfffd, 0xffff, 0x10000 + rune(r.IntN(0x100000))}
			b.WriteRune(planes[r.IntN(len(planes))])
		default:
			b.WriteByte("abc&<>xyz 09"[r.IntN(12)])
		}
	}
	b.WriteByte('"')
	return b.String()
}

func genValue(r *rand.Rand, depth int) string {
	switch r.IntN(9) {
	case 0:
		return "null"
	case 1:
		return []string{"true", "false", "tru", "falsey"}[r.IntN(4)]
	case 2, 3:
		return numbers[r.IntN(len(numbers))]
	case 4:
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = r.NormFloat64()
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	case 5:
		return strconv.FormatInt(r.Int64()>>r.IntN(64), 10)
	case 6, 7:
		return genString(r)
	}
	if depth > 3 {
		return "[]"
	}
	if r.IntN(2) == 0 {
		return "[" + genValue(r, depth+1) + "]"
	}
	return genObject(r, depth+1)
}

func ws(r *rand.Rand) string {
	return []string{"", "", "", " ", "\n\t", "\r ", "\u00a0"}[r.IntN(7)]
}

// genFor is a value for a field of kind k, mostly of the right JSON type.
func genFor(r *rand.Rand, k reflect.Kind) string {
	if r.IntN(8) == 0 {
		return genValue(r, 1)
	}
	switch k {
	case reflect.String:
		return genString(r)
	case reflect.Bool:
		return []string{"true", "false"}[r.IntN(2)]
	}
	if r.IntN(2) == 0 {
		return numbers[r.IntN(len(numbers))]
	}
	return genValue(r, 1)
}

// genObject makes an object, its keys mostly fields of d (nil: any keys),
// their values mostly of the field's type.
func genObject(r *rand.Rand, depth int, d ...*Decoder) string {
	var b strings.Builder
	b.WriteString(ws(r) + "{")
	n := r.IntN(6)
	for i := range n {
		if i > 0 {
			b.WriteString(ws(r) + ",")
		}
		key, val := keys[r.IntN(len(keys))], ""
		if len(d) > 0 && r.IntN(10) != 0 {
			f := d[0].fields[r.IntN(len(d[0].fields))]
			key, val = f.name, genFor(r, f.kind)
		} else {
			val = genValue(r, depth)
		}
		b.WriteString(ws(r) + `"` + key + `"` + ws(r) + ":" + ws(r) + val + ws(r))
	}
	if r.IntN(20) == 0 {
		b.WriteString(",") // a trailing comma: invalid
	}
	b.WriteString("}" + ws(r))
	return b.String()
}

// mutate breaks a text now and then: cut short, a byte changed, garbage
// after it.
func mutate(r *rand.Rand, s string) string {
	switch r.IntN(12) {
	case 0:
		if len(s) > 0 {
			return s[:r.IntN(len(s))]
		}
	case 1:
		if len(s) > 0 {
			b := []byte(s)
			const junk = "{}[]:,\"\\ 0-ex"
			b[r.IntN(len(b))] = junk[r.IntN(len(junk))]
			return string(b)
		}
	case 2:
		return s + []string{"x", "{}", " 1", "\x00"}[r.IntN(4)]
	}
	return s
}

// check decodes data into a fresh T both ways: when the Decoder accepts,
// json.Unmarshal must succeed with the same value.
func check[T any](t *testing.T, d *Decoder, data []byte) bool {
	t.Helper()
	var got, want T
	ok := d.Decode(data, &got)
	err := json.Unmarshal(data, &want)
	// %#v tells -0 from 0, which DeepEqual does not
	if ok && (err != nil || !reflect.DeepEqual(got, want) || fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want)) {
		t.Fatalf("%q: decoded %+v, json.Unmarshal %+v, %v", data, got, want, err)
	}
	return ok
}

func property[T any](t *testing.T, iterations int) {
	d := For(reflect.TypeFor[T]())
	if d == nil {
		t.Fatalf("no decoder for %T", *new(T))
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 19))
	accepted := 0
	for range iterations {
		if check[T](t, d, []byte(mutate(r, genObject(r, 0, d)))) {
			accepted++
		}
	}
	// the property is not vacuous: a good share was decoded here
	if accepted < iterations/10 {
		t.Fatalf("only %d of %d texts decoded: the generator misses the decoder's inputs", accepted, iterations)
	}
}

// TestDecodeIsUnmarshal: over generated objects (every JSON type, every
// plane, escapes, & < > " \ NUL, invalid UTF-8, out-of-range and invalid
// numbers, case variants of keys, duplicate keys, broken texts), whatever
// the Decoder accepts json.Unmarshal decodes to the same value.
func TestDecodeIsUnmarshal(t *testing.T) {
	property[add](t, 40000)
	property[scalar](t, 40000)
}

// TestDecodeAddShapes: the inputs a tool like add sees are decoded, not
// declined (the fast path is taken), and exactly.
func TestDecodeAddShapes(t *testing.T) {
	d := For(reflect.TypeFor[add]())
	for _, s := range []string{`{"a":41,"b":1}`, `{}`, ` { "b" : -0.5e-3 , "a":1e308 } `, `{"a":1,"a":2}`} {
		if !check[add](t, d, []byte(s)) {
			t.Errorf("%s was declined", s)
		}
	}
	d = For(reflect.TypeFor[scalar]())
	s := `{"s":"héllo 😀 & <>","n":"x","t":true,"f32":3.4028235e38,"F64":-1,"i":-9223372036854775808,"i8":-128,"u64":18446744073709551615,"u8":255}`
	if !check[scalar](t, d, []byte(s)) {
		t.Errorf("%s was declined", s)
	}
	// an unexported field is not a key, as for encoding/json
	var sc scalar
	if d.Decode([]byte(`{"low":1}`), &sc) || sc.low != 0 {
		t.Errorf("the unexported field was decoded: %+v", sc)
	}
}

// TestForRefuses: types the Decoder cannot decode exactly get none.
func TestForRefuses(t *testing.T) {
	type inner struct{ A int }
	type embedded struct {
		inner
		B int
	}
	type withString struct {
		A int `json:"a,string"`
	}
	type withPointer struct{ A *int }
	type withSlice struct{ A []int }
	type withAny struct{ A any }
	type folded struct {
		A int `json:"x"`
		B int `json:"X"`
	}
	type dashed struct {
		A int `json:"a-b"`
	}
	type withTime struct{ T time.Time }
	type withRaw struct{ R json.RawMessage }
	for _, typ := range []reflect.Type{
		reflect.TypeFor[int](), reflect.TypeFor[map[string]any](), reflect.TypeFor[*add](),
		reflect.TypeFor[embedded](), reflect.TypeFor[withString](), reflect.TypeFor[withPointer](),
		reflect.TypeFor[withSlice](), reflect.TypeFor[withAny](), reflect.TypeFor[folded](),
		reflect.TypeFor[dashed](), reflect.TypeFor[withTime](), reflect.TypeFor[withRaw](),
		reflect.TypeFor[textish](),
	} {
		if For(typ) != nil {
			t.Errorf("%v got a decoder", typ)
		}
	}
}

type textKey int

func (k *textKey) UnmarshalText(b []byte) error { *k = textKey(len(b)); return nil }

type textish struct{ K textKey }

// FuzzDecode: the same property on fuzzed texts.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":41,"b":1}`, `{"s":"x","i8":-129}`, `{"u":-0}`, `{"a":1,}`, `{"A":1}`, fmt.Sprintf(`{"s":%q}`, "\x00")} {
		f.Add([]byte(s))
	}
	da, ds := For(reflect.TypeFor[add]()), For(reflect.TypeFor[scalar]())
	f.Fuzz(func(t *testing.T, data []byte) {
		check[add](t, da, data)
		check[scalar](t, ds, data)
	})
}
