package pgstore_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/pgtest"
	"github.com/modebox/modebox/internal/seal"
	"github.com/modebox/modebox/pgstore"
)

// A replica whose clock runs ahead collects nothing the database's clock
// does not call expired: a token resumed once does not resume again on
// another replica after the fast replica's collection.
func TestSkewedGCKeepsUsedToken(t *testing.T) {
	c := pgtest.Start(t)
	url := c.NewDatabase()
	ctx := context.Background()
	var calls atomic.Int64
	pay, err := modebox.NewTool("pay", "sends money", func(ctx context.Context, in struct{ N int }) (int, error) {
		calls.Add(1)
		return in.N, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pay.Policy = modebox.PolicyAsk
	keys := [][]byte{make([]byte, 32)}
	newReplica := func() (*modebox.Engine, *pgstore.Store) {
		pg, err := pgstore.Open(ctx, url, pgstore.Options{GCInterval: -1})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pg.Close)
		eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{pay},
			Continuations: &modebox.Continuations{Keys: keys, Store: pg, TTL: 10 * time.Minute}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { eng.Close() })
		return eng, pg
	}
	a, _ := newReplica()
	b, _ := newReplica()
	_, fast := newReplica() // its clock 12 minutes ahead

	res, err := a.Run(ctx, `return await tools.pay({N: 1})`, modebox.RunOptions{})
	if err != nil || res.Status != modebox.StatusPaused {
		t.Fatalf("run: %v %+v", err, res)
	}
	r1, err := b.Resume(ctx, res.Token, modebox.Decisions{Default: modebox.Approve})
	if err != nil || r1.Status != modebox.StatusOK {
		t.Fatalf("first resume: %v %+v", err, r1)
	}
	if _, err := fast.GC(ctx, time.Now().Add(12*time.Minute)); err != nil {
		t.Fatal(err)
	}
	r2, err := a.Resume(ctx, res.Token, modebox.Decisions{Default: modebox.Approve})
	if err == nil {
		t.Fatalf("second resume of one token ran: status %s; the approved call ran %d times", r2.Status, calls.Load())
	}
	if te := (*modebox.TokenError)(nil); !errors.As(err, &te) || te.Code != modebox.CodeTokenUsed {
		t.Fatalf("second resume: %v, want TOKEN_USED", err)
	}
}

// A replica whose clock runs behind cannot claim a token the database's
// clock says expired more than the skew allowance ago: its record may
// have been collected, so the claim could succeed a second time.
func TestSlowClockClaimOfExpiredToken(t *testing.T) {
	c := pgtest.Start(t)
	s, _ := open(t, c)
	err := s.Claim("0123456789abcdef0123456789abcdef", time.Now().Add(-3*time.Minute))
	if seal.CodeOf(err) != modebox.CodeTokenExpired {
		t.Fatalf("claim of a token expired 3 minutes ago by the database's clock: %v, want TOKEN_EXPIRED", err)
	}
	// Within the allowance it is claimed, once.
	id := "0123456789abcdef0123456789abcde0"
	if err := s.Claim(id, time.Now().Add(-10*time.Second)); err != nil {
		t.Fatalf("claim within the skew allowance: %v", err)
	}
	if err := s.Claim(id, time.Now().Add(-10*time.Second)); seal.CodeOf(err) != modebox.CodeTokenUsed {
		t.Fatalf("second claim: %v", err)
	}
	// A collection, whatever time it is given, removes only records the
	// database's clock calls expired past the allowance.
	if n, err := s.GC(context.Background(), time.Now().Add(time.Hour)); err != nil || n != 0 {
		t.Fatalf("GC with a clock an hour ahead removed %d (%v), want 0", n, err)
	}
}
