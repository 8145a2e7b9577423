package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/tsx"
)

// The contract of Host, tested here with a small host of the test's own
// rather than through the root package's: Gate sees every call in call
// order (replayed ones too), its verdict rejects, asks, parks or aborts,
// and Call runs the calls it lets through, bounded by MaxConcurrency, with
// a context that ends with the run, its errors becoming codes.

// contractSetup declares the tools the contract programs call.
var contractSetup = []byte(`{"tools":[{"key":"a","path":["a"]},{"key":"b","path":["b"]},{"key":"wait","path":["wait"]}]}`)

// contractHost is a Host whose Gate and Call are functions of the test,
// recording every call each sees.
type contractHost struct {
	gate func(c Call, replayed bool) Verdict
	call func(ctx context.Context, c Call) (json.RawMessage, error)

	mu      sync.Mutex
	gated   []gated
	called  []Call
	inCall  int
	maxCall int
}

type gated struct {
	Call
	replayed bool
}

func (h *contractHost) Gate(c Call, replayed bool) Verdict {
	h.mu.Lock()
	h.gated = append(h.gated, gated{c, replayed})
	h.mu.Unlock()
	if h.gate == nil {
		return Verdict{}
	}
	return h.gate(c, replayed)
}

func (h *contractHost) Call(ctx context.Context, c Call) (json.RawMessage, error) {
	h.mu.Lock()
	h.called = append(h.called, c)
	h.inCall++
	h.maxCall = max(h.maxCall, h.inCall)
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.inCall--
		h.mu.Unlock()
	}()
	if h.call == nil {
		return json.Marshal(map[string]any{"tool": c.Tool, "args": c.Args})
	}
	return h.call(ctx, c)
}

func (h *contractHost) gates() []gated {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.gated)
}

func (h *contractHost) calls() []Call {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.called)
}

func runContract(t *testing.T, src string, lim Limits, h Host, replay *Journal) *Result {
	t.Helper()
	p, terr := tsx.Transform(src, tsx.JS)
	e, err := Shared()
	if err = errors.Join(terr, err); err != nil {
		t.Fatal(err)
	}
	return e.Run(context.Background(), Request{Code: p.Code, Setup: contractSetup, Seed: 1, Limits: lim, Host: h, Replay: replay})
}

func TestHostGateAndCallSeeEveryCallInOrder(t *testing.T) {
	h := &contractHost{}
	res := runContract(t, `
		const x = await tools.a({n: 1});
		const [y, z] = await Promise.all([tools.b({n: 2}), tools.a({n: 3})]);
		return [x, y, z].map(r => r.tool + r.args.n)`, Limits{}, h, nil)
	if res.Err != nil || string(res.Value) != `["a1","b2","a3"]` {
		t.Fatalf("%+v %s", res.Err, res.Value)
	}
	var got []string
	for _, g := range h.gates() {
		if g.replayed || g.Recorded != nil {
			t.Errorf("live call %d gated as replayed", g.ID)
		}
		got = append(got, fmt.Sprintf("%d %s %s", g.ID, g.Tool, g.Args))
	}
	if want := []string{`1 a {"n":1}`, `2 b {"n":2}`, `3 a {"n":3}`}; !slices.Equal(got, want) {
		t.Fatalf("Gate saw %q, want %q", got, want)
	}
	calls := h.calls()
	slices.SortFunc(calls, func(a, b Call) int { return a.ID - b.ID })
	if len(calls) != 3 || calls[1].Tool != "b" || string(calls[1].Args) != `{"n":2}` || calls[0].Approval != "" {
		t.Fatalf("Call saw %+v", calls)
	}
	if res.Stats.HostCalls != 3 {
		t.Errorf("HostCalls = %d", res.Stats.HostCalls)
	}
}

func TestHostGateVerdicts(t *testing.T) {
	h := &contractHost{gate: func(c Call, _ bool) Verdict {
		switch c.Tool {
		case "a":
			return Verdict{RejectCode: "NOT_HERE", RejectMessage: "a is refused"}
		case "b":
			return Verdict{Approval: "b needs a person"}
		}
		return Verdict{}
	}}
	res := runContract(t, `
		const a = await tools.a({}).catch(e => e.code + ": " + e.message);
		const b = await tools.b({});
		return [a, b.tool]`, Limits{}, h, nil)
	if res.Err != nil || string(res.Value) != `["NOT_HERE: a is refused","b"]` {
		t.Fatalf("%+v %s", res.Err, res.Value)
	}
	calls := h.calls()
	if len(calls) != 1 || calls[0].Tool != "b" || calls[0].Approval != "b needs a person" {
		t.Fatalf("a rejected call ran, or the approval reason was lost: %+v", calls)
	}
}

