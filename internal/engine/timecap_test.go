package engine

import (
	"context"
	"encoding/json"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/limits"
)

// The host memory a run's time takes is bounded by counts, not by the
// run's timeout: every clock reading and every timer that fires is kept in
// the journal (a resumed run must see the same clock), so the readings are
// capped (Limits.MaxClockReads) and so are the timers set
// (Limits.MaxTimers), which wait on one heap of the run's rather than on a
// goroutine each. The time limits here are hang guards only.

// hangGuard is the timeout of runs that must end on a count well before.
const hangGuard = 2 * time.Minute

// A program that reads the clock in a loop (the attack: four Date.now() a
// turn, with no other work) ends with CLOCK_LIMIT at the default cap,
// having journaled exactly that many readings, instead of growing the
// journal until its timeout.
func TestClockFloodEndsWithClockLimit(t *testing.T) {
	res := runJS(t, `let n = 0; for (;;) { Date.now(); Date.now(); Date.now(); Date.now(); n++ }`,
		Limits{Timeout: hangGuard, Memory: 1 << 20}, nil)
	if res.Err == nil || res.Err.Code != codes.ClockLimit {
		t.Fatalf("got %+v, want %s", res.Err, codes.ClockLimit)
	}
	if res.Journal == nil || len(res.Journal.Clock) != limits.DefaultMaxClockReads {
		t.Fatalf("journal holds %d readings, want the cap %d", journalClock(res), limits.DefaultMaxClockReads)
	}
}

func journalCalls(res *Result) int {
	if res.Journal == nil {
		return -1
	}
	return len(res.Journal.Calls)
}

func journalClock(res *Result) int {
	if res.Journal == nil {
		return -1
	}
	return len(res.Journal.Clock)
}

// Every way to read the clock counts, up to the cap and not one more:
// Date.now(), new Date() and performance.now().
func TestClockReadsCountToTheCap(t *testing.T) {
	src := `for (let i = 0; i < 10; i++) { Date.now(); new Date(); performance.now() } return 1`
	ok := runJS(t, src, Limits{MaxClockReads: 30}, nil)
	if ok.Err != nil || journalClock(ok) != 30 {
		t.Fatalf("30 readings under a cap of 30: %+v, journal %d", ok.Err, journalClock(ok))
	}
	over := runJS(t, src, Limits{MaxClockReads: 29}, nil)
	if over.Err == nil || over.Err.Code != codes.ClockLimit || journalClock(over) != 29 {
		t.Fatalf("30 readings under a cap of 29: %+v, journal %d", over.Err, journalClock(over))
	}
}

// A replay counts the readings and timers it serves from the journal: a
// resumed run sees exactly the clock the first run saw, and its caps are
// the same caps.
func TestReplayedClockCountsToTheCap(t *testing.T) {
	src := `const a = [Date.now(), Date.now()]; await tools.a({}); a.push(Date.now()); return a`
	first := runContract(t, src, Limits{}, &contractHost{}, nil)
	if first.Err != nil || len(first.Journal.Clock) != 3 {
		t.Fatalf("%+v %v", first.Err, first.Journal)
	}
	again := runContract(t, src, Limits{MaxClockReads: 3}, &contractHost{}, first.Journal)
	if again.Err != nil || string(again.Value) != string(first.Value) {
		t.Fatalf("replay: %+v %s, want %s", again.Err, again.Value, first.Value)
	}
	// two recorded readings in the journal, the third would be the cap's
	over := runContract(t, src, Limits{MaxClockReads: 2}, &contractHost{}, first.Journal)
	if over.Err == nil || over.Err.Code != codes.ClockLimit {
		t.Fatalf("replay over the cap: %+v %s", over.Err, over.Value)
	}
	timers := `await new Promise(r => setTimeout(r, 1)); await new Promise(r => setTimeout(r, 1)); return await tools.a({})`
	first = runContract(t, timers, Limits{}, &contractHost{}, nil)
	if first.Err != nil || len(first.Journal.Calls) != 3 {
		t.Fatalf("%+v %v", first.Err, first.Journal)
	}
	if again := runContract(t, timers, Limits{MaxTimers: 2}, &contractHost{}, first.Journal); again.Err != nil {
		t.Fatalf("timers replayed under their cap: %+v", again.Err)
	}
	if over := runContract(t, timers, Limits{MaxTimers: 1}, &contractHost{}, first.Journal); over.Err == nil || over.Err.Code != codes.TimerLimit {
		t.Fatalf("timers replayed over the cap: %+v %s", over.Err, over.Value)
	}
}

