// Package limits defines the caps of a run once: the type the public API
// names (modebox.Limits), the engine enforces and modebox.json sets, with
// its defaults and the rules for combining an engine's limits with a
// run's (a run may only narrow).
package limits

import (
	"fmt"
	"time"

	"github.com/modebox/modebox/internal/errs"
)

// Defaults for zero fields.
const (
	DefaultTimeout        = 30 * time.Second
	DefaultMemory         = 64 << 20
	DefaultMaxCalls       = 1000
	DefaultMaxConcurrency = 16
	DefaultMaxValue       = 4 << 20
	DefaultMaxLog         = 256 << 10
	DefaultMaxClockReads  = 1_000_000
	DefaultMaxTimers      = 100_000
)

// LogLineOverhead is what each console line costs against MaxLog besides
// its own bytes: what the host keeps for a line (its level, its place in
// the list) whatever its length.
const LogLineOverhead = 32

// MinMemory is the smallest Memory accepted (512 KiB); 0 means the
// default.
const MinMemory = 512 << 10

// MaxMemory is the largest Memory accepted (2 GiB).
const MaxMemory = 2 << 30

// Limits are the caps of a run. A zero field means "the default".
type Limits struct {
	// Timeout is the wall-clock limit (default 30s). The run returns at the
	// deadline even while the guest is inside a builtin that never polls.
	// Time spent waiting for an Approver does not count (it is bounded by
	// EngineConfig.ApprovalTimeout instead) while the program waits for
	// nothing else: while it computes, or another of its tool calls runs,
	// the clock counts even though an approval is pending.
	Timeout time.Duration
	// Memory is the JS heap limit in bytes (default 64 MiB, at least
	// MinMemory, at most 2 GiB).
	Memory int64
	// Fuel limits computation deterministically: one unit is one
	// interrupt poll, about 10,000 bytecode branches or calls (or 10,000
	// regexp backtracks). 0 means unlimited.
	Fuel uint64
	// MaxCalls is the number of tool calls a run may make (default 1000),
	// calls refused for their arguments' size or depth included. The call
	// past it ends the run with HOST_CALL_LIMIT.
	MaxCalls int
	// MaxConcurrency is the number of tool calls in flight at once (default
	// 16); later calls wait their turn, in call order. The waiting calls'
	// arguments may hold at most MaxConcurrency × MaxValue bytes: a call
	// past that is refused with VALUE_TOO_LARGE (the program can catch it).
	MaxConcurrency int
	// MaxValue caps any single value crossing the boundary, in bytes of
	// JSON (default 4 MiB): tool arguments, tool results and the result.
	MaxValue int
	// MaxLog caps the bytes of console output kept (default 256 KiB):
	// each line costs its bytes plus LogLineOverhead (so empty lines are
	// not free). Once a line does not fit, it and every later line are
	// dropped, and Result.LogsDropped counts them.
	MaxLog int
	// MaxClockReads is the number of times a run may read the clock:
	// Date.now(), new Date(), performance.now() (default 1,000,000). Each
	// reading is kept in the run's journal, so that a resumed run sees the
	// same time; the one past the cap ends the run with CLOCK_LIMIT.
	MaxClockReads int
	// MaxTimers is the number of timers a run may set: setTimeout,
	// setInterval and each repeat of an interval (default 100,000). Each
	// timer that fires is kept in the run's journal; the one past the cap
	// ends the run with TIMER_LIMIT.
	MaxTimers int
}

// Defaults returns the limits a run gets when nothing is set.
func Defaults() Limits {
	return Limits{}.WithDefaults()
}

// WithDefaults returns l with every zero field set to its default (Fuel
// stays unlimited).
func (l Limits) WithDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.Memory <= 0 {
		l.Memory = DefaultMemory
	}
	if l.MaxCalls <= 0 {
		l.MaxCalls = DefaultMaxCalls
	}
	if l.MaxConcurrency <= 0 {
		l.MaxConcurrency = DefaultMaxConcurrency
	}
	if l.MaxValue <= 0 {
		l.MaxValue = DefaultMaxValue
	}
	if l.MaxLog <= 0 {
		l.MaxLog = DefaultMaxLog
	}
	if l.MaxClockReads <= 0 {
		l.MaxClockReads = DefaultMaxClockReads
	}
	if l.MaxTimers <= 0 {
		l.MaxTimers = DefaultMaxTimers
	}
	return l
}

