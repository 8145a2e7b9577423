package integration_test

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

// 1,000 hostile runs in one engine, concurrently and mixed: every run gets
// its own outcome, goroutines do not leak and the heap stays bounded.
func TestHostileHammer(t *testing.T) {
	if testing.Short() {
		t.Skip("hammer: skipped with -short")
	}
	e := newEngine(t, addTool)
	type job struct {
		code   string
		limits modebox.Limits
		want   modebox.Code // error code, or "=value"
	}
	mixed := []job{
		{`while(true){}`, modebox.Limits{Timeout: 100 * time.Millisecond}, modebox.CodeTimeout},
		{`const a=[]; while(true) a.push(new Array(1e5).fill(1))`, modebox.Limits{Memory: 16 << 20, Timeout: 30 * time.Second}, modebox.CodeMemoryLimit}, // the timeout (the default, the most a run may ask of an engine that sets none) only guards a hang: 32 runs at once on a loaded machine took over 10 s
		{`return "x".repeat(1<<28).length`, modebox.Limits{}, modebox.CodeMemoryLimit},
		{`function f(n){return f(n+1)+1}; return f(0)`, modebox.Limits{}, modebox.CodeStackOverflow},
		{`return /(a+)+$/.test("a".repeat(40)+"b")`, modebox.Limits{Timeout: 100 * time.Millisecond}, modebox.CodeTimeout},
		{`return (3n**300000n).toString().length`, modebox.Limits{Timeout: 20 * time.Millisecond}, modebox.CodeTimeout},
		{`for (let i = 0; i < 10; i++) await tools.add({a: i, b: 1}); return 1`, modebox.Limits{MaxCalls: 3}, modebox.CodeHostCallLimit},
		{`return "x".repeat(5e6)`, modebox.Limits{MaxValue: 1 << 20}, modebox.CodeValueTooLarge},
		{`for (let i = 0; i < 1e4; i++) console.log("x".repeat(200)); return 1`, modebox.Limits{}, "=1"},
	}
	const n = 1000
	runtime.GC()
	before := runtime.NumGoroutine()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 32)
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var j job
			if i%4 == 0 {
				// a run whose value proves it got its own result
				j = job{fmt.Sprintf(`return await tools.add({a: %d, b: 1})`, i), modebox.Limits{}, modebox.Code(fmt.Sprintf("=%d", i+1))}
			} else {
				j = mixed[i%len(mixed)]
			}
			r, err := e.Run(t.Context(), j.code, modebox.RunOptions{Limits: j.limits})
			if err != nil {
				errs <- err
				return
			}
			if j.want[0] == '=' {
				if r.Error != nil || !bytes.Equal(r.Value, []byte(j.want[1:])) {
					errs <- fmt.Errorf("run %d: got %s %+v, want %s", i, r.Value, r.Error, j.want)
				}
				return
			}
			if r.Error == nil || r.Error.Code != j.want {
				errs <- fmt.Errorf("run %d (%s): got %s %+v, want %s", i, j.code, r.Value, r.Error, j.want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// runs abandoned at their deadline finish at the guest's next poll
	deadline := time.Now().Add(10 * time.Second)
	var after int
	for time.Now().Before(deadline) {
		runtime.GC()
		after = runtime.NumGoroutine()
		if after <= before+2 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if after > before+2 {
		buf := make([]byte, 1<<20)
		t.Fatalf("goroutines: %d before, %d after\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	// guest memory is mmapped per run and unmapped at its end; the Go heap
	// holds only the engine and small per-run state
	if ms.HeapInuse > 256<<20 {
		t.Fatalf("heap in use %d MiB after the hammer", ms.HeapInuse>>20)
	}
	t.Logf("goroutines %d -> %d, heap in use %d MiB, sys %d MiB", before, after, ms.HeapInuse>>20, ms.Sys>>20)
}