// The attack on timers: setTimeout in a loop, never cleared and far off,
// with a heap large enough to hold them. The run ends with TIMER_LIMIT at
// the default cap (it had that many pending at once).
func TestTimerFloodEndsWithTimerLimit(t *testing.T) {
	res := runJS(t, `for (let i = 0; ; i++) setTimeout(() => {}, 1e9)`, Limits{Timeout: hangGuard, Memory: 256 << 20}, nil)
	if res.Err == nil || res.Err.Code != codes.TimerLimit {
		t.Fatalf("got %+v, want %s", res.Err, codes.TimerLimit)
	}
}

// Every timer set counts, cleared or fired, up to the cap and not one
// more.
func TestTimersCountToTheCap(t *testing.T) {
	ok := runJS(t, `for (let i = 0; i < 50; i++) clearTimeout(setTimeout(() => {}, 1e9)); return 1`, Limits{MaxTimers: 50}, nil)
	if ok.Err != nil || string(ok.Value) != "1" {
		t.Fatalf("50 timers under a cap of 50: %+v", ok.Err)
	}
	over := runJS(t, `for (let i = 0; i < 51; i++) clearTimeout(setTimeout(() => {}, 1e9)); return 1`, Limits{MaxTimers: 50}, nil)
	if over.Err == nil || over.Err.Code != codes.TimerLimit {
		t.Fatalf("51 timers under a cap of 50: %+v", over.Err)
	}
	// 200 timers, 20 at a time: each batch fires before the next is set
	batches := `let n = 0;
		for (let b = 0; b < 10; b++) await Promise.all(Array.from({length: 20}, () => new Promise(r => setTimeout(() => { n++; r() }, 1))));
		return n`
	if fired := runJS(t, batches, Limits{MaxTimers: 200}, nil); fired.Err != nil || string(fired.Value) != "200" || journalCalls(fired) != 200 {
		t.Fatalf("200 timers, cap 200: %+v %s, %d journaled", fired.Err, fired.Value, journalCalls(fired))
	}
	if fired := runJS(t, batches, Limits{MaxTimers: 199}, nil); fired.Err == nil || fired.Err.Code != codes.TimerLimit || journalCalls(fired) != 180 {
		t.Fatalf("200 timers, cap 199: %+v %s, %d journaled", fired.Err, fired.Value, journalCalls(fired))
	}
}

// An interval that fires for ever sets a timer at each repeat: the sets
// count against MaxTimers, so the journal of the timers that fired is
// bounded too (the attack: 64 intervals of 0 ms, at the default cap).
func TestIntervalFloodEndsWithTimerLimit(t *testing.T) {
	res := runJS(t, `for (let i = 0; i < 64; i++) setInterval(() => {}, 0); await new Promise(() => {})`, Limits{Timeout: hangGuard}, nil)
	if res.Err == nil || res.Err.Code != codes.TimerLimit {
		t.Fatalf("got %+v, want %s", res.Err, codes.TimerLimit)
	}
	if n := journalCalls(res); n < 0 || n > limits.DefaultMaxTimers {
		t.Fatalf("journal: %d timers fired, want at most the %d set", n, limits.DefaultMaxTimers)
	}
	res = runJS(t, `setInterval(() => {}, 0); await new Promise(() => {})`, Limits{Timeout: hangGuard, MaxTimers: 2000}, nil)
	if res.Err == nil || res.Err.Code != codes.TimerLimit {
		t.Fatalf("got %+v, want %s", res.Err, codes.TimerLimit)
	}
	if res.Journal == nil || len(res.Journal.Calls) > 2000 {
		t.Fatalf("journal: %d timers fired, want at most the 2,000 set", journalCalls(res))
	}
}

