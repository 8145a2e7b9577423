package jsontext

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/jsongen"
)

func check(t *testing.T, d []byte) {
	t.Helper()
	if got, want := Valid(d), json.Valid(d); got != want {
		t.Fatalf("Valid(%q) = %v, json.Valid says %v", d, got, want)
	}
}

// tokens that texts are built from: JSON's, its near misses, and bytes
// that strings may or may not hold.
var tokens = []string{
	"{", "}", "[", "]", ",", ":", " ", "\t", "\n", "\r", "\f", "\v", "\u00a0",
	`"`, `"a"`, `""`, `"\"`, `"\\"`, `"\/"`, `"\u00e9"`, `"\u00G0"`, `"\u12"`, `"\x41"`, `"\'"`, `"\b\f\n\r\t"`,
	"\"\x00\"", "\"\x1f\"", "\"\x7f\"", "\"\xff\xfe\"", "\"\xed\xa0\x80\"", "\"é\"", "\"\u2028\"",
	"true", "false", "null", "tru", "nul", "True", "NaN", "Infinity", "undefined",
	"0", "-0", "1", "-1", "01", "-01", "1.", ".5", "1.5", "1e5", "1E+5", "1e-5", "1e", "1e+", "-", "--1", "+1",
	"1.5e3", "0.0", "12345678901234567890", "1_0", "0x10", "1.e5", "00",
}

// flips are the bytes a text gets one of its bytes changed to.
const flips = "{}[],:\"\\ 0e.-+xnu\x00\x1f\x80"

func randomText(r *rand.Rand) []byte {
	var b strings.Builder
	for n := r.IntN(12); n >= 0; n-- {
		b.WriteString(tokens[r.IntN(len(tokens))])
	}
	return []byte(b.String())
}

// structured builds a text that is mostly well formed, with a mistake
// now and then.
func structured(r *rand.Rand, b *strings.Builder, depth int) {
	ws := func() {
		if r.IntN(4) == 0 {
			b.WriteString([]string{" ", "\n", "\t\r ", ""}[r.IntN(4)])
		}
	}
	ws()
	switch k := r.IntN(8); {
	case depth < 6 && k < 2:
		b.WriteByte('[')
		for i, n := 0, r.IntN(4); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			structured(r, b, depth+1)
		}
		if r.IntN(30) == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case depth < 6 && k < 4:
		b.WriteByte('{')
		for i, n := 0, r.IntN(4); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			b.WriteString(tokens[14+r.IntN(18)]) // a string, good or bad
			ws()
			if r.IntN(30) != 0 {
				b.WriteByte(':')
			}
			structured(r, b, depth+1)
		}
		b.WriteByte('}')
	default:
		b.WriteString(tokens[14+r.IntN(len(tokens)-14)])
	}
	ws()
}

// Valid is json.Valid over random token soups, mostly well-formed
// structures with mistakes, generated values (every JSON type, every
// Unicode plane, escapes, deep nesting, large strings), and each of
// those cut short and with a byte changed.
func TestValidIsJSONValid(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	valid := 0
	for i := 0; i < 200000; i++ {
		var d []byte
		if i%2 == 0 {
			d = randomText(r)
		} else {
			var b strings.Builder
			structured(r, &b, 0)
			d = []byte(b.String())
		}
		check(t, d)
		if json.Valid(d) {
			valid++
		}
		if len(d) > 0 {
			e := append([]byte(nil), d...)
			e[r.IntN(len(e))] = flips[r.IntN(len(flips))]
			check(t, e)
			check(t, d[:r.IntN(len(d))])
		}
	}
	if valid < 20000 {
		t.Fatalf("only %d valid texts of 200000: the test is too weak", valid)
	}
	g := jsongen.New(7)
	for i := 0; i < 400; i++ {
		d := []byte(g.Any().Source)
		check(t, d)
		for j := 0; j < 20 && len(d) > 0; j++ {
			check(t, d[:r.IntN(len(d))])
			e := append([]byte(nil), d...)
			e[r.IntN(len(e))] = flips[r.IntN(len(flips))]
			check(t, e)
		}
	}
}

// Nesting past Valid's own depth is json.Valid's to judge (its limit is
// 10,000).
func TestValidDeep(t *testing.T) {
	for _, n := range []int{1, 63, 64, 65, 255, 256, 257, 1000, 9999, 10000, 10001} {
		for _, open := range []string{"[", `{"k":`, `[{"a":[`} {
			close := map[string]string{"[": "]", `{"k":`: "}", `[{"a":[`: "]}]"}[open]
			d := []byte(strings.Repeat(open, n) + "1" + strings.Repeat(close, n))
			check(t, d)
			check(t, d[:len(d)-1])
			if n >= 256 && len(open) == 1 && n <= 1000 && !Valid(d) {
				t.Fatalf("%d nested %s rejected", n, open)
			}
		}
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[true,null,"x"]}`, `[]`, `"\u00e9"`, `-0.5e+3`, `{"a" 1}`, `[1,]`, "\"\x00\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, d []byte) { check(t, d) })
}

func BenchmarkValid(b *testing.B) {
	d := []byte(`{"a":12,"b":1}`)
	b.Run("jsontext", func(b *testing.B) {
		for b.Loop() {
			Valid(d)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			json.Valid(d)
		}
	})
}
