package integration_test

import (
	"context"
	"errors"
	"sort"
	"sync"
	"testing"

	"github.com/modebox/modebox"
)

// TestObserver checks that WithObserver reports console lines and each
// tool call's start and end, with the end's outcome and code.
func TestObserver(t *testing.T) {
	ok := modebox.MustTool("ok", "Succeeds.", func(ctx context.Context, in struct{}) (int, error) { return 1, nil })
	bad := modebox.MustTool("bad", "Fails.", func(ctx context.Context, in struct{}) (int, error) { return 0, errors.New("no") })
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{ok, bad}})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var evs []modebox.Event
	ctx := modebox.WithObserver(context.Background(), func(ev modebox.Event) {
		mu.Lock()
		defer mu.Unlock()
		evs = append(evs, ev)
	})
	res, err := eng.Run(ctx, `console.log("a"); await tools.ok({}); try { await tools.bad({}) } catch {} ; console.error("b"); return 2`, modebox.RunOptions{})
	if err != nil || res.Error != nil {
		t.Fatal(err, res.Error)
	}
	mu.Lock()
	defer mu.Unlock()
	var kinds []string
	for _, ev := range evs {
		s := string(ev.Kind) + " " + ev.Tool + ev.Message
		if ev.Kind == modebox.EventCallEnd {
			if ev.OK {
				s += " ok"
			} else {
				s += " " + string(ev.Code)
			}
		}
		kinds = append(kinds, s)
	}
	want := []string{"log a", "call-start ok", "call-end ok ok", "call-start bad", "call-end bad TOOL_ERROR", "log b"}
	if len(kinds) != len(want) {
		t.Fatalf("events %q, want %q", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("events %q, want %q", kinds, want)
		}
	}
	if !sort.SliceIsSorted(evs, func(i, j int) bool { return evs[i].Elapsed < evs[j].Elapsed }) {
		t.Errorf("elapsed times out of order: %+v", evs)
	}
	// without an observer nothing changes
	if res, err := eng.Run(context.Background(), `console.log("x"); return 1`, modebox.RunOptions{}); err != nil || len(res.Logs) != 1 {
		t.Fatal(err, res)
	}
}
