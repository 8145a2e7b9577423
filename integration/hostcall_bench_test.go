package integration_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/modebox/modebox"
)

// BenchmarkHostCalls100 is a whole run of bench/programs/hostcalls100.js
// through the public API: 100 awaited calls of a Go tool with a generated
// input schema. (ns/op − BenchmarkRunEmpty) / 100 is one round trip.
func BenchmarkHostCalls100(b *testing.B) {
	benchRun(b, "let sum = 0;\nfor (let i = 0; i < 100; i++) sum += await tools.add({ a: i, b: 1 });\nreturn sum;", "5050")
}

// BenchmarkRunEmpty is a whole run of `return 1` through the public API.
func BenchmarkRunEmpty(b *testing.B) { benchRun(b, "return 1;", "1") }

// BenchmarkRunEmptyTools500 is BenchmarkRunEmpty on an engine with 500
// tools: a run starts from a snapshot with them installed (the setup is
// derived once), so it costs about what a run with one tool does.
func BenchmarkRunEmptyTools500(b *testing.B) {
	tools := []modebox.Tool{addTool}
	for i := range 499 {
		tools = append(tools, modebox.MustTool(fmt.Sprintf("tool_%d", i), "Adds two numbers.",
			func(_ context.Context, in addIn) (float64, error) { return in.A + in.B, nil }))
	}
	benchRunOn(b, newEngine(b, tools...), "return typeof tools.tool_498;", `"function"`)
}

func benchRun(b *testing.B, code, want string) { benchRunOn(b, newEngine(b, addTool), code, want) }

func benchRunOn(b *testing.B, e *modebox.Engine, code, want string) {
	opts := modebox.RunOptions{Lang: "js"}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := processCPU()
	for b.Loop() {
		r, err := e.Run(context.Background(), code, opts)
		if err != nil {
			b.Fatal(err)
		}
		if r.Error != nil || string(r.Value) != want {
			b.Fatalf("%s %+v", r.Value, r.Error)
		}
	}
	if c := processCPU(); c > c0 && b.N > 0 {
		b.ReportMetric(float64(c-c0)/float64(b.N), "cpu-ns/op")
	}
}
