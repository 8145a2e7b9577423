package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/modebox/modebox"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A 2026-07-28 pause with two pending calls gets one approval page; that
// page offers approve once and deny only, since one click approving
// "this tool for the rest of the run" would approve every tool on it,
// including a later repo.delete({name: "production"}) nobody saw. A
// forged approve_tool is refused; approve once lets the shown calls run
// and the later call pauses again.
func TestMultiCallPageOffersNoRunWideApproval(t *testing.T) {
	var mu sync.Mutex
	var ran []string
	mk := func(ns, name string) modebox.Tool {
		return modebox.Tool{Namespace: ns, Name: name, Description: name, Policy: modebox.PolicyAsk,
			Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
				mu.Lock()
				ran = append(ran, ns+"."+name+" "+string(args))
				mu.Unlock()
				return "ok", nil
			}}
	}
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{mk("notes", "read"), mk("repo", "delete")}})
	if err != nil {
		t.Fatal(err)
	}
	_, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}
	opts.ElicitationHandler = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	cs := connectHTTP(t, endpoint, "tok", opts, newVersion)
	code := `await Promise.all([notes.read({id: 1}), repo.delete({name: "scratch"})]);
return await repo.delete({name: "production"});`
	args := map[string]any{"code": code}
	first, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: args})
	if err != nil || !first.NeedsInput() {
		t.Fatalf("first call: %v %+v", err, first)
	}
	link := first.InputRequests[pageInputKey].(*mcp.ElicitParams).URL
	forged := decideOnPage(t, link, answerApproveTool)
	if strings.Contains(forged.page, `id="approve_tool"`) {
		t.Errorf("a page of two calls offers approval for the rest of the run:\n%s", forged.page)
	}
	if forged.status != http.StatusBadRequest || !strings.Contains(forged.answer, string(modebox.CodeBadForm)) {
		t.Fatalf("approve_tool posted on a page of two calls: %d %s", forged.status, forged.answer)
	}
	if d := decideOnPage(t, link, answerApprove); d.status != http.StatusOK || !strings.Contains(d.answer, "Approved once") {
		t.Fatalf("approve: %d %s", d.status, d.answer)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState,
		InputResponses: mcp.InputResponseMap{pageInputKey: &mcp.ElicitResult{Action: "accept"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.NeedsInput() {
		t.Errorf("the unseen call did not pause: %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(ran) != 2 {
		t.Errorf("ran %q, want the two shown calls", ran)
	}
	for _, r := range ran {
		if strings.Contains(r, "production") {
			t.Errorf("repo.delete({name: \"production\"}) ran without being shown to anyone")
		}
	}
}
