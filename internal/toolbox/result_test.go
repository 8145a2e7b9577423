package toolbox

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// resultJSON writes exactly json.Marshal's bytes, or fails as it does,
// for floats of any bit pattern and next to its notation bounds (1e-6,
// 1e21), -0, NaN and the infinities, every integer edge, bools, and the
// values it hands to json.Marshal. Without the 1e-6 or the 1e21 bound,
// or with integers past 2^53 written as integers, it fails.
func TestResultJSONIsMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	vals := []any{nil, true, false, 0, -1, math.MaxInt64, math.MinInt64, int64(math.MaxInt64), int64(math.MinInt64),
		int32(7), uint8(3), "s<&>", []int{1}, map[string]int{"a": 1}, json.Number("1.50"), float32(0.1),
		0.0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64, 5.0, 0.1, 1e20, -1e20}
	for i := range 64 { // integers, up to and past the float's exact ones
		x := math.Ldexp(1, i)
		vals = append(vals, x, -x, x-1, 1-x, x+1, -x-1, math.Nextafter(x, 0))
	}
	for _, b := range []float64{1e-6, 1e21} {
		for _, x := range []float64{b, math.Nextafter(b, 0), math.Nextafter(b, math.Inf(1))} {
			vals = append(vals, x, -x)
		}
	}
	for range 200000 {
		switch r.IntN(4) {
		case 0:
			vals = append(vals, math.Float64frombits(r.Uint64()))
		case 1:
			vals = append(vals, float64(r.IntN(2000000)-1000000)/float64(1+r.IntN(1000)))
		case 2:
			vals = append(vals, math.Ldexp(r.Float64(), r.IntN(160)-80))
		default:
			vals = append(vals, int64(r.Uint64()), int(r.Uint64()))
		}
	}
	for _, v := range vals {
		got, err := resultJSON(v)
		want, werr := json.Marshal(v)
		if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) || !bytes.Equal(got, want) {
			t.Fatalf("%T %v: resultJSON %q %v, json.Marshal %q %v", v, v, got, err, want, werr)
		}
	}
}
