package runner

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/limits"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/seal"
	"github.com/modebox/modebox/internal/toolbox"
	"github.com/modebox/modebox/internal/tsx"
)

// calls counts how often each tool's handler ran.
type calls struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *calls) get(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[name]
}

// tool is a tool without a namespace that counts its calls and returns
// its name and arguments.
func (c *calls) tool(name string, pol policy.Policy, source, sink bool) toolbox.Tool {
	return toolbox.Tool{
		Name: name, Description: "Test tool " + name + ".", Policy: pol, Source: source, Sink: sink,
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			c.mu.Lock()
			if c.n == nil {
				c.n = map[string]int{}
			}
			c.n[name]++
			c.mu.Unlock()
			return map[string]any{"tool": name, "args": args}, nil
		},
	}
}

// newRunner is a runner over the process's engine with tools; seal makes
// it able to pause.
func newRunner(t *testing.T, tools []toolbox.Tool, policies map[string]policy.Policy, canSeal bool) *Runner {
	t.Helper()
	eng, err := engine.Shared()
	if err != nil {
		t.Fatal(err)
	}
	box, err := toolbox.New(tools, nil, policies, policy.Flows{})
	if err != nil {
		t.Fatal(err)
	}
	slots, err := NewSlots(4, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Engine: eng, Box: box, Limits: limits.Defaults(), Slots: slots,
		Binding: seal.Binding{Engine: "test-engine", Tools: "test-tools"}}
	if canSeal {
		key := make([]byte, 32)
		for i := range key {
			key[i] = byte(i + 1)
		}
		s, err := NewSealer([][]byte{key}, &seal.MemoryStore{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		r.Sealer = s
	}
	return r
}

// run runs a JS program and returns its outcome, failing on an error.
func run(t *testing.T, r *Runner, code string, req Request) *Outcome {
	t.Helper()
	req.Code, req.Lang = code, tsx.JS
	out, err := r.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out
}

// value is the outcome's result value decoded, failing when the run did
// not end with one.
func value(t *testing.T, out *Outcome) any {
	t.Helper()
	if out.Refused != nil || out.Syntax != nil || out.Result == nil {
		t.Fatalf("no result: refused %v, syntax %v", out.Refused, out.Syntax)
	}
	if out.Result.Err != nil {
		t.Fatalf("run failed: %s: %s", out.Result.Err.Code, out.Result.Err.Message)
	}
	var v any
	if err := json.Unmarshal(out.Result.Value, &v); err != nil {
		t.Fatalf("result %s: %v", out.Result.Value, err)
	}
	return v
}

// codeOf is a program that calls expr and returns the code it rejected
// with, or "ok".
func codeOf(expr string) string {
	return `try { await ` + expr + `; return "ok"; } catch (e) { return e.code; }`
}

// approver answers every request with d and records the requests.
type approver struct {
	d    Decision
	mu   sync.Mutex
	reqs []ApprovalRequest
}

func (a *approver) Approve(ctx context.Context, req ApprovalRequest) (Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reqs = append(a.reqs, req)
	return a.d, nil
}

func (a *approver) asked() []ApprovalRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]ApprovalRequest(nil), a.reqs...)
}

