package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

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

// The same through approval pages (URL-mode elicitation, over HTTP): "approve
// for the rest of this run" clicked on the page before a source was read
// does not answer for the sink call after the source. The person gets a
// second page, which names the source; the URL approver keeps no answers
// by tool name (it used to, and the sink call after the source ran without
// a page).
func TestURLApprovalBeforeSourceAsksAgain(t *testing.T) {
	var mu sync.Mutex
	var sent []string
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{
		{Namespace: "db", Name: "secret", Source: true, Handler: func(context.Context, json.RawMessage) (any, error) { return "s3cr3t", nil }},
		{Namespace: "net", Name: "post", Sink: true, Policy: modebox.PolicyAsk, Handler: func(_ context.Context, a json.RawMessage) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			sent = append(sent, string(a))
			return true, nil
		}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	links, completed := make(chan string, 8), make(chan string, 8)
	cs := urlClient(t, endpoint, links, completed)
	done := runAsync(t, cs, `await net.post({m: "hi"}); const s = await db.secret(); await net.post({m: s}); await net.post({m: s}); return 1`)
	var pages []pageDecision
	var o output
wait:
	for {
		select {
		case link := <-links:
			// the person approves the tool for the rest of the run, each time
			pages = append(pages, decideOnPage(t, link, "approve_tool"))
		case o = <-done:
			break wait
		case <-time.After(2 * time.Minute):
			t.Fatal("the run did not end within two minutes")
		}
	}
	wantResult(t, o, `1`)
	if len(pages) != 2 {
		t.Fatalf("%d approval pages, want 2 (the approval before the source does not cover the sink after it); sent %v", len(pages), sent)
	}
	for i, p := range pages {
		if p.status != http.StatusOK || !strings.Contains(p.answer, "rest of the run") {
			t.Errorf("decision %d: %d %s", i, p.status, p.answer)
		}
	}
	if !strings.Contains(pages[1].page, "tools.db.secret") || !strings.Contains(pages[1].page, "s3cr3t") {
		t.Errorf("the second page does not name the source and show what the call sends:\n%s", pages[1].page)
	}
	if len(sent) != 3 {
		t.Errorf("sent %v", sent)
	}
}

// A question marked Once (a downstream server's elicitation, through
// modebox.Ask) cannot be approved for the rest of the run on an approval
// page: the page offers approve once and deny only, a forged approve_tool
// is refused, the answer is Approve, and the next question is asked on a
// page of its own.
func TestURLApprovalOnce(t *testing.T) {
	var got []modebox.Decision
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{
		{Namespace: "ext", Name: "twice", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			for i := range 2 {
				d, err := modebox.Ask(ctx, modebox.ApprovalRequest{Tool: "ext (asks for input)", Reason: fmt.Sprintf("question %d", i+1), Args: json.RawMessage(`{}`), Once: true})
				if err != nil {
					return nil, err
				}
				got = append(got, d)
			}
			return len(got), nil
		}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	links, completed := make(chan string, 8), make(chan string, 8)
	cs := urlClient(t, endpoint, links, completed)
	done := runAsync(t, cs, `return await ext.twice({})`)
	var o output
	pages := 0
wait:
	for {
		select {
		case link := <-links:
			pages++
			forged := decideOnPage(t, link, "approve_tool")
			if strings.Contains(forged.page, `id="approve_tool"`) {
				t.Errorf("page %d offers approve for the rest of the run for a question that is asked once:\n%s", pages, forged.page)
			}
			if forged.status != http.StatusBadRequest || !strings.Contains(forged.answer, string(modebox.CodeBadForm)) {
				t.Errorf("approve_tool posted on page %d: %d %s", pages, forged.status, forged.answer)
			}
			if d := decideOnPage(t, link, "approve"); d.status != http.StatusOK || !strings.Contains(d.answer, "Approved once") {
				t.Errorf("approve on page %d: %d %s", pages, d.status, d.answer)
			}
		case o = <-done:
			break wait
		case <-time.After(2 * time.Minute):
			t.Fatal("the run did not end within two minutes")
		}
	}
	wantResult(t, o, `2`)
	if pages != 2 || len(got) != 2 || got[0] != modebox.Approve || got[1] != modebox.Approve {
		t.Fatalf("%d pages, decisions %v; want 2 pages, each answered Approve", pages, got)
	}
}

// The elicitation form of a question marked Once offers approve and deny
// only (the SDK client then refuses to send anything else).
func TestElicitOnceOffersNoApproveTool(t *testing.T) {
	var got []modebox.Decision
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{
		{Namespace: "ext", Name: "once", Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			d, err := modebox.Ask(ctx, modebox.ApprovalRequest{Tool: "ext (asks for input)", Reason: "a question", Args: json.RawMessage(`{}`), Once: true})
			got = append(got, d)
			return err == nil, nil
		}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	el := &elicitor{decision: "approve"}
	cs := connect(t, New(eng, Options{}), clientOptions(el), legacyVersion)
	_, o := runCode(t, cs, `return await ext.once({})`)
	wantResult(t, o, `true`)
	if el.count() != 1 || strings.Contains(el.schemas[0], answerApproveTool) || !strings.Contains(el.schemas[0], answerApprove) {
		t.Fatalf("%d forms, schema %v", el.count(), el.schemas)
	}
	if len(got) != 1 || got[0] != modebox.Approve {
		t.Fatalf("decisions %v, want [Approve]", got)
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
