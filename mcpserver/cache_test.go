package mcpserver

import (
	"context"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

func TestResumeCache(t *testing.T) {
	ctx := context.Background()
	calls := 0
	fn := func(context.Context) (*modebox.Result, error) {
		calls++
		return &modebox.Result{Status: modebox.StatusOK}, nil
	}
	c := newResumeCache(time.Hour)
	r1, _ := c.do(ctx, "tok", fn)
	r2, _ := c.do(ctx, "tok", fn)
	if calls != 1 || r1 != r2 {
		t.Errorf("kept: %d calls, same result %v", calls, r1 == r2)
	}
	if _, _, ok := c.wait(ctx, "other"); ok {
		t.Error("wait found a token never resumed")
	}
	if r, _, ok := c.wait(ctx, "tok"); !ok || r != r1 {
		t.Error("wait did not find the resume")
	}

	// Past keep, the entry is gone (the engine would then say TOKEN_USED).
	c = newResumeCache(time.Nanosecond)
	calls = 0
	c.do(ctx, "tok", fn)
	time.Sleep(time.Millisecond)
	c.do(ctx, "tok", fn)
	if calls != 2 {
		t.Errorf("expired: %d calls, want 2", calls)
	}

	// A token that does not open is not kept.
	c = newResumeCache(time.Hour)
	calls = 0
	bad := func(context.Context) (*modebox.Result, error) {
		calls++
		return nil, &modebox.TokenError{Code: modebox.CodeTokenTampered, Message: "x"}
	}
	c.do(ctx, "bad", bad)
	c.do(ctx, "bad", bad)
	if calls != 2 {
		t.Errorf("token errors: %d calls, want 2", calls)
	}
}
