package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/prompt"
	"github.com/modebox/modebox/internal/tsx"
)

// maxProgram caps the size of a program read from a file or stdin: the
// engine's own limit, so that a larger program is the run's
// PROGRAM_TOO_LARGE (see errProgramTooLarge).
const maxProgram = modebox.MaxProgramSize

// errProgramTooLarge is a program over maxProgram: the run fails with
// PROGRAM_TOO_LARGE, as the engine fails it, and nothing runs.
type errProgramTooLarge struct{ size int64 } // size is -1 when unknown (stdin)

func (e *errProgramTooLarge) Error() string {
	if e.size < 0 {
		return fmt.Sprintf("the program is over the limit of %d bytes", maxProgram)
	}
	return fmt.Sprintf("the program is %d bytes, over the limit of %d", e.size, maxProgram)
}

// envelope is what `--output json` prints.
type envelope struct {
	Status      modebox.Status        `json:"status"`
	Result      json.RawMessage       `json:"result"`
	Logs        []modebox.Log         `json:"logs"`
	LogsDropped int                   `json:"logsDropped,omitempty"`
	Files       *modebox.FilesReport  `json:"files,omitempty"`
	Error       *modebox.Error        `json:"error"`
	Stats       modebox.Stats         `json:"stats"`
	Token       string                `json:"token,omitempty"`
	Pending     []modebox.PendingCall `json:"pending,omitempty"`
}

func newRunCmd(s Streams, g *globals) *cobra.Command {
	var (
		lim      modebox.Limits
		memory   int64
		maxValue int64
		maxLog   int64
		lang     string
		seed     uint64
		noPrompt bool
	)
	cmd := &cobra.Command{
		Use:   "run [flags] FILE|-",
		Short: "Run a program (the body of an async function)",
		Long: `Runs a JS/TS program (the body of an async function) and prints its
result as JSON on stdout; console lines go to stderr as they are logged.`,
		Example: "  modebox run examples/hello.ts\n  echo 'return 6 * 7' | modebox run -\n  modebox run examples/hello.ts --timeout 5s --memory 32MiB --output json",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("expected one FILE or - (stdin), got %d arguments", len(args))
			}
			return nil
		},
		RunE: jsonErrors(g, s, func(cmd *cobra.Command, args []string) error {
			switch lang {
			case "", "js", "ts", "javascript", "typescript":
			default:
				return usageError("--lang must be js or ts, got %q", lang)
			}
			if memory != 0 && memory < modebox.MinMemory {
				return usageError("--memory must be at least 512KiB (the engine cannot compile a program in less), got %d bytes", memory)
			}
			lim.Memory = memory
			if maxValue > 1<<31-1 || maxLog > 1<<31-1 {
				return usageError("--max-value and --max-log must be below 2GiB")
			}
			lim.MaxValue, lim.MaxLog = int(maxValue), int(maxLog)
			path := args[0]
			code, err := readProgram(path, s.Stdin)
			var big *errProgramTooLarge
			if errors.As(err, &big) {
				return status(printResult(failedRun(modebox.CodeProgramTooLarge, big.Error()), g, false, s))
			}
			if err != nil {
				// a file that cannot be read is the command failing, not
				// a usage error: no usage text, and an envelope with -o json
				return failure(fmt.Errorf("cannot read the program: %w", err))
			}
			scr := newScreen(s)
			opts := modebox.RunOptions{Lang: modebox.Lang(lang), Limits: lim, Seed: seed, Approver: approverFor(s, noPrompt, scr)}
			if path != "-" {
				opts.Filename = filepath.Base(path)
				if opts.Lang == "" {
					if l, ok := tsx.LangFromName(path); ok {
						opts.Lang = modebox.Lang(l.String())
					}
				}
			}
			ctx, stopSignals := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stopSignals()
			eng, stop, err := openEngine(ctx, g, false, s)
			if ctx.Err() != nil {
				return cancelledStart(eng, stop, err, g, s)
			}
			if err != nil {
				return err
			}
			defer stop()
			if err := flagsNarrow(lim, eng.Limits()); err != nil {
				return err
			}
			ctx, streamed := streamLogs(ctx, g, scr)
			res, err := eng.Run(ctx, string(code), opts)
			if err != nil {
				return runError(err)
			}
			return status(printResult(res, g, streamed, s))
		}),
	}
	f := cmd.Flags()
	f.StringVar(&lang, "lang", "", "language: js or ts (default: from the file extension, else ts)")
	f.Var(uintCount(&seed), "seed", "Math.random seed (0: random)")
	f.BoolVar(&noPrompt, "no-prompt", false, "never ask on the terminal: calls that need approval pause the run (exit 3, token on stdout)")
	f.DurationVar(&lim.Timeout, "timeout", 0, "wall-clock limit, e.g. 5s (default 30s)")
	f.Var(sizeFlag{&memory}, "memory", "JS heap limit, e.g. 64MiB (default 64MiB)")
	f.Var(uintCount(&lim.Fuel), "fuel", "fuel limit: interrupt polls of ~10,000 branches each (default 0: unlimited)")
	f.Var(intCount(&lim.MaxCalls), "max-calls", "tool calls per run (default 1000)")
	f.Var(intCount(&lim.MaxConcurrency), "max-concurrency", "tool calls in flight (default 16)")
	f.Var(sizeFlag{&maxValue}, "max-value", "largest value crossing the boundary, e.g. 4MiB (default 4MiB)")
	f.Var(sizeFlag{&maxLog}, "max-log", "console output kept, e.g. 256KiB (default 256KiB)")
	return cmd
}

