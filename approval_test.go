package modebox

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is an Approver that answers from a table and records requests.
type recorder struct {
	mu      sync.Mutex
	answers map[string]Decision // by tool key; missing = Deny
	asked   []ApprovalRequest
}

func (r *recorder) Approve(_ context.Context, req ApprovalRequest) (Decision, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, req)
	return r.answers[req.Tool], nil
}

// requests returns a copy of the requests so far.
func (r *recorder) requests() []ApprovalRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ApprovalRequest(nil), r.asked...)
}

func countingTool(ns, name string, runs *int, mu *sync.Mutex) Tool {
	return Tool{Namespace: ns, Name: name, Handler: func(_ context.Context, args json.RawMessage) (any, error) {
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
	ask.Policy = PolicyAsk
	other := countingTool("t", "other", &runs, &mu)
	other.Policy = PolicyAsk
	e := newEngine(t, ask, other)
	rec := &recorder{answers: map[string]Decision{"t.ask": ApproveTool}}
	code := `const out = [];
		for (const f of [t.ask, t.ask, t.other]) {
			try { out.push(await f({n: 1})) } catch (e) { out.push(e.code) }
		}
		return out`
	r := run(t, e, code, RunOptions{Approver: rec})
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
	rec = &recorder{answers: map[string]Decision{"t.ask": Approve}}
	r = run(t, e, `return await Promise.allSettled([t.ask({}), t.other({}), t.ask({})]).then(rs => rs.map(r => r.status === "fulfilled" ? r.value : r.reason.code))`, RunOptions{Approver: rec})
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
	r := run(t, e, `await slack.post({}); return await slack.post({})`, RunOptions{Approver: rec})
	if r.Error != nil || len(rec.asked) != 0 {
		t.Fatalf("sink before source: %+v asked %+v", r.Error, rec.asked)
	}
	// after a source, every sink call asks, naming the source; approve
	rec = &recorder{answers: map[string]Decision{"slack.post": Approve}}
	r = run(t, e, `const i = await gh.get_issue({}); await slack.post({text: i}); return await slack.post({})`, RunOptions{Approver: rec})
	if r.Error != nil || len(rec.asked) != 2 || !strings.Contains(rec.asked[0].Reason, "tools.gh.get_issue") {
		t.Fatalf("approve: %+v asked %+v", r.Error, rec.asked)
	}
	// deny: the program sees APPROVAL_DENIED and goes on
	rec = &recorder{}
	r = run(t, e, `await gh.get_issue({}); try { await slack.post({}) } catch (e) { return e.code }`, RunOptions{Approver: rec})
	if r.Error != nil || string(r.Value) != `"APPROVAL_DENIED"` {
		t.Fatalf("deny: %s %+v", r.Value, r.Error)
	}
	// flows by pattern in EngineConfig
	e2, err := New(EngineConfig{Tools: []Tool{countingTool("gh", "get_issue", &runs, &mu), countingTool("slack", "post", &runs, &mu)},
		Flows: Flows{Sources: []string{"gh.*"}, Sinks: []string{"slack.*"}}})
	if err != nil {
		t.Fatal(err)
	}
	r = run(t, e2, `await gh.get_issue({}); try { await slack.post({}) } catch (e) { return e.code }`, RunOptions{})
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
	g.Policy = PolicyAsk
	d := countingTool("ns", "denied", &runs, &mu)
	d.Policy = PolicyDeny
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
		return out`, RunOptions{Approver: rec})
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
	g.Policy = PolicyAsk
	e := newEngine(t, g)
	slow := ApproverFunc(func(ctx context.Context, req ApprovalRequest) (Decision, error) {
		select {
		case <-time.After(600 * time.Millisecond):
			return Approve, nil
		case <-ctx.Done():
			return Deny, ctx.Err()
		}
	})
	r := run(t, e, `return await t.slowly_approved({})`, RunOptions{Approver: slow, Limits: Limits{Timeout: 300 * time.Millisecond}})
	if r.Error != nil || string(r.Value) != `"ran slowly_approved"` {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
	// the program's own time still counts
	r = run(t, e, `await t.slowly_approved({}); while (true) {}`, RunOptions{Approver: slow, Limits: Limits{Timeout: 300 * time.Millisecond}})
	if r.Error == nil || r.Error.Code != CodeTimeout {
		t.Fatalf("%+v", r.Error)
	}
}
