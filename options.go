package modebox

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/modebox/modebox/internal/engine"
)

// EngineConfig configures an Engine. The zero value is an engine with no
// tools and default limits.
type EngineConfig struct {
	// Tools are the functions programs may call. Names must be unique.
	Tools []Tool
	// Limits are the caps of every run; zero fields take the package
	// defaults (see Limits). A run may lower a limit set here, never raise
	// it.
	Limits Limits
	// Policies set tool policies by pattern (modebox.json "tools"):
	// "github.*", "*.delete_*", "everything.echo". Keys are tools.<key> as
	// the guest sees them (namespace.name after MapName). The most
	// specific matching pattern wins (exact, then fewer "*", then longer,
	// then stricter); it overrides Tool.Policy. Tools no pattern matches
	// keep Tool.Policy (default allow).
	Policies map[string]Policy
	// Flows marks tools as data-flow sources and sinks by pattern, in
	// addition to Tool.Source and Tool.Sink.
	Flows Flows
	// MaxRuns caps the runs in progress at once on this engine (default
	// DefaultMaxRuns: four per CPU, at least 8); more wait in a queue of
	// MaxQueued (default 256; -1: no queue) for at most QueueTimeout
	// (default 30s). A run that finds the queue full or waits too long
	// ends with ENGINE_BUSY before anything runs; a Resume that does keeps
	// its token usable.
	MaxRuns      int
	MaxQueued    int
	QueueTimeout time.Duration
	// Shell enables sh(), Fetch fetch() and FS the fs object in programs
	// (nil: off). See docs/capabilities.md.
	Shell *ShellConfig
	Fetch *FetchConfig
	FS    *FSConfig
	// ApprovalTimeout bounds how long a call waits for its Approver's
	// answer (and modebox.Ask and AskForm for theirs): past it the call is
	// refused with APPROVAL_TIMEOUT, which the program can catch, and the
	// run goes on. Default DefaultApprovalTimeout (10 minutes); the
	// run's Limits.Timeout does not count this wait. modebox.json:
	// "limits": {"approvalTimeout": "10m"}.
	ApprovalTimeout time.Duration
	// Continuations lets runs pause for approval and resume from sealed
	// tokens. nil: calls that need approval and have no approver are
	// refused with APPROVAL_UNAVAILABLE.
	Continuations *Continuations
}

// Flows lists tool patterns that are data-flow sources (their results may
// carry data to protect) and sinks (they can send data out).
type Flows struct {
	Sources []string
	Sinks   []string
}

// Limits are the caps of a run. A zero field means "the default".
type Limits struct {
	// Timeout is the wall-clock limit (default 30s). The run returns at the
	// deadline even while the guest is inside a builtin that never polls.
	// Time spent waiting for an Approver does not count (it is bounded by
	// EngineConfig.ApprovalTimeout instead).
	Timeout time.Duration
	// Memory is the JS heap limit in bytes (default 64 MiB).
	Memory int64
	// Fuel limits computation deterministically: one unit is one
	// interrupt poll, about 10,000 bytecode branches or calls (or 10,000
	// regexp backtracks). 0 means unlimited.
	Fuel uint64
	// MaxCalls is the number of tool calls a run may make (default 1000).
	// The call past it ends the run with HOST_CALL_LIMIT.
	MaxCalls int
	// MaxConcurrency is the number of tool calls in flight at once (default
	// 16); later calls wait their turn, in call order.
	MaxConcurrency int
	// MaxValue caps any single value crossing the boundary, in bytes of
	// JSON (default 4 MiB): tool arguments, tool results and the result.
	MaxValue int
	// MaxLog caps the bytes of console output kept (default 256 KiB); later
	// lines are dropped and Result.LogsDropped counts them.
	MaxLog int
}

// MinMemory is the smallest Limits.Memory accepted (512 KiB); 0 means the
// default.
const MinMemory = 512 << 10

func (l Limits) validate(field string) error {
	switch {
	case l.Timeout < 0:
		return &ConfigError{Field: field + ".Timeout", Reason: "must not be negative"}
	case l.Memory < 0:
		return &ConfigError{Field: field + ".Memory", Reason: "must not be negative"}
	case l.Memory > 2<<30:
		return &ConfigError{Field: field + ".Memory", Reason: "must be at most 2 GiB"}
	case l.Memory != 0 && l.Memory < MinMemory:
		return &ConfigError{Field: field + ".Memory", Reason: fmt.Sprintf("must be at least %d bytes (512 KiB), got %d: the engine cannot compile a program in less", MinMemory, l.Memory)}
	case l.MaxCalls < 0, l.MaxConcurrency < 0, l.MaxValue < 0, l.MaxLog < 0:
		return &ConfigError{Field: field, Reason: "limits must not be negative"}
	}
	return nil
}

