package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/modebox/modebox/internal/tsx"
)

// addHost answers tools.add({a, b}) with a+b.
type addHost struct{}

func (addHost) Gate(Call, bool) Verdict { return Verdict{} }

func (addHost) Call(_ context.Context, c Call) (json.RawMessage, error) {
	var a struct{ A, B float64 }
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return nil, err
	}
	return json.Marshal(a.A + a.B)
}

var addSetup = []byte(`{"tools":[{"key":"add","path":["add"]}]}`)

func benchProgram(b *testing.B, src string, host Host) {
	deriving(b)
	e, err := Shared()
	if err != nil {
		b.Fatal(err)
	}
	p, err := tsx.Transform(src, tsx.JS)
	if err != nil {
		b.Fatal(err)
	}
	req := Request{Code: p.Code, Setup: addSetup, Host: host}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := processCPU()
	for b.Loop() {
		r := e.Run(context.Background(), req)
		if r.Err != nil {
			b.Fatal(r.Err.Code, r.Err.Message)
		}
	}
	// processor time per run (every goroutine of the process): steadier
	// than ns/op on a machine shared with other work
	if c := processCPU(); c > 0 {
		b.ReportMetric(float64(c-c0)/float64(b.N), "cpu-ns/op")
	}
}

func benchFile(b *testing.B, name string, host Host) {
	src, err := os.ReadFile(filepath.Join("..", "..", "bench", "programs", name))
	if err != nil {
		b.Fatal(err)
	}
	benchProgram(b, string(src), host)
}

// BenchmarkRunStart is a whole run of `return 1`: restore, start, result.
func BenchmarkRunStart(b *testing.B) { benchFile(b, "empty.js", nil) }

// BenchmarkRestore is the snapshot restore alone.
func BenchmarkRestore(b *testing.B) {
	e, err := Shared()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		m, err := e.restore(ctx)
		if err != nil {
			b.Fatal(err)
		}
		m.Close(ctx)
	}
}

// BenchmarkHostCalls100 makes 100 awaited host calls in sequence; divide
// by 100 for one round trip.
func BenchmarkHostCalls100(b *testing.B) { benchFile(b, "hostcalls100.js", addHost{}) }

// BenchmarkFib27 computes fib(27).
func BenchmarkFib27(b *testing.B) { benchFile(b, "fib27.js", nil) }

// BenchmarkJSON1MB parses and stringifies about 1 MB of JSON.
func BenchmarkJSON1MB(b *testing.B) { benchFile(b, "json1mb.js", nil) }

// BenchmarkData10k is bench/programs/data10k.js: 10,000 records built,
// filtered, grouped, sorted and summed.
func BenchmarkData10k(b *testing.B) { benchFile(b, "data10k.js", nil) }

// BenchmarkRunStartNoPool is BenchmarkRunStart with every run's memory
// mapped afresh and unmapped after: what the pool of zeroed mappings saves.
func BenchmarkRunStartNoPool(b *testing.B) {
	setPool(b, false)
	benchFile(b, "empty.js", nil)
}
