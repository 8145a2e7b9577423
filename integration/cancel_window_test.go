package integration_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

// These tests attack the window between the caller's context ending and
// the run seeing it: no tool handler or approver may start once the
// caller's context is done, and the run ends with the context's code
// (CANCELLED, or TIMEOUT for a deadline) whatever the scheduling. They
// count calls and compare codes; times are hang guards only.

type noArgs struct{}

// ctxTools are a tool that waits for its context (and says when it
// started) and a tool with a side effect, counting its runs.
func ctxTools(started chan struct{}, side *atomic.Int32) []modebox.Tool {
	block := modebox.MustTool("block", "waits for its context", func(ctx context.Context, _ noArgs) (string, error) {
		started <- struct{}{}
		<-ctx.Done()
		return "", ctx.Err()
	})
	sideTool := modebox.MustTool("side", "a side effect", func(ctx context.Context, _ noArgs) (string, error) {
		side.Add(1)
		return "sent", nil
	})
	return []modebox.Tool{block, sideTool}
}

// A program whose call fails because the caller cancelled goes on to call
// more tools if the run does not stop first: none may run, and the run
// ends CANCELLED, not HOST_CALL_LIMIT or TOOL_ERROR.
func TestCancelStopsFurtherCalls(t *testing.T) {
	started := make(chan struct{}, 1)
	var side atomic.Int32
	e := newEngine(t, ctxTools(started, &side)...)
	progs := []string{
		`try { await tools.block({}) } catch {} for (;;) await tools.side({})`,
		`try { await tools.block({}) } catch {} await Promise.all([tools.side({}), tools.side({})]); return 1`,
		`await tools.block({}); return 1`, // the uncaught failure of the call
	}
	for _, prog := range progs {
		codes := map[modebox.Code]int{}
		for range 60 {
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-started; cancel() }()
			r, err := e.Run(ctx, prog, modebox.RunOptions{})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if r.Error == nil {
				codes["ok"]++
			} else {
				codes[r.Error.Code]++
			}
		}
		if side.Load() != 0 || codes[modebox.CodeCancelled] != 60 {
			t.Errorf("%s: side ran %d times after cancel; codes %v (want 60 CANCELLED)", prog, side.Load(), codes)
		}
		side.Store(0)
	}
}

// A Run or Resume whose context is already done runs nothing: no handler,
// not even `return 1`, and ends CANCELLED (TIMEOUT for a deadline); the
// token of such a Resume stays usable.
func TestDoneContextRunsNothing(t *testing.T) {
	started := make(chan struct{}, 1)
	var side atomic.Int32
	pay := modebox.MustTool("pay", "needs approval", func(ctx context.Context, _ noArgs) (string, error) {
		side.Add(1)
		return "paid", nil
	})
	pay.Policy = "ask"
	tools := append(ctxTools(started, &side), pay)
	{
		e, err := modebox.New(modebox.EngineConfig{Tools: tools,
			Continuations: &modebox.Continuations{Keys: [][]byte{newKey(t)}}})
		must(t, err)
		cancelled, cancel := context.WithCancel(context.Background())
		cancel()
		expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer cancel2()
		for _, c := range []struct {
			ctx  context.Context
			code modebox.Code
		}{{cancelled, modebox.CodeCancelled}, {expired, modebox.CodeTimeout}} {
			for _, prog := range []string{`await tools.side({}); return 1`, `return 1`} {
				for range 50 {
					r, err := e.Run(c.ctx, prog, modebox.RunOptions{})
					if err != nil {
						t.Fatal(err)
					}
					if r.Error == nil || r.Error.Code != c.code {
						t.Fatalf("%s with a done context (%v): %s %s %+v, want %s", prog, c.ctx.Err(), r.Status, r.Value, r.Error, c.code)
					}
				}
			}
			if side.Load() != 0 {
				t.Fatalf("a handler ran %d times for runs with a done context", side.Load())
			}
			p := run(t, e, `return await tools.pay({})`, modebox.RunOptions{})
			if p.Status != modebox.StatusPaused {
				t.Fatalf("not paused: %+v", p)
			}
			r, err := e.Resume(c.ctx, p.Token, modebox.Decisions{Default: modebox.Approve})
			if err != nil || r.Error == nil || r.Error.Code != c.code || side.Load() != 0 {
				t.Fatalf("resume with a done context: %v %+v, pay ran %d", err, r, side.Load())
			}
			r, err = e.Resume(context.Background(), p.Token, modebox.Decisions{Default: modebox.Approve})
			if err != nil || string(r.Value) != `"paid"` {
				t.Fatalf("the token did not stay usable: %v %+v", err, r)
			}
			side.Store(0)
		}
	}
}

