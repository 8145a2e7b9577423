package integration_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/modebox/modebox"
)

func newKey(t testing.TB) []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return k
}

type counter struct {
	mu    sync.Mutex
	calls map[string]int
}

func (c *counter) tool(ns, name string, p modebox.Policy) modebox.Tool {
	return modebox.Tool{Namespace: ns, Name: name, Policy: p, Handler: func(_ context.Context, args json.RawMessage) (any, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.calls == nil {
			c.calls = map[string]int{}
		}
		c.calls[name]++
		return map[string]any{"tool": name, "args": args}, nil
	}}
}

func (c *counter) n(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[name]
}

func pausingEngine(t testing.TB, c *counter, store modebox.TokenStore) *modebox.Engine {
	t.Helper()
	e, err := modebox.New(modebox.EngineConfig{
		Tools:         []modebox.Tool{c.tool("t", "free", ""), c.tool("t", "guarded", modebox.PolicyAsk), c.tool("t", "other", modebox.PolicyAsk)},
		Continuations: &modebox.Continuations{Keys: [][]byte{newKey(t)}, Store: store},
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

const pauseProgram = `
	const a = await t.free({step: 1});
	const started = Date.now(), r = Math.random();
	const [g, o, f] = await Promise.allSettled([t.guarded({x: 1}), t.other({y: 2}), t.free({step: 2})]);
	const after = await t.free({step: 3});
	return {a: a.args.step, g: g.status === "fulfilled" ? g.value.tool : g.reason.code,
		o: o.status === "fulfilled" ? o.value.tool : o.reason.code, f: f.value.args.step, after: after.args.step,
		stable: [started, r]};`

func TestPauseAndResume(t *testing.T) {
	c := &counter{}
	e := pausingEngine(t, c, nil)
	r := run(t, e, pauseProgram, modebox.RunOptions{})
	if r.Status != modebox.StatusPaused || r.Token == "" || len(r.Pending) != 2 {
		t.Fatalf("status %q pending %+v err %+v", r.Status, r.Pending, r.Error)
	}
	if r.Pending[0].Tool != "t.guarded" || r.Pending[1].Tool != "t.other" || string(r.Pending[0].Args) != `{"x":1}` || !strings.Contains(r.Pending[0].Reason, "ask") {
		t.Fatalf("pending %+v", r.Pending)
	}
	// in-flight work finished before the pause; nothing guarded ran
	if c.n("free") != 2 || c.n("guarded") != 0 || c.n("other") != 0 {
		t.Fatalf("calls before resume %+v", c.calls)
	}
	res, err := e.Resume(t.Context(), r.Token, modebox.Decisions{ByID: map[int]modebox.Decision{r.Pending[0].ID: modebox.Approve}, Default: modebox.Deny})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != modebox.StatusOK {
		t.Fatalf("resume: %s %+v", res.Status, res.Error)
	}
	var out struct {
		A, F, After int
		G, O        string
	}
	if err := json.Unmarshal(res.Value, &out); err != nil {
		t.Fatal(err)
	}
	if out.A != 1 || out.F != 2 || out.After != 3 || out.G != "guarded" || out.O != string(modebox.CodeApprovalDenied) {
		t.Fatalf("resumed value %s", res.Value)
	}
	// replay ran no recorded tool twice: free ran 3 times in all (2 + the step 3 call)
	if c.n("free") != 3 || c.n("guarded") != 1 || c.n("other") != 0 {
		t.Fatalf("calls after resume %+v", c.calls)
	}
	// single use
	_, err = e.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
	var te *modebox.TokenError
	if !errors.As(err, &te) || te.Code != modebox.CodeTokenUsed {
		t.Fatalf("second resume: %v", err)
	}
}

func TestResumeRefusesOtherEnginesAndTampering(t *testing.T) {
	c := &counter{}
	e := pausingEngine(t, c, nil)
	r := run(t, e, `return await t.guarded({})`, modebox.RunOptions{})
	if r.Token == "" {
		t.Fatalf("no token: %+v", r)
	}
	// another key
	other := pausingEngine(t, c, nil)
	_, err := other.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
	var te *modebox.TokenError
	if !errors.As(err, &te) || te.Code != modebox.CodeTokenUnknownKey {
		t.Fatalf("other key: %v", err)
	}
	// same key, other tool set
	k := newKey(t)
	e1, _ := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{c.tool("t", "guarded", modebox.PolicyAsk)}, Continuations: &modebox.Continuations{Keys: [][]byte{k}}})
	e2, _ := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{c.tool("t", "guarded", modebox.PolicyAsk), c.tool("t", "extra", "")}, Continuations: &modebox.Continuations{Keys: [][]byte{k}}})
	r = run(t, e1, `return await t.guarded({})`, modebox.RunOptions{})
	if _, err := e2.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve}); !errors.As(err, &te) || te.Code != modebox.CodeTokenBinding {
		t.Fatalf("other tool set: %v", err)
	}
	// a flipped character
	b := []byte(r.Token)
	b[len(b)/2] ^= 1
	if _, err := e1.Resume(t.Context(), string(b), modebox.Decisions{Default: modebox.Approve}); !errors.As(err, &te) {
		t.Fatalf("tampered: %v", err)
	}
	if c.n("guarded") != 0 {
		t.Fatalf("a tool ran: %+v", c.calls)
	}
}

