package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/seal"
)

// Programs that make the host (the Go process) hold memory out of
// proportion to the run's caps. Each test counts what the host keeps
// (entries, bytes), never how long anything takes.

// ampHost is a Host that records nothing of the calls it sees, so that a
// test's own memory does not grow with the attack's.
type ampHost struct {
	gate func(c Call) Verdict
	call func(ctx context.Context, c Call) (json.RawMessage, error)
}

func (h *ampHost) Gate(c Call, _ bool) Verdict {
	if h.gate == nil {
		return Verdict{}
	}
	return h.gate(c)
}

func (h *ampHost) Call(ctx context.Context, c Call) (json.RawMessage, error) {
	if h.call == nil {
		return json.RawMessage(`1`), nil
	}
	return h.call(ctx, c)
}

// TestEmptyLogLinesCost checks that a line costs LogLineOverhead bytes of
// MaxLog besides its own: empty lines were free, and a loop of
// console.log() kept millions of entries under a 256 KiB cap.
func TestEmptyLogLinesCost(t *testing.T) {
	const lines, maxLog = 100_000, 4096
	res := runContract(t, `for (let i = 0; i < 100000; i++) console.log(); return 1`, Limits{MaxLog: maxLog, Timeout: time.Hour}, nil, nil)
	if res.Err != nil {
		t.Fatalf("%+v", res.Err)
	}
	if most := maxLog / LogLineOverhead; len(res.Logs) > most {
		t.Fatalf("%d empty lines kept under a cap of %d bytes, the most is %d", len(res.Logs), maxLog, most)
	}
	if len(res.Logs)+res.LogsDropped != lines {
		t.Fatalf("%d kept + %d dropped, want %d", len(res.Logs), res.LogsDropped, lines)
	}
}

// TestLogDropIsFinal checks that once a line is dropped every later line
// is dropped too, as Limits.MaxLog says, even one that would fit.
func TestLogDropIsFinal(t *testing.T) {
	res := runContract(t, `
		console.log("a".repeat(90));
		console.log("b".repeat(150));
		console.log("c");
		return 1`, Limits{MaxLog: 200}, nil, nil)
	if res.Err != nil {
		t.Fatalf("%+v", res.Err)
	}
	if len(res.Logs) != 1 || res.LogsDropped != 2 {
		t.Fatalf("kept %d lines %+v, dropped %d; want the first kept, 2 dropped", len(res.Logs), res.Logs, res.LogsDropped)
	}
}

// TestRejectedCallsCountAgainstMaxCalls checks that calls whose arguments
// are refused for their size or depth count against MaxCalls: they were
// not counted, so a run with MaxCalls 5 made hundreds.
func TestRejectedCallsCountAgainstMaxCalls(t *testing.T) {
	for name, arg := range map[string]string{
		"size":  `"x".repeat(4096)`,
		"depth": `JSON.parse("[".repeat(9000) + "]".repeat(9000))`,
	} {
		t.Run(name, func(t *testing.T) {
			var called atomic.Int64
			h := &ampHost{call: func(context.Context, Call) (json.RawMessage, error) {
				called.Add(1)
				return json.RawMessage(`1`), nil
			}}
			res := runContract(t, `
				const arg = `+arg+`;
				let refused = 0;
				for (let i = 0; i < 12; i++) {
					try { await tools.a(arg) } catch (e) { if (e.code !== "VALUE_TOO_LARGE") throw e; refused++ }
				}
				return refused`, Limits{MaxCalls: 5, MaxValue: 1024}, h, nil)
			if res.Err == nil || res.Err.Code != codes.HostCallLimit {
				t.Fatalf("12 refused calls under MaxCalls 5: %+v %s", res.Err, res.Value)
			}
			if res.Stats.HostCalls > 6 || called.Load() != 0 {
				t.Fatalf("%d calls counted, %d ran", res.Stats.HostCalls, called.Load())
			}
		})
	}
}

