package integration_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

// recorder is an Approver that answers from a table and records requests.
type recorder struct {
	mu      sync.Mutex
	answers map[string]modebox.Decision // by tool key; missing = Deny
	asked   []modebox.ApprovalRequest
}

func (r *recorder) Approve(_ context.Context, req modebox.ApprovalRequest) (modebox.Decision, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, req)
	return r.answers[req.Tool], nil
}

// requests returns a copy of the requests so far.
func (r *recorder) requests() []modebox.ApprovalRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]modebox.ApprovalRequest(nil), r.asked...)
}

func countingTool(ns, name string, runs *int, mu *sync.Mutex) modebox.Tool {
	return modebox.Tool{Namespace: ns, Name: name, Handler: func(_ context.Context, args json.RawMessage) (any, error) {
		mu.Lock()
		*runs++
		mu.Unlock()
		return "ran " + name, nil
	}}
}

func TestApprovalsAsk(t *testing.T) {
	var mu sync.Mutex
	runs := 0
	ask := countingTool("t", "ask", &runs, &mu)
	ask.Policy = modebox.PolicyAsk
	other := countingTool("t", "other", &runs, &mu)
	other.Policy = modebox.PolicyAsk
	e := newEngine(t, ask, other)
	rec := &recorder{answers: map[string]modebox.Decision{"t.ask": modebox.ApproveTool}}
	code := `const out = [];
		for (const f of [t.ask, t.ask, t.other]) {
			try { out.push(await f({n: 1})) } catch (e) { out.push(e.code) }
		}
		return out`
	r := run(t, e, code, modebox.RunOptions{Approver: rec})
	if r.Error != nil || string(r.Value) != `["ran ask","ran ask","APPROVAL_DENIED"]` {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
	// approve-for-the-run asked once for t.ask; t.other asked and denied
	if len(rec.asked) != 2 || rec.asked[0].Tool != "t.ask" || rec.asked[1].Tool != "t.other" || runs != 2 {
		t.Fatalf("asked %+v, runs %d", rec.asked, runs)
	}
	if !strings.Contains(rec.asked[0].Reason, `"ask"`) || string(rec.asked[0].Args) != `{"n":1}` {
		t.Fatalf("request %+v", rec.asked[0])
	}
	// Promise.all mixing approved and denied calls; the denial is caught
	runs = 0
	rec = &recorder{answers: map[string]modebox.Decision{"t.ask": modebox.Approve}}
	r = run(t, e, `return await Promise.allSettled([t.ask({}), t.other({}), t.ask({})]).then(rs => rs.map(r => r.status === "fulfilled" ? r.value : r.reason.code))`, modebox.RunOptions{Approver: rec})
	if r.Error != nil || string(r.Value) != `["ran ask","APPROVAL_DENIED","ran ask"]` || runs != 2 {
		t.Fatalf("%s %+v runs %d", r.Value, r.Error, runs)
	}
}

func TestDataFlowSourceThenSink(t *testing.T) {
	var mu sync.Mutex
	runs := 0
	src := countingTool("gh", "get_issue", &runs, &mu)
	src.Source = true
	sink := countingTool("slack", "post", &runs, &mu)
	sink.Sink = true
	e := newEngine(t, src, sink)
	// a sink before any source does not ask
	rec := &recorder{}
	r := run(t, e, `await slack.post({}); return await slack.post({})`, modebox.RunOptions{Approver: rec})
	if r.Error != nil || len(rec.asked) != 0 {
		t.Fatalf("sink before source: %+v asked %+v", r.Error, rec.asked)
	}
	// after a source, every sink call asks, naming the source; approve
	rec = &recorder{answers: map[string]modebox.Decision{"slack.post": modebox.Approve}}
	r = run(t, e, `const i = await gh.get_issue({}); await slack.post({text: i}); return await slack.post({})`, modebox.RunOptions{Approver: rec})
	if r.Error != nil || len(rec.asked) != 2 || !strings.Contains(rec.asked[0].Reason, "tools.gh.get_issue") {
		t.Fatalf("approve: %+v asked %+v", r.Error, rec.asked)
	}
	// deny: the program sees APPROVAL_DENIED and goes on
	rec = &recorder{}
	r = run(t, e, `await gh.get_issue({}); try { await slack.post({}) } catch (e) { return e.code }`, modebox.RunOptions{Approver: rec})
	if r.Error != nil || string(r.Value) != `"APPROVAL_DENIED"` {
		t.Fatalf("deny: %s %+v", r.Value, r.Error)
	}
	// flows by pattern in EngineConfig
	e2, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{countingTool("gh", "get_issue", &runs, &mu), countingTool("slack", "post", &runs, &mu)},
		Flows: modebox.Flows{Sources: []string{"gh.*"}, Sinks: []string{"slack.*"}}})
	if err != nil {
		t.Fatal(err)
	}
	r = run(t, e2, `await gh.get_issue({}); try { await slack.post({}) } catch (e) { return e.code }`, modebox.RunOptions{})
	if r.Error != nil || string(r.Value) != `"APPROVAL_UNAVAILABLE"` {
		t.Fatalf("no approver: %s %+v", r.Value, r.Error)
	}
}