// A resumed program that no longer matches the journal stops before any
// tool runs.
func TestResumeDivergence(t *testing.T) {
	c := &counter{}
	e := pausingEngine(t, c, nil)
	r := run(t, e, `let n = 0; const a = await t.free({}); return await t.guarded({a: a.tool})`, modebox.RunOptions{})
	if r.Status != modebox.StatusPaused {
		t.Fatalf("%+v", r)
	}
	tok := r.Token
	// The token carries the code, so a sealed resume cannot diverge; a
	// journal replayed against other code must stop before running tools.
	j := r.Journal
	other := run(t, e, `return await t.guarded({different: true})`, modebox.RunOptions{Journal: j})
	if other.Error == nil || other.Error.Code != modebox.CodeReplayMismatch {
		t.Fatalf("divergent replay: %+v", other.Error)
	}
	if _, err := e.Resume(t.Context(), tok, modebox.Decisions{Default: modebox.Approve}); err != nil {
		t.Fatal(err)
	}
	if c.n("free") != 1 || c.n("guarded") != 1 {
		t.Fatalf("calls %+v", c.calls)
	}
}

func TestPauseAgainAfterResume(t *testing.T) {
	c := &counter{}
	e := pausingEngine(t, c, modebox.DirTokenStore(t.TempDir()))
	r := run(t, e, `const a = await t.guarded({n: 1}); const b = await t.guarded({n: 2}); return [a.args.n, b.args.n]`, modebox.RunOptions{})
	if r.Status != modebox.StatusPaused || len(r.Pending) != 1 {
		t.Fatalf("%+v", r)
	}
	r2, err := e.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
	if err != nil || r2.Status != modebox.StatusPaused || len(r2.Pending) != 1 || string(r2.Pending[0].Args) != `{"n":2}` {
		t.Fatalf("second pause: %+v %v", r2, err)
	}
	r3, err := e.Resume(t.Context(), r2.Token, modebox.Decisions{Default: modebox.Approve})
	if err != nil || r3.Status != modebox.StatusOK || string(r3.Value) != "[1,2]" || c.n("guarded") != 2 {
		t.Fatalf("final: %+v %v calls %+v", r3, err, c.calls)
	}
}

