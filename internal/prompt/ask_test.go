package prompt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/syncbuf"
)

var simple = Request{Tool: "github.create_issue", Reason: `policy "ask"`, Args: json.RawMessage(`{"title":"hi"}`)}

func TestAsk(t *testing.T) {
	long := Request{Tool: "fs.write", Reason: "r", Args: json.RawMessage(`{"data":"` + strings.Repeat("x", 999) + `END"}`)}
	tests := []struct {
		name  string
		req   Request
		input string
		want  Answer
		says  []string
	}{
		{"y", simple, "y\n", ApproveOnce, []string{"→ approved once"}},
		{"Y", simple, "Y\n", ApproveOnce, nil},
		{"yes crlf", simple, " yes \r\n", ApproveOnce, nil},
		{"y at EOF", simple, "y", ApproveOnce, nil},
		{"n", simple, "n\n", Deny, []string{"→ denied\n"}},
		{"no", simple, "NO\n", Deny, nil},
		{"empty is no", simple, "\n", Deny, []string{"→ denied\n"}},
		{"cr is enter", simple, "\ry\n", Deny, nil},
		{"a", simple, "a\n", ApproveTool, []string{"github.create_issue will not ask again this run"}},
		{"always", simple, "always\n", ApproveTool, nil},
		{"EOF", simple, "", Deny, []string{"→ denied (end of input)"}},
		{"garbage then y", simple, "garbage\ny\n", ApproveOnce, []string{"Please answer y"}},
		{"garbage then EOF", simple, "yy\n", Deny, []string{"end of input"}},
		{"terminal report", simple, "\x1b[12;1R\nn\n", Deny, []string{"Please answer"}},
		{"too long", simple, strings.Repeat("y", 300) + "\nn\n", Deny, []string{"Please answer"}},
		{"too many invalid", simple, strings.Repeat("maybe\n", maxInvalid) + "y\n", Deny, []string{"→ denied (no valid answer)"}},
		{"view then y", long, "v\ny\n", ApproveOnce, []string{"802 more bytes", "END\"", "→ approved once"}},
		{"view then EOF", long, "v\n", Deny, []string{"END\"", "end of input"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			p := &Prompter{In: strings.NewReader(tt.input), Out: &out}
			got, err := p.Ask(context.Background(), tt.req)
			if err != nil || got != tt.want {
				t.Fatalf("Ask = %v, %v; want %v, nil\n%s", got, err, tt.want, out.String())
			}
			text := out.String()
			checkSafe(t, text, true)
			if !strings.Contains(text, "── modebox: a tool call needs your approval") ||
				!strings.Contains(text, "Allow "+tt.req.Tool+"? [y] once  [a] always, this run  [v] view all  [N] no: ") {
				t.Errorf("no prompt in\n%s", text)
			}
			flat := strings.ReplaceAll(text, "\n"+contGutter, "")
			for _, s := range tt.says {
				if !strings.Contains(flat, s) {
					t.Errorf("no %q in\n%s", s, text)
				}
			}
		})
	}
}

func TestAskViewPages(t *testing.T) {
	elems := make([]string, 100)
	for i := range elems {
		elems[i] = fmt.Sprint(i)
	}
	r := Request{Tool: "t", Args: json.RawMessage("[" + strings.Join(elems, ",") + "]")}
	var out bytes.Buffer
	p := &Prompter{In: strings.NewReader("v\n\nq\ny\n"), Out: &out, MaxLines: 5}
	got, err := p.Ask(context.Background(), r)
	if err != nil || got != ApproveOnce {
		t.Fatalf("Ask = %v, %v", got, err)
	}
	text := out.String()
	if n := strings.Count(text, "Enter for more, q to stop"); n != 2 {
		t.Errorf("%d pager prompts, want 2:\n%s", n, text)
	}
	if !strings.Contains(text, "-- rows 40 of 107:") || !strings.Contains(text, gutter+"  50,") {
		t.Errorf("second page missing:\n%s", text)
	}
	if strings.Contains(text, gutter+"  90,") {
		t.Errorf("third page shown after q:\n%s", text)
	}
	if n := strings.Count(text, "Allow t?"); n != 2 {
		t.Errorf("%d questions, want 2", n)
	}
}