func printResult(res *modebox.Result, g *globals, streamed bool, s Streams) int {
	if g.json() {
		return printEnvelope(res, s)
	}
	if !streamed {
		scr := newScreen(s)
		for _, l := range res.Logs {
			scr.line(logLine(l.Level, l.Message))
		}
	}
	if res.Status == modebox.StatusPaused {
		return printPaused(res, g.file, s)
	}
	return printText(res, s)
}

func readProgram(path string, stdin io.Reader) ([]byte, error) {
	var r io.Reader
	if path == "-" {
		r = stdin
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxProgram+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxProgram {
		size := int64(-1)
		if f, ok := r.(*os.File); ok && path != "-" {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				size = fi.Size()
			}
		}
		return nil, &errProgramTooLarge{size: size}
	}
	return b, nil
}

// failedRun is the result of a run that failed with code before the
// program started.
func failedRun(code modebox.Code, msg string) *modebox.Result {
	return &modebox.Result{Status: modebox.StatusError, Error: &modebox.Error{Code: code, Message: msg}}
}

// cancelledStart ends a run or resume whose context was cancelled (Ctrl-C)
// while its engine was opened (the MCP servers starting) as a Ctrl-C
// during the run ends it: CANCELLED, exit 1, the envelope with -o json.
// It stops the engine when it was opened after all.
func cancelledStart(eng *modebox.Engine, stop func(), err error, g *globals, s Streams) error {
	if err == nil && eng != nil {
		stop()
	}
	return status(printResult(failedRun(modebox.CodeCancelled, "the run was cancelled while the MCP servers started"), g, false, s))
}

// jsonErrors is run with --output json printing an error envelope on
// stdout for an error that ends the command before it printed one (a
// configuration or token refused, a failure to start): status "error"
// and error {code, message}, as a failed run's, and the same exit
// status. A usage error without a stable code prints none: it is the
// command line that is wrong, and it is said on stderr with the usage.
func jsonErrors(g *globals, s Streams, run func(*cobra.Command, []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		err := run(cmd, args)
		if code, msg, ok := jsonErrorOf(g, err, codes.RunFailed); ok {
			printEnvelope(failedRun(code, msg), s)
		}
		return err
	}
}

