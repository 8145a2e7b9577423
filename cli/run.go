package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/prompt"
	"github.com/modebox/modebox/internal/tsx"
)

// maxProgram caps the size of a program read from a file or stdin.
const maxProgram = 4 << 20

// envelope is what `--output json` prints.
type envelope struct {
	Status      string                `json:"status"`
	Result      json.RawMessage       `json:"result"`
	Logs        []modebox.Log         `json:"logs"`
	LogsDropped int                   `json:"logsDropped,omitempty"`
	Files       *modebox.FilesReport  `json:"files,omitempty"`
	Error       *modebox.Error        `json:"error"`
	Stats       modebox.Stats         `json:"stats"`
	Token       string                `json:"token,omitempty"`
	Pending     []modebox.PendingCall `json:"pending,omitempty"`
}

func runCmd(args []string, s Streams) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	fs.Usage = func() {
		fmt.Fprint(s.Stderr, "Usage: modebox run [flags] FILE|-\n\nRuns a JS/TS program (the body of an async function) and prints its\nresult as JSON on stdout; logs go to stderr.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var (
		lim      modebox.Limits
		memory   int64
		maxValue int64
		maxLog   int64
		lang     = fs.String("lang", "", "language: js or ts (default: from the file extension, else ts)")
		output   = fs.String("output", "text", "output: text or json (one envelope {status, result, logs, error, stats})")
		seed     = fs.Uint64("seed", 0, "Math.random seed (0: random)")
		cfgPath  = configFlag(fs)
		noPrompt = fs.Bool("no-prompt", false, "never ask on the terminal: calls that need approval pause the run (exit 3, token on stdout)")
	)
	fs.DurationVar(&lim.Timeout, "timeout", 0, "wall-clock limit, e.g. 5s (default 30s)")
	fs.Var(sizeFlag{&memory}, "memory", "JS heap limit, e.g. 64MiB (default 64MiB)")
	fs.Uint64Var(&lim.Fuel, "fuel", 0, "fuel limit: interrupt polls of ~10,000 branches each (default 0: unlimited)")
	fs.IntVar(&lim.MaxCalls, "max-calls", 0, "tool calls per run (default 1000)")
	fs.IntVar(&lim.MaxConcurrency, "max-concurrency", 0, "tool calls in flight (default 16)")
	fs.Var(sizeFlag{&maxValue}, "max-value", "largest value crossing the boundary, e.g. 4MiB (default 4MiB)")
	fs.Var(sizeFlag{&maxLog}, "max-log", "console output kept, e.g. 256KiB (default 256KiB)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(s.Stderr, "modebox run: expected one FILE or - (stdin)")
		fs.Usage()
		return ExitUsage
	}
	if *output != "text" && *output != "json" {
		fmt.Fprintf(s.Stderr, "modebox run: --output must be text or json, not %q\n", *output)
		return ExitUsage
	}
	lim.Memory = memory
	if maxValue > 1<<31-1 || maxLog > 1<<31-1 {
		fmt.Fprintln(s.Stderr, "modebox run: --max-value and --max-log must be below 2GiB")
		return ExitUsage
	}
	lim.MaxValue, lim.MaxLog = int(maxValue), int(maxLog)

	path := fs.Arg(0)
	code, err := readProgram(path, s.Stdin)
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox run: %v\n", err)
		return ExitUsage
	}
	opts := modebox.RunOptions{Lang: *lang, Limits: lim, Seed: *seed, Approver: approverFor(s, *noPrompt)}
	if path != "-" {
		opts.Filename = filepath.Base(path)
		if opts.Lang == "" {
			if l, ok := tsx.LangFromName(path); ok {
				opts.Lang = l.String()
			}
		}
	}
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stopSignals()
	eng, stop, ok := openEngine(ctx, "run", *cfgPath, false, s)
	if !ok {
		return ExitUsage
	}
	defer stop()
	res, err := eng.Run(ctx, string(code), opts)
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox run: %v\n", err)
		return ExitUsage
	}
	return printResult(res, *output, s)
}

func printResult(res *modebox.Result, output string, s Streams) int {
	if output == "json" {
		return printEnvelope(res, s)
	}
	if res.Status == modebox.StatusPaused {
		for _, l := range res.Logs {
			fmt.Fprintln(s.Stderr, l.Message)
		}
		return printPaused(res, s)
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
		return nil, fmt.Errorf("program is larger than %d bytes", maxProgram)
	}
	return b, nil
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
	for _, l := range res.Logs {
		if l.Level == "log" || l.Level == "info" {
			fmt.Fprintln(s.Stderr, l.Message)
		} else {
			fmt.Fprintf(s.Stderr, "[%s] %s\n", l.Level, l.Message)
		}
	}
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
		fmt.Fprintf(s.Stderr, "%s: %s\n", prompt.Sanitize(e.Code), prompt.Sanitize(e.Message)) // tool errors carry server text
		if e.Line > 0 {
			pos := fmt.Sprintf("line %d", e.Line)
			if e.Column > 0 {
				pos += fmt.Sprintf(", column %d", e.Column)
			}
			fmt.Fprintf(s.Stderr, "  at %s: %s\n", pos, strings.TrimSpace(e.Source))
		}
		if e.Stack != "" {
			fmt.Fprintln(s.Stderr, strings.TrimRight(e.Stack, "\n"))
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