// An approver that ignores its context, or approves once it ended, under
// the caller's deadline: the run ends TIMEOUT (as a deadline that passes
// in a tool does), not APPROVAL_DENIED, and the tool never runs.
func TestApproverPastCallerDeadline(t *testing.T) {
	var paid atomic.Int32
	pay := modebox.MustTool("pay", "needs approval", func(ctx context.Context, _ noArgs) (string, error) {
		paid.Add(1)
		return "paid", nil
	})
	pay.Policy = "ask"
	e, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{pay}, ApprovalTimeout: time.Minute})
	must(t, err)
	block := make(chan struct{})
	defer close(block)
	approvers := map[string]modebox.Approver{
		"ignores its context": modebox.ApproverFunc(func(ctx context.Context, _ modebox.ApprovalRequest) (modebox.Decision, error) {
			<-block
			return modebox.Approve, nil
		}),
		"approves after its context": modebox.ApproverFunc(func(ctx context.Context, _ modebox.ApprovalRequest) (modebox.Decision, error) {
			<-ctx.Done()
			return modebox.Approve, nil
		}),
	}
	for name, ap := range approvers {
		for _, prog := range []string{`return await tools.pay({})`, `try { await tools.pay({}) } catch {} return await tools.pay({})`} {
			for range 10 {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
				r, err := e.Run(ctx, prog, modebox.RunOptions{Approver: ap})
				cancel()
				if err != nil || r.Error == nil || r.Error.Code != modebox.CodeTimeout {
					t.Fatalf("%s, %s: %v %s %s %+v, want TIMEOUT", name, prog, err, r.Status, r.Value, r.Error)
				}
			}
		}
	}
	if paid.Load() != 0 {
		t.Fatalf("the tool ran %d times after its approval came too late", paid.Load())
	}
}

// A deadline that passes while the run waits for a run slot is TIMEOUT,
// as in the run; a cancellation there is CANCELLED.
func TestQueueDeadlineIsTimeout(t *testing.T) {
	b := newBlocker()
	e, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{b.tool()}, MaxRuns: 1, MaxQueued: 4, QueueTimeout: time.Minute})
	must(t, err)
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(t, e, `return await tools.block()`, modebox.RunOptions{})
	}()
	<-b.entered // it holds the only slot
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	r, err := e.Run(ctx, `return 1`, modebox.RunOptions{})
	cancel()
	if err != nil || r.Error == nil || r.Error.Code != modebox.CodeTimeout || !strings.Contains(r.Error.Message, "deadline") {
		t.Fatalf("deadline in the queue: %v %+v, want TIMEOUT", err, r.Error)
	}
	ctx, cancel = context.WithCancel(context.Background())
	go func() {
		for {
			if _, q := e.InFlight(); q == 1 {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	r, err = e.Run(ctx, `return 1`, modebox.RunOptions{})
	if err != nil || r.Error == nil || r.Error.Code != modebox.CodeCancelled {
		t.Fatalf("cancelled in the queue: %v %+v, want CANCELLED", err, r.Error)
	}
	close(b.release)
	<-done
}

// Closing the image while resumes start: a resume refused with
// IMAGE_CLOSED ("nothing ran") leaves its token usable on another engine.
func TestCloseDuringResumesKeepsTokens(t *testing.T) {
	k := newKey(t)
	cont := &modebox.Continuations{Keys: [][]byte{k}, Store: modebox.DirTokenStore(t.TempDir())}
	pay := modebox.MustTool("pay", "needs approval", func(ctx context.Context, _ noArgs) (string, error) { return "paid", nil })
	pay.Policy = "ask"
	other, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{pay}, Continuations: cont})
	must(t, err)
	cache := filepath.Join(t.TempDir(), "cache")
	refused, lost, ran := 0, 0, 0
	for round := range 12 {
		im, err := modebox.LoadImage(cache)
		must(t, err)
		e, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{pay}, Image: im, Continuations: cont})
		must(t, err)
		toks := make([]string, 16)
		for i := range toks {
			toks[i] = run(t, e, `return await tools.pay({})`, modebox.RunOptions{}).Token
		}
		results := make([]*modebox.Result, len(toks))
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range toks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				results[i], _ = e.Resume(context.Background(), toks[i], modebox.Decisions{Default: modebox.Approve})
			}()
		}
		close(start)
		for range round % 4 {
			time.Sleep(time.Millisecond)
		}
		must(t, im.Close())
		wg.Wait()
		for i, r := range results {
			switch {
			case r != nil && r.Error != nil && r.Error.Code == modebox.CodeImageClosed:
				refused++
				if _, err := other.Resume(context.Background(), toks[i], modebox.Decisions{Default: modebox.Approve}); err != nil {
					lost++
					var te *modebox.TokenError
					if !errors.As(err, &te) {
						t.Errorf("resume on the other engine: %v", err)
					}
				}
			case r != nil && r.Error == nil:
				ran++
			default:
				t.Errorf("resume %d: %+v", i, r)
			}
		}
	}
	if lost > 0 {
		t.Fatalf("%d of %d resumes refused with IMAGE_CLOSED spent their token (%d ran)", lost, refused, ran)
	}
	t.Logf("%d ran, %d refused with IMAGE_CLOSED, tokens kept", ran, refused)
}

