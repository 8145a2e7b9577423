package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/tsx"
)

// BenchmarkRunStartLatency is BenchmarkRunStart for a caller that does
// something else between runs (here: 200 µs of its own work, a spin, so
// that it holds a processor as a caller's work does): run-ns/op is how long
// Run takes to return, the run's latency, which is what the caller waits
// for; the time between runs is not counted. The instance's reset after a
// run is not on that path (instance.go: beginRelease, endRelease).
func BenchmarkRunStartLatency(b *testing.B) { benchLatency(b, "empty.js", false) }

// BenchmarkRunNewProgram2KBLatency is BenchmarkRunStartLatency with a new
// 2 KB program each run (BenchmarkRunNewProgram2KB's).
func BenchmarkRunNewProgram2KBLatency(b *testing.B) { benchLatency(b, "", true) }

func benchLatency(b *testing.B, name string, fresh bool) {
	deriving(b)
	e, err := Shared()
	if err != nil {
		b.Fatal(err)
	}
	src := ""
	if name != "" {
		s, err := os.ReadFile(filepath.Join("..", "..", "bench", "programs", name))
		if err != nil {
			b.Fatal(err)
		}
		src = string(s)
	}
	var in time.Duration
	i := 0
	for b.Loop() {
		i++
		if fresh {
			src = newProgram2KB(i)
		}
		p, err := tsx.Transform(src, tsx.JS)
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		r := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup})
		in += time.Since(t0)
		if r.Err != nil {
			b.Fatal(r.Err.Code, r.Err.Message)
		}
		for t1 := time.Now(); time.Since(t1) < 200*time.Microsecond; {
		}
	}
	b.ReportMetric(float64(in.Nanoseconds())/float64(b.N), "run-ns/op")
}