// jsonCommandErrors is jsonErrors for the commands that print something
// other than a run's envelope (init, types, search): with --output json
// an error with a stable code prints {"status": "error", "error": {code,
// message}} on stdout, the same exit status as the text.
func jsonCommandErrors(g *globals, s Streams, run func(*cobra.Command, []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		err := run(cmd, args)
		if code, msg, ok := jsonErrorOf(g, err, ""); ok {
			b, _ := json.Marshal(struct {
				Status string `json:"status"`
				Error  struct {
					Code    codes.Code `json:"code"`
					Message string     `json:"message"`
				} `json:"error"`
			}{Status: "error", Error: struct {
				Code    codes.Code `json:"code"`
				Message string     `json:"message"`
			}{code, msg}})
			fmt.Fprintln(s.Stdout, string(b))
		}
		return err
	}
}

// jsonErrorOf is the stable code and message an --output json error
// envelope gives err, if it gets one: a configuration error's code (else
// CONFIG_INVALID), a token's, any coded error's, else failed (a failure,
// exit 1, without a code of its own; "" for none). Usage errors get none.
func jsonErrorOf(g *globals, err error, failed codes.Code) (codes.Code, string, bool) {
	var ee *exitError
	if err == nil || !g.json() || !errors.As(err, &ee) || ee.err == nil {
		return "", "", false
	}
	code := codes.Of(ee.err)
	var te *modebox.TokenError
	switch {
	case errors.As(ee.err, &te):
		code = te.Code
	case ee.code == ExitConfig:
		code = configCode(ee.err)
	case code == "" && ee.code == ExitFailed:
		code = failed
	}
	if code == "" {
		return "", "", false
	}
	msg := ee.err.Error()
	if c := string(code) + ": "; strings.HasPrefix(msg, c) {
		msg = msg[len(c):]
	}
	return code, msg, true
}

func exitFor(res *modebox.Result) int {
	if res.Status == modebox.StatusPaused {
		return ExitPaused
	}
	if res.Error != nil {
		return ExitFailed
	}
	return ExitOK
}

func printEnvelope(res *modebox.Result, s Streams) int {
	env := envelope{
		Status:      res.Status,
		Result:      res.Value,
		Logs:        res.Logs,
		LogsDropped: res.LogsDropped,
		Files:       res.Files,
		Error:       res.Error,
		Stats:       res.Stats,
		Token:       res.Token,
		Pending:     res.Pending,
	}
	if env.Logs == nil {
		env.Logs = []modebox.Log{}
	}
	if env.Result == nil {
		env.Result = json.RawMessage("null")
	}
	b, err := json.Marshal(env)
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox run: %v\n", err)
		return ExitFailed
	}
	fmt.Fprintln(s.Stdout, string(b))
	return exitFor(res)
}

func printText(res *modebox.Result, s Streams) int {
	if res.LogsDropped > 0 {
		fmt.Fprintf(s.Stderr, "[modebox] %d log lines dropped (over --max-log)\n", res.LogsDropped)
	}
	if f := res.Files; f != nil {
		for _, p := range f.Committed {
			fmt.Fprintf(s.Stderr, "[modebox] wrote %s\n", p)
		}
		for _, c := range f.Conflicts {
			fmt.Fprintf(s.Stderr, "[modebox] not written: %s: %s\n", c.Path, c.Reason)
		}
	}
	if res.Error != nil {
		e := res.Error
		// tool errors carry server text: sanitised
		if e.Name != "" && !strings.HasPrefix(e.Message, e.Name+":") {
			fmt.Fprintf(s.Stderr, "%s: %s: %s\n", prompt.Sanitize(string(e.Code)), prompt.Sanitize(e.Name), prompt.Sanitize(e.Message))
		} else {
			fmt.Fprintf(s.Stderr, "%s: %s\n", prompt.Sanitize(string(e.Code)), prompt.Sanitize(e.Message))
		}
		if e.Line > 0 {
			pos := fmt.Sprintf("line %d", e.Line)
			if e.Column > 0 {
				pos += fmt.Sprintf(", column %d", e.Column)
			}
			// the program's own text and names: sanitised as well
			fmt.Fprintf(s.Stderr, "  at %s: %s\n", pos, prompt.Sanitize(strings.TrimSpace(e.Source)))
		}
		if st := withoutRepeat(programFrames(e.Stack), e); st != "" {
			fmt.Fprintln(s.Stderr, prompt.Sanitize(st))
		}
		return ExitFailed
	}
	v := res.Value
	if v == nil {
		v = json.RawMessage("null")
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, v, "", "  "); err != nil {
		buf.Reset()
		buf.Write(v)
	}
	fmt.Fprintln(s.Stdout, buf.String())
	return ExitOK
}