// TestGatePolicies checks the gate's policy rules: deny refuses before
// the tool runs, the run's policies may only make the engine's stricter,
// and a call that needs approval is refused when nothing can approve it
// and the run cannot pause.
func TestGatePolicies(t *testing.T) {
	c := &calls{}
	r := newRunner(t, []toolbox.Tool{
		c.tool("free", policy.Allow, false, false),
		c.tool("asks", policy.Ask, false, false),
		c.tool("banned", policy.Deny, false, false),
	}, nil, false)
	for _, tc := range []struct {
		name     string
		expr     string
		policies map[string]policy.Policy
		want     string
		ran      string
	}{
		{"allowed", `tools.free({})`, nil, "ok", "free"},
		{"engine deny", `tools.banned({})`, nil, string(codes.ToolDenied), ""},
		{"run deny", `tools.free({})`, map[string]policy.Policy{"free": policy.Deny}, string(codes.ToolDenied), ""},
		{"run allow does not loosen ask", `tools.asks({})`, map[string]policy.Policy{"asks": policy.Allow}, string(codes.ApprovalUnavailable), ""},
		{"run allow does not loosen deny", `tools.banned({})`, map[string]policy.Policy{"*": policy.Allow}, string(codes.ToolDenied), ""},
		{"run ask without approver", `tools.free({})`, map[string]policy.Policy{"free": policy.Ask}, string(codes.ApprovalUnavailable), ""},
		{"unknown tool", `tools.nope({})`, nil, string(codes.ToolNotFound), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := map[string]int{"free": c.get("free"), "asks": c.get("asks"), "banned": c.get("banned")}
			out := run(t, r, codeOf(tc.expr), Request{Policies: tc.policies})
			if got := value(t, out); got != tc.want {
				t.Errorf("got %v, want %s", got, tc.want)
			}
			for name, n := range before {
				want := n
				if name == tc.ran {
					want++
				}
				if got := c.get(name); got != want {
					t.Errorf("%s ran %d times, want %d", name, got-n, want-n)
				}
			}
		})
	}
}

// TestApprover checks approvals on the call path: an approver's Deny
// refuses the call without running it, Approve lets one call run and is
// asked again for the next, ApproveTool covers the rest of the run.
func TestApprover(t *testing.T) {
	for _, tc := range []struct {
		d          Decision
		want       string
		asked, ran int
	}{
		{Deny, `["APPROVAL_DENIED","APPROVAL_DENIED"]`, 2, 0},
		{Approve, `["ok","ok"]`, 2, 2},
		{ApproveTool, `["ok","ok"]`, 1, 2},
	} {
		c := &calls{}
		r := newRunner(t, []toolbox.Tool{c.tool("asks", policy.Ask, false, false)}, nil, false)
		a := &approver{d: tc.d}
		out := run(t, r, `
const out = [];
for (let i = 0; i < 2; i++) {
  try { await tools.asks({i}); out.push("ok"); } catch (e) { out.push(e.code); }
}
return out;`, Request{Approver: a})
		got, _ := json.Marshal(value(t, out))
		if string(got) != tc.want {
			t.Errorf("decision %d: got %s, want %s", tc.d, got, tc.want)
		}
		reqs := a.asked()
		if len(reqs) != tc.asked || c.get("asks") != tc.ran {
			t.Errorf("decision %d: asked %d times, ran %d; want %d and %d", tc.d, len(reqs), c.get("asks"), tc.asked, tc.ran)
		}
		if len(reqs) > 0 && (reqs[0].Tool != "asks" || reqs[0].CallID != 1 || !strings.Contains(reqs[0].Reason, `"ask"`) || string(reqs[0].Args) != `{"i":0}`) {
			t.Errorf("decision %d: first request %+v", tc.d, reqs[0])
		}
	}
}