// narrows reports an error when o raises a limit that l sets.
func (l Limits) narrows(o Limits) error {
	wider := func(name string, set, run int64) error {
		if set != 0 && run > set {
			return &ConfigError{Field: "RunOptions.Limits." + name, Reason: fmt.Sprintf("%d is above the engine's %d: a run can only narrow limits", run, set)}
		}
		return nil
	}
	for _, c := range []struct {
		name     string
		set, run int64
	}{
		{"Timeout", int64(l.Timeout), int64(o.Timeout)},
		{"Memory", l.Memory, o.Memory},
		{"Fuel", int64(min(l.Fuel, 1<<62)), int64(min(o.Fuel, 1<<62))},
		{"MaxCalls", int64(l.MaxCalls), int64(o.MaxCalls)},
		{"MaxConcurrency", int64(l.MaxConcurrency), int64(o.MaxConcurrency)},
		{"MaxValue", int64(l.MaxValue), int64(o.MaxValue)},
		{"MaxLog", int64(l.MaxLog), int64(o.MaxLog)},
	} {
		if err := wider(c.name, c.set, c.run); err != nil {
			return err
		}
	}
	return nil
}

// clamp returns o with every field that l sets lowered to l's value: a
// token's limits on an engine whose limits were lowered since.
func (l Limits) clamp(o Limits) Limits {
	low := func(set, run int64) int64 {
		if set != 0 && (run == 0 || run > set) {
			return set
		}
		return run
	}
	o.Timeout = time.Duration(low(int64(l.Timeout), int64(o.Timeout)))
	o.Memory = low(l.Memory, o.Memory)
	if l.Fuel != 0 && (o.Fuel == 0 || o.Fuel > l.Fuel) {
		o.Fuel = l.Fuel
	}
	o.MaxCalls = int(low(int64(l.MaxCalls), int64(o.MaxCalls)))
	o.MaxConcurrency = int(low(int64(l.MaxConcurrency), int64(o.MaxConcurrency)))
	o.MaxValue = int(low(int64(l.MaxValue), int64(o.MaxValue)))
	o.MaxLog = int(low(int64(l.MaxLog), int64(o.MaxLog)))
	return o
}

// merge returns l with the non-zero fields of o on top.
func (l Limits) merge(o Limits) Limits {
	if o.Timeout != 0 {
		l.Timeout = o.Timeout
	}
	if o.Memory != 0 {
		l.Memory = o.Memory
	}
	if o.Fuel != 0 {
		l.Fuel = o.Fuel
	}
	if o.MaxCalls != 0 {
		l.MaxCalls = o.MaxCalls
	}
	if o.MaxConcurrency != 0 {
		l.MaxConcurrency = o.MaxConcurrency
	}
	if o.MaxValue != 0 {
		l.MaxValue = o.MaxValue
	}
	if o.MaxLog != 0 {
		l.MaxLog = o.MaxLog
	}
	return l
}

func (l Limits) engine() engine.Limits {
	return engine.Limits{
		Timeout:        l.Timeout,
		Memory:         uint64(l.Memory),
		Fuel:           l.Fuel,
		MaxCalls:       l.MaxCalls,
		MaxConcurrency: l.MaxConcurrency,
		MaxValue:       l.MaxValue,
		MaxLog:         l.MaxLog,
	}
}

// DefaultLimits returns the limits a run gets when nothing is set.
func DefaultLimits() Limits {
	return Limits{
		Timeout:        engine.DefaultTimeout,
		Memory:         engine.DefaultMemory,
		MaxCalls:       engine.DefaultMaxCalls,
		MaxConcurrency: engine.DefaultMaxConcurrency,
		MaxValue:       engine.DefaultMaxValue,
		MaxLog:         engine.DefaultMaxLog,
	}
}

// RunOptions configures one run. The zero value runs TypeScript (which
// accepts plain JavaScript too) with the engine's limits and a random seed.
type RunOptions struct {
	// Lang is "ts" (default) or "js".
	Lang string
	// Filename names the program in errors and stacks (default main.ts or
	// main.js).
	Filename string
	// Limits override the engine's limits field by field. A run can only
	// narrow: raising a limit the engine sets is a ConfigError.
	Limits Limits
	// Policies narrow tool policies for this run by pattern (as
	// EngineConfig.Policies); the stricter of the engine's policy and the
	// run's wins (deny > ask > allow), so a run can never widen.
	Policies map[string]Policy
	// Seed seeds Math.random; 0 picks a random seed.
	Seed uint64
	// Approver answers calls that need approval (policy "ask", or a data
	// flow). Without one, such calls pause the run when the engine has
	// continuations (EngineConfig.Keys), and are refused with
	// APPROVAL_UNAVAILABLE when it has not.
	Approver Approver
	// Journal, when set, replays a previous run of the same code: its
	// clock readings, seed and tool results are served in order and no
	// recorded tool runs again.
	Journal *Journal
}

