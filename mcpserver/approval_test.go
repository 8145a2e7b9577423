package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// twoDeletes calls files.delete twice, one after the other, and reports
// each outcome.
const twoDeletes = `
const out = [];
for (const path of ["/tmp/a", "/tmp/b"]) {
  try {
    out.push((await tools.files.delete({path})).deleted);
  } catch (e) {
    out.push(e.code);
  }
}
return out;`

func TestElicitationApproval(t *testing.T) {
	for _, version := range []string{legacyVersion, oldVersion} {
		t.Run(version, func(t *testing.T) {
			eng, rec := newEngine(t)
			el := &elicitor{decision: "approve"}
			cs := connect(t, New(eng, Options{ApproveTool: true}), clientOptions(el), version)
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Fatalf("protocol %s, want %s", got, version)
			}
			res, o := runCode(t, cs, twoDeletes)
			if res.IsError {
				t.Fatal(text(t, res))
			}
			wantResult(t, o, `["/tmp/a","/tmp/b"]`)
			if got := rec.list(); !slices.Equal(got, []string{"/tmp/a", "/tmp/b"}) {
				t.Errorf("deleted %v", got)
			}
			if el.count() != 2 {
				t.Fatalf("%d elicitations, want 2 (one per call)", el.count())
			}
			mustContain(t, "elicitation message", el.message(0), "tools.files.delete", `the tool's policy is "ask"`, `"path": "/tmp/a"`)
			mustContain(t, "elicitation message", el.message(1), `"path": "/tmp/b"`)
			schema := el.schemas[0]
			if version >= "2025-11-25" {
				mustContain(t, "schema", schema, `"oneOf"`, `"const":"approve"`, `"const":"deny"`)
			} else {
				mustContain(t, "schema", schema, `"enum":["approve","approve_tool","deny"]`, `"enumNames"`)
			}
		})
	}
}

func TestElicitationApproveTool(t *testing.T) {
	eng, rec := newEngine(t)
	el := &elicitor{decision: "approve_tool"}
	cs := connect(t, New(eng, Options{}), clientOptions(el), legacyVersion)
	_, o := runCode(t, cs, twoDeletes)
	wantResult(t, o, `["/tmp/a","/tmp/b"]`)
	if el.count() != 1 || len(rec.list()) != 2 {
		t.Errorf("%d elicitations (want 1), %d deletes (want 2)", el.count(), len(rec.list()))
	}
}

func TestElicitationDeny(t *testing.T) {
	for _, decision := range []string{"deny", "decline"} {
		eng, rec := newEngine(t)
		el := &elicitor{decision: decision}
		cs := connect(t, New(eng, Options{}), clientOptions(el), legacyVersion)
		res, o := runCode(t, cs, twoDeletes)
		if res.IsError {
			t.Fatal(text(t, res))
		}
		wantResult(t, o, `["APPROVAL_DENIED","APPROVAL_DENIED"]`)
		if len(rec.list()) != 0 || el.count() != 2 {
			t.Errorf("%s: deleted %v after %d elicitations", decision, rec.list(), el.count())
		}
		// Uncaught, the denial fails the run.
		res, o = runCode(t, cs, `return await files.delete({path: "/x"})`)
		if !res.IsError || o.Error.Code != "APPROVAL_DENIED" {
			t.Errorf("uncaught denial: isError %v, %+v", res.IsError, o.Error)
		}
	}
}

// A 2026-07-28 client with elicitation gets input_required results; the
// SDK client answers them with its elicitation handler and retries.
func TestInputRequiredApproval(t *testing.T) {
	eng, rec := newEngine(t)
	el := &elicitor{decision: "approve"}
	cs := connect(t, New(eng, Options{}), clientOptions(el), newVersion)
	if got := cs.InitializeResult().ProtocolVersion; got != newVersion {
		t.Fatalf("protocol %s", got)
	}
	// Two pauses, one after the other: two rounds.
	res, o := runCode(t, cs, twoDeletes)
	if res.IsError {
		t.Fatal(text(t, res))
	}
	wantResult(t, o, `["/tmp/a","/tmp/b"]`)
	if got := rec.list(); !slices.Equal(got, []string{"/tmp/a", "/tmp/b"}) {
		t.Errorf("deleted %v", got)
	}
	if el.count() != 2 {
		t.Errorf("%d elicitations, want 2", el.count())
	}
	mustContain(t, "message", el.message(0), "tools.files.delete", "/tmp/a")

	// Concurrent calls pause together and are asked in one round.
	el2 := &elicitor{decision: "approve"}
	cs2 := connect(t, New(eng, Options{}), clientOptions(el2), newVersion)
	_, o = runCode(t, cs2, `
const r = await Promise.all([files.delete({path: "/c1"}), files.delete({path: "/c2"}), tools.add({a: 2, b: 2})]);
return r.map(x => x.deleted ?? x);`)
	wantResult(t, o, `["/c1","/c2",4]`)
	if el2.count() != 2 {
		t.Errorf("%d elicitations, want 2", el2.count())
	}
}

