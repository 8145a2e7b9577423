package engine

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// jsNumberString is ECMA-262's Number::toString(x) for radix 10, built
// from Go's shortest round-trip digits (strconv 'e' with precision -1,
// which picks the closest of the shortest and the even one of a tie, as
// the specification does).
func jsNumberString(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0:
		return "0"
	}
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	e := strconv.FormatFloat(x, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	p, _ := strconv.Atoi(exp)
	k, n := len(digits), p+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	s := digits[:1]
	if k > 1 {
		s += "." + digits[1:]
	}
	if n-1 >= 0 {
		return sign + s + "e+" + strconv.Itoa(n-1)
	}
	return sign + s + "e-" + strconv.Itoa(1-n)
}

// numberClasses generates doubles of every class: random bit patterns
// (every exponent), subnormals, powers of ten and their neighbours,
// integers around 2^53, short decimals, and the extremes.
func numberClasses(rng *rand.Rand) []float64 {
	var xs []float64
	for i := 0; i < 20000; i++ {
		xs = append(xs, math.Float64frombits(rng.Uint64()))
	}
	for i := 0; i < 5000; i++ {
		xs = append(xs, math.Float64frombits(rng.Uint64()&(1<<52-1))) // subnormal
	}
	for k := -323; k <= 308; k++ {
		p, _ := strconv.ParseFloat("1e"+strconv.Itoa(k), 64)
		xs = append(xs, p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)), 5*p, 2.5*p)
	}
	for e := 0; e <= 1023; e++ {
		p := math.Ldexp(1, e)
		xs = append(xs, p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)))
		q := math.Ldexp(1, -e)
		xs = append(xs, q, math.Nextafter(q, 0))
	}
	for i := 0; i < 5000; i++ {
		xs = append(xs, float64(rng.Int64N(1<<54)-1<<53), float64(rng.IntN(100000)))
	}
	for i := 0; i < 10000; i++ {
		d, _ := strconv.ParseFloat(fmt.Sprintf("%d.%de%d", rng.IntN(100000), rng.IntN(1000), rng.IntN(40)-20), 64)
		xs = append(xs, d, -d)
	}
	xs = append(xs, 0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64,
		-math.MaxFloat64, 2.2250738585072014e-308, 2.225073858507201e-308, 0.1, 0.2, 0.30000000000000004, 1e21, 1e-7, 123456789012345680000,
		9007199254740993, 4.35, 0.000001, 1e-6, 1.5e-7, 5e-324, 1e-323, 1.5e-323)
	return xs
}

// Number#toString, String(), JSON.stringify and the parsers on generated
// doubles of every class: the text is what ECMA-262 specifies (checked
// against Go's shortest digits), and parsing Go's 'g' text, the text
// itself, and JSON.parse give back the same double, bit for bit.
func TestNumberFormattingAndParsing(t *testing.T) {
	xs := numberClasses(rand.New(rand.NewPCG(1, 2)))
	const batch = 12000
	for start := 0; start < len(xs); start += batch {
		part := xs[start:min(start+batch, len(xs))]
		var src strings.Builder
		src.WriteString("const b = [")
		for i, x := range part {
			if i > 0 {
				src.WriteByte(',')
			}
			u := math.Float64bits(x)
			g := strconv.FormatFloat(x, 'g', -1, 64)
			fmt.Fprintf(&src, "%d,%d,%q", u>>32, u&0xffffffff, g)
		}
		src.WriteString(`];
const f = new Float64Array(1), w = new Uint32Array(f.buffer);
const same = (a, b) => { f[0] = a; const h = w[1], l = w[0]; f[0] = b; return (h === w[1] && l === w[0]) || (a !== a && b !== b); };
const out = [];
for (let i = 0; i < b.length; i += 3) {
  w[1] = b[i]; w[0] = b[i + 1];
  const x = f[0], s = String(x);
  let bad = '';
  if (!same(Number(b[i + 2].replace('Inf', 'Infinity').replace('+Infinity', 'Infinity')), x)) bad += 'g';
  const x0 = x === 0 ? 0 : x; // String(-0) is "0"
  if (!same(Number(s), x0)) bad += 'n';
  if (!same(parseFloat(s), x0)) bad += 'p';
  if (isFinite(x) && !same(JSON.parse(JSON.stringify(x)), x0)) bad += 'j';
  if (isFinite(x) && JSON.stringify([x]) !== '[' + s + ']') bad += 's';
  out.push(s, bad);
}
return out;`)
		res := runJS(t, src.String(), Limits{Memory: 512 << 20, MaxValue: 16 << 20}, nil)
		if res.Err != nil {
			t.Fatalf("%s: %s", res.Err.Code, res.Err.Message)
		}
		var out []string
		if err := json.Unmarshal(res.Value, &out); err != nil {
			t.Fatal(err)
		}
		if len(out) != 2*len(part) {
			t.Fatalf("%d answers for %d numbers", len(out)/2, len(part))
		}
		fails := 0
		for i, x := range part {
			if got, want := out[2*i], jsNumberString(x); got != want || out[2*i+1] != "" {
				if fails++; fails < 10 {
					t.Errorf("%v (bits %#x): String gives %q, want %q; round-trip failures %q", x, math.Float64bits(x), got, want, out[2*i+1])
				}
			}
		}
		if fails > 0 {
			t.Fatalf("%d of %d numbers differ", fails, len(part))
		}
	}
	t.Logf("%d doubles", len(xs))
}
