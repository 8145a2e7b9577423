package limits

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The rules' table lists every field of Limits, once, in order, and each
// entry reaches its own field: a field added to Limits fails this test
// until the table has it.
func TestTableListsEveryField(t *testing.T) {
	rt := reflect.TypeFor[Limits]()
	if rt.NumField() != len(fieldTable) {
		t.Fatalf("Limits has %d fields, fieldTable %d", rt.NumField(), len(fieldTable))
	}
	for i, f := range fieldTable {
		if f.name != rt.Field(i).Name {
			t.Fatalf("fieldTable[%d] is %s, the field is %s", i, f.name, rt.Field(i).Name)
		}
		// merging a Limits with only field i set sets exactly field i
		var src Limits
		v := reflect.ValueOf(&src).Elem().Field(i)
		switch v.Kind() {
		case reflect.Uint64:
			v.SetUint(3)
		default:
			v.SetInt(3)
		}
		if got := (Limits{}).Merge(src); got != src {
			t.Errorf("fieldTable[%d] (%s) merges into another field: %+v", i, f.name, got)
		}
	}
}

func randomLimits(r *rand.Rand) Limits {
	pick := func() int64 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return 1 + r.Int64N(10)
		case 2:
			return r.Int64N(1 << 40)
		}
		return 1<<62 + r.Int64N(1<<62)
	}
	fuel := uint64(pick())
	if r.IntN(5) == 0 {
		fuel = 1<<63 + r.Uint64N(1<<63) // above int64: compared unsigned
	}
	return Limits{
		Timeout: time.Duration(pick()), Memory: pick(), Fuel: fuel,
		MaxCalls: int(pick()), MaxConcurrency: int(pick()), MaxValue: int(pick()), MaxLog: int(pick()),
		MaxClockReads: int(pick()), MaxTimers: int(pick()),
	}
}

// The reflective rules agree with the rules written out field by field
// (what the code did before), over generated limits.
func TestRulesMatchTheFieldByFieldModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		l, o := randomLimits(r), randomLimits(r)
		if got, want := l.Merge(o), mergeModel(l, o); got != want {
			t.Fatalf("Merge(%+v, %+v) = %+v, want %+v", l, o, got, want)
		}
		if got, want := l.Clamp(o), clampModel(l, o); got != want {
			t.Fatalf("Clamp(%+v, %+v) = %+v, want %+v", l, o, got, want)
		}
		err := l.Narrows(o)
		if want := narrowsModel(l, o); (err != nil) != (want != "") || (err != nil && !strings.Contains(err.Error(), "RunOptions.Limits."+want+":")) {
			t.Fatalf("Narrows(%+v, %+v) = %v, want a complaint about %q", l, o, err, want)
		}
		// a clamped run never raises a limit the engine sets
		if err := l.Narrows(l.Clamp(o)); err != nil {
			t.Fatalf("Clamp(%+v, %+v) still raises: %v", l, o, err)
		}
	}
}

func mergeModel(l, o Limits) Limits {
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
	if o.MaxClockReads != 0 {
		l.MaxClockReads = o.MaxClockReads
	}
	if o.MaxTimers != 0 {
		l.MaxTimers = o.MaxTimers
	}
	return l
}

func clampModel(l, o Limits) Limits {
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
	o.MaxClockReads = int(low(int64(l.MaxClockReads), int64(o.MaxClockReads)))
	o.MaxTimers = int(low(int64(l.MaxTimers), int64(o.MaxTimers)))
	return o
}

func narrowsModel(l, o Limits) string {
	wider := func(set, run int64) bool { return set != 0 && run > set }
	switch {
	case wider(int64(l.Timeout), int64(o.Timeout)):
		return "Timeout"
	case wider(l.Memory, o.Memory):
		return "Memory"
	case l.Fuel != 0 && o.Fuel > l.Fuel:
		return "Fuel"
	case wider(int64(l.MaxCalls), int64(o.MaxCalls)):
		return "MaxCalls"
	case wider(int64(l.MaxConcurrency), int64(o.MaxConcurrency)):
		return "MaxConcurrency"
	case wider(int64(l.MaxValue), int64(o.MaxValue)):
		return "MaxValue"
	case wider(int64(l.MaxLog), int64(o.MaxLog)):
		return "MaxLog"
	case wider(int64(l.MaxClockReads), int64(o.MaxClockReads)):
		return "MaxClockReads"
	case wider(int64(l.MaxTimers), int64(o.MaxTimers)):
		return "MaxTimers"
	}
	return ""
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		l     Limits
		field string
	}{
		{Limits{Timeout: -1}, "X.Timeout"},
		{Limits{Memory: -1}, "X.Memory"},
		{Limits{Memory: MinMemory - 1}, "X.Memory"},
		{Limits{Memory: MaxMemory + 1}, "X.Memory"},
		{Limits{MaxLog: -1}, "X"},
		{Limits{MaxClockReads: -1}, "X"},
		{Limits{MaxTimers: -1}, "X"},
	} {
		err := c.l.Validate("X")
		if err == nil || !strings.Contains(err.Error(), "modebox: "+c.field+":") {
			t.Errorf("Validate(%+v) = %v, want an error about %s", c.l, err, c.field)
		}
	}
	if err := (Limits{Memory: MinMemory, Timeout: time.Second}).Validate("X"); err != nil {
		t.Error(err)
	}
	if d := Defaults(); d.Fuel != 0 || d.Memory != DefaultMemory || d.MaxLog != DefaultMaxLog ||
		d.MaxClockReads != DefaultMaxClockReads || d.MaxTimers != DefaultMaxTimers {
		t.Errorf("Defaults() = %+v", d)
	}
}