// Journal records what a run saw that was not determined by its code: the
// seed, clock readings and tool results in settle order. It is JSON.
type Journal struct {
	Seed  uint64         `json:"seed"`
	Clock []float64      `json:"clock,omitempty"`
	Calls []JournalEntry `json:"calls,omitempty"`
}

// JournalEntry is one settled tool call.
type JournalEntry struct {
	ID    int             `json:"id"`
	Tool  string          `json:"tool"`
	Args  string          `json:"args"`
	OK    bool            `json:"ok"`
	Value json.RawMessage `json:"value"`
}

func (j *Journal) toEngine() *engine.Journal {
	if j == nil {
		return nil
	}
	out := &engine.Journal{Seed: j.Seed, Clock: j.Clock}
	for _, c := range j.Calls {
		out.Calls = append(out.Calls, engine.JournalCall{ID: c.ID, Tool: c.Tool, Args: c.Args, OK: c.OK, Value: c.Value})
	}
	return out
}

func journalFromEngine(j *engine.Journal) *Journal {
	if j == nil {
		return nil
	}
	out := &Journal{Seed: j.Seed, Clock: j.Clock}
	for _, c := range j.Calls {
		out.Calls = append(out.Calls, JournalEntry{ID: c.ID, Tool: c.Tool, Args: c.Args, OK: c.OK, Value: c.Value})
	}
	return out
}

// Status of a run.
const (
	StatusOK     = "ok"
	StatusError  = "error"
	StatusPaused = "paused"
)

// Result is the outcome of a run.
type Result struct {
	// Status is "ok" or "error".
	Status string `json:"status"`
	// Value is the program's return value as JSON; nil when it returned
	// undefined (or failed).
	Value json.RawMessage `json:"result"`
	// Logs are the console lines, in order.
	Logs []Log `json:"logs"`
	// LogsDropped counts console lines dropped past Limits.MaxLog.
	LogsDropped int `json:"logsDropped,omitempty"`
	// Error says why the run failed.
	Error *Error `json:"error"`
	// Pending lists the calls waiting for approval when Status is
	// "paused", in call order.
	Pending []PendingCall `json:"pending,omitempty"`
	// Token resumes a paused run (Engine.Resume). It is a bearer
	// credential until used or expired: keep it like one.
	Token string `json:"token,omitempty"`
	// Files reports the staged fs writes the run committed, or that
	// conflicted, when it ended well; nil when it wrote nothing.
	Files *FilesReport `json:"files,omitempty"`
	// Stats describes the run.
	Stats Stats `json:"stats"`
	// Journal replays the run (see RunOptions.Journal).
	Journal *Journal `json:"-"`
}

// PendingCall is a call that waits for approval in a paused run.
type PendingCall struct {
	ID     int             `json:"id"`
	Tool   string          `json:"tool"`
	Args   json.RawMessage `json:"args"`
	Reason string          `json:"reason"`
}

// Log is one console line.
type Log struct {
	Level   string `json:"level"` // log, info, warn, error or debug
	Message string `json:"message"`
}

// Error describes a failed run. Positions are in the program as written.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	Name    string `json:"name,omitempty"`
	// JSCode is the thrown value's own `code` property, if it had one.
	JSCode string `json:"jsCode,omitempty"`
	Stack  string `json:"stack,omitempty"`
	// Line is 1-based; 0 when unknown.
	Line int `json:"line,omitempty"`
	// Column is 1-based; 0 when unknown (runtime errors carry lines only).
	Column int `json:"column,omitempty"`
	// Source is the text of Line.
	Source string `json:"source,omitempty"`
}

// Error renders "CODE: message (line L, column C)".
func (e *Error) Error() string {
	if e.Line > 0 {
		if e.Column > 0 {
			return fmt.Sprintf("%s: %s (line %d, column %d)", e.Code, e.Message, e.Line, e.Column)
		}
		return fmt.Sprintf("%s: %s (line %d)", e.Code, e.Message, e.Line)
	}
	return string(e.Code) + ": " + e.Message
}

// Stats describes a finished run.
type Stats struct {
	Duration   time.Duration `json:"durationNs"`
	Fuel       uint64        `json:"fuel"`
	HostCalls  int           `json:"hostCalls"`
	PeakMemory uint64        `json:"peakMemory"`
}
