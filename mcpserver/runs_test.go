package mcpserver

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/net/html"
)

// listedRun is one row of the runs page.
type listedRun struct {
	section string // "In flight" or "Finished ..."
	kind    string
	status  string
	// duration is the run's, as printed.
	duration string
	calls    []listedCall
}

// listedCall is one tool call of a row: its text, and its duration and wait
// for approval as printed ("" when absent).
type listedCall struct {
	text, took, waited string
}

// getRunsPage fetches the runs page with the bearer token and parses it.
func getRunsPage(t *testing.T, base, token string) []listedRun {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/runs", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("runs page: %d %s", res.StatusCode, b)
	}
	doc, err := html.Parse(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	var runs []listedRun
	section := ""
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "h2" {
			section = textOf(n)
		}
		if n.Type == html.ElementNode && n.Data == "tr" && hasClass(n, "run") {
			var cells []*html.Node
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.Data == "td" {
					cells = append(cells, c)
				}
			}
			if len(cells) != 7 {
				t.Fatalf("a run row has %d cells", len(cells))
			}
			r := listedRun{section: section, kind: textOf(cells[1]), duration: textOf(cells[3]), status: textOf(cells[4])}
			for c := cells[6].FirstChild; c != nil; c = c.NextSibling {
				if c.Type != html.ElementNode || !hasClass(c, "call") {
					continue
				}
				pc := listedCall{text: textOf(c)}
				for s := c.FirstChild; s != nil; s = s.NextSibling {
					switch {
					case hasClass(s, "took"):
						pc.took = textOf(s)
					case hasClass(s, "waited"):
						pc.waited = strings.TrimSuffix(strings.TrimPrefix(textOf(s), " ("), " waiting for approval)")
					}
				}
				r.calls = append(r.calls, pc)
			}
			runs = append(runs, r)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return runs
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func hasClass(n *html.Node, class string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" && strings.Contains(" "+a.Val+" ", " "+class+" ") {
			return true
		}
	}
	return false
}

// checkDuration fails unless s is a duration as the page prints it (Go's
// format, rounded) and not negative; it returns the duration.
func checkDuration(t *testing.T, what, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || formatDuration(d) != s {
		t.Errorf("%s: duration %q (%v)", what, s, err)
	}
	return d
}

// The runs page gives each call the run made its duration, says which
// calls policy let through, and a resume (the retry of a 2026-07-28 run
// answered in its input request) times the calls it makes while the calls
// it replays from before the pause say so, untimed.
func TestRunsPageCallDurations(t *testing.T) {
	eng, rec := newEngine(t)
	_, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	base := strings.TrimSuffix(endpoint, DefaultPath)
	opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
		Form: &mcp.FormElicitationCapabilities{}}}, MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}
	opts.ElicitationHandler = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	cs := connectHTTP(t, endpoint, "tok", opts, newVersion)
	args := map[string]any{"code": `const s = await tools.add({a: 1, b: 2}); const d = await files.delete({path: "/timed"}); return [s, d.deleted, await math.mul({a: 2, b: 3})]`}
	first, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: args})
	if err != nil || !first.NeedsInput() {
		t.Fatalf("first call: %v %+v", err, first)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState,
		InputResponses: mcp.InputResponseMap{"call-2": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "approve"}}}})
	if err != nil {
		t.Fatal(err)
	}
	wantResult(t, structured(t, res), `[3,"/timed",6]`)
	if got := rec.list(); len(got) != 1 {
		t.Fatalf("deleted %v", got)
	}

	runs := getRunsPage(t, base, "tok")
	for _, r := range runs {
		checkDuration(t, "run "+r.kind, r.duration)
	}
	if len(runs) != 2 || runs[0].kind != "resume" || runs[1].kind != "run" || !strings.HasPrefix(runs[0].section, "Finished") {
		t.Fatalf("runs %+v", runs)
	}
	paused, resumed := runs[1], runs[0]
	if paused.status != "paused" || len(paused.calls) != 2 {
		t.Fatalf("the paused run: %+v", paused)
	}
	if c := paused.calls[0]; !strings.HasPrefix(c.text, "tools.add: allowed by policy") || c.took == "" || c.waited != "" {
		t.Errorf("the paused run's policy-allowed call: %+v", c)
	} else {
		checkDuration(t, "tools.add", c.took)
	}
	if c := paused.calls[1]; !strings.Contains(c.text, "tools.files.delete (failed or not run): waiting for approval (paused)") || c.took != "" {
		t.Errorf("the paused run's pending call: %+v", c)
	}

	if resumed.status != "ok" || len(resumed.calls) != 3 {
		t.Fatalf("the resume: %+v", resumed)
	}
	if c := resumed.calls[0]; c.text != "tools.add: allowed by policy; replayed from before the pause" || c.took != "" {
		t.Errorf("the replayed call: %+v", c)
	}
	if c := resumed.calls[1]; !strings.HasPrefix(c.text, "tools.files.delete: approved once by the MCP client's user (input request)") || c.took == "" {
		t.Errorf("the approved call: %+v", c)
	} else {
		checkDuration(t, "tools.files.delete", c.took)
	}
	if c := resumed.calls[2]; !strings.HasPrefix(c.text, "tools.math.mul: allowed by policy") || c.took == "" {
		t.Errorf("the call after the pause: %+v", c)
	} else {
		checkDuration(t, "tools.math.mul", c.took)
	}
}

// formatDuration prints what time.ParseDuration reads back, never
// negative, for durations from nanoseconds to hours.
func TestFormatDuration(t *testing.T) {
	for _, d := range []time.Duration{-time.Second, 0, 1, 499, 500, 37 * time.Microsecond, 999_999, time.Millisecond,
		4_213_456, 999_999_999, time.Second, 1_234_567_890, 90 * time.Minute, 1<<63 - 1} {
		s := formatDuration(d)
		back, err := time.ParseDuration(s)
		if err != nil || back < 0 {
			t.Errorf("%d: %q does not read back (%v)", d, s, err)
			continue
		}
		if d >= 0 && (back-d > time.Millisecond || d-back > time.Millisecond) {
			t.Errorf("%d: %q is off by more than the rounding", d, s)
		}
	}
}
