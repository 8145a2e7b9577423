package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// memCase is one typed-array or string operation and the bytes it starts
// from. The guest's Uint8Array methods reach the image's memory functions
// directly: copyWithin is memmove (overlapping either way), fill is
// memset, slice and set from another buffer are memcpy, and comparing or
// matching one-byte strings is memcmp.
type memCase struct {
	Op   string `json:"op"`
	Data []int  `json:"data"`
	B    []int  `json:"b,omitempty"` // the other operand of set and compare
	X    int    `json:"x"`
	Y    int    `json:"y"`
	Z    int    `json:"z"`
}

// want is what the operation gives, computed here (Go's copy has memmove's
// semantics), in the form the guest program returns it.
func (c memCase) want() string {
	a := make([]byte, len(c.Data))
	for i, v := range c.Data {
		a[i] = byte(v)
	}
	b := make([]byte, len(c.B))
	for i, v := range c.B {
		b[i] = byte(v)
	}
	switch c.Op {
	case "copyWithin": // target X, start Y, end Z (all in range)
		copy(a[c.X:], a[c.Y:c.Z])
	case "fill": // value X, start Y, end Z
		for i := c.Y; i < c.Z; i++ {
			a[i] = byte(c.X)
		}
	case "slice":
		a = a[c.Y:c.Z]
	case "set": // b at offset X
		copy(a[c.X:], b)
	case "compare":
		return strconv.Itoa(bytes.Compare(a, b)) + "," + strconv.FormatBool(bytes.Equal(a, b)) +
			"," + strconv.FormatBool(bytes.Contains(a, b))
	}
	return fmt.Sprintf("%x", a)
}

// memSizes are the lengths the memory functions branch on (each side of
// 4, 8, 16 and 64 bytes) and longer ones.
var memSizes = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 23, 24, 31, 32, 33,
	47, 48, 63, 64, 65, 66, 71, 72, 100, 127, 128, 129, 200, 255, 256, 257, 511, 1000, 4096, 5000}

func genMemCases(rng *rand.Rand) []memCase {
	bytesOf := func(n int) []int {
		d := make([]int, n)
		for i := range d {
			d[i] = rng.IntN(256)
		}
		return d
	}
	var cs []memCase
	for _, n := range memSizes {
		for range 12 {
			total := n + rng.IntN(80)
			// a block of n bytes at a random place of a larger array
			start := rng.IntN(total - n + 1)
			target := rng.IntN(total - n + 1)
			cs = append(cs,
				memCase{Op: "copyWithin", Data: bytesOf(total), X: target, Y: start, Z: start + n},
				memCase{Op: "fill", Data: bytesOf(total), X: rng.IntN(256), Y: start, Z: start + n},
				memCase{Op: "slice", Data: bytesOf(total), Y: start, Z: start + n},
				memCase{Op: "set", Data: bytesOf(total), B: bytesOf(n), X: target},
			)
			// strings of n bytes: equal, or differing at one place, or
			// one a prefix of the other
			a := bytesOf(n)
			b := slices.Clone(a)
			switch k := rng.IntN(3); {
			case k == 1 && n > 0:
				i := rng.IntN(n)
				b[i] = (b[i] + 1 + rng.IntN(255)) % 256
			case k == 2 && n > 0:
				b = b[:rng.IntN(n)]
			}
			cs = append(cs, memCase{Op: "compare", Data: a, B: b}, memCase{Op: "compare", Data: b, B: a})
		}
	}
	return cs
}

const memProgram = `
const hex = (a) => Array.from(a, (v) => v.toString(16).padStart(2, "0")).join("");
const str = (d) => String.fromCharCode(...d);
const out = [];
for (const c of cases) {
  const a = Uint8Array.from(c.data);
  switch (c.op) {
  case "copyWithin": a.copyWithin(c.x, c.y, c.z); out.push(hex(a)); break;
  case "fill": a.fill(c.x, c.y, c.z); out.push(hex(a)); break;
  case "slice": out.push(hex(a.slice(c.y, c.z))); break;
  case "set": a.set(Uint8Array.from(c.b || []), c.x); out.push(hex(a)); break;
  case "compare": {
    const s = str(c.data), t = str(c.b || []);
    out.push((s < t ? -1 : s > t ? 1 : 0) + "," + (s === t) + "," + s.includes(t));
    break;
  }
  }
}
return out;
`

