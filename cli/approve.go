package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/prompt"
)

// terminalApprover asks on the terminal, one question at a time.
type terminalApprover struct {
	mu sync.Mutex
	p  *prompt.Prompter
}

func (a *terminalApprover) Approve(ctx context.Context, req modebox.ApprovalRequest) (modebox.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ans, err := a.p.Ask(ctx, prompt.Request{Tool: req.Tool, Reason: req.Reason, Args: req.Args, Once: req.Once})
	if err != nil {
		return modebox.Deny, err
	}
	switch ans {
	case prompt.ApproveOnce:
		return modebox.Approve, nil
	case prompt.ApproveTool:
		if req.Once {
			return modebox.Approve, nil
		}
		return modebox.ApproveTool, nil
	}
	return modebox.Deny, nil
}

// approverFor returns a terminal approver when stdin and stderr are the
// process's terminal and prompting is allowed; nil means calls that need
// approval pause the run.
func approverFor(s Streams, noPrompt bool) modebox.Approver {
	if noPrompt {
		return nil
	}
	in, ok1 := s.Stdin.(*os.File)
	out, ok2 := s.Stderr.(*os.File)
	if !ok1 || !ok2 || !prompt.IsTerminal(in.Fd()) || !prompt.IsTerminal(out.Fd()) {
		return nil
	}
	return &terminalApprover{p: &prompt.Prompter{In: in, Out: out}}
}

// printPaused reports a paused run in text mode: the token on stdout, the
// pending calls on stderr.
func printPaused(res *modebox.Result, s Streams) int {
	fmt.Fprintf(s.Stderr, "paused: %d call(s) need approval\n", len(res.Pending))
	for _, p := range res.Pending {
		fmt.Fprintf(s.Stderr, "  #%d tools.%s — %s\n", p.ID, oneLine(p.Tool), oneLine(p.Reason))
		fmt.Fprint(s.Stderr, prompt.Render(prompt.Request{Tool: p.Tool, Reason: p.Reason, Args: p.Args}, 200, 20))
	}
	if res.Token == "" {
		fmt.Fprintln(s.Stderr, "modebox: no continuation token (continuations are not configured)")
		return ExitPaused
	}
	fmt.Fprintln(s.Stderr, "resume with: modebox resume TOKEN --approve|--deny  (the token is on stdout)")
	fmt.Fprintln(s.Stdout, res.Token)
	return ExitPaused
}

// oneLine sanitises s for a one-line summary: no newlines either.
func oneLine(s string) string {
	return strings.ReplaceAll(prompt.Sanitize(s), "\n", `\n`)
}
