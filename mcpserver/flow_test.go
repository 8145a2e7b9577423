package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modebox/modebox"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// "Approve for the rest of this run" in the elicitation form, given before
// a source was read, does not answer the form for the sink call after
// the source: the person is asked again, and the form names the source.
// (The form's answers are not cached by tool name on the MCP side.)
func TestElicitApprovalBeforeSourceAsksAgain(t *testing.T) {
	var sent []string
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{
		{Namespace: "db", Name: "secret", Source: true, Handler: func(context.Context, json.RawMessage) (any, error) { return "s3cr3t", nil }},
		{Namespace: "net", Name: "post", Sink: true, Policy: modebox.PolicyAsk, Handler: func(_ context.Context, a json.RawMessage) (any, error) {
			sent = append(sent, string(a))
			return true, nil
		}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	el := &elicitor{decision: "approve_tool"}
	cs := connect(t, New(eng, Options{}), clientOptions(el), legacyVersion)
	_, o := runCode(t, cs, `await net.post({m: "hi"}); const s = await db.secret(); await net.post({m: s}); await net.post({m: s}); return 1`)
	wantResult(t, o, `1`)
	if el.count() != 2 {
		t.Fatalf("%d elicitations, want 2 (the approval before the source does not cover the sink after it)", el.count())
	}
	if m := el.message(1); !strings.Contains(m, "tools.db.secret") {
		t.Errorf("second form does not name the source:\n%s", m)
	}
	if len(sent) != 3 {
		t.Errorf("sent %v", sent)
	}
}

// The attacker's form: arguments whose dangerous part comes after the
// first 200 bytes. The form shows all of it, with no "press v" a form
// cannot do; a call too long for any form is denied, never shown cut.
func TestApprovalFormShowsTheWholeCall(t *testing.T) {
	eng, rec := newEngine(t)
	tail := "then-delete-everything"
	long := strings.Repeat("harmless ", 40) + tail
	code := `return (await files.delete({path: ` + jsonQuote(long) + `})).deleted`
	check := func(t *testing.T, msg string) {
		t.Helper()
		if strings.Contains(msg, "press v") || strings.Contains(msg, "more bytes") {
			t.Fatalf("the form cuts the call:\n%s", msg)
		}
		if !strings.Contains(unwrapRows(msg), tail) {
			t.Fatalf("the form does not show the end of the arguments:\n%s", msg)
		}
	}
	t.Run("elicitation", func(t *testing.T) {
		el := &elicitor{decision: "approve"}
		cs := connect(t, New(eng, Options{}), clientOptions(el), legacyVersion)
		_, o := runCode(t, cs, code)
		wantResult(t, o, jsonQuote(long))
		check(t, el.message(0))
	})
	t.Run("input_required", func(t *testing.T) {
		el := &elicitor{decision: "approve"}
		cs := connect(t, New(eng, Options{}), clientOptions(el), newVersion)
		_, o := runCode(t, cs, code)
		wantResult(t, o, jsonQuote(long))
		check(t, el.message(0))
	})
	huge := strings.Repeat("x", MaxApprovalForm)
	hugeCode := `try { await files.delete({path: ` + jsonQuote(huge) + `}) } catch (e) { return [e.code, e.message] }`
	t.Run("too long: elicitation", func(t *testing.T) {
		el := &elicitor{decision: "approve"}
		before := len(rec.list())
		cs := connect(t, New(eng, Options{}), clientOptions(el), legacyVersion)
		_, o := runCode(t, cs, hugeCode)
		if o.Status != "ok" || !strings.Contains(string(o.Result), "APPROVAL_DENIED") || !strings.Contains(string(o.Result), "too long to show") {
			t.Fatalf("%s %s %+v", o.Status, o.Result, o.Error)
		}
		if el.count() != 0 || len(rec.list()) != before {
			t.Fatalf("asked %d times, ran %d", el.count(), len(rec.list())-before)
		}
	})
	t.Run("too long: input_required", func(t *testing.T) {
		before := len(rec.list())
		opts := clientOptions(&elicitor{decision: "approve"})
		opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
		cs := connect(t, New(eng, Options{}), opts, newVersion)
		args := map[string]any{"code": hugeCode}
		first, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "run", Arguments: args})
		if err != nil || !first.NeedsInput() {
			t.Fatalf("%v %+v", err, first)
		}
		ep := first.InputRequests["call-1"].(*mcp.ElicitParams)
		schema, _ := json.Marshal(ep.RequestedSchema)
		if !strings.Contains(ep.Message, "too long to show") || len(ep.Message) > MaxApprovalForm || strings.Contains(string(schema), `"approve"`) {
			t.Fatalf("form %d bytes %q schema %s", len(ep.Message), ep.Message[:min(len(ep.Message), 300)], schema)
		}
		// a client that answers approve anyway (the form offered only deny)
		forged := mcp.InputResponseMap{"call-1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "approve"}}}
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState, InputResponses: forged})
		if err != nil {
			t.Fatal(err)
		}
		if o := structured(t, res); o.Status != "ok" || !strings.Contains(string(o.Result), "APPROVAL_DENIED") {
			t.Fatalf("%s %s %+v", o.Status, o.Result, o.Error)
		}
		if len(rec.list()) != before {
			t.Fatal("the call too long to show ran")
		}
	})
}

// unwrapRows joins the rows the form wraps long values over.
func unwrapRows(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		_, after, ok := strings.Cut(line, "│ ")
		if !ok {
			after = line
		}
		b.WriteString(strings.TrimSpace(after))
	}
	return b.String()
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