func TestInputRequiredDeny(t *testing.T) {
	eng, rec := newEngine(t)
	el := &elicitor{decision: "deny"}
	cs := connect(t, New(eng, Options{}), clientOptions(el), newVersion)
	_, o := runCode(t, cs, twoDeletes)
	wantResult(t, o, `["APPROVAL_DENIED","APPROVAL_DENIED"]`)
	if len(rec.list()) != 0 {
		t.Errorf("deleted %v", rec.list())
	}
}

// The round trip by hand: answers missing are asked again, a retried
// resume gets the first result, and a requestState that is not ours is a
// protocol error.
func TestInputRequiredByHand(t *testing.T) {
	eng, rec := newEngine(t)
	opts := clientOptions(&elicitor{decision: "approve"})
	opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	cs := connect(t, New(eng, Options{}), opts, newVersion)
	ctx := context.Background()
	args := map[string]any{"code": `return (await files.delete({path: "/h"})).deleted`}

	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if !first.NeedsInput() || first.RequestState == "" || len(first.InputRequests) != 1 {
		t.Fatalf("first call: needsInput %v, %d requests, state %q", first.NeedsInput(), len(first.InputRequests), first.RequestState)
	}
	ep, ok := first.InputRequests["call-1"].(*mcp.ElicitParams)
	if !ok {
		t.Fatalf("input requests %+v", first.InputRequests)
	}
	mustContain(t, "input request", ep.Message, "tools.files.delete", "/h")
	if len(rec.list()) != 0 {
		t.Fatal("the tool ran before approval")
	}

	// No answers: asked again, same state.
	again, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState,
		InputResponses: mcp.InputResponseMap{"call-1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "maybe"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if !again.NeedsInput() || again.RequestState != first.RequestState || again.InputRequests["call-1"] == nil {
		t.Fatalf("invalid answer: needsInput %v", again.NeedsInput())
	}

	// Other arguments with this state: protocol error.
	other := map[string]any{"code": `return 1`}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: other, RequestState: first.RequestState}); err == nil {
		t.Error("a retry with other code was accepted")
	}

	answer := mcp.InputResponseMap{"call-1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "approve"}}}
	var results []string
	for range 2 {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState, InputResponses: answer})
		if err != nil {
			t.Fatal(err)
		}
		if res.NeedsInput() || res.IsError {
			t.Fatalf("answered: needsInput %v, isError %v", res.NeedsInput(), res.IsError)
		}
		wantResult(t, structured(t, res), `"/h"`)
		results = append(results, text(t, res))
	}
	if results[0] != results[1] {
		t.Errorf("retried resume differs:\n%s\n%s", results[0], results[1])
	}
	if got := rec.list(); len(got) != 1 {
		t.Errorf("deleted %v, want once", got)
	}

	// A tampered state.
	bad := first.RequestState[:len(first.RequestState)-4] + "AAAA"
	if bad == first.RequestState {
		bad = "x" + bad
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: bad, InputResponses: answer}); err == nil || !strings.Contains(err.Error(), "requestState") {
		t.Errorf("tampered state: %v", err)
	}
}

// Without elicitation and without the approve tool, calls that need
// approval are denied and the run goes on.
func TestNoElicitationDenies(t *testing.T) {
	for _, version := range []string{newVersion, legacyVersion} {
		eng, rec := newEngine(t)
		cs := connect(t, New(eng, Options{}), clientOptions(nil), version)
		res, o := runCode(t, cs, `
let denied;
try { await files.delete({path: "/n"}); } catch (e) { denied = e.code + ": " + e.message; }
return {denied, sum: await tools.add({a: 1, b: 1})};`)
		if res.IsError {
			t.Fatal(text(t, res))
		}
		var r struct {
			Denied string
			Sum    float64
		}
		_ = json.Unmarshal(o.Result, &r)
		if !strings.HasPrefix(r.Denied, "APPROVAL_DENIED") || !strings.Contains(r.Denied, "cannot ask its user") || r.Sum != 2 {
			t.Errorf("%s: %s", version, o.Result)
		}
		if len(rec.list()) != 0 {
			t.Errorf("deleted %v", rec.list())
		}
	}
}

