// Package modebox runs model-written JavaScript and TypeScript programs in
// a sandbox and gives them authority only through tools.
//
// A program is the body of an async function: `return` gives the result and
// top-level `await` works. It runs in QuickJS compiled to WebAssembly under
// wazero, with no WASI: no files, sockets, environment or ambient
// randomness. Tools are async functions under `tools`. Every run has caps on
// memory, wall-clock time, fuel, host calls, concurrency, value size and log
// size, and each cap has a stable error code.
//
//	add := modebox.MustTool("add", "Adds two numbers.",
//		func(ctx context.Context, in struct{ A, B int }) (int, error) { return in.A + in.B, nil })
//	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{add}})
//	res, err := eng.Run(ctx, `return await tools.add({A: 1, B: 2})`, modebox.RunOptions{})
//
// This package is the API: its types, New, Run, Resume and Close. The work
// is done by internal packages (see docs/architecture.md): internal/runner
// runs a program (gate, approvals, pause and resume), internal/toolbox
// names and describes the tools, internal/policy matches rules, and each
// built-in is a package under internal/builtin.
package modebox

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/builtin"
	"github.com/modebox/modebox/internal/builtin/all"
	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/guest"
	"github.com/modebox/modebox/internal/runner"
	"github.com/modebox/modebox/internal/toolbox"
	"github.com/modebox/modebox/internal/tsx"
)

// MaxProgramSize caps the source of one program (4 MiB).
const MaxProgramSize = runner.MaxProgramSize

// Version is the modebox release.
const Version = "0.1.0-dev"

// ImageHash is the sha256 (hex) of the engine image: the wasm module, the
// JS prelude and the host/guest protocol version.
func ImageHash() string { return guest.ImageHash() }

// Imports lists what the engine module imports (module.name): exactly the
// event channel and the clock.
func Imports() []string { return append([]string(nil), guest.Imports...) }

// Engine runs programs against a fixed set of tools. It is safe for
// concurrent use.
type Engine struct {
	runner *runner.Runner
	box    *toolbox.Box
	caps   []*builtin.Capability
}

// New checks the configuration, compiles the tools' schemas and loads the
// engine image (compiled once per process, see EngineConfig.Image).
func New(cfg EngineConfig) (*Engine, error) {
	if err := cfg.Limits.Validate("EngineConfig.Limits"); err != nil {
		return nil, err
	}
	eng, err := cfg.Image.load()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrEngine, err)
	}
	at := cfg.ApprovalTimeout
	switch {
	case at == 0:
		at = DefaultApprovalTimeout
	case at < 0:
		return nil, &ConfigError{Field: "EngineConfig.ApprovalTimeout", Reason: "must not be negative"}
	}
	sealer, err := newSealer(cfg.Continuations)
	if err != nil {
		return nil, err
	}
	slots, err := runner.NewSlots(cfg.MaxRuns, cfg.MaxQueued, cfg.QueueTimeout)
	if err != nil {
		return nil, err
	}
	caps, err := newBuiltins(cfg)
	if err != nil {
		return nil, err
	}
	box, err := toolbox.New(cfg.Tools, caps, cfg.Policies, cfg.Flows)
	if err != nil {
		_ = all.Close(caps)
		return nil, err
	}
	bind, err := binding(cfg, box)
	if err != nil {
		_ = all.Close(caps)
		return nil, err
	}
	return &Engine{
		runner: &runner.Runner{
			Engine: eng, Box: box, Limits: cfg.Limits, Slots: slots, Sealer: sealer,
			Binding: bind, ApprovalTimeout: at,
		},
		box:  box,
		caps: caps,
	}, nil
}

// Close releases what the built-in capabilities hold (the shell's network
// proxy, the mounts' open directories). Runs must have ended. An engine
// without built-ins has nothing to release.
func (e *Engine) Close() error { return all.Close(e.caps) }

// Run runs one program. The error is for invalid options only: everything
// that goes wrong with the program (syntax, exceptions, caps, crashes) is
// in Result.Error with a stable code. ctx's observer (WithObserver) is not
// called once Run has returned: Run waits for a call of it in progress,
// and events of a tool that outlives the run are dropped.
func (e *Engine) Run(ctx context.Context, code string, opts RunOptions) (*Result, error) {
	lang := tsx.TS
	if opts.Lang != "" {
		l, err := tsx.ParseLang(string(opts.Lang))
		if err != nil {
			return nil, &ConfigError{Field: "RunOptions.Lang", Reason: err.Error()}
		}
		lang = l
	}
	ctx, endObserve := gateObserver(ctx)
	defer endObserve()
	out, err := e.runner.Run(ctx, runner.Request{
		Code: code, Lang: lang, Filename: opts.Filename, Limits: opts.Limits, Policies: opts.Policies,
		Seed: opts.Seed, Approver: opts.Approver, Journal: opts.Journal, Observe: engineObserver(ctx),
	})
	if err != nil {
		return nil, err
	}
	return result(out), nil
}

// observerGate passes a run's events to the observer WithObserver gave
// until the run's Run or Resume returns, and drops later ones (a call's
// end, or a tool's progress, from a tool that outlived the run): an
// embedder may close what its observer feeds once Run returns. close
// waits for a call of the observer in progress to return.
type observerGate struct {
	mu     sync.RWMutex
	fn     func(Event)
	closed bool
}

