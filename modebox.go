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
//	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{add}})
//	res, err := eng.Run(ctx, `return await tools.add({a: 1, b: 2})`, modebox.RunOptions{})
package modebox

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/guest"
	"github.com/modebox/modebox/internal/tsx"
)

// MaxProgramSize caps the source of one program (4 MiB).
const MaxProgramSize = 4 << 20

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
	eng    *engine.Engine
	box    *toolbox
	limits Limits
	cont   *continuations
	caps   *capabilities
	gate   *runGate

	approvalTimeout time.Duration
}

// New checks the configuration, compiles the tools' schemas and loads the
// engine image (compiled once per process).
func New(cfg EngineConfig) (*Engine, error) {
	if err := cfg.Limits.validate("EngineConfig.Limits"); err != nil {
		return nil, err
	}
	eng, err := engine.Shared()
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
	cont, err := newContinuations(cfg.Continuations)
	if err != nil {
		return nil, err
	}
	gate, err := newRunGate(cfg.MaxRuns, cfg.MaxQueued, cfg.QueueTimeout)
	if err != nil {
		return nil, err
	}
	caps, err := newCapabilities(cfg)
	if err != nil {
		return nil, err
	}
	box, err := newToolbox(cfg.Tools, caps.entries, cfg.Policies, cfg.Flows)
	if err != nil {
		caps.close()
		return nil, err
	}
	if caps.digest != "" {
		sum := sha256.Sum256([]byte(box.hash + "\x00" + caps.digest))
		box.hash = hex.EncodeToString(sum[:])
	}
	return &Engine{eng: eng, box: box, limits: cfg.Limits, cont: cont, caps: caps, gate: gate, approvalTimeout: at}, nil
}

// Close releases what the built-in capabilities hold (the shell's network
// proxy, the mounts' open directories). Runs must have ended. An engine
// without built-ins has nothing to release.
func (e *Engine) Close() error {
	if e.caps == nil {
		return nil
	}
	return e.caps.close()
}

// Run runs one program. The error is for invalid options only: everything
// that goes wrong with the program (syntax, exceptions, caps, crashes) is
// in Result.Error with a stable code.
func (e *Engine) Run(ctx context.Context, code string, opts RunOptions) (*Result, error) {
	return e.run(ctx, code, opts, &runHost{})
}

// run runs code with h answering calls; Resume passes a host that already
// holds the pending calls' decisions.
func (e *Engine) run(ctx context.Context, code string, opts RunOptions, h *runHost) (*Result, error) {
	if err := opts.Limits.validate("RunOptions.Limits"); err != nil {
		return nil, err
	}
	if err := e.limits.narrows(opts.Limits); err != nil {
		return nil, err
	}
	runPolicies, err := compilePolicies("RunOptions.Policies", opts.Policies)
	if err != nil {
		return nil, err
	}
	lang := tsx.TS
	if opts.Lang != "" {
		l, err := tsx.ParseLang(opts.Lang)
		if err != nil {
			return nil, &ConfigError{Field: "RunOptions.Lang", Reason: err.Error()}
		}
		lang = l
	}
	filename := opts.Filename
	if filename == "" {
		filename = lang.Filename()
	}
	if len(code) > MaxProgramSize {
		return &Result{Status: StatusError, Error: &Error{Code: CodeProgramTooLarge,
			Message: fmt.Sprintf("the program is %d bytes, over the limit of %d", len(code), MaxProgramSize)}}, nil
	}
	prog, err := tsx.Transform(code, lang)
	if err != nil {
		return syntaxResult(err, filename), nil
	}
	seed := opts.Seed
	if seed == 0 && opts.Journal == nil {
		var b [8]byte
		_, _ = rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	lim := e.limits.merge(opts.Limits)
	if !h.slotHeld {
		release, busy := e.gate.acquire(ctx)
		if busy != nil {
			return &Result{Status: StatusError, Error: busy}, nil
		}
		defer release()
	}
	h.box, h.run, h.approver, h.canPause = e.box, runPolicies, opts.Approver, e.canPause()
	h.approvalTimeout = e.approvalTimeout
	req := engine.Request{
		Code:    prog.Code,
		Setup:   e.box.setup,
		Seed:    seed,
		Limits:  lim.engine(),
		Host:    h,
		Replay:  opts.Journal.toEngine(),
		Observe: engineObserver(ctx),
	}
	h.caps = e.caps.newRun()
	r := e.eng.Run(ctx, req)
	if prog.Direct && r.Err != nil && r.Err.Code == CodeSyntaxError {
		// QuickJS did not parse the program as sent. A compile error comes
		// before anything runs (no call, no log), so compile it with
		// esbuild and run that: esbuild's diagnostics for a program that
		// is wrong, its lowering for syntax QuickJS lacks.
		full, err := tsx.TransformFull(code, lang)
		if err != nil {
			return syntaxResult(err, filename), nil
		}
		prog = full
		req.Code = prog.Code
		h.caps = e.caps.newRun()
		r = e.eng.Run(ctx, req)
	}
	res := convertResult(r, prog, filename)
	if r.Paused {
		res.Status = StatusPaused
	}
	h.caps.finish(res)
	if r.Paused {
		res.Status = StatusPaused
		for _, c := range r.Pending {
			res.Pending = append(res.Pending, PendingCall{ID: c.ID, Tool: c.Tool, Args: c.Args, Reason: c.Approval})
		}
		if err := e.sealPause(res, code, lang, filename, lim, opts, h); err != nil {
			return nil, err
		}
	}
	return res, nil
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
			Source:  d.LineText,
			Stack:   strings.ReplaceAll(te.Error(), te.Filename, filename),
		}
		return res
	}
	res.Error = &Error{Code: CodeSyntaxError, Name: "SyntaxError", Message: err.Error()}
	return res
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
		Journal: journalFromEngine(r.Journal),
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
					e.Source = prog.LineText(line)
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
func (e *Engine) ApprovalTimeout() time.Duration { return e.approvalTimeout }
