package engine

import (
	"context"
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/tsx"
)

// TestHandlerGoexit checks that a tool call whose handler ends its
// goroutine (runtime.Goexit, as t.Fatal does) settles as TOOL_ERROR: on
// the driver (the only call in flight) the run fails with it, on a worker
// (Promise.all) the call rejects with it and the program can catch it.
// Neither panics nor waits for the deadline.
func TestHandlerGoexit(t *testing.T) {
	h := &contractHost{call: func(_ context.Context, c Call) (json.RawMessage, error) {
		if c.Tool == "b" {
			runtime.Goexit()
		}
		return json.RawMessage(`1`), nil
	}}
	lim := Limits{Timeout: time.Hour}
	res := runContract(t, `return await tools.b({})`, lim, h, nil)
	if res.Err == nil || res.Err.Code != codes.ToolError || !strings.Contains(res.Err.Message, "exited its goroutine") {
		t.Fatalf("inline: %+v %s", res.Err, res.Value)
	}
	res = runContract(t, `
		try { await Promise.all([tools.a({}), tools.b({})]); return "no" }
		catch (e) { return e.code + " " + e.message }`, lim, h, nil)
	if res.Err != nil || !strings.HasPrefix(string(res.Value), `"TOOL_ERROR the tool's handler exited its goroutine`) {
		t.Fatalf("Promise.all: %+v %s", res.Err, res.Value)
	}
}

// TestFailStoppedWithoutStop checks that failStopped on a run nobody
// stopped records an error instead of dereferencing nil.
func TestFailStoppedWithoutStop(t *testing.T) {
	r := &run{done: make(chan struct{})}
	r.failStopped()
	if r.err == nil || r.err.Code != codes.Internal {
		t.Fatalf("err %+v", r.err)
	}
}

// TestContextDeadlineMessage checks that a run stopped by the caller's
// context deadline says so, not that its own time limit passed.
func TestContextDeadlineMessage(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	p, err := tsx.Transform(`for (;;) {}`, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	res := e.Run(ctx, Request{Code: p.Code, Setup: contractSetup, Seed: 1, Limits: Limits{Timeout: time.Hour}})
	if res.Err == nil || res.Err.Code != codes.Timeout || !strings.Contains(res.Err.Message, "context deadline") || strings.Contains(res.Err.Message, "exceeded its time limit") {
		t.Fatalf("%+v", res.Err)
	}
}

// TestInvalidToolErrorCode checks that a tool error whose code is not
// code-like reaches the program as TOOL_ERROR, caught or not.
func TestInvalidToolErrorCode(t *testing.T) {
	for _, code := range []string{"not a code\n", strings.Repeat("A", 65)} {
		h := &contractHost{call: func(context.Context, Call) (json.RawMessage, error) { return nil, codedError{code} }}
		res := runContract(t, `try { await tools.a({}) } catch (e) { return e.code }`, Limits{}, h, nil)
		if res.Err != nil || string(res.Value) != `"TOOL_ERROR"` {
			t.Errorf("%q caught: %+v %s", code, res.Err, res.Value)
		}
		res = runContract(t, `await tools.a({})`, Limits{}, h, nil)
		if res.Err == nil || res.Err.Code != codes.ToolError {
			t.Errorf("%q uncaught: %+v", code, res.Err)
		}
	}
}

// TestDeepValues checks the MaxDepth limit: a call's arguments nested
// too deep reject the call with VALUE_TOO_LARGE (catchable), a tool's
// result too deep fails its call the same way, and the run's result too
// deep fails the run with it; none is GUEST_CRASH. Values at the limit
// pass.
func TestDeepValues(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	h := &contractHost{call: func(_ context.Context, c Call) (json.RawMessage, error) {
		if c.Tool == "b" {
			return json.RawMessage(deep(MaxDepth + 1)), nil
		}
		return json.RawMessage(`true`), nil
	}}
	nest := func(n int) string {
		return `let a = []; for (let i = 1; i < ` + strconv.Itoa(n) + `; i++) a = [a];`
	}
	for _, n := range []int{MaxDepth + 1, 10001} {
		res := runContract(t, nest(n)+` try { await tools.a(a); return "sent" } catch (e) { return e.code }`, Limits{}, h, nil)
		if res.Err != nil || string(res.Value) != `"VALUE_TOO_LARGE"` {
			t.Errorf("arguments %d deep: %+v %s", n, res.Err, res.Value)
		}
		res = runContract(t, nest(n)+` return a`, Limits{}, h, nil)
		if res.Err == nil || res.Err.Code != codes.ValueTooLarge || !strings.Contains(res.Err.Message, "nested deeper than") {
			t.Errorf("result %d deep: %+v", n, res.Err)
		}
	}
	res := runContract(t, `try { await tools.b({}); return "got" } catch (e) { return e.code }`, Limits{}, h, nil)
	if res.Err != nil || string(res.Value) != `"VALUE_TOO_LARGE"` {
		t.Errorf("tool result: %+v %s", res.Err, res.Value)
	}
	res = runContract(t, nest(MaxDepth)+` await tools.a(a); return a`, Limits{}, h, nil)
	if res.Err != nil || len(res.Value) != 2*MaxDepth {
		t.Errorf("at the limit: %+v (%d bytes)", res.Err, len(res.Value))
	}
}

func TestTooDeep(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), false},
		{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), true},
		{strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1), true},
		{`["` + strings.Repeat("[", 3*MaxDepth) + `"]`, false},
		{`["\"` + strings.Repeat("[", 3*MaxDepth) + `"]`, false},
		{`["\\",` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `]`, true},
		{`"` + strings.Repeat(`\\`, MaxDepth) + `"`, false},
	} {
		if got := tooDeep([]byte(tc.text)); got != tc.want {
			t.Errorf("tooDeep(%.40q…) = %v", tc.text, got)
		}
	}
}