func (g *observerGate) observe(ev Event) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if !g.closed {
		g.fn(ev)
	}
}

func (g *observerGate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// gateObserver returns ctx with its observer (WithObserver), if any,
// behind a gate that end closes: once end has returned, the observer is
// not called again. Run and Resume call end before they return.
func gateObserver(ctx context.Context) (_ context.Context, end func()) {
	fn, _ := ctx.Value(observerKey{}).(func(Event))
	if fn == nil {
		return ctx, func() {}
	}
	g := &observerGate{fn: fn}
	return context.WithValue(ctx, observerKey{}, g.observe), g.close
}

// result turns a run's outcome into the public Result.
func result(out *runner.Outcome) *Result {
	switch {
	case out.Refused != nil:
		return &Result{Status: StatusError, Error: &Error{Code: out.Refused.Code, Message: out.Refused.Message}}
	case out.Syntax != nil:
		return syntaxResult(out.Syntax, out.Filename)
	}
	res := convertResult(out.Result, out.Prog, out.Filename)
	if out.Files != nil {
		res.Files = &FilesReport{Committed: out.Files.Committed}
		for _, c := range out.Files.Conflicts {
			res.Files.Conflicts = append(res.Files.Conflicts, FileConflict{Path: c.Path, Reason: c.Reason})
		}
	}
	if out.Result.Paused {
		res.Status = StatusPaused
		res.Pending = out.Pending
		res.Token = out.Token
	}
	return res
}

func syntaxResult(err error, filename string) *Result {
	res := &Result{Status: StatusError}
	if te, ok := err.(*tsx.Error); ok && len(te.Diagnostics) > 0 {
		d := te.Diagnostics[0]
		res.Error = &Error{
			Code:    CodeSyntaxError,
			Name:    "SyntaxError",
			Message: d.Message,
			Line:    d.Line,
			Column:  d.Column,
			Source:  clipSource(d.LineText, d.Column),
			Stack:   strings.ReplaceAll(te.Error(), te.Filename, filename),
		}
		return res
	}
	res.Error = &Error{Code: CodeSyntaxError, Name: "SyntaxError", Message: err.Error()}
	return res
}

// MaxSourceLine bounds Error.Source: a program may be one line of
// megabytes, and each error would carry it all, past the run's value limit.
const MaxSourceLine = 240

// clipSource returns line, or for a longer one the MaxSourceLine bytes
// around the 1-based byte column col (0: the line's start), cut at
// character boundaries and marked with "…".
func clipSource(line string, col int) string {
	if len(line) <= MaxSourceLine {
		return line
	}
	from := max(0, min(col-1-MaxSourceLine/2, len(line)-MaxSourceLine))
	to := from + MaxSourceLine
	for from > 0 && !utf8.RuneStart(line[from]) {
		from--
	}
	for to < len(line) && !utf8.RuneStart(line[to]) {
		to++
	}
	out := line[from:to]
	if from > 0 {
		out = "…" + out
	}
	if to < len(line) {
		out += "…"
	}
	return out
}

var frameRE = regexp.MustCompile(`main\.js:(\d+)`)

func convertResult(r *engine.Result, prog *tsx.Program, filename string) *Result {
	res := &Result{
		Value:       r.Value,
		LogsDropped: r.LogsDropped,
		Stats: Stats{
			Duration:   r.Stats.Duration,
			Fuel:       r.Stats.Fuel,
			HostCalls:  r.Stats.HostCalls,
			PeakMemory: r.Stats.PeakMemory,
		},
		Journal: r.Journal,
		Status:  StatusOK,
	}
	for _, l := range r.Logs {
		res.Logs = append(res.Logs, Log{Level: l.Level, Message: l.Message})
	}
	if r.Err == nil {
		return res
	}
	res.Status = StatusError
	res.Value = nil
	e := &Error{Code: r.Err.Code, Message: r.Err.Message, Name: r.Err.Name, JSCode: r.Err.JSCode}
	if r.Err.Stack != "" {
		stack := dropPreludeFrames(r.Err.Stack)
		if m := frameRE.FindStringSubmatch(stack); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				if line, _, ok := prog.Original(n, 0); ok {
					e.Line = line
					e.Source = clipSource(prog.LineText(line), 0)
				}
			}
		}
		stack = prog.RewriteStack(stack, "main.js")
		e.Stack = strings.ReplaceAll(stack, "main.js:", filename+":")
	}
	res.Error = e
	return res
}

func dropPreludeFrames(stack string) string {
	if !strings.Contains(stack, "<prelude>") {
		return stack
	}
	lines := strings.Split(stack, "\n")
	out := lines[:0]
	for _, l := range lines {
		if !strings.Contains(l, "<prelude>") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// ApprovalTimeout is how long a call waits for an approver's answer on
// this engine (EngineConfig.ApprovalTimeout, or DefaultApprovalTimeout).
// An approval page or link made for such a wait expires with it.
func (e *Engine) ApprovalTimeout() time.Duration { return e.runner.ApprovalTimeout }

// InFlight reports the runs in progress and the runs waiting for a slot.
func (e *Engine) InFlight() (running, queued int) { return e.runner.Slots.InFlight() }

// Limits returns the limits a run of e gets when it sets none: the
// engine's, with the defaults where it sets none either.
func (e *Engine) Limits() Limits { return DefaultLimits().Merge(e.runner.Limits) }
