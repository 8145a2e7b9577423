package engine

import (
	"context"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/guest"
	"github.com/modebox/modebox/internal/tsx"
)

// BenchmarkImageAB compares two engine images in one process, so that the
// machine's swings in speed fall on both alike. MODEBOX_AB_A and
// MODEBOX_AB_B name the images (internal/guest/build.sh outputs); either
// unset is the embedded image, so with neither set the benchmark measures
// its own noise. The program is bench/programs/$MODEBOX_AB_PROGRAM.js, or,
// when that is "new" or unset, a distinct 2 KB program each run
// (newProgram2KB), or with "newmodel" one written the way models write
// them (newModelProgram2KB); runs have the add tool of
// BenchmarkHostCalls100.
// Batches of runs (~30 ms each) alternate between the two engines, A
// first in even rounds and B first in odd ones, 40 rounds; it reports
// each image's median time per run and the median of the rounds' B/A
// ratios. b.N is not used: run it with -benchtime 1x. With
// MODEBOX_AB_DERIVE set, A's runs install their setup at every run and B's
// run on a derived engine (setup.go): with neither image set, that
// compares the two on the embedded image.
//
//	MODEBOX_AB_A=/tmp/a.wasm MODEBOX_AB_B=/tmp/b.wasm MODEBOX_AB_PROGRAM=new \
//	  go test -run '^$' -bench BenchmarkImageAB -benchtime 1x ./internal/engine/
//	MODEBOX_AB_DERIVE=1 MODEBOX_AB_PROGRAM=empty \
//	  go test -run '^$' -bench BenchmarkImageAB -benchtime 1x ./internal/engine/
func BenchmarkImageAB(b *testing.B) {
	fa, fb, prog := os.Getenv("MODEBOX_AB_A"), os.Getenv("MODEBOX_AB_B"), os.Getenv("MODEBOX_AB_PROGRAM")
	if prog == "" {
		prog = "new"
	}
	deriving(b)
	saved := guest.Wasm
	defer func() { guest.Wasm = saved }()
	load := func(f string) *Engine {
		img := saved // unset: the embedded image (the benchmark's own noise)
		if f != "" {
			var err error
			if img, err = os.ReadFile(f); err != nil {
				b.Fatal(err)
			}
		}
		guest.Wasm = img
		e, err := Load(context.Background(), b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { e.Close() })
		return e
	}
	ea, eb := load(fa), load(fb)
	var src string
	newProg := map[string]func(int) string{"new": newProgram2KB, "newmodel": newModelProgram2KB}[prog]
	if newProg == nil {
		s, err := os.ReadFile("../../bench/programs/" + prog + ".js")
		if err != nil {
			b.Fatal(err)
		}
		src = string(s)
	}
	i := 0
	run := func(e *Engine) time.Duration {
		i++
		code := src
		if newProg != nil {
			code = newProg(i)
		}
		p, err := tsx.Transform(code, tsx.JS)
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		r := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Host: addHost{}})
		d := time.Since(t0)
		if r.Err != nil {
			b.Fatal(r.Err.Code, r.Err.Message)
		}
		if newProg != nil && string(r.Value) != strconv.Itoa(i+1) {
			b.Fatalf("run %d returned %s", i, r.Value)
		}
		return d
	}
	// a batch takes ~30 ms: long enough to time, short enough that the
	// machine's speed holds for the two batches of a round
	// (timed from 10 warm-up runs of each: a single run may be a slow one)
	// MODEBOX_AB_DERIVE set: A's runs install their setup, B's run on
	// B's derived engine (setup.go), so that one image compares the two
	// (the flag deriveSetups is set for each batch)
	deriveAB := os.Getenv("MODEBOX_AB_DERIVE") != ""
	use := func(e *Engine) {
		if deriveAB {
			deriveSetups.Store(e == eb)
		}
	}
	var wa, wb time.Duration
	for range 10 {
		use(ea)
		wa += run(ea)
		use(eb)
		wb += run(eb)
	}
	if deriveAB {
		for deadline := time.Now().Add(time.Minute); eb.forSetup(addSetup) == nil; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatal("B's setup was not derived within a minute")
			}
		}
	}
	batch, rounds := 1, 40
	if d := min(wa, wb) / 10; d < 30*time.Millisecond {
		batch = int(30*time.Millisecond/d) + 1
	}
	batchOf := func(e *Engine) time.Duration {
		use(e)
		var d time.Duration
		for range batch {
			d += run(e)
		}
		return d
	}
	var da, db, ratio []float64
	for round := range rounds {
		var sa, sb time.Duration
		if round%2 == 0 {
			sa = batchOf(ea)
			sb = batchOf(eb)
		} else {
			sb = batchOf(eb)
			sa = batchOf(ea)
		}
		da = append(da, float64(sa)/float64(batch)/1e3)
		db = append(db, float64(sb)/float64(batch)/1e3)
		ratio = append(ratio, float64(sb)/float64(sa))
	}
	median := func(x []float64) float64 {
		x = slices.Clone(x)
		slices.Sort(x)
		return x[len(x)/2]
	}
	b.ReportMetric(median(da), "A-µs/run")
	b.ReportMetric(median(db), "B-µs/run")
	b.ReportMetric(median(ratio), "B/A")
}
