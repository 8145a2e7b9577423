package engine

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/guest"
	"github.com/modebox/modebox/internal/tsx"
)

// osPageSize is the unit a copy-on-write mapping of the snapshot copies.
const osPageSize = 4096

// liveProgram is the program of bench/peers-go's memory-per-live-run row.
const liveProgram = "const r = await tools.add({ a: 1, b: 2 });\nreturn r + 1;\n"

// dirtiedPages runs src until it waits in its host call, then counts the
// 4 KiB pages of the run's memory whose contents differ from the
// snapshot's: the pages a run mapping the snapshot copy-on-write has had
// to copy (at least; a page written back to its old bytes is copied too).
func dirtiedPages(t *testing.T, e *Engine, src string) int {
	t.Helper()
	prog, err := tsx.Transform(src, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range takeIdle(e) { // a new instance: restored from the snapshot
		in.mod.Close(context.Background())
	}
	got := make(chan *instance, 1)
	acquiredHook = func(in *instance) { got <- in }
	defer func() { acquiredHook = nil }()
	h := blockHost{entered: make(chan struct{}), release: make(chan struct{})}
	done := make(chan *Result)
	go func() {
		done <- e.Run(context.Background(), Request{Code: prog.Code, Setup: addSetup, Host: h})
	}()
	var in *instance
	select {
	case in = <-got:
	case r := <-done:
		t.Fatalf("the run ended before its call: %s %+v", r.Value, r.Err)
	}
	select {
	case <-h.entered: // the guest is back in the host, waiting for the call
	case r := <-done:
		t.Fatalf("the run ended before its call: %s %+v", r.Value, r.Err)
	}
	buf, _ := in.mod.Memory().Read(0, in.mod.Memory().Size())
	snap := make([]byte, e.snap.pages*pageSize)
	for _, c := range e.snap.image {
		copy(snap[c.off:], c.data)
	}
	if len(buf) != len(snap) {
		t.Fatalf("the run's memory is %d bytes, the snapshot %d: it grew", len(buf), len(snap))
	}
	n := 0
	for p := 0; p < len(snap); p += osPageSize {
		if !bytes.Equal(buf[p:p+osPageSize], snap[p:p+osPageSize]) {
			n++
		}
	}
	close(h.release)
	if r := <-done; r.Err != nil || string(r.Value) != "6" {
		t.Fatalf("%s %+v", r.Value, r.Err)
	}
	return n
}

// maxDirtiedPages bounds the snapshot pages a small run writes (30 measured;
// 58 before the heap's free chunks were plugged at init, see glue.c).
const maxDirtiedPages = 40

// TestSmallRunDirtiesFewPages: a small run waiting in a host call (the
// memory-per-live-run row's program) has written at most maxDirtiedPages
// of the snapshot's 4 KiB pages, counted from memory contents, because its
// allocations come from a few contiguous pages (glue.c: plug_holes) and it
// does not write to the snapshot's atoms (patch zm1). A program that names
// hundreds of the prelude's identifiers writes few more pages than that:
// parsing it references their atoms without counting them.
func TestSmallRunDirtiesFewPages(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	small := dirtiedPages(t, e, liveProgram)
	t.Logf("a small run dirtied %d of the snapshot's %d pages of 4 KiB", small, e.snap.pages*pageSize/osPageSize)
	if small > maxDirtiedPages {
		t.Errorf("a small run dirtied %d pages of the snapshot, want at most %d", small, maxDirtiedPages)
	}

	names := preludeNames(400)
	var b strings.Builder
	b.WriteString("function unused(o) {\n  return [")
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "o.%s", n)
	}
	b.WriteString("];\n}\n")
	b.WriteString(liveProgram)
	withNames := dirtiedPages(t, e, b.String())
	t.Logf("naming %d of the prelude's identifiers: %d pages", len(names), withNames)
	if withNames > small+24 { // 16 more measured (new atoms, a bigger program); 54 more without zm1

		t.Errorf("a run naming %d of the prelude's identifiers dirtied %d pages, the small run %d: parsing writes to the snapshot's atoms", len(names), withNames, small)
	}
}

// preludeNames returns up to n distinct identifiers of the prelude's
// source, longest first (so that they are not QuickJS's built-in atoms).
func preludeNames(n int) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]{7,}\b`).FindAllString(guest.Prelude, -1) {
		if !seen[m] && len(out) < n {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// TestPlugsGivenBack: a run that needs more than the top of the heap and
// the big free blocks hold gets the plugged chunks back before its memory
// grows (glue.c: heap_room), so it fits in the snapshot's pages as it did
// before they were plugged (and its instance can be reused).
func TestPlugsGivenBack(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	// 800 objects with strings of 60 to 260 bytes, kept live: more than
	// the top (~31 KB) and the prelude's freed buffer (~108 KB) hold, not
	// more than those and the plugged chunks (~230 KB). Measured: without
	// heap_room's unplug, 600 already grow the memory; with it (and before
	// plugging), 800 do not and 1000 do.
	p, err := tsx.Transform(`const a = [];
for (let i = 0; i < 800; i++) a.push({i, s: "x".repeat(60 + i % 200) + i});
return a.length;`, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	r := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup})
	if r.Err != nil || string(r.Value) != "800" {
		t.Fatalf("%s %+v", r.Value, r.Err)
	}
	if want := uint64(e.snap.pages) * pageSize; r.Stats.PeakMemory != want {
		t.Fatalf("the run grew its memory to %d bytes (the snapshot's %d): the plugged chunks were not given back", r.Stats.PeakMemory, want)
	}
}
