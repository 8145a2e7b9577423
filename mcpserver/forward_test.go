package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type askIn struct {
	Q string `json:"q"`
}

type askOut struct {
	Asked   bool           `json:"asked"`
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// forwardEngine returns an engine with srv.ask, a tool that forwards a
// question the way a downstream server's elicitation is forwarded (its
// handler's context is the call's, as the elicitor's is), and
// files.delete (policy ask).
func forwardEngine(t *testing.T, approvalTimeout time.Duration) *modebox.Engine {
	t.Helper()
	ask := modebox.MustTool("ask", "Asks the user.", func(ctx context.Context, in askIn) (askOut, error) {
		action, content, ok, err := AskForwarded(ctx, "[question from MCP server srv, not from modebox] "+in.Q,
			json.RawMessage(`{"type":"object","properties":{"decision":{"type":"string"}}}`))
		if err != nil {
			return askOut{}, err
		}
		return askOut{Asked: ok, Action: action, Content: content}, nil
	})
	ask.Namespace = "srv"
	del := modebox.MustTool("delete", "Deletes a file by path.", func(ctx context.Context, in deleteIn) (deleteOut, error) {
		return deleteOut{Deleted: in.Path}, nil
	})
	del.Namespace = "files"
	del.Policy = modebox.PolicyAsk
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{ask, del}, ApprovalTimeout: approvalTimeout})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// A 2026-07-28 client is asked forwarded questions with input_required
// results (its SDK answers them and retries): one during the run, then an
// approval pause, then one during the resume. A 2025-11-25 client is not
// asked this way (it gets elicitation/create from the approver).
func TestForwardedQuestionsOn20260728(t *testing.T) {
	eng := forwardEngine(t, 0)
	el := &elicitor{decision: "approve"}
	cs := connect(t, New(eng, Options{}), clientOptions(el), newVersion)
	res, o := runCode(t, cs, `
const a = await srv.ask({q: "one?"});
const d = (await files.delete({path: "/x"})).deleted;
const b = await srv.ask({q: "two?"});
return [a, d, b];`)
	if res.IsError {
		t.Fatal(text(t, res))
	}
	answer := `{"action":"accept","asked":true,"content":{"decision":"approve"}}`
	wantResult(t, o, `[`+answer+`,"/x",`+answer+`]`)
	if el.count() != 3 {
		t.Fatalf("asked %d times, want 3 (two questions and one approval)", el.count())
	}
	mustContain(t, "first question", el.message(0), "[question from MCP server srv, not from modebox] one?")
	mustContain(t, "approval", el.message(1), "tools.files.delete", "/x")
	mustContain(t, "second question", el.message(2), "two?")

	// declined: the tool gets the decline
	el.decision = "decline"
	_, o = runCode(t, cs, `return await srv.ask({q: "three?"})`)
	wantResult(t, o, `{"action":"decline","asked":true}`)

	// a 2025-11-25 client with elicitation: not this route
	old := connect(t, New(eng, Options{}), clientOptions(&elicitor{decision: "approve"}), legacyVersion)
	_, o = runCode(t, old, `return await srv.ask({q: "old?"})`)
	if !strings.Contains(string(o.Result), `"asked":false`) {
		t.Errorf("a 2025-11-25 client: %s", o.Result)
	}
}