// Without elicitation but with the approve tool, the run pauses and the
// model is told to call approve.
func TestApproveTool(t *testing.T) {
	for _, version := range []string{newVersion, legacyVersion} {
		t.Run(version, func(t *testing.T) {
			eng, rec := newEngine(t)
			cs := connect(t, New(eng, Options{ApproveTool: true}), clientOptions(nil), version)
			res, o := runCode(t, cs, twoDeletes)
			if res.IsError || o.Status != "paused" || o.Token == "" || len(o.Pending) != 1 {
				t.Fatalf("isError %v, %+v", res.IsError, o)
			}
			if p := o.Pending[0]; p.Tool != "files.delete" || compactJSON(t, p.Args) != `{"path":"/tmp/a"}` {
				t.Errorf("pending %+v", p)
			}
			mustContain(t, "next", o.Next, "approve tool", `"decisions": "approve"`, "tools.files.delete")
			mustContain(t, "text mirror", text(t, res), `"status":"paused"`, o.Token)

			// Approve the first; the second pauses again.
			res = call(t, cs, "approve", map[string]any{"token": o.Token, "decisions": "approve"})
			o2 := structured(t, res)
			if o2.Status != "paused" || o2.Token == "" || o2.Token == o.Token || len(o2.Pending) != 1 {
				t.Fatalf("after approve: %+v", o2)
			}
			// A retry of the same approve gets the same result.
			again := structured(t, call(t, cs, "approve", map[string]any{"token": o.Token, "decisions": "approve"}))
			if again.Token != o2.Token {
				t.Errorf("retried approve: token %q, want %q", again.Token, o2.Token)
			}
			// Deny the second.
			res = call(t, cs, "approve", map[string]any{"token": o2.Token, "decisions": "deny"})
			wantResult(t, structured(t, res), `["/tmp/a","APPROVAL_DENIED"]`)
			if got := rec.list(); !slices.Equal(got, []string{"/tmp/a"}) {
				t.Errorf("deleted %v", got)
			}
			// Bad tokens are error results.
			res = call(t, cs, "approve", map[string]any{"token": "nonsense", "decisions": "approve"})
			if o := structured(t, res); !res.IsError || !strings.HasPrefix(string(o.Error.Code), "TOKEN_") {
				t.Errorf("bad token: %v %+v", res.IsError, o.Error)
			}
			res = call(t, cs, "approve", map[string]any{"token": o2.Token, "decisions": "yes"})
			if !res.IsError {
				t.Error("decisions \"yes\" accepted")
			}
		})
	}
}

// Concurrent retries of one resume run it once and all get its result.
func TestApproveConcurrentRetries(t *testing.T) {
	eng, rec := newEngine(t)
	s := New(eng, Options{ApproveTool: true})
	cs := connect(t, s, clientOptions(nil), newVersion)
	_, o := runCode(t, cs, `return (await files.delete({path: "/once"})).deleted`)
	if o.Status != "paused" {
		t.Fatalf("%+v", o)
	}
	const n = 8
	texts := make(chan string, n)
	errs := make(chan error, n)
	for range n {
		go func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "approve", Arguments: map[string]any{"token": o.Token, "decisions": "approve"}})
			if err != nil {
				errs <- err
				return
			}
			if len(res.Content) != 1 {
				errs <- fmt.Errorf("content %v", res.Content)
				return
			}
			texts <- res.Content[0].(*mcp.TextContent).Text
		}()
	}
	var first string
	for i := range n {
		select {
		case err := <-errs:
			t.Fatal(err)
		case txt := <-texts:
			if i == 0 {
				first = txt
			} else if txt != first {
				t.Errorf("results differ:\n%s\n%s", first, txt)
			}
		}
	}
	if !strings.Contains(first, `"result":"/once"`) {
		t.Errorf("result %s", first)
	}
	if got := rec.list(); len(got) != 1 {
		t.Errorf("deleted %v, want once", got)
	}
}
