package pgstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/pgtest"
	"github.com/modebox/modebox/pgstore"
)

// The retry-cache entries between two stores (two replicas): one takes an
// entry, the other sees it running, then done; a lapsed lease is taken
// over, a renewed one is not; only the owner finishes or abandons; Put,
// Get and Delete; GC collects expired entries.
func TestResultEntries(t *testing.T) {
	c := pgtest.Start(t)
	a, url := open(t, c)
	b, err := pgstore.Open(context.Background(), url, pgstore.Options{GCInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	key := []byte("k1")
	// The renewed lease is long enough that a loaded machine's delays
	// between renewals stay well inside it; the lapsing one is short.
	const lease, short, keep = 6 * time.Second, time.Second, time.Hour

	mine, v, err := a.Begin(ctx, key, lease, keep)
	if err != nil || !mine || v != nil {
		t.Fatalf("a takes it: %v %v %v", mine, v, err)
	}
	if mine, v, err := b.Begin(ctx, key, lease, keep); err != nil || mine || v != nil {
		t.Fatalf("b while a runs: %v %v %v", mine, v, err)
	}
	// b cannot finish or abandon a's entry.
	if err := b.Finish(ctx, key, []byte("b's"), keep); err != nil {
		t.Fatal(err)
	}
	if err := b.Abandon(ctx, key); err != nil {
		t.Fatal(err)
	}
	// a renews past its first lease: still a's.
	for range 3 {
		time.Sleep(lease * 2 / 5)
		if err := a.Renew(ctx, key, lease); err != nil {
			t.Fatal(err)
		}
	}
	if mine, _, _ := b.Begin(ctx, key, lease, keep); mine {
		t.Fatal("b took an entry whose lease a renewed")
	}
	if err := a.Finish(ctx, key, []byte("first"), keep); err != nil {
		t.Fatal(err)
	}
	if mine, v, err := b.Begin(ctx, key, lease, keep); err != nil || mine || string(v) != "first" {
		t.Fatalf("b after a finished: %v %q %v", mine, v, err)
	}

	// A lapsed lease (the owner died): taken over.
	k2 := []byte("k2")
	if mine, _, _ := a.Begin(ctx, k2, short, keep); !mine {
		t.Fatal("a did not take k2")
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		mine, _, err := b.Begin(ctx, k2, short, keep)
		if err != nil {
			t.Fatal(err)
		}
		if mine {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b never took over a lapsed lease")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// a's late finish does not overwrite b's entry.
	if err := a.Finish(ctx, k2, []byte("late"), keep); err != nil {
		t.Fatal(err)
	}
	if err := b.Finish(ctx, k2, []byte("b"), keep); err != nil {
		t.Fatal(err)
	}
	if v, _ := a.Get(ctx, k2); string(v) != "b" {
		t.Fatalf("k2 = %q, want b's", v)
	}

	// Abandon by the owner frees the entry at once.
	k3 := []byte("k3")
	a.Begin(ctx, k3, lease, keep)
	if err := a.Abandon(ctx, k3); err != nil {
		t.Fatal(err)
	}
	if mine, _, _ := b.Begin(ctx, k3, lease, keep); !mine {
		t.Fatal("an abandoned entry was not free")
	}

	// Put, Get, Delete; an expired entry is gone for Get and collected.
	if err := a.Put(ctx, []byte("p"), []byte("v"), keep); err != nil {
		t.Fatal(err)
	}
	if v, _ := b.Get(ctx, []byte("p")); string(v) != "v" {
		t.Fatalf("Get = %q", v)
	}
	if err := b.Delete(ctx, []byte("p")); err != nil {
		t.Fatal(err)
	}
	if v, _ := a.Get(ctx, []byte("p")); v != nil {
		t.Fatalf("after Delete: %q", v)
	}
	if err := a.Put(ctx, []byte("old"), []byte("v"), time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if v, _ := a.Get(ctx, []byte("old")); v != nil {
		t.Fatalf("an expired entry: %q", v)
	}
	if n, err := a.GC(ctx, time.Now().Add(2*time.Minute)); err != nil || n < 1 {
		t.Fatalf("GC removed %d (%v)", n, err)
	}
}