// The round trip by hand: the question's requestState is single use and
// bound to the run's code; a missing answer asks again; a state that was
// never issued is a protocol error; an unanswered question ends with
// "cancel" after the approval timeout, the run goes on, and a late retry
// gets its result.
func TestForwardedQuestionByHand(t *testing.T) {
	eng := forwardEngine(t, 2*time.Second)
	opts := clientOptions(&elicitor{decision: "approve"})
	opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	cs := connect(t, New(eng, Options{}), opts, newVersion)
	ctx := context.Background()
	args := map[string]any{"code": `return await srv.ask({q: "by hand?"})`}
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	ir, ok := first.InputRequests[forwardedInputKey].(*mcp.ElicitParams)
	if !ok || !strings.HasPrefix(first.RequestState, liveStatePrefix) || !strings.Contains(ir.Message, "by hand?") {
		t.Fatalf("first result: %+v", first)
	}
	retry := func(state string, args map[string]any, responses mcp.InputResponseMap) (*mcp.CallToolResult, error) {
		return cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: state, InputResponses: responses})
	}
	accept := mcp.InputResponseMap{forwardedInputKey: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "yes"}}}
	if _, err := retry(liveStatePrefix+"00112233445566778899aabbccddeeff", args, accept); err == nil || !strings.Contains(err.Error(), "no question") {
		t.Errorf("a state never issued: %v", err)
	}
	if _, err := retry(first.RequestState, map[string]any{"code": `return 1`}, accept); err == nil || !strings.Contains(err.Error(), "another run call") {
		t.Errorf("the state with other code: %v", err)
	}
	again, err := retry(first.RequestState, args, nil)
	if err != nil || again.RequestState != first.RequestState || again.InputRequests[forwardedInputKey] == nil {
		t.Fatalf("a retry without the answer: %+v, %v", again, err)
	}
	done, err := retry(first.RequestState, args, accept)
	if err != nil {
		t.Fatal(err)
	}
	wantResult(t, structured(t, done), `{"action":"accept","asked":true,"content":{"decision":"yes"}}`)
	if _, err := retry(first.RequestState, args, accept); err == nil {
		t.Error("the state was accepted twice")
	} else if !strings.Contains(err.Error(), "no question") {
		t.Errorf("a used state: %v", err)
	}

	// unanswered: the question ends with "cancel" after the approval
	// timeout and the run goes on; a retry with its state after that gets
	// the run's result (its answer is not delivered), once
	first, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args})
	if err != nil || first.RequestState == "" {
		t.Fatalf("%+v, %v", first, err)
	}
	v, _ := liveRuns.Load(first.RequestState)
	lr, _ := v.(*liveRun)
	if lr == nil {
		t.Fatal("no live run for the question")
	}
	if !waitUntil(30*time.Second, func() bool { lr.mu.Lock(); defer lr.mu.Unlock(); return lr.done }) {
		t.Fatal("the run did not go on past the approval timeout")
	}
	late, err := retry(first.RequestState, args, accept)
	if err != nil {
		t.Fatal(err)
	}
	wantResult(t, structured(t, late), `{"action":"cancel","asked":true}`)
	if _, err := retry(first.RequestState, args, accept); err == nil || !strings.Contains(err.Error(), "no question") {
		t.Errorf("the late state used twice: %v", err)
	}
}

// waitUntil polls cond every 50ms until it holds or d passes.
func waitUntil(d time.Duration, cond func() bool) bool {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		if cond() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cond()
}

// A 2026-07-28 client over HTTP that shows links but not forms is not
// sent a forwarded form it cannot show (the question is declined); one
// that shows both is asked. Replicas sharing a store decline too.
func TestForwardedQuestionNeedsForms(t *testing.T) {
	eng := forwardEngine(t, 0)
	_, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	for _, c := range []struct {
		name  string
		caps  *mcp.ElicitationCapabilities
		asked bool
	}{
		{"url only", &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}, false},
		{"form and url", &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}, Form: &mcp.FormElicitationCapabilities{}}, true},
	} {
		el := &elicitor{decision: "approve"}
		opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{Elicitation: c.caps}, ElicitationHandler: el.handle}
		cs := connectHTTP(t, endpoint, "tok", opts, newVersion)
		_, o := runCode(t, cs, `return (await srv.ask({q: "which?"})).asked`)
		wantResult(t, o, map[bool]string{true: "true", false: "false"}[c.asked])
		if (el.count() == 1) != c.asked {
			t.Errorf("%s: asked %d times", c.name, el.count())
		}
	}
	// replicas (a shared store): the retry could reach another replica
	el := &elicitor{decision: "approve"}
	shared := New(eng, Options{Shared: &Shared{Store: nopStore{}, Keys: [][]byte{testKey(t)}}})
	cs := connect(t, shared, clientOptions(el), newVersion)
	_, o := runCode(t, cs, `return (await srv.ask({q: "which?"})).asked`)
	wantResult(t, o, "false")
	if el.count() != 0 {
		t.Errorf("with a shared store: asked %d times", el.count())
	}
}

// A 2026-07-28 client that cancels its run call stops the run, as for
// clients of other versions (the run goes on in the background only once
// it forwarded a question).
func TestLiveRunStopsWithItsRequest(t *testing.T) {
	eng, started, stopped := blockEngine(t)
	cs := connect(t, New(eng, Options{}), clientOptions(&elicitor{decision: "approve"}), newVersion)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": `return await srv.block({q: "x"})`}})
		errc <- err
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the tool did not start")
	}
	cancel()
	if err := <-errc; err == nil {
		t.Error("a cancelled call returned no error")
	}
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatal("the run went on after its request was cancelled")
	}
}
