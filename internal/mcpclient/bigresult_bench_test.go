package mcpclient

import (
	"context"
	"testing"

	"github.com/modebox/modebox/internal/config"
)

// BenchmarkBigStdioResult is one call whose result is a 15 MiB text block
// from a stdio server ("big-result"): time (with a GC before each call),
// allocation, and the heap peak over the heap before the call (the
// largest of the ops, in MiB).
func BenchmarkBigStdioResult(b *testing.B) { benchBig(b, "big-result") }

// BenchmarkBigStdioStructuredResult is the same for 12 MiB of
// structuredContent (50,000 rows, "big-structured").
func BenchmarkBigStdioStructuredResult(b *testing.B) { benchBig(b, "big-structured") }

func benchBig(b *testing.B, mode string) {
	m := New(map[string]config.Server{"s": hostileStdio(mode)}, Options{})
	if err := m.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	if f := m.Failures(); len(f) > 0 {
		b.Fatal(f)
	}
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		var err error
		over := heapPeak(func() { _, err = m.Call(context.Background(), "s", "evil", nil) })
		if err != nil {
			b.Fatal(err)
		}
		peak = max(peak, over)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
}