// An engine that leaves its limits at zero allows the defaults, and no
// more: a token from an engine whose limits were raised (the
// administrator then removed them from the configuration) resumes under
// the defaults, and a run's own limits cannot go past them either. The
// token's 1,200 calls after its pause ran to the end before.
func TestResumeUnderDefaultLimitsAfterTheyWereRaised(t *testing.T) {
	c := &counter{}
	k := newKey(t)
	tools := func() []modebox.Tool {
		return []modebox.Tool{c.tool("t", "free", ""), c.tool("t", "guarded", modebox.PolicyAsk)}
	}
	raised, err := modebox.New(modebox.EngineConfig{Tools: tools(), Limits: modebox.Limits{MaxCalls: 5000}, Continuations: &modebox.Continuations{Keys: [][]byte{k}}})
	if err != nil {
		t.Fatal(err)
	}
	defaults, err := modebox.New(modebox.EngineConfig{Tools: tools(), Continuations: &modebox.Continuations{Keys: [][]byte{k}}})
	if err != nil {
		t.Fatal(err)
	}
	const prog = `await t.guarded({}); let n = 0; for (let i = 0; i < 1200; i++) { await t.free({i}); n++ } return n`
	r := run(t, raised, prog, modebox.RunOptions{})
	if r.Status != modebox.StatusPaused || r.Token == "" {
		t.Fatalf("not paused: %+v", r)
	}
	res, err := defaults.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == nil || res.Error.Code != modebox.CodeHostCallLimit {
		t.Fatalf("resumed under the defaults: %s %+v", res.Value, res.Error)
	}
	if n := c.n("free"); n > modebox.DefaultLimits().MaxCalls {
		t.Fatalf("%d calls ran, more than the default %d", n, modebox.DefaultLimits().MaxCalls)
	}
	// a run's own limits narrow the defaults, never raise them
	_, err = defaults.Run(t.Context(), `return 1`, modebox.RunOptions{Limits: modebox.Limits{MaxCalls: 5000}})
	if err == nil || !strings.Contains(err.Error(), "only narrow") {
		t.Fatalf("a run raised MaxCalls past the default: %v", err)
	}
	if _, err := defaults.Run(t.Context(), `return 1`, modebox.RunOptions{Limits: modebox.Limits{MaxCalls: 10}}); err != nil {
		t.Fatalf("narrowing refused: %v", err)
	}
}

// A decision for a call the paused run does not have is refused before
// the token is spent: a typo in an id left the real call to the default
// (a denial) and used the token up.
func TestResumeDecisionForUnknownCallKeepsToken(t *testing.T) {
	c := &counter{}
	e := pausingEngine(t, c, nil)
	r := run(t, e, `return (await t.guarded({x: 1})).tool`, modebox.RunOptions{})
	if r.Status != modebox.StatusPaused || len(r.Pending) != 1 {
		t.Fatalf("not paused: %+v", r)
	}
	id := r.Pending[0].ID
	_, err := e.Resume(t.Context(), r.Token, modebox.Decisions{ByID: map[int]modebox.Decision{id + 6: modebox.Approve}})
	var ce *modebox.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "is not pending") || !strings.Contains(err.Error(), "its pending calls: "+strconv.Itoa(id)) {
		t.Fatalf("unknown id: %v", err)
	}
	if c.n("guarded") != 0 {
		t.Fatal("the call ran")
	}
	res, err := e.Resume(t.Context(), r.Token, modebox.Decisions{ByID: map[int]modebox.Decision{id: modebox.Approve}})
	if err != nil || res.Error != nil || string(res.Value) != `"guarded"` {
		t.Fatalf("the token after the refusal: %v %+v", err, res)
	}
}

// A run's own rule for a mapped name covers the tool renamed from it when
// another tool took the name ("get-data" became get_data_2 when
// "get_data" came), as the engine's rules do: it covered only the tool
// that holds the name now.
func TestRunRuleFollowsRenamedTool(t *testing.T) {
	c := &counter{}
	e, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{c.tool("srv", "get-data", ""), c.tool("srv", "get_data", "")}})
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, e, `return await tools.srv["get-data"]({}).then(() => "ran", e => e.code)`,
		modebox.RunOptions{Policies: map[string]modebox.Policy{"srv.get_data": modebox.PolicyDeny}})
	if string(r.Value) != `"TOOL_DENIED"` || c.n("get-data") != 0 {
		t.Fatalf("the renamed tool: %s %+v, ran %d", r.Value, r.Error, c.n("get-data"))
	}
}