// TestJournalValuesBounded checks that the values a run's journal keeps
// are bounded by MaxJournalValues: past it the journal drops them, the
// run goes on, and its Result has no journal. 24 results of 1 MiB kept
// 24 MiB (twice, with the Result's copy).
func TestJournalValuesBounded(t *testing.T) {
	if MaxJournalValues != seal.MaxBodySize {
		t.Fatalf("MaxJournalValues %d, a token's body %d", MaxJournalValues, seal.MaxBodySize)
	}
	big := json.RawMessage(`"` + strings.Repeat("x", 1<<20) + `"`)
	h := &ampHost{call: func(context.Context, Call) (json.RawMessage, error) { return big, nil }}
	var mu sync.Mutex
	most, settled := 0, 0
	hook := func(r *run) {
		if r.host != Host(h) {
			return
		}
		n := 0
		for _, c := range r.journal.Calls {
			n += len(c.Value)
		}
		mu.Lock()
		most, settled = max(most, n), settled+1
		mu.Unlock()
	}
	testSettled.Store(&hook)
	defer testSettled.Store(nil)
	res := runContract(t, `
		let n = 0;
		for (let i = 0; i < 24; i++) n += (await tools.a({i})).length;
		return n`, Limits{}, h, nil)
	if res.Err != nil || string(res.Value) != "25165824" {
		t.Fatalf("%+v %.100s", res.Err, res.Value)
	}
	mu.Lock()
	if settled != 24 || most > MaxJournalValues {
		t.Fatalf("%d calls settled, the journal held up to %d bytes of values, the most is %d", settled, most, MaxJournalValues)
	}
	t.Logf("the journal held up to %d bytes of values for %d bytes of results", most, 24<<20)
	mu.Unlock()
	if res.Journal != nil || !res.JournalTooLarge {
		t.Fatalf("journal %v (too large: %v) after %d bytes of results", res.Journal != nil, res.JournalTooLarge, 24<<20)
	}

	// under the bound, the journal is whole and replays
	res = runContract(t, `
		let n = 0;
		for (let i = 0; i < 4; i++) n += (await tools.a({i})).length;
		return n`, Limits{}, h, nil)
	if res.Err != nil || res.JournalTooLarge || res.Journal == nil || len(res.Journal.Calls) != 4 {
		t.Fatalf("%+v %v", res.Err, res.JournalTooLarge)
	}
	again := runContract(t, `
		let n = 0;
		for (let i = 0; i < 4; i++) n += (await tools.a({i})).length;
		return n`, Limits{}, &ampHost{call: func(context.Context, Call) (json.RawMessage, error) {
		return nil, errors.New("a replayed call ran")
	}}, res.Journal)
	if again.Err != nil || string(again.Value) != string(res.Value) {
		t.Fatalf("replay: %+v %s", again.Err, again.Value)
	}
}

// TestJournalTooLargePause checks that a run that pauses after its
// journal dropped its values says so (JournalTooLarge, no journal), for
// the runner to refuse a token it could not fill.
func TestJournalTooLargePause(t *testing.T) {
	big := json.RawMessage(`"` + strings.Repeat("x", 1<<20) + `"`)
	h := &ampHost{
		gate: func(c Call) Verdict { return Verdict{Park: c.Tool == "b"} },
		call: func(context.Context, Call) (json.RawMessage, error) { return big, nil },
	}
	res := runContract(t, `
		for (let i = 0; i < 20; i++) await tools.a({i});
		return await tools.b({})`, Limits{}, h, nil)
	if !res.Paused || res.Journal != nil || !res.JournalTooLarge || len(res.Pending) != 1 {
		t.Fatalf("paused %v, journal %v, too large %v, pending %d, %+v", res.Paused, res.Journal != nil, res.JournalTooLarge, len(res.Pending), res.Err)
	}
}