// TestMemoryFunctions checks the image's memcpy, memmove, memset and
// memcmp (internal/guest/src/memfast.c) through the JS operations built on
// them, at every length their code branches on, against the same
// operations done here.
func TestMemoryFunctions(t *testing.T) {
	cs := genMemCases(rand.New(rand.NewPCG(19, 3)))
	js, err := json.Marshal(cs)
	if err != nil {
		t.Fatal(err)
	}
	r := runJS(t, "const cases = "+string(js)+";\n"+memProgram, Limits{}, nil)
	if r.Err != nil {
		t.Fatal(r.Err.Code, r.Err.Message)
	}
	var got []string
	if err := json.Unmarshal(r.Value, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(cs) {
		t.Fatalf("%d results for %d cases", len(got), len(cs))
	}
	bad := 0
	for i, c := range cs {
		if w := c.want(); got[i] != w {
			bad++
			if bad <= 5 {
				at := 0
				for at < min(len(got[i]), len(w)) && got[i][at] == w[at] {
					at++
				}
				t.Errorf("%s of %d bytes (x=%d y=%d z=%d): differs from character %d: got …%.40s, want …%.40s",
					c.Op, len(c.Data), c.X, c.Y, c.Z, at, got[i][at:], w[at:])
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d cases wrong", bad, len(cs))
	}
}

// TestIntegerToString checks the image's integer-to-decimal paths
// (patch quickjs-y3-int-to-string.patch): an int32 value made a string
// (concatenation, String, a template) and integer keys read back as
// strings (Object.keys, for-in), against Go's strconv, on the extremes,
// every power of ten and its neighbours, and random values of every
// length.
func TestIntegerToString(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 4))
	vs := []int64{0, 1, -1, 9, 10, -10, math.MaxInt32, math.MinInt32, math.MaxInt32 - 1, math.MinInt32 + 1}
	for p := int64(1); p <= 1e9; p *= 10 {
		vs = append(vs, p-1, p, p+1, -p+1, -p, -p-1)
	}
	for range 3000 {
		v := int64(int32(rng.Uint32()))
		vs = append(vs, v>>rng.IntN(32))
	}
	// keys: array indices (tagged integer atoms) and the index range's top
	// (2^31 - 1 .. 2^32 - 2: property keys made from an integer)
	ks := []int64{0, 1, 9, 10, 99, 100, 1 << 20, math.MaxInt32 - 1, math.MaxInt32, math.MaxInt32 + 1, 1<<32 - 2, 1<<32 - 1}
	for range 1000 {
		ks = append(ks, rng.Int64N(1<<32-1))
	}
	var src strings.Builder
	fmt.Fprintf(&src, "const vs = %s, ks = %s;\n", jsonInts(vs), jsonInts(ks))
	src.WriteString(`
const out = [];
for (const v0 of vs) {
  const v = v0 | 0; // an int32 value, not a double
  out.push("" + v, String(v), ` + "`${v}`" + `, "t" + v);
}
const o = {};
for (const k of ks) o[k] = 1;
const keys = Object.keys(o);
const a = [];
for (let i = 0; i < 300; i++) a[i * 7] = i;
const idx = [];
for (const k in a) idx.push(k);
return { out, keys, idx };
`)
	r := runJS(t, src.String(), Limits{}, nil)
	if r.Err != nil {
		t.Fatal(r.Err.Code, r.Err.Message)
	}
	var got struct{ Out, Keys, Idx []string }
	if err := json.Unmarshal(r.Value, &got); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, v := range vs {
		s := strconv.FormatInt(v, 10)
		want = append(want, s, s, s, "t"+s)
	}
	if !slices.Equal(got.Out, want) {
		for i := range min(len(got.Out), len(want)) {
			if got.Out[i] != want[i] {
				t.Fatalf("value %d: got %q, want %q", vs[i/4], got.Out[i], want[i])
			}
		}
		t.Fatalf("%d strings, want %d", len(got.Out), len(want))
	}
	// Object.keys: the array indices (< 2^32 - 1) ascending, then the
	// other keys in insertion order, each once
	var idxKeys, other []int64
	seen := map[int64]bool{}
	for _, k := range ks {
		if seen[k] {
			continue
		}
		seen[k] = true
		if k < 1<<32-1 {
			idxKeys = append(idxKeys, k)
		} else {
			other = append(other, k)
		}
	}
	slices.Sort(idxKeys)
	var wantKeys []string
	for _, k := range append(idxKeys, other...) {
		wantKeys = append(wantKeys, strconv.FormatInt(k, 10))
	}
	if !slices.Equal(got.Keys, wantKeys) {
		t.Fatalf("Object.keys: got %d keys %.200v, want %d %.200v", len(got.Keys), got.Keys, len(wantKeys), wantKeys)
	}
	var wantIdx []string
	for i := range 300 {
		wantIdx = append(wantIdx, strconv.Itoa(i*7))
	}
	if !slices.Equal(got.Idx, wantIdx) {
		t.Fatalf("for-in over an array: got %v, want %v", got.Idx, wantIdx)
	}
}

func jsonInts(vs []int64) string {
	b, _ := json.Marshal(vs)
	return string(b)
}