// Pending timers wait on one heap of the run's: 5,000 of them do not make
// 5,000 goroutines (the program asks a tool for the count while they are
// pending).
func TestPendingTimersShareOneGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	h := &contractHost{call: func(context.Context, Call) (json.RawMessage, error) {
		return json.RawMessage(strconv.Itoa(runtime.NumGoroutine())), nil
	}}
	res := runContract(t, `for (let i = 0; i < 5000; i++) setTimeout(() => {}, 1e9); return await tools.a({})`, Limits{}, h, nil)
	if res.Err != nil {
		t.Fatal(res.Err.Code, res.Err.Message)
	}
	n, _ := strconv.Atoi(string(res.Value))
	if n-before > 1000 {
		t.Fatalf("%d goroutines with 5,000 timers pending, %d before", n, before)
	}
}

// Timers fire in the order of their time, and timers of one delay in the
// order they were set, as in Node.
func TestTimersFireInOrder(t *testing.T) {
	res := runJS(t, `const out = [];
		for (let i = 0; i < 30; i++) setTimeout(() => out.push(i), 3);
		setTimeout(() => out.push("late"), 20);
		await new Promise(r => setTimeout(r, 40));
		return out.join()`, Limits{}, nil)
	want := ""
	for i := range 30 {
		want += strconv.Itoa(i) + ","
	}
	want += "late"
	if res.Err != nil || string(res.Value) != strconv.Quote(want) {
		t.Fatalf("%+v %s, want %q", res.Err, res.Value, want)
	}
}

// TestTimerDueBetweenLooks: a timer that comes due after the serving
// loop found it not yet due, but before the loop computed its wait, must
// still fire. The wait was then negative and read as "no timer": the
// loop slept until a new timer came, and the run hung to its timeout
// (CI: 110 of 200 one-millisecond timers fired). The test's clock moves
// 0.6 ms at each look, so every timer of 1 ms comes due in between.
func TestTimerDueBetweenLooks(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	timerNow = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(600 * time.Microsecond)
		return now
	}
	defer func() { timerNow = time.Now }()
	res := runJS(t, `let n = 0; for (let i = 0; i < 5; i++) await new Promise(r => setTimeout(() => { n++; r() }, 1)); return n`,
		Limits{Timeout: 10 * time.Second}, nil)
	if res.Err != nil || string(res.Value) != "5" {
		t.Fatalf("got %s %+v, want 5", res.Value, res.Err)
	}
}

// TestLongTimers: a timer keeps its delay up to Node's 2^31-1 ms (it was
// cut to 24 hours, so a 48-hour timer fired before a 30-hour one), and,
// as in Node, a longer delay (2**31, Infinity) fires after 1 ms rather
// than never.
func TestLongTimers(t *testing.T) {
	for ms, want := range map[string]time.Duration{
		"0": 0, "-5": 0, "1.5": 1500 * time.Microsecond, "108000000": 30 * time.Hour, "172800000": 48 * time.Hour,
		"2147483647": 2147483647 * time.Millisecond, "1e300": 2147483647 * time.Millisecond,
	} {
		if got := sleepDuration([]byte(`{"ms":` + ms + `}`)); got != want {
			t.Errorf("%s ms: %v, want %v", ms, got, want)
		}
	}
	if got := sleepDuration([]byte(`{"ms":"x"}`)); got != 0 {
		t.Errorf("unreadable: %v", got)
	}
	res := runJS(t, `const order = [];
		const at = (ms, name) => new Promise(r => setTimeout(() => { order.push(name); r() }, ms));
		await Promise.all([at(2**31, "2**31"), at(Infinity, "Infinity"), at(2**53, "2**53"), at(5, "5")]);
		return order.join()`, Limits{Timeout: 20 * time.Second}, nil)
	if res.Err != nil || string(res.Value) != `"2**31,Infinity,2**53,5"` {
		t.Fatalf("got %s %+v", res.Value, res.Err)
	}
}
