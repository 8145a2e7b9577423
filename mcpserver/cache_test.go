package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
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

// bigArgs is one buffer shared by every entry of the byte-bound tests:
// the stores count the bytes each entry holds, and the test's own memory
// stays small. 3.5 MB is the red team's fetch body, which a compressed
// continuation token carries under its 1 MiB cap.
var bigArgs = make(json.RawMessage, 3_500_000)

// heldBytes is what an ask holds, counted from its calls as they are.
func heldBytes(calls []modebox.PendingCall) int {
	n := 0
	for _, c := range calls {
		n += len(c.Args) + len(c.Tool) + len(c.Reason)
	}
	return n
}

// Paused runs' asks are bounded by bytes as well as by count: 600 pauses
// that each hold 3.5 MB of arguments (2.1 GB, once the red team's 4.35
// GB of RSS) keep at most maxStoreBytes, the oldest going first; the
// newest is always kept, so its retry finds it.
func TestAskStoreBytes(t *testing.T) {
	ctx := context.Background()
	s := newAskStore(time.Hour)
	rng := rand.New(rand.NewPCG(1, 2))
	var order []string
	for i := range 600 {
		args := bigArgs
		if i%3 == 1 { // other sizes too, up to bigArgs
			args = bigArgs[:rng.IntN(len(bigArgs))]
		}
		tok := fmt.Sprintf("token-%d", i)
		order = append(order, tok)
		s.put(tok, &ask{calls: []modebox.PendingCall{{ID: 1, Tool: "fetch", Args: args, Reason: "policy ask"}}})
		if s.get(ctx, tok) == nil {
			t.Fatalf("put %d: the newest ask is not kept", i)
		}
		s.mu.Lock()
		held, kept := 0, len(s.m)
		for _, a := range s.m {
			held += heldBytes(a.calls)
		}
		s.mu.Unlock()
		if held > maxStoreBytes || kept > maxEntries {
			t.Fatalf("put %d: %d asks hold %d bytes, more than the %d kept", i, kept, held, maxStoreBytes)
		}
		// the oldest go first: what is kept is the newest ones, in a row
		for j, tok := range order {
			if want := j >= len(order)-kept; (s.get(ctx, tok) != nil) != want {
				t.Fatalf("put %d: ask %d kept %v, want %v (%d kept)", i, j, !want, want, kept)
			}
		}
	}
	// Small asks are still bounded by count.
	s = newAskStore(time.Hour)
	for i := range maxEntries + 10 {
		s.put(fmt.Sprint(i), &ask{calls: []modebox.PendingCall{{ID: 1, Tool: "t", Args: json.RawMessage(`{}`)}}})
	}
	if n := len(s.m); n != maxEntries || s.get(ctx, "0") != nil || s.get(ctx, fmt.Sprint(maxEntries+9)) == nil {
		t.Errorf("%d small asks kept, want %d, the newest", n, maxEntries)
	}
}

// The first results of resumes are bounded by bytes too, without their
// journal; a result larger than the whole bound is not kept.
func TestResumeCacheBytes(t *testing.T) {
	ctx := context.Background()
	c := newResumeCache(time.Hour)
	held := func() (int, int) {
		c.mu.Lock()
		defer c.mu.Unlock()
		n := 0
		for _, e := range c.m {
			if e.res != nil {
				n += len(e.res.Value) + len(e.res.Token) + heldBytes(e.res.Pending)
				if e.res.Journal != nil {
					t.Fatal("a kept result holds its journal (the retry does not need it)")
				}
			}
		}
		return n, len(c.m)
	}
	for i := range 100 {
		tok := fmt.Sprintf("token-%d", i)
		res := &modebox.Result{Status: modebox.StatusPaused, Value: bigArgs, Token: string(bigArgs[:1000]),
			Pending: []modebox.PendingCall{{ID: 1, Tool: "fetch", Args: bigArgs}}, Journal: &modebox.Journal{}}
		got, _ := c.do(ctx, tok, func(context.Context) (*modebox.Result, error) { return res, nil })
		if got != res {
			t.Fatal("do did not return the resume's result")
		}
		if again, _, ok := c.wait(ctx, tok); !ok || len(again.Value) != len(bigArgs) || len(again.Pending) != 1 || again.Token != res.Token {
			t.Fatalf("resume %d: the newest result is not kept whole", i)
		}
		if n, kept := held(); n > maxStoreBytes {
			t.Fatalf("resume %d: %d results hold %d bytes, more than the %d kept", i, kept, n, maxStoreBytes)
		}
	}
	huge := &modebox.Result{Status: modebox.StatusOK, Value: make(json.RawMessage, maxStoreBytes+1)}
	c.do(ctx, "huge", func(context.Context) (*modebox.Result, error) { return huge, nil })
	if _, _, ok := c.wait(ctx, "huge"); ok {
		t.Error("a result larger than the bound was kept")
	}
}

// Approval pages are bounded by bytes too: decided and closed pages go
// first, oldest first; a pending page that has to go is closed, so that
// nothing waits on it.
func TestPageStoreBytes(t *testing.T) {
	s := newPageStore()
	exp := time.Now().Add(time.Hour)
	calls := []pageCall{{ID: 1, Tool: "fetch", Args: bigArgs}}
	held := func() int {
		s.mu.Lock()
		defer s.mu.Unlock()
		n := 0
		for _, p := range s.m {
			for _, c := range p.calls {
				n += len(c.Args) + len(c.Tool) + len(c.Reason)
			}
		}
		return n
	}
	pending := s.create(calls, exp) // a person may still decide on this one
	var all []*approvalPage
	for i := range 200 {
		p := s.create(calls, exp)
		all = append(all, p)
		if i%2 == 0 {
			s.close(p, "test")
		}
		if n := held(); n > maxStoreBytes {
			t.Fatalf("page %d: pages hold %d bytes, more than the %d kept", i, n, maxStoreBytes)
		}
		if _, st := s.lookup(p.id); st != linkOpen && i%2 == 1 {
			t.Fatalf("page %d: the newest page is %v", i, st)
		}
	}
	// The first pending page went once only pending pages were left to drop: it is closed.
	select {
	case <-pending.done:
	default:
		t.Fatal("a pending page was dropped without being closed")
	}
	if _, st := s.lookup(pending.id); st == linkOpen {
		t.Errorf("the dropped pending page is still open")
	}
	// Of the pages kept, none closed is newer than a dropped pending one:
	// closed pages go first.
	kept := map[*approvalPage]bool{}
	s.mu.Lock()
	for _, p := range s.m {
		kept[p] = true
	}
	s.mu.Unlock()
	for _, p := range all {
		if kept[p] && p.note == "test" {
			t.Errorf("a closed page was kept while pending ones went")
			break
		}
	}
}
