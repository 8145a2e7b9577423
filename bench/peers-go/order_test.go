package main

import (
	"slices"
	"testing"
)

// TestRoundOrder: every engine runs once per row; native, when there is
// one, first; and over the rounds each Go engine is the one right after
// native as often as the others, and takes every position among the Go
// engines equally often. With the old order (the engines, native
// included, rotated as one) modebox followed native in every row of
// every round.
func TestRoundOrder(t *testing.T) {
	for _, native := range []bool{false, true} {
		n := 3
		if native {
			n = 4
		}
		g := 3
		after := make([]int, n) // how often engine i ran right after native
		pos := make([][]int, g) // pos[i][p]: how often Go engine i ran p-th among the Go engines
		for i := range pos {
			pos[i] = make([]int, g)
		}
		const rounds = 12
		for r := range rounds {
			o := roundOrder(r, n, native)
			s := slices.Clone(o)
			slices.Sort(s)
			for i := range n {
				if s[i] != i {
					t.Fatalf("native=%v round %d: order %v does not run every engine once", native, r, o)
				}
			}
			goOrder := o
			if native {
				if o[0] != n-1 {
					t.Fatalf("round %d: order %v does not start with native (%d)", r, o, n-1)
				}
				after[o[1]]++
				goOrder = o[1:]
			}
			for p, ei := range goOrder {
				pos[ei][p]++
			}
		}
		for i := range g {
			if native && after[i] != rounds/g {
				t.Errorf("Go engine %d ran right after native in %d rounds of %d, want %d", i, after[i], rounds, rounds/g)
			}
			for p := range g {
				if pos[i][p] != rounds/g {
					t.Errorf("native=%v: Go engine %d ran in position %d in %d rounds of %d, want %d", native, i, p, pos[i][p], rounds, rounds/g)
				}
			}
		}
	}
}