// TestDataFlow checks the flow rule: a sink after a source needs
// approval, naming the source, and an approval for the rest of the run
// given before the source was read does not cover a sink after it.
func TestDataFlow(t *testing.T) {
	c := &calls{}
	r := newRunner(t, []toolbox.Tool{
		c.tool("read", policy.Allow, true, false),
		c.tool("send", policy.Ask, false, true),
	}, nil, false)
	a := &approver{d: ApproveTool}
	out := run(t, r, `
await tools.send({n: 1}); // asked: the tool's policy; approved for the run
await tools.send({n: 2}); // covered
await tools.read({});     // a source
await tools.send({n: 3}); // asked again: after the source
await tools.send({n: 4}); // covered by the approval given after the source
return "done";`, Request{Approver: a})
	if v := value(t, out); v != "done" {
		t.Fatalf("got %v", v)
	}
	reqs := a.asked()
	if len(reqs) != 2 {
		t.Fatalf("asked %d times, want 2: %+v", len(reqs), reqs)
	}
	if strings.Contains(reqs[0].Reason, "data flow") {
		t.Errorf("the first ask names a flow: %q", reqs[0].Reason)
	}
	if !strings.Contains(reqs[1].Reason, "data flow") || !strings.Contains(reqs[1].Reason, "tools.read (a source)") || !strings.Contains(reqs[1].Reason, "does not cover this call") || reqs[1].CallID != 4 {
		t.Errorf("the second ask: %+v", reqs[1])
	}
	if c.get("send") != 4 {
		t.Errorf("send ran %d times, want 4", c.get("send"))
	}

	// without an approver, and an allowed sink: the flow alone needs one
	c2 := &calls{}
	r2 := newRunner(t, []toolbox.Tool{
		c2.tool("read", policy.Allow, true, false),
		c2.tool("send", policy.Allow, false, true),
	}, nil, false)
	out = run(t, r2, `await tools.send({}); await tools.read({}); `+codeOf(`tools.send({})`), Request{})
	if v := value(t, out); v != string(codes.ApprovalUnavailable) {
		t.Errorf("sink after source without approver: %v", v)
	}
	if c2.get("send") != 1 {
		t.Errorf("send ran %d times, want 1", c2.get("send"))
	}
}

