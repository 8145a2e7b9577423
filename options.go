package modebox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/limits"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/runner"
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
	// run's Limits.Timeout does not count this wait while the program
	// waits for nothing else (time it computes meanwhile, or another of
	// its tool calls works, counts). modebox.json:
	// "limits": {"approvalTimeout": "10m"}.
	ApprovalTimeout time.Duration
	// Continuations lets runs pause for approval and resume from sealed
	// tokens. nil: calls that need approval and have no approver are
	// refused with APPROVAL_UNAVAILABLE.
	Continuations *Continuations
	// Image is the engine image runs use (see LoadImage). nil: the
	// process-wide image, compiled once on first use with its
	// compilation cache in DefaultCacheDir. Engine.Close does not close
	// it; once Image.Close has, runs end with CodeImageClosed.
	Image *Image
}

// Flows lists tool patterns that are data-flow sources (their results may
// carry data to protect) and sinks (they can send data out): Sources and
// Sinks.
type Flows = policy.Flows

// Limits are the caps of a run; a zero field means "the default" (see
// DefaultLimits). The fields are Timeout, Memory (bytes of JS heap), Fuel,
// MaxCalls, MaxConcurrency, MaxValue (bytes of JSON), MaxLog (bytes of
// console output, each line costing LogLineOverhead more; once a line is
// dropped every later one is), MaxClockReads (clock readings) and MaxTimers (timers
// set, each repeat of an interval included); each cap ends a run with its
// own code. An engine's
// limits are the most a run may use: RunOptions.Limits can only narrow
// them.
type Limits = limits.Limits

// LogLineOverhead is what each console line costs against Limits.MaxLog
// besides its own bytes (32), so that empty lines are not free.
const LogLineOverhead = limits.LogLineOverhead

// MinMemory is the smallest Limits.Memory accepted (512 KiB); 0 means the
// default.
const MinMemory = limits.MinMemory

// DefaultLimits returns the limits a run gets when nothing is set.
func DefaultLimits() Limits { return limits.Defaults() }

// Lang is a program's language.
type Lang string

// Languages.
const (
	// LangTS is TypeScript (the default): types are stripped, nothing is
	// type-checked, and plain JavaScript is accepted too.
	LangTS Lang = "ts"
	// LangJS is JavaScript.
	LangJS Lang = "js"
)

// RunOptions configures one run. The zero value runs TypeScript (which
// accepts plain JavaScript too) with the engine's limits and a random seed.
type RunOptions struct {
	// Lang is LangTS (default) or LangJS ("typescript" and "javascript",
	// in any case, are accepted too).
	Lang Lang
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
	// continuations (EngineConfig.Continuations), and are refused with
	// APPROVAL_UNAVAILABLE when it has not.
	Approver Approver
	// Journal, when set, replays a previous run of the same code: its
	// clock readings, seed and tool results are served in order and no
	// recorded tool runs again.
	Journal *Journal
}

// Journal records what a run saw that was not determined by its code: the
// seed, clock readings and tool results in settle order (Seed, Clock,
// Calls). It is JSON. A run keeps one only while its tool results add up
// to at most MaxJournalValues bytes (see Result.Journal).
type Journal = engine.Journal

// MaxJournalValues is the most bytes of tool results (and errors) a run's
// journal keeps, 16 MiB: what a continuation token's body can hold. A run
// that receives more goes on, without a journal.
const MaxJournalValues = engine.MaxJournalValues

// JournalEntry is one settled tool call of a Journal: its id, the tool's
// key, a digest of its arguments, whether it succeeded and the JSON the
// program received.
type JournalEntry = engine.JournalCall

// Status is how a run ended.
type Status string

// Statuses.
const (
	// StatusOK: the program returned; Result.Value is its value.
	StatusOK Status = "ok"
	// StatusError: the run failed; Result.Error says why.
	StatusError Status = "error"
	// StatusPaused: calls wait for approval; Result.Pending lists them
	// and Result.Token resumes the run (Engine.Resume).
	StatusPaused Status = "paused"
)

// Result is the outcome of a run.
type Result struct {
	// Status is StatusOK, StatusError or StatusPaused.
	Status Status `json:"status"`
	// Value is the program's return value as JSON; nil when it returned
	// undefined (or failed).
	Value json.RawMessage `json:"result"`
	// Logs are the console lines, in order. In JSON they are always a
	// list: [] when the run logged nothing (MarshalJSON).
	Logs []Log `json:"logs"`
	// LogsDropped counts console lines dropped past Limits.MaxLog (each
	// line costs its bytes and LogLineOverhead; once one is dropped, every
	// later one is).
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
	// Journal replays the run (see RunOptions.Journal). It is nil for a
	// run whose tool results (and errors) added up to more than
	// MaxJournalValues bytes, which a token could not carry either: such
	// a run that pauses fails with CodeTokenTooLarge.
	Journal *Journal `json:"-"`
}

// MarshalJSON encodes r with its fields' tags, and Logs as [] where it is
// nil, so that a run that logged nothing reads as the CLI and the MCP
// server print it. It escapes no HTML characters (& < >): the encoder
// that calls it escapes them or not as it was told to
// (json.Encoder.SetEscapeHTML), so values keep their bytes.
func (r Result) MarshalJSON() ([]byte, error) {
	type fields Result // the same fields without this method
	f := fields(r)
	if f.Logs == nil {
		f.Logs = []Log{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// PendingCall is a call that waits for approval in a paused run: its ID
// (the program's call number), Tool key, Args and the Reason it needs
// approval.
type PendingCall = runner.Pending

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
	// Source is the text of Line; of a line longer than MaxSourceLine
	// bytes, the MaxSourceLine bytes around Column (or its start), with
	// "…" where it was cut.
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
