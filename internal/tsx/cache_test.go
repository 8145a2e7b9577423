package tsx

import (
	"fmt"
	"sync"
	"testing"
)

func TestLRU(t *testing.T) {
	c := newLRU(2, 1<<30)
	k := func(s string) cacheKey { return keyFor(JS, true, s) }
	a, b, d := &Program{Code: "a"}, &Program{Code: "b"}, &Program{Code: "d"}
	c.add(k("a"), a)
	c.add(k("b"), b)
	if p, ok := c.get(k("a")); !ok || p != a { // a is now the most recent
		t.Fatal("a missing")
	}
	c.add(k("d"), d) // evicts b
	if _, ok := c.get(k("b")); ok {
		t.Error("b not evicted")
	}
	if p, ok := c.get(k("a")); !ok || p != a {
		t.Error("a evicted")
	}
	if p, ok := c.get(k("d")); !ok || p != d {
		t.Error("d missing")
	}
	c.add(k("d"), a) // replacing keeps the size
	if p, _ := c.get(k("d")); p != a || c.len() != 2 {
		t.Errorf("replace: len %d", c.len())
	}
	if keyFor(JS, true, "x") == keyFor(TS, true, "x") || keyFor(JS, true, "x") == keyFor(JS, false, "x") {
		t.Error("language not part of the key")
	}
}

func TestTransformCached(t *testing.T) {
	src := "const a: number = 1;\nreturn a; // cached"
	p1, err := Transform(src, TS)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := Transform(src, TS)
	if err != nil {
		t.Fatal(err)
	}
	if p1 != p2 {
		t.Error("second Transform did not hit the cache")
	}
	// The same text as JavaScript is a different program (and an error).
	if _, err := TransformFull(src, JS); err == nil {
		t.Error("TS source compiled as JS")
	}
	// Errors are not cached, and come back the same each time.
	for i := 0; i < 2; i++ {
		if _, err := TransformFull("let x y", JS); err == nil || err.Error() != `main.js:1:7: Expected ";" but found "y"` {
			t.Errorf("attempt %d: %v", i, err)
		}
	}
}

// TestTransformConcurrent compiles overlapping programs from many
// goroutines; run it with -race.
func TestTransformConcurrent(t *testing.T) {
	const workers, programsPerWorker, distinct = 8, 40, 300
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < programsPerWorker; i++ {
				n := (w*7 + i*13) % distinct
				src := fmt.Sprintf("const n: number = %d;\nif (n < 0) throw new Error('neg');\nreturn n * 2;", n)
				p, err := Transform(src, TS)
				if err != nil {
					errs <- err
					return
				}
				if l, _, ok := p.Original(3, 0); !ok || l != 2 {
					errs <- fmt.Errorf("program %d: line 3 maps to %d, %v\n%s", n, l, ok, p.Code)
					return
				}
				_ = p.RewriteStack("at f (main.js:3)", "main.js")
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := programs.len(); n > cacheSize {
		t.Errorf("cache holds %d programs, more than %d", n, cacheSize)
	}
}

// TestLRUBytes: the cache holds at most its byte budget, counting the
// source maps made for errors since a program was added; a program of
// over an eighth of the budget is not kept. Bounded by count alone, 256
// programs of 4 MiB and their maps held ~25 GB after their runs.
func TestLRUBytes(t *testing.T) {
	c := newLRU(100, 1000)
	k := func(i int) cacheKey { return keyFor(JS, true, fmt.Sprint(i)) }
	total := func() (n int64) {
		c.mu.Lock()
		defer c.mu.Unlock()
		for el := c.order.Front(); el != nil; el = el.Next() {
			n += el.Value.(*lruEntry).p.size()
		}
		return n
	}
	big := &Program{Code: string(make([]byte, 126))}
	c.add(k(0), big)
	if c.len() != 0 {
		t.Fatal("a program over an eighth of the budget was kept")
	}
	for i := range 30 {
		c.add(k(i), &Program{Code: string(make([]byte, 100))})
	}
	if n := total(); n > 1000 || c.len() != 10 {
		t.Fatalf("%d programs, %d bytes", c.len(), n)
	}
	// a source map made for a cached program counts at the next add
	p, _ := c.get(k(29))
	p.mapBytes.Store(500)
	c.add(k(30), &Program{Code: string(make([]byte, 100))})
	if n := total(); n > 1000 {
		t.Fatalf("%d bytes after a map grew", n)
	}
	if _, ok := c.get(k(29)); !ok {
		t.Error("the most recently used program was evicted")
	}
}

// TestSourceMapCounted: a program's size grows by its source map once an
// error's position needs it.
func TestSourceMapCounted(t *testing.T) {
	p, err := TransformFull("class A {}\nlet x = 1;\nthrow new Error('x')", JS)
	if err != nil {
		t.Fatal(err)
	}
	before := p.size()
	p.Original(3, 0)
	if p.mapBytes.Load() == 0 || p.size() <= before {
		t.Fatalf("size %d then %d", before, p.size())
	}
}
