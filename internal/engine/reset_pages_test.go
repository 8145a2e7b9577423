package engine

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestResetPages: copyPages and zeroPages leave their destination exactly
// the source (or zero), whatever differs and wherever: generated lengths
// (empty, under a page, page multiples and not), destinations equal but
// for one byte at a page's first or last byte or anywhere, for a run of
// bytes across a page boundary, or entirely different. With the compare
// or the write of either function broken, it fails.
func TestResetPages(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 4096))
	lengths := []int{0, 1, 7, resetPage - 1, resetPage, resetPage + 1, 2*resetPage - 1, 3 * resetPage, 5*resetPage + 17}
	for range 40 {
		lengths = append(lengths, r.IntN(9*resetPage))
	}
	for _, n := range lengths {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(r.IntN(4)) // many zeros, and bytes equal by chance
		}
		for k := range 12 {
			dst := bytes.Clone(src)
			zero := make([]byte, n)
			if n > 0 {
				var at []int
				switch k {
				case 0: // nothing differs
				case 1:
					at = []int{0}
				case 2:
					at = []int{n - 1}
				case 3: // a page's first and last bytes
					p := r.IntN((n+resetPage-1)/resetPage) * resetPage
					at = []int{p, min(p+resetPage, n) - 1}
				case 4: // a run across a page boundary
					s := max(0, min(n-1, resetPage-3))
					for i := s; i < min(n, s+7); i++ {
						at = append(at, i)
					}
				case 5: // everything
					for i := range n {
						at = append(at, i)
					}
				default:
					for range 1 + r.IntN(20) {
						at = append(at, r.IntN(n))
					}
				}
				for _, i := range at {
					dst[i] = ^src[i] // never what it was
					zero[i] = byte(1 + r.IntN(255))
				}
			}
			copyPages(dst, src)
			if i := firstDiff(dst, src); i >= 0 {
				t.Fatalf("copyPages, %d bytes, case %d: byte %d is %d, want %d", n, k, i, dst[i], src[i])
			}
			zeroPages(zero)
			if i := firstDiff(zero, make([]byte, n)); i >= 0 {
				t.Fatalf("zeroPages, %d bytes, case %d: byte %d is %d, want 0", n, k, i, zero[i])
			}
		}
	}
}

// firstDiff is the index of the first byte where a and b (as long) differ,
// or -1.
func firstDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}