func TestHostGateParkPauses(t *testing.T) {
	h := &contractHost{gate: func(c Call, _ bool) Verdict {
		if c.Tool == "b" {
			return Verdict{Park: true, Approval: "waits for a person"}
		}
		return Verdict{}
	}}
	res := runContract(t, `
		const a = await tools.a({n: 1});
		const b = await tools.b({n: 2});
		return [a, b]`, Limits{}, h, nil)
	if !res.Paused || res.Err != nil || len(res.Pending) != 1 {
		t.Fatalf("paused %v err %+v pending %+v", res.Paused, res.Err, res.Pending)
	}
	if p := res.Pending[0]; p.ID != 2 || p.Tool != "b" || string(p.Args) != `{"n":2}` || p.Approval != "waits for a person" {
		t.Fatalf("pending %+v", p)
	}
	for _, c := range h.calls() {
		if c.Tool == "b" {
			t.Fatal("a parked call ran")
		}
	}
	if res.Journal == nil || len(res.Journal.Calls) != 1 || res.Journal.Calls[0].Tool != "a" {
		t.Fatalf("journal %+v", res.Journal)
	}
}

func TestHostGateAbortStopsTheRun(t *testing.T) {
	h := &contractHost{gate: func(c Call, _ bool) Verdict {
		if c.ID == 2 {
			return Verdict{Abort: "the record says otherwise"}
		}
		return Verdict{}
	}}
	res := runContract(t, `await tools.a({}); await tools.b({}); return "went on"`, Limits{}, h, nil)
	if res.Err == nil || res.Err.Code != "REPLAY_MISMATCH" || res.Err.Message != "the record says otherwise" {
		t.Fatalf("%+v %s", res.Err, res.Value)
	}
	if n := len(h.calls()); n != 1 {
		t.Fatalf("%d calls ran, want only the first", n)
	}
}

// codedError is a CodedError.
type codedError struct{ code string }

func (e codedError) Error() string     { return "coded: " + e.code }
func (e codedError) ErrorCode() string { return e.code }

func TestHostCallErrors(t *testing.T) {
	h := &contractHost{call: func(_ context.Context, c Call) (json.RawMessage, error) {
		var a struct{ Kind string }
		_ = json.Unmarshal(c.Args, &a)
		switch a.Kind {
		case "plain":
			return nil, errors.New("it broke")
		case "coded":
			return nil, fmt.Errorf("wrapped: %w", codedError{"MY_CODE"})
		case "empty-code":
			return nil, codedError{""}
		case "panic":
			panic("tool bug")
		case "big":
			return json.RawMessage(`"` + strings.Repeat("x", 2000) + `"`), nil
		case "bad-utf8":
			return json.RawMessage("\"a\x80b\""), nil
		}
		return json.RawMessage(`{"ok":true}`), nil
	}}
	res := runContract(t, `
		const out = [];
		for (const kind of ["plain", "coded", "empty-code", "panic", "big", "bad-utf8", "fine"]) {
			out.push(await tools.a({kind}).then(v => JSON.stringify(v), e => e.code + ": " + e.message));
		}
		return out`, Limits{MaxValue: 1000}, h, nil)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var out []string
	if err := json.Unmarshal(res.Value, &out); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"TOOL_ERROR: it broke",
		"MY_CODE: wrapped: coded: MY_CODE",
		"TOOL_ERROR: coded: ",
		"TOOL_ERROR: the tool panicked: tool bug",
		"VALUE_TOO_LARGE: the tool's result is 2002 bytes, over the limit of 1000",
		`"a` + "\uFFFD" + `b"`,
		`{"ok":true}`,
	}
	if !slices.Equal(out, want) {
		t.Fatalf("got  %q\nwant %q", out, want)
	}
}

func TestNilHostRefusesEveryCall(t *testing.T) {
	res := runContract(t, `return await tools.a({}).catch(e => e.code)`, Limits{}, nil, nil)
	if res.Err != nil || string(res.Value) != `"TOOL_NOT_FOUND"` {
		t.Fatalf("%+v %s", res.Err, res.Value)
	}
}

