package integration_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/modebox/modebox"
)

// scratchProgram is a distinct program of about 2 KB for run i, in
// TypeScript (typed) or JavaScript, as bench/peers-go's newProgram: nothing
// can be cached between runs. Its result is i + 1.
func scratchProgram(i int, typed bool) string {
	b := []byte("// program " + strconv.Itoa(i) + "\n")
	for j := 0; len(b) < 2000; j++ {
		if typed {
			b = fmt.Appendf(b, "function helper%d(x: number): number { const y: number = x * %d + %d; return y > 1e9 ? y %% 7 : y - %d * x; }\n", j, j+1, i, j+1)
		} else {
			b = fmt.Appendf(b, "function helper%d(x) { const y = x * %d + %d; return y > 1e9 ? y %% 7 : y - %d * x; }\n", j, j+1, i, j+1)
		}
	}
	if typed {
		return string(fmt.Appendf(b, "const base: number = %d;\nreturn helper0(base) + 1;\n", i))
	}
	return string(fmt.Appendf(b, "const base = %d;\nreturn helper0(base) + 1;\n", i))
}

// forceEsbuild is a last line that the TypeScript fast path declines (an
// enum), so the program before it goes through esbuild as it did before
// the fast path; it changes no line before it.
const forceEsbuild = "\nenum ForceEsbuild { A }\n"

// BenchmarkNewProgramTS is a whole run of a new 2 KB TypeScript program
// each time, through the public API: its types are stripped in Go and it
// skips esbuild.
func BenchmarkNewProgramTS(b *testing.B) { benchNewProgram(b, "ts", true, "") }

// BenchmarkNewProgramTSEsbuild is BenchmarkNewProgramTS with a last line
// the fast path declines: the program goes through esbuild.
func BenchmarkNewProgramTSEsbuild(b *testing.B) { benchNewProgram(b, "ts", true, forceEsbuild) }

// BenchmarkNewProgramJS is the same program in JavaScript.
func BenchmarkNewProgramJS(b *testing.B) { benchNewProgram(b, "js", false, "") }

func benchNewProgram(b *testing.B, lang string, typed bool, suffix string) {
	e := newEngine(b)
	opts := modebox.RunOptions{Lang: modebox.Lang(lang)}
	b.ReportAllocs()
	i := 0
	c0 := processCPU()
	for b.Loop() {
		i++
		r, err := e.Run(context.Background(), scratchProgram(i, typed)+suffix, opts)
		if err != nil {
			b.Fatal(err)
		}
		if r.Error != nil || string(r.Value) != strconv.Itoa(i+1) {
			b.Fatalf("%s %+v", r.Value, r.Error)
		}
	}
	// processor time per run (every goroutine of the process): steadier
	// than ns/op on a machine shared with other work
	if c := processCPU(); c > 0 {
		b.ReportMetric(float64(c-c0)/float64(b.N), "cpu-ns/op")
	}
}
