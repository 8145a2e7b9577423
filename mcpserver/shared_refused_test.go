package mcpserver

import (
	"context"
	"testing"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/pgtest"
)

// A resume refused with nothing run (ENGINE_BUSY, IMAGE_CLOSED) is not
// kept as the resume's outcome, in this process or in the shared store:
// a retry, here or on another replica, runs the resume.
func TestSharedRefusedResumeNotKept(t *testing.T) {
	c := pgtest.Start(t)
	url := c.NewDatabase()
	ctx := context.Background()
	key := testKey(t)
	var servers []*Server
	var engines []*modebox.Engine
	for _, shared := range []bool{true, true, false} {
		pg, eng, _ := sharedReplica(t, url, key)
		opts := Options{ApproveTool: true}
		if shared {
			opts.Shared = &Shared{Store: pg, Keys: [][]byte{key}}
		}
		engines = append(engines, eng)
		servers = append(servers, New(eng, opts))
	}
	for _, code := range []modebox.Code{modebox.CodeEngineBusy, modebox.CodeImageClosed} {
		for i, first := range []*Server{servers[0], servers[2]} {
			res, err := engines[0].Run(ctx, `return (await files.delete({path: "/once"})).deleted`, modebox.RunOptions{})
			if err != nil || res.Status != modebox.StatusPaused {
				t.Fatalf("want a pause: %v %+v", err, res)
			}
			tok := res.Token
			refused, err := first.resumes.do(ctx, tok, func(context.Context) (*modebox.Result, error) {
				return &modebox.Result{Status: modebox.StatusError, Error: &modebox.Error{Code: code, Message: "nothing ran"}}, nil
			})
			if err != nil || refused.Error == nil || refused.Error.Code != code {
				t.Fatalf("refused resume: %v %+v", err, refused)
			}
			// The retry: on the same server, then (shared) on another.
			retries := []*Server{first}
			if i == 0 {
				retries = append(retries, servers[1])
			}
			for j, s := range retries {
				got, err := s.resumes.do(ctx, tok, func(ctx context.Context) (*modebox.Result, error) {
					return s.eng.Resume(ctx, tok, modebox.Decisions{Default: modebox.Approve})
				})
				if err != nil || got.Status != modebox.StatusOK || string(got.Value) != `"/once"` {
					t.Fatalf("%s, server %d, retry %d after a refusal: %v %+v", code, i, j, err, got)
				}
			}
		}
	}
}