// Validate checks l; field names it in errors ("EngineConfig.Limits").
func (l Limits) Validate(field string) error {
	switch {
	case l.Timeout < 0:
		return &errs.Config{Field: field + ".Timeout", Reason: "must not be negative"}
	case l.Memory < 0:
		return &errs.Config{Field: field + ".Memory", Reason: "must not be negative"}
	case l.Memory > MaxMemory:
		return &errs.Config{Field: field + ".Memory", Reason: "must be at most 2 GiB"}
	case l.Memory != 0 && l.Memory < MinMemory:
		return &errs.Config{Field: field + ".Memory", Reason: fmt.Sprintf("must be at least %d bytes (512 KiB), got %d: the engine cannot compile a program in less", MinMemory, l.Memory)}
	case l.MaxCalls < 0, l.MaxConcurrency < 0, l.MaxValue < 0, l.MaxLog < 0, l.MaxClockReads < 0, l.MaxTimers < 0:
		return &errs.Config{Field: field, Reason: "limits must not be negative"}
	}
	return nil
}

// field is one limit, for the rules below, which treat every field alike.
// fieldTable lists each field once (TestTableListsEveryField checks it
// against the struct, so a field added to Limits fails the tests until it
// is listed here); the rules walk the table without allocating.
type field struct {
	name string
	// merge returns dst with src's field when src's is set.
	merge func(dst, src Limits) Limits
	// clamp returns run with its field lowered to set's when set's is set
	// and run's is unset or higher.
	clamp func(set, run Limits) Limits
	// above reports whether run's field is higher than set's, which is set.
	above func(set, run Limits) bool
	// values returns the two fields as plain integers, for a message (a
	// Duration in nanoseconds, as the messages always gave it).
	values func(set, run Limits) (s, r any)
}

type number interface {
	~int | ~int64 | ~uint64
}

// fieldOf makes a field's rules from its address in a Limits. The rules
// take and return Limits by value, so that nothing escapes to the heap.
func fieldOf[T number](name string, at func(*Limits) *T) field {
	return field{
		name: name,
		merge: func(dst, src Limits) Limits {
			if v := *at(&src); v != 0 {
				*at(&dst) = v
			}
			return dst
		},
		clamp: func(set, run Limits) Limits {
			if s, r := *at(&set), at(&run); s != 0 && (*r == 0 || *r > s) {
				*r = s
			}
			return run
		},
		above: func(set, run Limits) bool {
			s, r := *at(&set), *at(&run)
			return s != 0 && r > s
		},
		values: func(set, run Limits) (any, any) {
			return plain(*at(&set)), plain(*at(&run))
		},
	}
}

// plain is a value without its named type.
func plain[T number](v T) any {
	var zero T
	if zero-1 > 0 { // unsigned
		return uint64(v)
	}
	return int64(v)
}

var fieldTable = []field{
	fieldOf("Timeout", func(l *Limits) *time.Duration { return &l.Timeout }),
	fieldOf("Memory", func(l *Limits) *int64 { return &l.Memory }),
	fieldOf("Fuel", func(l *Limits) *uint64 { return &l.Fuel }),
	fieldOf("MaxCalls", func(l *Limits) *int { return &l.MaxCalls }),
	fieldOf("MaxConcurrency", func(l *Limits) *int { return &l.MaxConcurrency }),
	fieldOf("MaxValue", func(l *Limits) *int { return &l.MaxValue }),
	fieldOf("MaxLog", func(l *Limits) *int { return &l.MaxLog }),
	fieldOf("MaxClockReads", func(l *Limits) *int { return &l.MaxClockReads }),
	fieldOf("MaxTimers", func(l *Limits) *int { return &l.MaxTimers }),
}

// Narrows reports an error when run raises a limit that l sets: a run can
// only narrow. The error names RunOptions.Limits.<Field>.
func (l Limits) Narrows(run Limits) error {
	for _, f := range fieldTable {
		if f.above(l, run) {
			s, r := f.values(l, run)
			return &errs.Config{Field: "RunOptions.Limits." + f.name, Reason: fmt.Sprintf("%v is above the engine's %v: a run can only narrow limits", r, s)}
		}
	}
	return nil
}

// Clamp returns o with every field that l sets lowered to l's value: a
// token's limits on an engine whose limits were lowered since.
func (l Limits) Clamp(o Limits) Limits {
	for _, f := range fieldTable {
		o = f.clamp(l, o)
	}
	return o
}

// Merge returns l with the non-zero fields of o on top.
func (l Limits) Merge(o Limits) Limits {
	for _, f := range fieldTable {
		l = f.merge(l, o)
	}
	return l
}
