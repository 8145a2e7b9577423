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

// newModelProgram2KB is a distinct program of about 2 KB for run i written
// the way models write them: indented, with string and template literals,
// object and array literals, arrow callbacks and method calls. Its result
// is i + 1.
func newModelProgram2KB(i int) string {
	b := []byte("// task " + strconv.Itoa(i) + "\n" +
		"const items = [\n" +
		"  { id: 1, name: \"alpha\", price: 12.5, tags: [\"a\", \"b\"] },\n" +
		"  { id: 2, name: \"beta\", price: 7.25, tags: [\"b\"] },\n" +
		"  { id: 3, name: \"gamma\", price: 3, tags: [\"a\", \"c\"] },\n" +
		"];\n")
	for j := 0; len(b) < 1900; j++ {
		b = fmt.Appendf(b, "\n// step %d\n"+
			"const pick%d = (tag) => items.filter((item) => item.tags.includes(tag));\n"+
			"function summarize%d(list) {\n"+
			"  const total = list.reduce((sum, item) => sum + item.price * %d, 0);\n"+
			"  return {\n"+
			"    count: list.length,\n"+
			"    total: Math.round(total * 100) / 100,\n"+
			"    names: list.map((x) => x.name).join(\", \"),\n"+
			"  };\n"+
			"}\n"+
			"const line%d = `${\"tag %d\"}: ${summarize%d(pick%d(\"a\")).count} items`;\n",
			j, j, j, j+1, j, j, j, j)
	}
	b = fmt.Appendf(b, "\nconst base = %d;\nreturn base + 1;\n", i)
	return string(b)
}

// BenchmarkRunNewProgram2KB is a whole run of a new 2 KB program each
// time: restore, compile, run, result. Minus BenchmarkRunStart it is
// mostly the guest's parser and bytecode compiler.
func BenchmarkRunNewProgram2KB(b *testing.B) { benchNewPrograms(b, newProgram2KB) }

// BenchmarkRunNewModelProgram2KB is BenchmarkRunNewProgram2KB with
// programs written the way models write them (newModelProgram2KB).
func BenchmarkRunNewModelProgram2KB(b *testing.B) { benchNewPrograms(b, newModelProgram2KB) }

// benchNewPrograms runs gen(i) for i = 1, 2, ..., each a new program.
func benchNewPrograms(b *testing.B, gen func(int) string) {
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
		p, err := tsx.Transform(gen(i), tsx.JS)
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