// TestWaitingCallsArgsBounded checks that the arguments of calls waiting
// for a free slot are bounded by MaxConcurrency × MaxValue: a call past
// it is refused with VALUE_TOO_LARGE (the run goes on). 200 calls with
// the same 4 MB string held 200 copies.
func TestWaitingCallsArgsBounded(t *testing.T) {
	const n, conc, maxValue = 20, 2, 1 << 20
	release := make(chan struct{})
	var gated, called atomic.Int64
	h := &ampHost{
		gate: func(Call) Verdict {
			if gated.Add(1) == n {
				close(release) // every call is made: let the first ones end
			}
			return Verdict{}
		},
		call: func(ctx context.Context, c Call) (json.RawMessage, error) {
			called.Add(1)
			select {
			case <-release:
			case <-ctx.Done():
			}
			return json.RawMessage(`1`), nil
		},
	}
	// what the run holds of the calls' arguments, each time a call settles
	var mu sync.Mutex
	most, held := 0, 0
	hook := func(r *run) {
		if r.host != Host(h) {
			return
		}
		w, im := 0, 0
		for _, pc := range r.waiting {
			w += len(pc.args)
		}
		for _, c := range r.immediate { // refused, not yet settled
			im += len(c.call.args)
		}
		mu.Lock()
		most, held = max(most, w, r.waitingBytes), max(held, im)
		mu.Unlock()
	}
	testSettled.Store(&hook)
	defer testSettled.Store(nil)
	res := runContract(t, `
		const s = "x".repeat(900000);
		const ps = [];
		for (let i = 0; i < 20; i++) ps.push(tools.wait(s).then(() => "ok", e => e.code + (e.message.includes("maxConcurrency × maxValue") ? "" : " " + e.message)));
		return await Promise.all(ps)`, Limits{MaxConcurrency: conc, MaxValue: maxValue, Timeout: time.Hour}, h, nil)
	if res.Err != nil {
		t.Fatalf("%+v", res.Err)
	}
	var got []string
	if err := json.Unmarshal(res.Value, &got); err != nil {
		t.Fatal(err)
	}
	ok, refused := 0, 0
	for _, g := range got {
		switch g {
		case "ok":
			ok++
		case "VALUE_TOO_LARGE":
			refused++
		default:
			t.Fatalf("a call ended with %q", g)
		}
	}
	// 2 run, 2 wait (1.8 MB of the 2 MiB), the rest are refused
	if ok != 2*conc || refused != n-2*conc || called.Load() != 2*conc {
		t.Fatalf("%d ok, %d refused, %d ran: %v", ok, refused, called.Load(), got)
	}
	mu.Lock()
	defer mu.Unlock()
	if most > conc*maxValue || held != 0 {
		t.Fatalf("waiting calls held up to %d bytes of arguments (the most is %d), refused ones %d", most, conc*maxValue, held)
	}
	t.Logf("waiting calls held up to %d bytes of arguments", most)
}

// TestParkedCallsArgsBounded checks that calls parked for approval hold
// at most MaxJournalValues bytes of arguments, what a paused run's token
// can carry: a call past it is refused with VALUE_TOO_LARGE, and the run
// pauses with the calls that fit. 1,000 parked calls of 4 MB each kept
// every copy until the pause.
func TestParkedCallsArgsBounded(t *testing.T) {
	h := &ampHost{
		gate: func(Call) Verdict { return Verdict{Park: true} },
		call: func(context.Context, Call) (json.RawMessage, error) { return nil, errors.New("a parked call ran") },
	}
	res := runContract(t, `
		const s = "x".repeat(3 << 20);
		const ps = [];
		for (let i = 0; i < 12; i++) ps.push(tools.b(s).catch(e => e.code));
		return await Promise.all(ps)`, Limits{}, h, nil)
	if !res.Paused {
		t.Fatalf("not paused: %+v %.200s %d", res.Err, res.Value, len(res.Pending))
	}
	n := 0
	for _, p := range res.Pending {
		n += len(p.Args)
	}
	if n > MaxJournalValues || len(res.Pending) == 0 || len(res.Pending) == 12 {
		t.Fatalf("%d calls parked with %d bytes of arguments, the most is %d", len(res.Pending), n, MaxJournalValues)
	}
}