// Every route to a tool goes through the gate: aliases, call/apply,
// detached references, and concurrent calls.
func TestApprovalCannotBeBypassed(t *testing.T) {
	var mu sync.Mutex
	runs := 0
	g := countingTool("ns", "guarded-tool", &runs, &mu)
	g.Policy = modebox.PolicyAsk
	d := countingTool("ns", "denied", &runs, &mu)
	d.Policy = modebox.PolicyDeny
	e := newEngine(t, g, d)
	rec := &recorder{}
	r := run(t, e, `const out = [];
		const attempts = [
			() => tools.ns.guarded_tool({}),
			() => tools.ns["guarded-tool"]({}),
			() => ns["guarded-tool"].call(null, {}),
			() => Reflect.apply(ns.guarded_tool, undefined, [{}]),
			() => { const { guarded_tool } = tools.ns; return guarded_tool({}) },
			() => tools.ns.denied({}),
			() => Promise.all([ns.guarded_tool({}), ns.guarded_tool({})]),
		];
		for (const a of attempts) { try { await a(); out.push("ran") } catch (e) { out.push(e.code) } }
		return out`, modebox.RunOptions{Approver: rec})
	want := `["APPROVAL_DENIED","APPROVAL_DENIED","APPROVAL_DENIED","APPROVAL_DENIED","APPROVAL_DENIED","TOOL_DENIED","APPROVAL_DENIED"]`
	mu.Lock()
	ran := runs
	mu.Unlock()
	if r.Error != nil || string(r.Value) != want || ran != 0 {
		t.Fatalf("%s %+v runs=%d", r.Value, r.Error, ran)
	}
	// the second call of the Promise.all may still be asking when the
	// run returns (the first denial settles it)
	if n := len(rec.requests()); n < 6 || n > 7 {
		t.Fatalf("asked %d times", n)
	}
}

