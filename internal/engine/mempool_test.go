//go:build unix

package engine

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/tetratelabs/wazero/experimental"

	"github.com/modebox/modebox/internal/tsx"
)

// TestPooledMemoryIsFresh: a run that filled its memory leaves its mapping
// in the pool, and the next run's memory, restored into that mapping, is
// byte for byte what a run restored into a brand-new memory gets. Nothing
// of the first run is left for the second to find: neither below
// poolMaxUsed, which Free clears, nor past it (a run of ~10 MB), which it
// gives back to the kernel.
func TestPooledMemoryIsFresh(t *testing.T) {
	for _, n := range []int{4000, 24000} {
		t.Run(fmt.Sprintf("strings of %d", n), func(t *testing.T) { testPooledMemoryIsFresh(t, n) })
	}
}

func testPooledMemoryIsFresh(t *testing.T, n int) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	for len(memPool) > 0 { // start from an empty pool
		(<-memPool).unmap()
	}
	p, err := tsx.Transform(fmt.Sprintf("const a = [];\nfor (let i = 0; i < 400; i++) a.push(String.fromCharCode(65 + i %% 26).repeat(%d) + i);\nreturn a.length;", n), tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	r := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup})
	if r.Err != nil || string(r.Value) != "400" {
		t.Fatalf("%s %+v", r.Value, r.Err)
	}
	if r.Stats.PeakMemory <= uint64(e.snap.pages)*pageSize {
		t.Fatalf("the run did not grow its memory (%d bytes)", r.Stats.PeakMemory)
	}
	if len(memPool) != 1 {
		t.Fatalf("the run's memory is not in the pool (%d pooled)", len(memPool))
	}
	m := <-memPool
	size := uint64(len(m.buf))
	memPool <- m

	ctx := context.Background()
	want, err := e.restore(ctx) // wazero's own memory: fresh
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close(ctx)
	got, err := e.restore(experimental.WithMemoryAllocator(ctx, newMemoryAllocator(size)))
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close(ctx)
	if len(memPool) != 0 {
		t.Fatal("the restore did not take the pooled memory")
	}
	gb, _ := got.Memory().Read(0, got.Memory().Size())
	wb, _ := want.Memory().Read(0, want.Memory().Size())
	if len(gb) != len(wb) {
		t.Fatalf("restored memory is %d bytes, want %d", len(gb), len(wb))
	}
	if !bytes.Equal(gb, wb) {
		t.Fatal("a restore into pooled memory differs from a restore into fresh memory")
	}
	// Beyond the restored size, up to what the first run reached, the
	// mapping is zero too (the next grow hands it out as new pages).
	if rest := m.buf[len(gb):r.Stats.PeakMemory]; !allZero(rest) {
		t.Fatal("pooled memory past the snapshot still holds the last run's bytes")
	}
	if big := r.Stats.PeakMemory > poolMaxUsed; big != (n > 4000) {
		t.Fatalf("the run reached %d bytes: the test wants it past poolMaxUsed (%d) only with the long strings", r.Stats.PeakMemory, poolMaxUsed)
	}
}