// A run that hits its memory cap ends MEMORY_LIMIT whatever its seed,
// even when reporting the error itself runs out of memory.
func TestMemoryCapAlwaysMemoryLimit(t *testing.T) {
	e := newEngine(t)
	for seed := uint64(1); seed <= 200; seed++ {
		r, err := e.Run(context.Background(), `const a=[]; for(;;) a.push("x".repeat(1000)+Math.random())`,
			modebox.RunOptions{Seed: seed, Limits: modebox.Limits{Memory: 4 << 20}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Error == nil || r.Error.Code != modebox.CodeMemoryLimit {
			t.Errorf("seed %d: %+v, want MEMORY_LIMIT", seed, r.Error)
		}
	}
}

// The observer is not called once Run has returned, even by a tool that
// outlives the run (its progress, its call's end): an embedder may close
// what it feeds once Run returns.
func TestObserverNotCalledAfterReturn(t *testing.T) {
	entered := make(chan struct{}, 4)
	finished := make(chan struct{}, 4)
	var release chan struct{}
	late := modebox.MustTool("late", "ignores its context", func(ctx context.Context, _ noArgs) (string, error) {
		rel := release
		entered <- struct{}{}
		<-rel
		modebox.ReportProgress(ctx, "late", "still here", 1, 2)
		finished <- struct{}{}
		return "x", nil
	})
	e := newEngine(t, late)
	var returned atomic.Bool
	var after atomic.Int32
	var kinds sync.Map
	for _, prog := range []string{`await tools.late({})`, `await Promise.all([tools.late({}), tools.late({})])`} {
		calls := strings.Count(prog, "tools.late")
		returned.Store(false)
		release = make(chan struct{})
		ctx, cancel := context.WithCancel(modebox.WithObserver(context.Background(), func(ev modebox.Event) {
			if returned.Load() {
				after.Add(1)
				kinds.Store(ev.Kind, true)
			}
		}))
		go func() { // cancel once every call is in its handler
			for range calls {
				<-entered
			}
			cancel()
		}()
		r, err := e.Run(ctx, prog, modebox.RunOptions{})
		returned.Store(true)
		cancel()
		if err != nil || r.Error == nil || r.Error.Code != modebox.CodeCancelled {
			t.Fatalf("%s: %v %+v", prog, err, r)
		}
		close(release)
		for range calls {
			<-finished
		}
	}
	// the call-end events come after the handlers return: give them time
	// to arrive (a hang guard, not a timed assertion: none is expected)
	time.Sleep(200 * time.Millisecond)
	if n := after.Load(); n != 0 {
		var ks []string
		kinds.Range(func(k, _ any) bool { ks = append(ks, string(k.(modebox.EventKind))); return true })
		t.Fatalf("the observer was called %d times after Run returned (%v)", n, ks)
	}
}