// Call's context ends when the run does: a call still running at the
// run's timeout sees its context cancelled.
func TestHostCallContextEndsWithTheRun(t *testing.T) {
	ended := make(chan error, 1)
	h := &contractHost{call: func(ctx context.Context, _ Call) (json.RawMessage, error) {
		<-ctx.Done()
		ended <- ctx.Err()
		return nil, ctx.Err()
	}}
	res := runContract(t, `return await tools.wait({})`, Limits{Timeout: 200 * time.Millisecond}, h, nil)
	if res.Err == nil || res.Err.Code != "TIMEOUT" {
		t.Fatalf("%+v %s", res.Err, res.Value)
	}
	select {
	case err := <-ended:
		if err == nil {
			t.Fatal("the call's context ended without an error")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the call's context did not end with the run")
	}
}

// At most MaxConcurrency calls run at once, and that many do: the calls
// wait until two are running (which only works if two can), then a while
// longer for a third that must not come; then all are let go.
func TestHostCallConcurrencyIsBounded(t *testing.T) {
	var mu sync.Mutex
	two := make(chan struct{})
	started := 0
	h := &contractHost{call: func(ctx context.Context, c Call) (json.RawMessage, error) {
		mu.Lock()
		started++
		if started == 2 {
			close(two)
		}
		mu.Unlock()
		select {
		case <-two:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		// a third call, if the engine wrongly started one, has this long
		// to show up (so a slow machine can miss the bug, never report a
		// false one)
		time.Sleep(100 * time.Millisecond)
		return json.RawMessage(fmt.Sprint(c.ID)), nil
	}}
	res := runContract(t, `return await Promise.all([1, 2, 3, 4, 5, 6].map(n => tools.wait({n})))`,
		Limits{MaxConcurrency: 2, Timeout: 60 * time.Second}, h, nil)
	if res.Err != nil || string(res.Value) != `[1,2,3,4,5,6]` {
		t.Fatalf("%+v %s", res.Err, res.Value)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.maxCall != 2 {
		t.Fatalf("%d calls ran at once, want exactly MaxConcurrency (2)", h.maxCall)
	}
}

// A replayed run serves the journal's values: Gate sees the replayed
// calls with replayed true and the recorded value, its verdict on them is
// ignored (unless it aborts), and Call is not called for them.
func TestHostReplayServesTheJournal(t *testing.T) {
	src := `const a = await tools.a({n: 1}); const b = await tools.b({n: 2}).catch(e => e.code); return [a.tool, b]`
	first := &contractHost{call: func(_ context.Context, c Call) (json.RawMessage, error) {
		if c.Tool == "b" {
			return nil, codedError{"B_FAILED"}
		}
		return json.RawMessage(`{"tool":"a"}`), nil
	}}
	res := runContract(t, src, Limits{}, first, nil)
	if res.Err != nil || string(res.Value) != `["a","B_FAILED"]` || res.Journal == nil {
		t.Fatalf("%+v %s", res.Err, res.Value)
	}
	var again *contractHost
	for _, verdict := range []Verdict{{}, {RejectCode: "IGNORED_ON_REPLAY"}, {Park: true}} {
		again = &contractHost{
			gate: func(Call, bool) Verdict { return verdict },
			call: func(context.Context, Call) (json.RawMessage, error) {
				return nil, errors.New("a replayed call ran again")
			},
		}
		res2 := runContract(t, src, Limits{}, again, res.Journal)
		if res2.Err != nil || res2.Paused || string(res2.Value) != string(res.Value) {
			t.Fatalf("replay with verdict %+v: %+v paused %v %s, want %s", verdict, res2.Err, res2.Paused, res2.Value, res.Value)
		}
		if n := len(again.calls()); n != 0 {
			t.Fatalf("verdict %+v: %d replayed calls ran", verdict, n)
		}
	}
	g := again.gates()
	if len(g) != 2 || !g[0].replayed || !g[1].replayed || !g[0].RecordedOK || g[1].RecordedOK ||
		string(g[0].Recorded) != `{"tool":"a"}` || !strings.Contains(string(g[1].Recorded), "B_FAILED") {
		t.Fatalf("Gate on replay saw %+v", g)
	}
	// a replay whose Gate aborts stops with REPLAY_MISMATCH
	abort := &contractHost{gate: func(Call, bool) Verdict { return Verdict{Abort: "not the same engine"} }}
	res3 := runContract(t, src, Limits{}, abort, res.Journal)
	if res3.Err == nil || res3.Err.Code != "REPLAY_MISMATCH" {
		t.Fatalf("aborted replay: %+v %s", res3.Err, res3.Value)
	}
}
