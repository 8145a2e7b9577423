// Package limits defines the caps of a run once: the type the public API
// names (modebox.Limits), the engine enforces and modebox.json sets, with
// its defaults and the rules for combining an engine's limits with a
// run's (a run may only narrow).
package limits

import (
	"fmt"
	"reflect"
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
)

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
	// EngineConfig.ApprovalTimeout instead).
	Timeout time.Duration
	// Memory is the JS heap limit in bytes (default 64 MiB, at least
	// MinMemory, at most 2 GiB).
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
	case l.MaxCalls < 0, l.MaxConcurrency < 0, l.MaxValue < 0, l.MaxLog < 0:
		return &errs.Config{Field: field, Reason: "limits must not be negative"}
	}
	return nil
}

// field is one limit as a number, for the rules below, which treat every
// field alike: fields walks the struct, so a field added to Limits takes
// part without being listed anywhere.
type field struct {
	name string
	v    reflect.Value
}

func fields(l *Limits) []field {
	rv := reflect.ValueOf(l).Elem()
	out := make([]field, rv.NumField())
	for i := range out {
		out[i] = field{rv.Type().Field(i).Name, rv.Field(i)}
	}
	return out
}

// above reports whether limit a is set and b is higher (or, with orUnset,
// unset), comparing in the field's own integer kind.
func above(b, a reflect.Value, orUnset bool) bool {
	if a.IsZero() {
		return false
	}
	if b.IsZero() {
		return orUnset
	}
	switch a.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return b.Uint() > a.Uint()
	default:
		return b.Int() > a.Int()
	}
}

// Narrows reports an error when run raises a limit that l sets: a run can
// only narrow. The error names RunOptions.Limits.<Field>.
func (l Limits) Narrows(run Limits) error {
	lf, rf := fields(&l), fields(&run)
	for i, f := range lf {
		if above(rf[i].v, f.v, false) {
			return &errs.Config{Field: "RunOptions.Limits." + f.name, Reason: fmt.Sprintf("%v is above the engine's %v: a run can only narrow limits", number(rf[i].v), number(f.v))}
		}
	}
	return nil
}

// Clamp returns o with every field that l sets lowered to l's value: a
// token's limits on an engine whose limits were lowered since.
func (l Limits) Clamp(o Limits) Limits {
	lf, of := fields(&l), fields(&o)
	for i, f := range lf {
		if above(of[i].v, f.v, true) {
			of[i].v.Set(f.v)
		}
	}
	return o
}

// Merge returns l with the non-zero fields of o on top.
func (l Limits) Merge(o Limits) Limits {
	lf, of := fields(&l), fields(&o)
	for i, f := range of {
		if !f.v.IsZero() {
			lf[i].v.Set(f.v)
		}
	}
	return l
}

// number is a field's value as a plain integer (a Duration in
// nanoseconds, as the messages always gave it).
func number(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint()
	default:
		return v.Int()
	}
}
