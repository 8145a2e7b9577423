package mcpserver

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/pgtest"
	"github.com/modebox/modebox/pgstore"
)

// A replica whose lease lapsed while it ran a resume (PostgreSQL was
// unreachable for longer than the lease) still keeps its result: another
// replica that took the entry over got TOKEN_USED from the token's claim
// and stored that, and the first result replaces it, so that retries get
// the real result.
func TestSharedTakeoverKeepsWinnersResult(t *testing.T) {
	c := pgtest.Start(t)
	url := c.NewDatabase()
	ctx := context.Background()
	key := testKey(t)
	var servers []*Server
	var engines []*modebox.Engine
	var pgs []*pgstore.Store
	for range 3 {
		pg, eng, _ := sharedReplica(t, url, key)
		// A lease of an hour: no renewal happens during the test, the
		// lapse is made by hand.
		servers = append(servers, New(eng, Options{ApproveTool: true, Shared: &Shared{Store: pg, Keys: [][]byte{key}, Lease: time.Hour}}))
		engines, pgs = append(engines, eng), append(pgs, pg)
	}
	res, err := engines[0].Run(ctx, `return (await files.delete({path: "/once"})).deleted`, modebox.RunOptions{})
	if err != nil || res.Status != modebox.StatusPaused {
		t.Fatalf("want a pause: %v %+v", err, res)
	}
	tok := res.Token
	resume := func(s *Server) (*modebox.Result, error) {
		return s.resumes.do(ctx, tok, func(ctx context.Context) (*modebox.Result, error) {
			return s.eng.Resume(ctx, tok, modebox.Decisions{Default: modebox.Approve})
		})
	}
	var bRes *modebox.Result
	var bErr error
	first, err := servers[0].resumes.do(ctx, tok, func(ctx context.Context) (*modebox.Result, error) {
		r, err := servers[0].eng.Resume(ctx, tok, modebox.Decisions{Default: modebox.Approve})
		// A's lease lapses (PostgreSQL unreachable from A); B takes the
		// entry over, its claim says TOKEN_USED, and B stores that.
		if _, err := pgs[0].Pool().Exec(ctx, "UPDATE modebox_results SET lease_until = now() - interval '1 second'"); err != nil {
			t.Error(err)
		}
		bRes, bErr = resume(servers[1])
		return r, err
	})
	if err != nil || string(first.Value) != `"/once"` {
		t.Fatalf("first resume: %v %+v", err, first)
	}
	if te := (*modebox.TokenError)(nil); !errorsAs(bErr, &te) || te.Code != modebox.CodeTokenUsed {
		t.Fatalf("B's takeover: %v %+v, want TOKEN_USED", bErr, bRes)
	}
	for i, s := range []*Server{servers[2], servers[1]} {
		got, err := resume(s)
		if err != nil || string(got.Value) != `"/once"` {
			t.Fatalf("a retry on replica %d: %v %+v, want the first result", i+2, err, got)
		}
	}
}

func errorsAs(err error, te **modebox.TokenError) bool { return errors.As(err, te) }