// A person's thinking time does not count against the run's time limit.
func TestApprovalWaitHoldsTheClock(t *testing.T) {
	var mu sync.Mutex
	runs := 0
	g := countingTool("t", "slowly_approved", &runs, &mu)
	g.Policy = modebox.PolicyAsk
	e := newEngine(t, g)
	slow := modebox.ApproverFunc(func(ctx context.Context, req modebox.ApprovalRequest) (modebox.Decision, error) {
		select {
		case <-time.After(600 * time.Millisecond):
			return modebox.Approve, nil
		case <-ctx.Done():
			return modebox.Deny, ctx.Err()
		}
	})
	r := run(t, e, `return await t.slowly_approved({})`, modebox.RunOptions{Approver: slow, Limits: modebox.Limits{Timeout: 300 * time.Millisecond}})
	if r.Error != nil || string(r.Value) != `"ran slowly_approved"` {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
	// the program's own time still counts
	r = run(t, e, `await t.slowly_approved({}); while (true) {}`, modebox.RunOptions{Approver: slow, Limits: modebox.Limits{Timeout: 300 * time.Millisecond}})
	if r.Error == nil || r.Error.Code != modebox.CodeTimeout {
		t.Fatalf("%+v", r.Error)
	}
}

// slowApprover approves after wait, or denies when its run ends first;
// answered is closed when it first approved.
type slowApprover struct {
	wait     time.Duration
	answered chan struct{}
	once     sync.Once
}

func newSlowApprover(wait time.Duration) *slowApprover {
	return &slowApprover{wait: wait, answered: make(chan struct{})}
}

func (a *slowApprover) Approve(ctx context.Context, _ modebox.ApprovalRequest) (modebox.Decision, error) {
	select {
	case <-time.After(a.wait):
		a.once.Do(func() { close(a.answered) })
		return modebox.Approve, nil
	case <-ctx.Done():
		return modebox.Deny, ctx.Err()
	}
}

// The attack on the held clock: start a call that needs approval without
// awaiting it, then compute while the person thinks. The clock is held
// only while the program waits for nothing but people, so the program's
// computing still counts: the run ends with TIMEOUT at its 1 s limit
// instead of computing for the approver's 5 s. (Without the fix the
// program's 3 s of work all fall in the held time and it returns.)
func TestPendingApprovalDoesNotHoldAComputingClock(t *testing.T) {
	var mu sync.Mutex
	runs := 0
	g := countingTool("t", "slowly_approved", &runs, &mu)
	g.Policy = modebox.PolicyAsk
	e := newEngine(t, g)
	a := newSlowApprover(5 * time.Second)
	r := run(t, e, `t.slowly_approved({}).catch(() => {});
		const t0 = Date.now(); let n = 0;
		while (Date.now() - t0 < 3000) for (let i = 0; i < 1e5; i++) n++;
		return "computed for 3 s"`, modebox.RunOptions{Approver: a, Limits: modebox.Limits{Timeout: time.Second}})
	if r.Error == nil || r.Error.Code != modebox.CodeTimeout {
		t.Fatalf("%s %s %+v, want %s", r.Status, r.Value, r.Error, modebox.CodeTimeout)
	}
}

// Another tool working while a call waits for approval keeps the clock
// too: a 3 s tool next to an approval of 5 s ends with TIMEOUT at 1 s.
func TestPendingApprovalDoesNotHoldAWorkingTool(t *testing.T) {
	var mu sync.Mutex
	runs := 0
	g := countingTool("t", "slowly_approved", &runs, &mu)
	g.Policy = modebox.PolicyAsk
	slow := modebox.Tool{Namespace: "t", Name: "works_3s", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
		select {
		case <-time.After(3 * time.Second):
			return "worked for 3 s", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
	e := newEngine(t, g, slow)
	a := newSlowApprover(5 * time.Second)
	r := run(t, e, `t.slowly_approved({}).catch(() => {}); return await t.works_3s({})`,
		modebox.RunOptions{Approver: a, Limits: modebox.Limits{Timeout: time.Second}})
	if r.Error == nil || r.Error.Code != modebox.CodeTimeout {
		t.Fatalf("%s %s %+v, want %s", r.Status, r.Value, r.Error, modebox.CodeTimeout)
	}
}

// The legitimate wait: a program that awaits the approval, and a person
// who takes 5 s to answer a run limited to 1 s; the run completes.
func TestAwaitedApprovalHoldsTheClock(t *testing.T) {
	var mu sync.Mutex
	runs := 0
	g := countingTool("t", "slowly_approved", &runs, &mu)
	g.Policy = modebox.PolicyAsk
	e := newEngine(t, g)
	a := newSlowApprover(5 * time.Second)
	r := run(t, e, `await new Promise(r => setTimeout(r, 10)); const v = await t.slowly_approved({}); return v`,
		modebox.RunOptions{Approver: a, Limits: modebox.Limits{Timeout: time.Second}})
	if r.Error != nil || string(r.Value) != `"ran slowly_approved"` {
		t.Fatalf("%s %s %+v", r.Status, r.Value, r.Error)
	}
	select {
	case <-a.answered:
	default:
		t.Fatal("the run completed without the approver's answer")
	}
	// two calls awaited at once: the second waits its turn to be asked
	// while the first is, which is waiting for the person too
	a2 := newSlowApprover(3 * time.Second)
	r = run(t, e, `return await Promise.all([t.slowly_approved({}), t.slowly_approved({})])`,
		modebox.RunOptions{Approver: a2, Limits: modebox.Limits{Timeout: time.Second}})
	if r.Error != nil || string(r.Value) != `["ran slowly_approved","ran slowly_approved"]` {
		t.Fatalf("two at once: %s %s %+v", r.Status, r.Value, r.Error)
	}
}