// TestPauseResume checks the pause path: a call that needs approval and
// has no approver parks, the run pauses with the call pending and a
// token; resuming replays the journal (no recorded tool runs again),
// applies the decision, and the token is single use.
func TestPauseResume(t *testing.T) {
	prog := `
const a = await tools.free({step: 1});
const r = []; 
try { const b = await tools.asks({step: 2}); r.push(b.tool); } catch (e) { r.push(e.code); }
return [a.tool, ...r];`
	for _, tc := range []struct {
		d    Decision
		want string
		ran  int
	}{
		{Approve, `["free","asks"]`, 1},
		{Deny, `["free","APPROVAL_DENIED"]`, 0},
	} {
		c := &calls{}
		r := newRunner(t, []toolbox.Tool{c.tool("free", policy.Allow, false, false), c.tool("asks", policy.Ask, false, false)}, nil, true)
		out := run(t, r, prog, Request{})
		if out.Result == nil || !out.Result.Paused || out.Token == "" {
			t.Fatalf("did not pause: %+v", out.Result)
		}
		if len(out.Pending) != 1 || out.Pending[0].ID != 2 || out.Pending[0].Tool != "asks" || string(out.Pending[0].Args) != `{"step":2}` || !strings.Contains(out.Pending[0].Reason, `"ask"`) {
			t.Fatalf("pending %+v", out.Pending)
		}
		if c.get("free") != 1 || c.get("asks") != 0 {
			t.Fatalf("before resume: free %d, asks %d", c.get("free"), c.get("asks"))
		}
		res, err := r.Resume(context.Background(), out.Token, Decisions{ByID: map[int]Decision{2: tc.d}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(value(t, res))
		if string(got) != tc.want {
			t.Errorf("decision %d: got %s, want %s", tc.d, got, tc.want)
		}
		if c.get("free") != 1 || c.get("asks") != tc.ran {
			t.Errorf("decision %d: after resume free ran %d times (want 1: replayed), asks %d (want %d)", tc.d, c.get("free"), c.get("asks"), tc.ran)
		}
		_, err = r.Resume(context.Background(), out.Token, Decisions{Default: Approve}, nil)
		var se *seal.Error
		if !errors.As(err, &se) || se.Code != codes.TokenUsed {
			t.Errorf("second resume: %v, want TOKEN_USED", err)
		}
	}
}

// TestResumeChecksBinding checks a token resumes only where its binding
// is the same, and that a refused token is not used up.
func TestResumeChecksBinding(t *testing.T) {
	c := &calls{}
	r := newRunner(t, []toolbox.Tool{c.tool("asks", policy.Ask, false, false)}, nil, true)
	out := run(t, r, `return (await tools.asks({})).tool`, Request{})
	if out.Token == "" {
		t.Fatal("no token")
	}
	other := *r
	other.Binding.Tools = "other-tools"
	_, err := other.Resume(context.Background(), out.Token, Decisions{Default: Approve}, nil)
	var se *seal.Error
	if !errors.As(err, &se) || se.Code != codes.TokenBinding {
		t.Fatalf("resume with another binding: %v, want TOKEN_BINDING", err)
	}
	res, err := r.Resume(context.Background(), out.Token, Decisions{Default: Approve}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := value(t, res); v != "asks" {
		t.Errorf("got %v", v)
	}
}

// TestResumeWithoutSealer checks an engine without continuations refuses
// to resume with a configuration error (CONFIG_INVALID), and that such a
// runner refuses a call that would park.
func TestResumeWithoutSealer(t *testing.T) {
	r := newRunner(t, nil, nil, false)
	_, err := r.Resume(context.Background(), "x", Decisions{}, nil)
	var ce *errs.Config
	if !errors.As(err, &ce) || ce.Field != "EngineConfig.Continuations" || codes.Of(err) != codes.ConfigInvalid {
		t.Fatalf("got %v", err)
	}
}

// TestRunSlot checks the run slot on the run path: a run (and a resume)
// that finds no slot is refused with ENGINE_BUSY and runs nothing, and a
// resume refused that way leaves its token usable.
func TestRunSlot(t *testing.T) {
	c := &calls{}
	r := newRunner(t, []toolbox.Tool{c.tool("asks", policy.Ask, false, false)}, nil, true)
	out := run(t, r, `return (await tools.asks({})).tool`, Request{})
	if out.Token == "" {
		t.Fatal("no token")
	}
	slots, err := NewSlots(1, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	r.Slots = slots
	release, busy := slots.Acquire(context.Background())
	if busy != nil {
		t.Fatal(busy)
	}
	out2 := run(t, r, `return 1`, Request{})
	if out2.Refused == nil || out2.Refused.Code != codes.EngineBusy || out2.Result != nil {
		t.Errorf("run without a slot: %+v", out2)
	}
	res, err := r.Resume(context.Background(), out.Token, Decisions{Default: Approve}, nil)
	if err != nil || res.Refused == nil || res.Refused.Code != codes.EngineBusy {
		t.Errorf("resume without a slot: %+v, %v", res, err)
	}
	release()
	res, err = r.Resume(context.Background(), out.Token, Decisions{Default: Approve}, nil)
	if err != nil {
		t.Fatalf("the token was used by the refused resume: %v", err)
	}
	if v := value(t, res); v != "asks" || c.get("asks") != 1 {
		t.Errorf("got %v, asks ran %d times", v, c.get("asks"))
	}
}

// TestRunChecksRequest checks what Run refuses before anything runs: run
// limits wider than the engine's, a bad run policy, a program over the
// size cap.
func TestRunChecksRequest(t *testing.T) {
	r := newRunner(t, nil, nil, false)
	r.Limits.Timeout = time.Second
	_, err := r.Run(context.Background(), Request{Code: "return 1", Lang: tsx.JS, Limits: limits.Limits{Timeout: time.Minute}})
	if codes.Of(err) != codes.ConfigInvalid {
		t.Errorf("wider timeout: %v", err)
	}
	_, err = r.Run(context.Background(), Request{Code: "return 1", Lang: tsx.JS, Policies: map[string]policy.Policy{"x": "maybe"}})
	var ce *errs.Config
	if !errors.As(err, &ce) {
		t.Errorf("bad policy: %v", err)
	}
	out := run(t, r, strings.Repeat(" ", MaxProgramSize+1), Request{})
	if out.Refused == nil || out.Refused.Code != codes.ProgramTooLarge {
		t.Errorf("large program: %+v", out.Refused)
	}
}

// TestSlots checks the run limit itself: its configuration, the queue,
// the wait's timeout and cancellation, and a slot passed on to a waiter.
func TestSlots(t *testing.T) {
	for _, bad := range []struct {
		runs, queued int
		timeout      time.Duration
		field        string
	}{
		{-1, 0, 0, "EngineConfig.MaxRuns"},
		{1, -2, 0, "EngineConfig.MaxQueued"},
		{1, 0, -time.Second, "EngineConfig.QueueTimeout"},
	} {
		_, err := NewSlots(bad.runs, bad.queued, bad.timeout)
		var ce *errs.Config
		if !errors.As(err, &ce) || ce.Field != bad.field {
			t.Errorf("NewSlots(%d, %d, %s): %v, want a ConfigError on %s", bad.runs, bad.queued, bad.timeout, err, bad.field)
		}
	}

	t.Run("no queue", func(t *testing.T) {
		g, _ := NewSlots(1, -1, 0)
		release, err := g.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Acquire(context.Background()); err == nil || err.Code != codes.EngineBusy {
			t.Fatalf("second acquire: %v", err)
		}
		release()
		release, err = g.Acquire(context.Background())
		if err != nil {
			t.Fatalf("after release: %v", err)
		}
		release()
	})

	t.Run("queue", func(t *testing.T) {
		g, _ := NewSlots(1, 1, time.Hour)
		release, _ := g.Acquire(context.Background())
		var got atomic.Pointer[errs.Tool]
		done := make(chan struct{})
		go func() {
			defer close(done)
			r, err := g.Acquire(context.Background())
			if err != nil {
				got.Store(err)
				return
			}
			r()
		}()
		waitQueued(t, g, 1)
		// the queue holds one: a third is refused at once
		if _, err := g.Acquire(context.Background()); err == nil || err.Code != codes.EngineBusy {
			t.Fatalf("third acquire: %v", err)
		}
		release() // passes the slot to the waiter
		<-done
		if err := got.Load(); err != nil {
			t.Fatalf("the waiter was refused: %v", err)
		}
		if running, queued := g.InFlight(); running != 0 || queued != 0 {
			t.Errorf("in flight %d, queued %d", running, queued)
		}
	})

	t.Run("timeout", func(t *testing.T) {
		g, _ := NewSlots(1, 1, time.Millisecond)
		release, _ := g.Acquire(context.Background())
		defer release()
		if _, err := g.Acquire(context.Background()); err == nil || err.Code != codes.EngineBusy {
			t.Fatalf("got %v, want ENGINE_BUSY", err)
		}
	})

	t.Run("cancelled", func(t *testing.T) {
		g, _ := NewSlots(1, 1, time.Hour)
		release, _ := g.Acquire(context.Background())
		defer release()
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan *errs.Tool, 1)
		go func() {
			_, err := g.Acquire(ctx)
			errc <- err
		}()
		waitQueued(t, g, 1)
		cancel()
		if err := <-errc; err == nil || err.Code != codes.Cancelled {
			t.Fatalf("got %v, want CANCELLED", err)
		}
	})
}

// waitQueued waits until g's queue holds n runs.
func waitQueued(t *testing.T, g *Slots, n int) {
	t.Helper()
	for {
		if _, q := g.InFlight(); q == n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestApproverTurns checks concurrent calls that all need approval: they
// are asked one at a time, and once one is approved for the rest of the
// run, the ones waiting their turn run without being asked.
func TestApproverTurns(t *testing.T) {
	c := &calls{}
	r := newRunner(t, []toolbox.Tool{c.tool("asks", policy.Ask, false, false)}, nil, false)
	a := &approver{d: ApproveTool}
	out := run(t, r, `return (await Promise.all([1, 2, 3].map((i) => tools.asks({i})))).length`, Request{Approver: a})
	if v := value(t, out); v != float64(3) {
		t.Fatalf("got %v", v)
	}
	if n := len(a.asked()); n != 1 || c.get("asks") != 3 {
		t.Errorf("asked %d times (want 1), ran %d (want 3)", n, c.get("asks"))
	}
}
