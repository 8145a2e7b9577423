package cli

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/prompt"
)

// terminalApprover asks on the terminal, one question at a time.
// While it asks, the run's streamed lines are held (see screen).
type terminalApprover struct {
	mu  sync.Mutex
	p   *prompt.Prompter
	scr *screen
}

func (a *terminalApprover) Approve(ctx context.Context, req modebox.ApprovalRequest) (modebox.Decision, error) {
	a.scr.begin()
	defer a.scr.end()
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
// process's terminal and prompting is allowed, which holds scr's lines
// while it asks; nil means calls that need approval pause the run.
func approverFor(s Streams, noPrompt bool, scr *screen) modebox.Approver {
	if noPrompt {
		return nil
	}
	in, ok1 := s.Stdin.(*os.File)
	out, ok2 := s.Stderr.(*os.File)
	if !ok1 || !ok2 || !prompt.IsTerminal(in.Fd()) || !prompt.IsTerminal(out.Fd()) {
		return nil
	}
	return &terminalApprover{p: &prompt.Prompter{In: in, Out: out}, scr: scr}
}

// printPaused reports a paused run in text mode: the token on stdout, the
// pending calls on stderr, and the commands that resume it, exactly as
// they can be run (with the configuration file the run used, which the
// token is bound to).
func printPaused(res *modebox.Result, cfgFile string, s Streams) int {
	fmt.Fprintf(s.Stderr, "paused: %d call(s) need approval\n", len(res.Pending))
	for _, p := range res.Pending {
		fmt.Fprintf(s.Stderr, "  #%d tools.%s — %s\n", p.ID, oneLine(p.Tool), oneLine(p.Reason))
		// the whole call: whoever runs "modebox resume --approve" approves
		// what is printed here, and nothing here can "press v"
		fmt.Fprint(s.Stderr, prompt.Render(prompt.Request{Tool: p.Tool, Reason: p.Reason, Args: p.Args}, math.MaxInt32, math.MaxInt32))
	}
	if res.Token == "" {
		fmt.Fprintln(s.Stderr, "modebox: no continuation token (continuations are not configured)")
		return ExitPaused
	}
	cmd := "modebox resume"
	if cfgFile != "" {
		if abs, err := filepath.Abs(cfgFile); err == nil {
			cfgFile = abs
		}
		cmd += " --config " + shellQuote(cfgFile)
	}
	if len(res.Token) <= maxHintToken {
		cmd += " " + res.Token
	} else {
		cmd += " - <TOKENFILE"
		fmt.Fprintln(s.Stderr, "the token (on stdout) is long: save it to TOKENFILE, then")
	}
	fmt.Fprintf(s.Stderr, "approve with: %s --approve\n", cmd)
	fmt.Fprintf(s.Stderr, "deny with:    %s --deny\n", cmd)
	if len(res.Pending) > 1 {
		var rest []string
		for _, p := range res.Pending[1:] {
			rest = append(rest, strconv.Itoa(p.ID))
		}
		fmt.Fprintf(s.Stderr, "approve #%d only: %s --approve-id %d --deny-id %s\n", res.Pending[0].ID, cmd, res.Pending[0].ID, strings.Join(rest, ","))
	}
	fmt.Fprintln(s.Stdout, res.Token)
	return ExitPaused
}

// oneLine sanitises s for a one-line summary: no newlines either.
func oneLine(s string) string {
	return strings.ReplaceAll(prompt.Sanitize(s), "\n", `\n`)
}

// maxHintToken is the longest token the resume hint spells out.
const maxHintToken = 8 << 10

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}
