package scaletest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PostgreSQL restarted during a load of runs with approvals: while it is
// down, resumes are refused with TOKEN_STORE_UNAVAILABLE and their calls
// do not run; once it is back, resumes work again; no call ever runs
// twice, and none runs for a resume that was refused.
func TestPostgresRestartDuringLoad(t *testing.T) {
	d := newDeployment(t)
	reps := []*replica{d.start(), d.start()}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	type outcome struct{ id, got string }
	var (
		mu       sync.Mutex
		outcomes []outcome
		ok       atomic.Int64
		seq      atomic.Int64
		stop     = make(chan struct{})
		wg       sync.WaitGroup
	)
	for i := range 4 {
		cs := client(t, reps[i%2].Addr, newVersion, "approve", true)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				id := fmt.Sprintf("L%d", seq.Add(1))
				cctx, ccancel := context.WithTimeout(ctx, 60*time.Second)
				res, err := callRun(cctx, cs, d.cnt.program("hit", id))
				ccancel()
				got := resultString(res, err)
				if got == "hit:"+id {
					ok.Add(1)
				}
				mu.Lock()
				outcomes = append(outcomes, outcome{id, got})
				mu.Unlock()
			}
		}()
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor("the load to get going", func() bool { return ok.Load() >= 20 })

	d.pg.Stop()
	// While it is down: a pause still works (it needs no store), and its
	// resume is refused, failing closed.
	probe := client(t, reps[0].Addr, newVersion, "approve", false)
	args := map[string]any{"code": d.cnt.program("hit", "down")}
	first, err := probe.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args})
	if err != nil || !first.NeedsInput() {
		t.Fatalf("pause while the store is down: %s", resultString(first, err))
	}
	_, err = probe.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState, InputResponses: approveAnswer("call-1")})
	if err == nil || !strings.Contains(err.Error(), "TOKEN_STORE_UNAVAILABLE") {
		t.Fatalf("resume while the store is down: %v; want TOKEN_STORE_UNAVAILABLE", err)
	}
	if n := d.cnt.count("down"); n != 0 {
		t.Fatalf("a refused resume ran its call %d times", n)
	}
	downOK := ok.Load()
	time.Sleep(500 * time.Millisecond) // the load meets the outage too

	d.pg.Restart()
	// Back: resumes work again (the first may meet a connection the
	// restart broke, and fail closed).
	var after int
	waitFor("a resume after the restart", func() bool {
		after++
		id := fmt.Sprintf("up%d", after)
		res, err := callRun(ctx, client(t, reps[after%2].Addr, newVersion, "approve", true), d.cnt.program("hit", id))
		return resultString(res, err) == "hit:"+id
	})
	waitFor("the load to go on", func() bool { return ok.Load() >= downOK+20 })
	close(stop)
	wg.Wait()

	refused := 0
	for _, o := range outcomes {
		n := d.cnt.count(o.id)
		switch {
		case o.got == "hit:"+o.id:
			if n != 1 {
				t.Errorf("%s: succeeded, and its call ran %d times", o.id, n)
			}
		case strings.Contains(o.got, "TOKEN_STORE_UNAVAILABLE"):
			refused++
			if n != 0 {
				t.Errorf("%s: refused (%s), but its call ran %d times", o.id, o.got, n)
			}
		default:
			// Another failure while the store was down (a pause that could
			// not be read back, the client's retry giving up): never a
			// second execution.
			if n > 1 {
				t.Errorf("%s: %s, and its call ran %d times", o.id, o.got, n)
			}
		}
	}
	t.Logf("%d runs: %d succeeded, %d refused with TOKEN_STORE_UNAVAILABLE while PostgreSQL was down", len(outcomes), ok.Load(), refused)
}
