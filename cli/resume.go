package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/modebox/modebox"
)

// idList is a repeatable flag of call ids.
type idList []int

func (l *idList) String() string { return fmt.Sprint(*l) }

func (l *idList) Set(s string) error {
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n <= 0 {
			return fmt.Errorf("invalid call id %q", part)
		}
		*l = append(*l, n)
	}
	return nil
}

func resumeCmd(args []string, s Streams) int {
	fs := flag.NewFlagSet("resume", flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	fs.Usage = func() {
		fmt.Fprint(s.Stderr, "Usage: modebox resume [flags] TOKEN|-\n\nContinues a paused run: replays it (no tool runs twice), applies the\ndecisions to its pending calls, and goes on. A token resumes once.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	approveAll := fs.Bool("approve", false, "approve every pending call")
	denyAll := fs.Bool("deny", false, "deny every pending call")
	var approveIDs, denyIDs idList
	fs.Var(&approveIDs, "approve-id", "approve pending call N (repeatable, or N,M)")
	fs.Var(&denyIDs, "deny-id", "deny pending call N (repeatable, or N,M)")
	output := fs.String("output", "text", "output: text or json")
	noPrompt := fs.Bool("no-prompt", false, "never ask on the terminal: calls that need approval pause the run again")
	cfgPath := configFlag(fs)
	// flags may come before or after the token ("modebox resume TOKEN
	// --approve", as README shows, and "modebox resume --approve TOKEN")
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return ExitOK
			}
			return ExitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(positional) != 1 || (*approveAll && *denyAll) {
		fs.Usage()
		return ExitUsage
	}
	if !*approveAll && !*denyAll && len(approveIDs) == 0 && len(denyIDs) == 0 {
		fmt.Fprintln(s.Stderr, "modebox resume: say what to do with the pending calls: --approve, --deny, --approve-id N or --deny-id N")
		return ExitUsage
	}
	token := positional[0]
	if token == "-" {
		b, err := io.ReadAll(io.LimitReader(s.Stdin, 2<<20))
		if err != nil {
			fmt.Fprintf(s.Stderr, "modebox resume: %v\n", err)
			return ExitUsage
		}
		token = strings.TrimSpace(string(b))
	}
	d := modebox.Decisions{ByID: map[int]modebox.Decision{}, Default: modebox.Deny}
	if *approveAll {
		d.Default = modebox.Approve
	}
	for _, id := range approveIDs {
		d.ByID[id] = modebox.Approve
	}
	for _, id := range denyIDs {
		if _, dup := d.ByID[id]; dup {
			fmt.Fprintf(s.Stderr, "modebox resume: call %d is both approved and denied\n", id)
			return ExitUsage
		}
		d.ByID[id] = modebox.Deny
	}
	d.Approver = approverFor(s, *noPrompt)
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stopSignals()
	eng, stop, ok := openEngine(ctx, "resume", *cfgPath, true, s)
	if !ok {
		return ExitUsage
	}
	defer stop()
	res, err := eng.Resume(ctx, token, d)
	if err != nil {
		var te *modebox.TokenError
		if errors.As(err, &te) {
			fmt.Fprintf(s.Stderr, "%s: %s\n", te.Code, te.Message)
			return ExitUsage
		}
		fmt.Fprintf(s.Stderr, "modebox resume: %v\n", err)
		return ExitUsage
	}
	return printResult(res, *output, s)
}
