package integration_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

// blocker is a tool that holds its run until released.
type blocker struct {
	entered chan struct{}
	release chan struct{}
}

func newBlocker() *blocker {
	return &blocker{entered: make(chan struct{}, 100), release: make(chan struct{})}
}

func (b *blocker) tool() modebox.Tool {
	return modebox.Tool{Name: "block", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
		b.entered <- struct{}{}
		select {
		case <-b.release:
		case <-ctx.Done():
		}
		return 1, nil
	}}
}

func TestRunLimitQueuesAndRefuses(t *testing.T) {
	b := newBlocker()
	e, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{b.tool()}, MaxRuns: 1, MaxQueued: 1, QueueTimeout: 5 * time.Second})
	must(t, err)
	var wg sync.WaitGroup
	results := make([]*modebox.Result, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = run(t, e, `return await tools.block()`, modebox.RunOptions{})
		}()
		if i == 0 {
			<-b.entered // the first holds the slot
		}
	}
	// wait for the second to queue
	for deadline := time.Now().Add(5 * time.Second); ; {
		if _, q := e.InFlight(); q == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second run never queued")
		}
		time.Sleep(time.Millisecond)
	}
	// a third finds the queue full: refused at once, nothing ran
	r := run(t, e, `return await tools.block()`, modebox.RunOptions{})
	if r.Status != modebox.StatusError || r.Error.Code != modebox.CodeEngineBusy {
		t.Fatalf("third: %+v", r.Error)
	}
	close(b.release)
	wg.Wait()
	for i, r := range results {
		if r.Status != modebox.StatusOK || string(r.Value) != "1" {
			t.Fatalf("run %d: %s %+v", i, r.Value, r.Error)
		}
	}
	if n, q := e.InFlight(); n != 0 || q != 0 {
		t.Fatalf("left in flight: %d running, %d queued", n, q)
	}
}

func TestRunLimitQueueTimeoutAndCancel(t *testing.T) {
	b := newBlocker()
	e, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{b.tool()}, MaxRuns: 1, QueueTimeout: 50 * time.Millisecond})
	must(t, err)
	done := make(chan *modebox.Result)
	go func() { done <- run(t, e, `return await tools.block()`, modebox.RunOptions{}) }()
	<-b.entered
	start := time.Now()
	r := run(t, e, `return 1`, modebox.RunOptions{})
	if r.Error == nil || r.Error.Code != modebox.CodeEngineBusy || time.Since(start) > 2*time.Second {
		t.Fatalf("%+v after %s", r.Error, time.Since(start))
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	r, err = e.Run(ctx, `return 1`, modebox.RunOptions{})
	if err != nil || r.Error == nil || r.Error.Code != modebox.CodeCancelled {
		t.Fatalf("%v %+v", err, r.Error)
	}
	close(b.release)
	if r := <-done; r.Status != modebox.StatusOK {
		t.Fatalf("%+v", r.Error)
	}
	// no queue at all
	e2, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{b.tool()}, MaxRuns: 1, MaxQueued: -1})
	must(t, err)
	b.release = make(chan struct{})
	go func() { done <- run(t, e2, `return await tools.block()`, modebox.RunOptions{}) }()
	<-b.entered
	if r := run(t, e2, `return 1`, modebox.RunOptions{}); r.Error == nil || r.Error.Code != modebox.CodeEngineBusy {
		t.Fatalf("%+v", r.Error)
	}
	close(b.release)
	<-done
	if _, err := modebox.New(modebox.EngineConfig{MaxRuns: -1}); err == nil {
		t.Fatal("negative MaxRuns accepted")
	}
}

// A resume refused because the engine is busy keeps its token usable.
func TestBusyResumeKeepsToken(t *testing.T) {
	b := newBlocker()
	c := &counter{}
	e, err := modebox.New(modebox.EngineConfig{
		Tools:         []modebox.Tool{b.tool(), c.tool("t", "guarded", modebox.PolicyAsk)},
		Continuations: &modebox.Continuations{Keys: [][]byte{newKey(t)}},
		MaxRuns:       1, MaxQueued: -1,
	})
	must(t, err)
	r := run(t, e, `return (await t.guarded({})).tool`, modebox.RunOptions{})
	if r.Status != modebox.StatusPaused {
		t.Fatalf("%+v", r.Error)
	}
	done := make(chan *modebox.Result)
	go func() { done <- run(t, e, `return await tools.block()`, modebox.RunOptions{}) }()
	<-b.entered
	res, err := e.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
	if err != nil || res.Error == nil || res.Error.Code != modebox.CodeEngineBusy {
		t.Fatalf("busy resume: %v %+v", err, res)
	}
	close(b.release)
	<-done
	res, err = e.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
	if err != nil || res.Status != modebox.StatusOK || string(res.Value) != `"guarded"` {
		t.Fatalf("second resume: %v %+v", err, res)
	}
}