// waitFor polls cond until it holds or the test times out.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func TestAskCancel(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	var out syncbuf.Buffer
	p := &Prompter{In: pr, Out: &out}

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		waitFor(t, "first question", func() bool { return strings.Contains(out.String(), "Allow") })
		cancel()
	}()
	got, err := p.Ask(ctx, simple)
	if got != Deny || !errors.Is(err, context.Canceled) {
		t.Fatalf("Ask = %v, %v; want Deny, context.Canceled", got, err)
	}
	if !strings.Contains(out.String(), "→ denied (context canceled)") {
		t.Errorf("no cancel note:\n%s", out.String())
	}

	// The read abandoned by the first prompt answers the second one,
	// since its line is typed after the second prompt appears.
	go func() {
		waitFor(t, "second question", func() bool { return strings.Count(out.String(), "Allow") == 2 })
		io.WriteString(pw, "a\n")
	}()
	got, err = p.Ask(context.Background(), simple)
	if got != ApproveTool || err != nil {
		t.Fatalf("second Ask = %v, %v; want ApproveTool, nil", got, err)
	}

	// Already done: no prompt at all.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	before := out.String()
	if got, err := p.Ask(ctx, simple); got != Deny || !errors.Is(err, context.Canceled) {
		t.Fatalf("Ask on a done context = %v, %v", got, err)
	}
	if out.String() != before {
		t.Errorf("prompted on a done context")
	}
}

func TestAskDiscardsStaleLine(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	var out syncbuf.Buffer
	p := &Prompter{In: pr, Out: &out}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		waitFor(t, "question", func() bool { return strings.Contains(out.String(), "Allow") })
		cancel()
	}()
	if _, err := p.Ask(ctx, simple); !errors.Is(err, context.Canceled) {
		t.Fatalf("Ask: %v", err)
	}
	// Typed while no prompt is shown: must not answer the next prompt.
	io.WriteString(pw, "y\n")
	waitFor(t, "the stale line", func() bool { return len(p.lines.resp) == 1 })
	go func() {
		waitFor(t, "second question", func() bool { return strings.Count(out.String(), "Allow") == 2 })
		io.WriteString(pw, "n\n")
	}()
	if got, err := p.Ask(context.Background(), simple); got != Deny || err != nil {
		t.Fatalf("Ask = %v, %v; want Deny from the fresh line", got, err)
	}
}

func TestAskOneAtATime(t *testing.T) {
	var out syncbuf.Buffer
	p := &Prompter{In: strings.NewReader("y\nn\n"), Out: &out}
	answers := make(chan Answer, 2)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := p.Ask(context.Background(), simple)
			if err != nil {
				t.Error(err)
			}
			answers <- a
		}()
	}
	wg.Wait()
	close(answers)
	got := map[Answer]bool{}
	for a := range answers {
		got[a] = true
	}
	if !got[ApproveOnce] || !got[Deny] {
		t.Errorf("answers %v", got)
	}
	text := out.String()
	first := strings.Index(text, "→")
	if first < 0 || strings.Count(text[:first], "── modebox") != 1 {
		t.Errorf("prompts interleaved:\n%s", text)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken terminal") }

func TestAskErrors(t *testing.T) {
	if got, err := (&Prompter{Out: io.Discard}).Ask(context.Background(), simple); got != Deny || err == nil {
		t.Errorf("nil In: %v, %v", got, err)
	}
	p := &Prompter{In: strings.NewReader("y\n"), Out: failWriter{}}
	if got, err := p.Ask(context.Background(), simple); got != Deny || err == nil {
		t.Errorf("broken Out: %v, %v", got, err)
	}
	p = &Prompter{In: io.MultiReader(strings.NewReader("x\n"), errReader{}), Out: io.Discard}
	if got, err := p.Ask(context.Background(), simple); got != Deny || err == nil || err.Error() != "read failed" {
		t.Errorf("read error: %v, %v", got, err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("read failed") }

func TestAnswerString(t *testing.T) {
	for a, want := range map[Answer]string{Deny: "deny", ApproveOnce: "approve once", ApproveTool: "approve tool", 7: "Answer(7)"} {
		if a.String() != want {
			t.Errorf("%d.String() = %q", int(a), a.String())
		}
	}
}

// A question asked anew each time (a forwarded elicitation) offers no
// "always, this run": "a" is not an answer and nothing says "will not ask
// again".
func TestAskOnce(t *testing.T) {
	r := simple
	r.Once = true
	var out bytes.Buffer
	p := &Prompter{In: strings.NewReader("a\ny\n"), Out: &out}
	got, err := p.Ask(context.Background(), r)
	if err != nil || got != ApproveOnce {
		t.Fatalf("Ask = %v, %v; want ApproveOnce\n%s", got, err, out.String())
	}
	text := out.String()
	if strings.Contains(text, "[a]") || strings.Contains(text, "will not ask again") || !strings.Contains(text, "Please answer y (once), v (view all) or n (no).") {
		t.Errorf("a once-only question offered or took \"always\":\n%s", text)
	}
}
