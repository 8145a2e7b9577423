package pgstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/pgtest"
	"github.com/modebox/modebox/pgstore"
)

// A PostgreSQL that does not answer (here: the retry cache's table
// locked by another session) makes every retry-cache statement fail
// with CodeUnavailable within ClaimTimeout, even under a context without
// a deadline, instead of waiting for ever.
func TestResultsBoundedWhenHung(t *testing.T) {
	c := pgtest.Start(t)
	url := c.NewDatabase()
	ctx := context.Background()
	s, err := pgstore.Open(ctx, url, pgstore.Options{GCInterval: -1, ClaimTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	locker, err := pgstore.Open(ctx, url, pgstore.Options{GCInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(locker.Close)
	tx, err := locker.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "LOCK TABLE modebox_results IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	key, val := []byte("k"), []byte("v")
	ops := map[string]func() error{
		"Begin":   func() error { _, _, err := s.Begin(ctx, key, time.Minute, time.Minute); return err },
		"Renew":   func() error { return s.Renew(ctx, key, time.Minute) },
		"Finish":  func() error { return s.Finish(ctx, key, val, time.Minute) },
		"Abandon": func() error { return s.Abandon(ctx, key) },
		"Put":     func() error { return s.Put(ctx, key, val, time.Minute) },
		"Get":     func() error { _, err := s.Get(ctx, key); return err },
		"Delete":  func() error { return s.Delete(ctx, key) },
	}
	for name, op := range ops {
		done := make(chan error, 1)
		go func() { done <- op() }()
		select {
		case err := <-done:
			if pgstore.CodeOf(err) != pgstore.CodeUnavailable {
				t.Errorf("%s while PostgreSQL is hung: %v, want %s", name, err, pgstore.CodeUnavailable)
			}
		case <-time.After(2 * time.Minute): // far past the 300ms bound: only a missing bound gets here
			t.Fatalf("%s while PostgreSQL is hung did not return", name)
		}
	}
}
