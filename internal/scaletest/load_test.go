package scaletest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// loadRuns is how many runs the HAProxy load makes in all;
// $MODEBOX_SCALE_RUNS overrides it.
func loadRuns(t *testing.T, def int) int {
	if v := os.Getenv("MODEBOX_SCALE_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("MODEBOX_SCALE_RUNS=%q", v)
		}
		return n
	}
	return def
}

// kinds of clients in the load, each with its own way of approving.
const (
	kindMRTRApprove = iota // 2026-07-28, elicits, the SDK's multi round trip, approves
	kindMRTRDeny           // the same, denies
	kindByHand             // 2026-07-28, the round trip by hand, the answer sent twice
	kindElicit             // 2025-11-25 with elicitation: asked while the run waits, on its sticky session
	kindApproveTool        // 2025-06-18 without elicitation: paused, approved through another session, twice
	kinds
)

// worker runs its share of the load through the load balancer with one
// kind of client and records what each run must have done.
type worker struct {
	kind    int
	lb      string
	d       *deployment
	cs, cs2 *mcp.ClientSession
	claims  atomic.Int64 // tokens this worker resumed
}

func (w *worker) connect(t *testing.T) {
	switch w.kind {
	case kindMRTRApprove:
		w.cs = client(t, w.lb, newVersion, "approve", true)
	case kindMRTRDeny:
		w.cs = client(t, w.lb, newVersion, "deny", true)
	case kindByHand:
		w.cs = client(t, w.lb, newVersion, "approve", false)
	case kindElicit:
		w.cs = client(t, w.lb, legacyVersion, "approve", true)
	case kindApproveTool:
		w.cs = client(t, w.lb, oldVersion, "", true)
		w.cs2 = client(t, w.lb, oldVersion, "", true)
	}
}

// one makes run id, with approval when approval is set, and returns what
// went wrong, or "".
func (w *worker) one(ctx context.Context, id string, approval bool) string {
	if !approval {
		n, _ := strconv.Atoi(id[1:])
		res, err := callRun(ctx, w.cs, fmt.Sprintf(`return "calc:" + (%d * 2)`, n))
		if got, want := resultString(res, err), fmt.Sprintf("calc:%d", n*2); got != want {
			return fmt.Sprintf("%s: %s, want %s", id, got, want)
		}
		return ""
	}
	code := w.d.cnt.program("hit", id)
	want := "hit:" + id
	switch w.kind {
	case kindMRTRDeny:
		want = "denied:APPROVAL_DENIED"
	case kindByHand:
		args := map[string]any{"code": code}
		first, err := w.cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args})
		if err != nil || !first.NeedsInput() {
			return fmt.Sprintf("%s: first call: %s", id, resultString(first, err))
		}
		w.claims.Add(1)
		var texts []string
		for range 2 { // the answer, then a retry of it (any replica)
			res, err := w.cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState, InputResponses: approveAnswer("call-1")})
			if got := resultString(res, err); got != want {
				return fmt.Sprintf("%s: %s, want %s", id, got, want)
			}
			texts = append(texts, textOf(res))
		}
		if texts[0] != texts[1] {
			return id + ": the retried resume's result differs from the first"
		}
		return ""
	case kindApproveTool:
		res, err := callRun(ctx, w.cs, code)
		o, oerr := outputOf(res)
		if err != nil || oerr != nil || o.Status != "paused" || o.Token == "" {
			return fmt.Sprintf("%s: want a pause: %s", id, resultString(res, err))
		}
		w.claims.Add(1)
		var texts []string
		for range 2 { // approved through the other session, then retried
			res, err := w.cs2.CallTool(ctx, &mcp.CallToolParams{Name: "approve", Arguments: map[string]any{"token": o.Token, "decisions": "approve"}})
			if got := resultString(res, err); got != want {
				return fmt.Sprintf("%s: approve: %s, want %s", id, got, want)
			}
			texts = append(texts, textOf(res))
		}
		if texts[0] != texts[1] {
			return id + ": the retried approve's result differs from the first"
		}
		return ""
	}
	if w.kind != kindElicit {
		w.claims.Add(1) // one pause, one resume
	}
	res, err := callRun(ctx, w.cs, code)
	if got := resultString(res, err); got != want {
		return fmt.Sprintf("%s: %s, want %s", id, got, want)
	}
	return ""
}

// Three replicas behind HAProxy round robin, clients of both protocol
// generations, a few thousand mixed runs with approvals: every outcome is
// the right one, every approved call ran exactly once and no denied one
// ran, the number of claimed tokens is exactly the number of resumes, and
// every replica served.
func TestHAProxyMixedLoad(t *testing.T) {
	d := newDeployment(t)
	var addrs []string
	for range 3 {
		addrs = append(addrs, d.start().Addr)
	}
	lb := startLB(t, addrs)
	total := loadRuns(t, 2400)
	const perKind = 2 // workers of each kind
	var workers []*worker
	for k := range kinds {
		for range perKind {
			w := &worker{kind: k, lb: lb.Addr, d: d}
			w.connect(t)
			workers = append(workers, w)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	type planned struct {
		id       string
		approval bool
		kind     int
	}
	var (
		next     atomic.Int64
		mu       sync.Mutex
		problems []string
		plan     []planned
		wg       sync.WaitGroup
	)
	start := time.Now()
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(total) || ctx.Err() != nil {
					return
				}
				p := planned{id: "r" + strconv.FormatInt(i, 10), approval: i%3 != 0, kind: w.kind}
				msg := w.one(ctx, p.id, p.approval)
				mu.Lock()
				plan = append(plan, p)
				if msg != "" && len(problems) < 20 {
					problems = append(problems, msg)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	for _, p := range problems {
		t.Error(p)
	}
	if len(plan) != total {
		t.Fatalf("%d runs made, want %d", len(plan), total)
	}
	for _, p := range plan {
		want := 0
		if p.approval && p.kind != kindMRTRDeny {
			want = 1
		}
		if got := d.cnt.count(p.id); got != want {
			t.Errorf("%s (client kind %d): the approved call ran %d times, want %d", p.id, p.kind, got, want)
		}
	}
	var claims int64
	for _, w := range workers {
		claims += w.claims.Load()
	}
	conn, err := pgx.Connect(ctx, d.url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var stored, owners int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM modebox_used_tokens").Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != claims {
		t.Errorf("%d tokens claimed in the store, want %d (one per resumed pause)", stored, claims)
	}
	if err := conn.QueryRow(ctx, "SELECT count(DISTINCT owner) FROM modebox_results").Scan(&owners); err != nil {
		t.Fatal(err)
	}
	if owners != 3 {
		t.Errorf("retry-cache entries of %d replicas, want all 3 (round robin)", owners)
	}
	t.Logf("%d runs (%d resumed pauses) through HAProxy and 3 replicas in %v", total, claims, elapsed.Round(time.Millisecond))
}
