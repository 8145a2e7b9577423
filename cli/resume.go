package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

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

func (l *idList) Type() string { return "N" }

func newResumeCmd(s Streams, g *globals) *cobra.Command {
	var (
		approveAll, denyAll, noPrompt bool
		approveIDs, denyIDs           idList
	)
	cmd := &cobra.Command{
		Use:   "resume TOKEN|- (--approve | --deny | --approve-id N | --deny-id N)",
		Short: "Continue a paused run",
		Long: `Continues a paused run: replays it (no tool runs twice), applies the
decisions to its pending calls, and goes on. A token resumes once.`,
		Example: "  modebox run --no-prompt prog.ts > token   # exit 3: paused, the token on stdout\n  modebox resume - --approve-id 1 --deny-id 2 < token",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("expected one TOKEN or - (stdin), got %d arguments", len(args))
			}
			return nil
		},
		RunE: jsonErrors(g, s, func(cmd *cobra.Command, args []string) error {
			if approveAll && denyAll {
				return usageError("--approve and --deny exclude each other")
			}
			if !approveAll && !denyAll && len(approveIDs) == 0 && len(denyIDs) == 0 {
				return usageError("say what to do with the pending calls: --approve, --deny, --approve-id N or --deny-id N")
			}
			token, err := readToken(args[0], s)
			if err != nil {
				return err
			}
			d := modebox.Decisions{ByID: map[int]modebox.Decision{}, Default: modebox.Deny}
			if approveAll {
				d.Default = modebox.Approve
			}
			for _, id := range approveIDs {
				d.ByID[id] = modebox.Approve
			}
			for _, id := range denyIDs {
				if _, dup := d.ByID[id]; dup {
					return usageError("call %d is both approved and denied", id)
				}
				d.ByID[id] = modebox.Deny
			}
			scr := newScreen(s)
			d.Approver = approverFor(s, noPrompt, scr)
			ctx, stopSignals := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stopSignals()
			eng, stop, err := openEngine(ctx, g, true, s)
			if ctx.Err() != nil {
				return cancelledStart(eng, stop, err, g, s)
			}
			if err != nil {
				return err
			}
			defer stop()
			ctx, streamed := streamLogs(ctx, g, scr)
			res, err := eng.Resume(ctx, token, d)
			if err != nil {
				return runError(bindingHint(err, g))
			}
			return status(printResult(res, g, streamed, s))
		}),
	}
	f := cmd.Flags()
	f.BoolVar(&approveAll, "approve", false, "approve every pending call")
	f.BoolVar(&denyAll, "deny", false, "deny every pending call")
	f.Var(&approveIDs, "approve-id", "approve pending call N (repeatable, or N,M)")
	f.Var(&denyIDs, "deny-id", "deny pending call N (repeatable, or N,M)")
	f.BoolVar(&noPrompt, "no-prompt", false, "never ask on the terminal: calls that need approval pause the run again")
	return cmd
}

func newRevokeCmd(s Streams, g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke TOKEN|-",
		Short: "Spend a paused run's token without resuming it",
		Long: `Spends a continuation token without resuming its run: none of its
pending calls runs, and a later resume of it is refused with TOKEN_USED
(in every process and replica that shares the token store). The token
must open with this machine's key and not have expired; the tools and
configuration it was issued under need not be the current ones.
Rotating the key instead revokes every token the old key sealed.
With --output json it prints {"revoked": true}.`,
		Example: "  modebox run --no-prompt prog.ts > token   # exit 3: paused, the token on stdout\n  modebox revoke - < token",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("expected one TOKEN or - (stdin), got %d arguments", len(args))
			}
			return nil
		},
		RunE: jsonCommandErrors(g, s, func(cmd *cobra.Command, args []string) error {
			token, err := readToken(args[0], s)
			if err != nil {
				return err
			}
			cfg, err := loadConfig(g.config)
			if err != nil {
				return configError(err)
			}
			g.file = cfg.Path
			c, closeC, err := cliContinuations(cmd.Context(), cfg)
			var te *modebox.TokenError
			switch {
			case errors.As(err, &te): // the token store's URL or schema
				return &exitError{code: ExitToken, err: err}
			case err != nil:
				return configError(err)
			}
			defer closeC()
			// an engine with no tools: only its keys and token store are used
			eng, err := modebox.New(modebox.EngineConfig{Continuations: c})
			if err != nil {
				return failure(err)
			}
			defer eng.Close()
			if err := eng.Revoke(token); err != nil {
				return runError(err)
			}
			if g.json() {
				fmt.Fprintln(s.Stdout, `{"revoked":true}`)
				return nil
			}
			fmt.Fprintln(s.Stdout, "revoked: the token will not resume")
			return nil
		}),
	}
}

// readToken is the token argument: the token itself, or "-" for one
// read from stdin (surrounding white space dropped).
func readToken(arg string, s Streams) (string, error) {
	if arg != "-" {
		return arg, nil
	}
	b, err := io.ReadAll(io.LimitReader(s.Stdin, 2<<20))
	if err != nil {
		return "", failure(err)
	}
	return strings.TrimSpace(string(b)), nil
}

// bindingHint adds a hint to a token refused for another tool set when
// no configuration file was used: a token resumed in another directory,
// without the --config its run had, meets an engine without its tools.
func bindingHint(err error, g *globals) error {
	var te *modebox.TokenError
	if g.file != "" || !errors.As(err, &te) || te.Code != modebox.CodeTokenBinding {
		return err
	}
	return &modebox.TokenError{Code: te.Code, Message: te.Message + " (no configuration file was used: if the run used one, pass it with --config)", Err: te.Err}
}

// runError maps an error from Engine.Run or Engine.Resume to its exit
// status: a refused token exits ExitToken, a bad option ExitUsage.
func runError(err error) error {
	var te *modebox.TokenError
	if errors.As(err, &te) {
		return &exitError{code: ExitToken, err: err}
	}
	var ce *modebox.ConfigError
	if errors.As(err, &ce) {
		return &exitError{code: ExitUsage, err: err}
	}
	return failure(err)
}
