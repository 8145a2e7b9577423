package integration_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

// capCase is a program that exceeds one cap, and the code it must get.
type capCase struct {
	name   string
	code   string
	limits modebox.Limits
	want   modebox.Code
}

var capCases = []capCase{
	{"infinite loop", `while(true){}`, modebox.Limits{Timeout: 300 * time.Millisecond}, modebox.CodeTimeout},
	{"memory bomb", `const a=[]; while(true) a.push(new Array(1e5).fill(1))`, modebox.Limits{Timeout: 10 * time.Second}, modebox.CodeMemoryLimit},
	{"huge repeat", `return "x".repeat(1<<28).length`, modebox.Limits{}, modebox.CodeMemoryLimit},
	{"deep recursion", `function f(n){return f(n+1)+1}; return f(0)`, modebox.Limits{}, modebox.CodeStackOverflow},
	{"catastrophic regex", `return /(a+)+$/.test("a".repeat(40)+"b")`, modebox.Limits{Timeout: 300 * time.Millisecond}, modebox.CodeTimeout},
	{"bigint toString", `return (3n**300000n).toString().length`, modebox.Limits{Timeout: 30 * time.Millisecond}, modebox.CodeTimeout},
	{"host call cap", `for (let i = 0; i < 10; i++) await tools.add({a: i, b: 1}); return 1`, modebox.Limits{MaxCalls: 5}, modebox.CodeHostCallLimit},
	{"10 MB value", `return "x".repeat(10e6)`, modebox.Limits{}, modebox.CodeValueTooLarge},
	{"fuel", `let i = 0; while (true) i++`, modebox.Limits{Fuel: 50}, modebox.CodeFuelExhausted},
	{"clock reads", `for (;;) Date.now()`, modebox.Limits{MaxClockReads: 100}, modebox.CodeClockLimit},
	{"pending timers", `for (;;) setTimeout(() => {}, 1e9)`, modebox.Limits{MaxTimers: 100}, modebox.CodeTimerLimit},
	{"never settled", `await new Promise(() => {}); return 1`, modebox.Limits{}, modebox.CodeNeverSettled},
	{"cycle in result", `const a = {}; a.self = a; return a`, modebox.Limits{}, modebox.CodeValueNotSerializable},
	{"uncaught", `throw new TypeError("nope")`, modebox.Limits{}, modebox.CodeUncaughtException},
	{"syntax", `return 1 +`, modebox.Limits{}, modebox.CodeSyntaxError},
	{"huge program", "return 1;" + strings.Repeat(" ", modebox.MaxProgramSize), modebox.Limits{}, modebox.CodeProgramTooLarge},
}

// Every cap stops its program with its own code, and the next run in the
// same engine works.
func TestCapsHaveCodes(t *testing.T) {
	e := newEngine(t, addTool)
	for _, c := range capCases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, e, c.code, modebox.RunOptions{Limits: c.limits})
			if r.Error == nil || r.Error.Code != c.want {
				t.Fatalf("got %s %+v, want %s", r.Value, r.Error, c.want)
			}
			if r.Status != modebox.StatusError || r.Value != nil {
				t.Fatalf("status %q value %s", r.Status, r.Value)
			}
			next := run(t, e, `return await tools.add({a: 2, b: 3})`, modebox.RunOptions{})
			if next.Error != nil || string(next.Value) != "5" {
				t.Fatalf("next run: %s %+v", next.Value, next.Error)
			}
		})
	}
}

// The wall-clock cap holds for the caller even when the guest sits in a
// native builtin that does not poll.
func TestDeadlineHoldsInNativeCode(t *testing.T) {
	e := newEngine(t)
	for _, code := range []string{
		`return (3n**300000n).toString().length`,
		`return "ab".repeat(1<<22).split("").reverse().join("").length`,
		`const a = Array.from({length: 3e6}, (_, i) => (i * 7919) % 1000003); a.sort(); return a.length`,
	} {
		start := time.Now()
		r := run(t, e, code, modebox.RunOptions{Limits: modebox.Limits{Timeout: 20 * time.Millisecond}})
		took := time.Since(start)
		if r.Error == nil || r.Error.Code != modebox.CodeTimeout {
			t.Fatalf("%s: %+v", code, r.Error)
		}
		// generous: the property is "returns at the deadline", not a benchmark
		if took > 2*time.Second {
			t.Fatalf("%s: returned after %s", code, took)
		}
	}
}

