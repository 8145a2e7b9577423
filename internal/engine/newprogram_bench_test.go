package engine

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/modebox/modebox/internal/tsx"
)

// newProgram2KB is a distinct program of about 2 KB for run i (the same
// shape as bench/peers-go's): nothing can be cached between runs, so every
// run compiles it afresh. Its result is i + 1.
func newProgram2KB(i int) string {
	b := []byte("// program " + strconv.Itoa(i) + "\n")
	for j := 0; len(b) < 2000; j++ {
		b = fmt.Appendf(b, "function helper%d(x) { const y = x * %d + %d; return y > 1e9 ? y %% 7 : y - %d * x; }\n", j, j+1, i, j+1)
	}
	b = fmt.Appendf(b, "const base = %d;\nreturn helper0(base) + 1;\n", i)
	return string(b)
}

// BenchmarkRunNewProgram2KB is a whole run of a new 2 KB program each
// time: restore, compile, run, result. Minus BenchmarkRunStart it is
// mostly the guest's parser and bytecode compiler.
func BenchmarkRunNewProgram2KB(b *testing.B) {
	deriving(b)
	e, err := Shared()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := processCPU()
	i := 0
	for b.Loop() {
		i++
		p, err := tsx.Transform(newProgram2KB(i), tsx.JS)
		if err != nil {
			b.Fatal(err)
		}
		r := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup})
		if r.Err != nil {
			b.Fatal(r.Err.Code, r.Err.Message)
		}
		if got, want := string(r.Value), strconv.Itoa(i+1); got != want {
			b.Fatalf("run %d returned %s, want %s", i, got, want)
		}
	}
	if c := processCPU(); c > 0 {
		b.ReportMetric(float64(c-c0)/float64(b.N), "cpu-ns/op")
	}
}
