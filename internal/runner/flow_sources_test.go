package runner

import (
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/toolbox"
)

// TestFlowSecondSourceAsksAgain checks that a sink approved for the rest
// of the run after one source asks again once a second, different source
// is read, and that the reason names every source read so far.
func TestFlowSecondSourceAsksAgain(t *testing.T) {
	c := &calls{}
	r := newRunner(t, []toolbox.Tool{
		c.tool("notes", policy.Allow, true, false),
		c.tool("secrets", policy.Allow, true, false),
		c.tool("send", policy.Allow, false, true),
	}, nil, false)
	a := &approver{d: ApproveTool}
	out := run(t, r, `
await tools.notes({});
await tools.send({n: 1}); // asked: after notes; approved for the run
await tools.send({n: 2}); // covered
await tools.notes({});    // the same source again: still covered
await tools.send({n: 3});
await tools.secrets({});  // a new source
await tools.send({n: 4}); // asked again, saying why
return "done";`, Request{Approver: a})
	if v := value(t, out); v != "done" {
		t.Fatalf("got %v", v)
	}
	reqs := a.asked()
	if len(reqs) != 2 {
		t.Fatalf("asked %d times, want 2: %+v", len(reqs), reqs)
	}
	if !strings.Contains(reqs[0].Reason, "tools.notes") || strings.Contains(reqs[0].Reason, "tools.secrets") {
		t.Errorf("first reason: %q", reqs[0].Reason)
	}
	if !strings.Contains(reqs[1].Reason, "tools.notes") || !strings.Contains(reqs[1].Reason, "tools.secrets") {
		t.Errorf("second reason does not name both sources: %q", reqs[1].Reason)
	}
	if !strings.Contains(reqs[1].Reason, "before tools.secrets was read") {
		t.Errorf("second reason does not say the approval predates the new source: %q", reqs[1].Reason)
	}
}

// TestFlowSourcesListBounded checks that the reason names the first few
// sources and counts the rest.
func TestFlowSourcesListBounded(t *testing.T) {
	got := sourcesText([]string{"a", "b", "c", "d", "e", "f", "g"})
	if !strings.Contains(got, "a, b, c, d, e") || !strings.Contains(got, "and 2 more") {
		t.Errorf("sourcesText: %q", got)
	}
	if got := sourcesText([]string{"a"}); got != "a (a source) was" {
		t.Errorf("one source: %q", got)
	}
}