// withoutRepeat drops the lines of stack that only repeat what the lines
// above it said: a syntax error's "file:line:column: message", when that
// position and message are e's own.
func withoutRepeat(stack string, e *modebox.Error) string {
	if e.Line <= 0 || stack == "" {
		return stack
	}
	repeat := fmt.Sprintf(":%d:%d: %s", e.Line, e.Column, e.Message)
	var out []string
	for _, l := range strings.Split(stack, "\n") {
		if !strings.HasSuffix(strings.TrimSpace(l), repeat) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// programFrames is a stack with only the program's frames: frames inside
// the engine ("(native)" builtins, "<input>" of JSON.parse and eval) are
// dropped, and the program's own function is shown as its file.
func programFrames(stack string) string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(stack, "\n"), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasSuffix(t, "(native)") || strings.HasPrefix(t, "at <input>") {
			continue
		}
		if rest, ok := strings.CutPrefix(t, "at "+mainFunction+" ("); ok {
			l = strings.Replace(l, t, "at "+strings.TrimSuffix(rest, ")"), 1)
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// mainFunction is the name the program's body runs under.
const mainFunction = "__modebox_main"

// flagsNarrow refuses a cap flag above the engine's limit (the
// configuration's "limits", else the default), naming the flag in the
// user's units: flags can lower the configured limits, never raise them.
func flagsNarrow(run, eng modebox.Limits) error {
	size := func(n int64) string {
		switch {
		case n%(1<<30) == 0:
			return strconv.FormatInt(n>>30, 10) + "GiB"
		case n%(1<<20) == 0:
			return strconv.FormatInt(n>>20, 10) + "MiB"
		case n%(1<<10) == 0:
			return strconv.FormatInt(n>>10, 10) + "KiB"
		}
		return strconv.FormatInt(n, 10) + " bytes"
	}
	for _, c := range []struct {
		flag     string
		run, eng int64
		show     func(int64) string
	}{
		{"--timeout", int64(run.Timeout), int64(eng.Timeout), func(n int64) string { return time.Duration(n).String() }},
		{"--memory", run.Memory, eng.Memory, size},
		{"--max-calls", int64(run.MaxCalls), int64(eng.MaxCalls), func(n int64) string { return strconv.FormatInt(n, 10) }},
		{"--max-concurrency", int64(run.MaxConcurrency), int64(eng.MaxConcurrency), func(n int64) string { return strconv.FormatInt(n, 10) }},
		{"--max-value", int64(run.MaxValue), int64(eng.MaxValue), size},
		{"--max-log", int64(run.MaxLog), int64(eng.MaxLog), size},
	} {
		if c.eng > 0 && c.run > c.eng {
			return usageError("%s %s is above the limit of %s (modebox.json's \"limits\", or the default): flags can lower the configured limits, not raise them; raise it in the configuration", c.flag, c.show(c.run), c.show(c.eng))
		}
	}
	if run.Fuel > 0 && eng.Fuel > 0 && run.Fuel > eng.Fuel {
		return usageError("--fuel %d is above the limit of %d (modebox.json's \"limits\"): flags can lower the configured limits, not raise them", run.Fuel, eng.Fuel)
	}
	return nil
}