func TestLogFloodIsCapped(t *testing.T) {
	e := newEngine(t)
	r := run(t, e, `for (let i = 0; i < 1e5; i++) console.log("x".repeat(100)); return 1`, modebox.RunOptions{Limits: modebox.Limits{MaxLog: 10000}})
	if r.Error != nil || string(r.Value) != "1" {
		t.Fatalf("%+v", r.Error)
	}
	if r.LogsDropped == 0 || len(r.Logs) == 0 || len(r.Logs) > 100 {
		t.Fatalf("logs kept %d dropped %d", len(r.Logs), r.LogsDropped)
	}
}

func TestFuelIsDeterministic(t *testing.T) {
	e := newEngine(t)
	code := `let s = 0; for (let i = 0; i < 3e5; i++) s += i % 7; return s`
	var fuel []uint64
	for range 3 {
		r := run(t, e, code, modebox.RunOptions{})
		if r.Error != nil {
			t.Fatal(r.Error)
		}
		fuel = append(fuel, r.Stats.Fuel)
	}
	if fuel[0] == 0 || fuel[0] != fuel[1] || fuel[1] != fuel[2] {
		t.Fatalf("fuel %v", fuel)
	}
	r := run(t, e, code, modebox.RunOptions{Limits: modebox.Limits{Fuel: fuel[0] - 1}})
	if r.Error == nil || r.Error.Code != modebox.CodeFuelExhausted {
		t.Fatalf("%+v", r.Error)
	}
	r = run(t, e, code, modebox.RunOptions{Limits: modebox.Limits{Fuel: fuel[0]}})
	if r.Error != nil {
		t.Fatalf("exact fuel: %+v", r.Error)
	}
}

func TestValueCapAppliesToArgsAndResults(t *testing.T) {
	big := modebox.Tool{Name: "big", Handler: func(context.Context, json.RawMessage) (any, error) { return strings.Repeat("y", 5000), nil }}
	e := newEngine(t, addTool, big)
	r := run(t, e, `try { await tools.add({a: 1, b: 2, pad: "x".repeat(5000)}) } catch (e) { return e.code }`, modebox.RunOptions{Limits: modebox.Limits{MaxValue: 1000}})
	if string(r.Value) != `"VALUE_TOO_LARGE"` {
		t.Fatalf("args: %s %+v", r.Value, r.Error)
	}
	r = run(t, e, `try { await tools.big() } catch (e) { return e.code }`, modebox.RunOptions{Limits: modebox.Limits{MaxValue: 1000}})
	if string(r.Value) != `"VALUE_TOO_LARGE"` {
		t.Fatalf("result: %s %+v", r.Value, r.Error)
	}
}

// Calls beyond the concurrency cap wait their turn, in call order, and
// calls under it run at the same time.
func TestConcurrency(t *testing.T) {
	var inFlight, peak atomic.Int32
	var (
		mu    sync.Mutex
		order []int
	)
	slow := modebox.MustTool("slow", "", func(ctx context.Context, in struct {
		N int `json:"n"`
	}) (int, error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		mu.Lock()
		order = append(order, in.N)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		return in.N, nil
	})
	e := newEngine(t, slow)
	r := run(t, e, `return await Promise.all([1,2,3,4,5,6].map(n => tools.slow({n})))`, modebox.RunOptions{Limits: modebox.Limits{MaxConcurrency: 1}})
	if r.Error != nil || string(r.Value) != "[1,2,3,4,5,6]" {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
	for i, n := range order {
		if n != i+1 {
			t.Fatalf("call order %v", order)
		}
	}
	if peak.Load() != 1 {
		t.Fatalf("peak in flight %d with cap 1", peak.Load())
	}
	peak.Store(0)
	r = run(t, e, `return await Promise.all([1,2,3,4].map(n => tools.slow({n})))`, modebox.RunOptions{Limits: modebox.Limits{MaxConcurrency: 4}})
	if r.Error != nil || peak.Load() < 2 {
		t.Fatalf("peak %d, err %+v", peak.Load(), r.Error)
	}
}
