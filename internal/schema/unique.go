package schema

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math/big"
	"slices"
	"strconv"
)

// The library checks "uniqueItems" on an array of more than 20 items by
// hashing every item and comparing each with the earlier items of the same
// hash. Its hash leaves out a number's sign (and the bounds between a
// number's numerator and denominator), so distinct items such as [1,-1]
// and [-1,1] share it: an array of such items is compared pairwise, in
// time quadratic in its length and outside the step count. uniqueCost
// counts those comparisons beforehand, as steps, for every array of the
// value (the arrays "uniqueItems" applies to are among them).

// hasUniqueItems reports whether "uniqueItems": true appears anywhere in
// doc (as a keyword or not: counting for nothing costs only time).
func hasUniqueItems(doc any) bool {
	switch d := doc.(type) {
	case map[string]any:
		for k, x := range d {
			if k == "uniqueItems" && x == true {
				return true
			}
			if hasUniqueItems(x) {
				return true
			}
		}
	case []any:
		for _, x := range d {
			if hasUniqueItems(x) {
				return true
			}
		}
	}
	return false
}

// uniqueCost returns the steps the uniqueItems checks of the arrays in
// inst may take: for each array of more than 20 items, the comparisons of
// items of equal library hash made before the first duplicate (where the
// check stops). An array of up to 20 items is compared pairwise, at most
// 190 comparisons, and not counted; nor is hashing, which is linear. It
// stops counting once over budget.
func uniqueCost(inst any, budget int) int {
	u := uniqueCounter{budget: budget, seed: maphash.MakeSeed()}
	u.visit(inst)
	return u.cost
}

type uniqueCounter struct {
	budget int
	cost   int
	seed   maphash.Seed
	weak   maphash.Hash // the library's hash
	strong maphash.Hash // a hash of the value's identity (its equality)
}

func (u *uniqueCounter) visit(x any) {
	if u.cost > u.budget {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for _, y := range x {
			u.visit(y)
		}
	case []any:
		u.array(x)
		for _, y := range x {
			u.visit(y)
		}
	}
}

func (u *uniqueCounter) array(arr []any) {
	n := len(arr)
	if n <= 20 {
		return
	}
	buckets := make(map[uint64]int)
	seen := make(map[uint64]struct{}, n)
	u.weak.SetSeed(u.seed)
	u.strong.SetSeed(u.seed)
	for _, item := range arr {
		u.weak.Reset()
		u.strong.Reset()
		u.hash(item)
		w, s := u.weak.Sum64(), u.strong.Sum64()
		u.cost += buckets[w] // at most this many comparisons
		if _, dup := seen[s]; dup {
			return // the library stops at the first duplicate
		}
		if u.cost > u.budget {
			return
		}
		buckets[w]++
		seen[s] = struct{}{}
	}
}

// hash writes x to the weak hash as the library's writeHash does, and to
// the strong one with signs and lengths.
func (u *uniqueCounter) hash(x any) {
	switch x := x.(type) {
	case map[string]any:
		u.weak.WriteByte(0)
		u.strong.WriteByte(0)
		u.length(len(x))
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			u.hash(k)
			u.hash(x[k])
		}
	case []any:
		u.weak.WriteByte(1)
		u.strong.WriteByte(1)
		u.length(len(x))
		for _, y := range x {
			u.hash(y)
		}
	case nil:
		u.weak.WriteByte(2)
		u.strong.WriteByte(2)
	case bool:
		b := byte(0)
		if x {
			b = 1
		}
		u.weak.Write([]byte{3, b})
		u.strong.Write([]byte{3, b})
	case string:
		u.weak.WriteByte(4)
		u.weak.WriteString(x)
		u.strong.WriteByte(4)
		u.length(len(x))
		u.strong.WriteString(x)
	default:
		u.number(x)
	}
}

// length writes n to the strong hash.
func (u *uniqueCounter) length(n int) {
	var b [binary.MaxVarintLen64]byte
	u.strong.Write(b[:binary.PutUvarint(b[:], uint64(n))])
}

// number hashes a number (or anything else, as the library would try to).
func (u *uniqueCounter) number(x any) {
	u.weak.WriteByte(5)
	u.strong.WriteByte(5)
	if s, ok := x.(json.Number); ok {
		if i, err := strconv.ParseInt(string(s), 10, 64); err == nil {
			u.integer(i)
			return
		}
	}
	r, ok := new(big.Rat).SetString(fmt.Sprint(x))
	if !ok {
		r = new(big.Rat)
	}
	if r.IsInt() && r.Num().IsInt64() {
		u.integer(r.Num().Int64())
		return
	}
	u.weak.Write(r.Num().Bytes())
	u.weak.Write(r.Denom().Bytes())
	u.strong.WriteString(r.RatString())
}

// integer hashes an integer: the library writes its magnitude's bytes and
// a denominator of 1.
func (u *uniqueCounter) integer(i int64) {
	mag := uint64(i)
	sign := byte('+')
	if i < 0 {
		mag, sign = -mag, '-'
	}
	var b [9]byte
	binary.BigEndian.PutUint64(b[:8], mag)
	k := 0
	for k < 8 && b[k] == 0 {
		k++
	}
	b[8] = 1 // the denominator
	u.weak.Write(b[k:])
	u.strong.WriteByte(sign)
	u.length(8 - k)
	u.strong.Write(b[k:8])
}
