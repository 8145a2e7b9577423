package integration_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

// The soak: thousands of mixed runs against one engine, many more callers
// than cores and than run slots, every outcome checked against the run it
// belongs to, and the host's goroutines, file descriptors and run slots
// back where they started afterwards.
//
// Environment:
//
//	MODEBOX_SOAK_RUNS=N       number of programs (default 3000; 400 under -race)
//	MODEBOX_SOAK_SEED=N       seed of the mix and the nonces (default 1)
//	MODEBOX_SOAK_REPORT=path  also write the figures there as JSON

// Soak shape.
const (
	soakDefaultRuns     = 3000
	soakDefaultRunsRace = 400
	soakWorkers         = 32 // callers at once: well above the 2-4 cores CI has
	soakMaxRuns         = 8  // run slots: below soakWorkers, so the queue is used
	soakFanout          = 10 // tool calls of one Promise.all run
)

// Kinds of soak run. Every kind's outcome carries the run's nonce
// somewhere (value, error message, error source line or console log), so
// an outcome delivered to the wrong caller is detected.
const (
	soakKindOK        = "ok"            // a tool call with the nonce; returns {nonce, sum}
	soakKindFanout    = "fanout"        // Promise.all of 10 tool calls
	soakKindThrow     = "throw"         // uncaught Error whose message has the nonce
	soakKindSyntax    = "syntax"        // syntax error on the line with the nonce
	soakKindMemory    = "memory"        // over a 16 MiB heap cap
	soakKindTimeout   = "timeout"       // infinite loop, 50ms timeout
	soakKindFuel      = "fuel"          // infinite loop, 50 units of fuel
	soakKindApprove   = "pause-approve" // ask tool, no approver: paused, resumed with Approve
	soakKindDeny      = "pause-deny"    // the same, resumed with Deny
	soakKindProto     = "proto"         // prototype pollution, then the ok program
	soakKindGetter    = "getter"        // a result with a throwing getter
	soakKindRecursion = "recursion"     // unbounded recursion
	soakKindHuge      = "huge-string"   // a result over MaxValue
)

// soakMix weighs the kinds: about a third of the runs succeed (ok,
// fanout), an eighth pause, the rest fail by error or cap or are hostile.
var soakMix = []struct {
	kind   string
	weight int
}{
	{soakKindOK, 24}, {soakKindFanout, 10}, {soakKindThrow, 6}, {soakKindSyntax, 5},
	{soakKindMemory, 4}, {soakKindTimeout, 4}, {soakKindFuel, 5}, {soakKindApprove, 6},
	{soakKindDeny, 6}, {soakKindProto, 8}, {soakKindGetter, 6}, {soakKindRecursion, 6},
	{soakKindHuge, 6},
}

// soakJob is one program of the soak and what it must produce.
type soakJob struct {
	index int
	kind  string
	nonce string
	xs    []int // the ok and proto kinds' addends; the fanout kind's offset is xs[0]
}

// soakSumIn and soakSumOut are the sum tool's argument and result.
type soakSumIn struct {
	Nonce string `json:"nonce"`
	Xs    []int  `json:"xs"`
}

type soakSumOut struct {
	Nonce string `json:"nonce"`
	Sum   int    `json:"sum"`
}

// soakNonceIn is the guarded tool's argument and result.
type soakNonceIn struct {
	Nonce string `json:"nonce"`
}

// soakTools are the soak engine's tools: soak.sum (allow) and
// soak.guarded (ask). guarded records every nonce it ran for, so the test
// can check that exactly the approved calls ran, once each.
type soakTools struct {
	guardedRuns sync.Map // nonce -> *atomic.Int64
	// timeoutsBeforeFirstLine counts timeout runs stopped before their
	// first line ran.
	timeoutsBeforeFirstLine atomic.Int64
}

func (s *soakTools) tools() []modebox.Tool {
	sum := modebox.MustTool("sum", "Adds xs and echoes the nonce.", func(_ context.Context, in soakSumIn) (soakSumOut, error) {
		out := soakSumOut{Nonce: in.Nonce}
		for _, x := range in.Xs {
			out.Sum += x
		}
		if len(in.Xs)%3 == 0 {
			runtime.Gosched() // vary the order in which fan-out calls settle
		}
		return out, nil
	})
	sum.Namespace = "soak"
	guarded := modebox.MustTool("guarded", "Echoes the nonce; every call needs approval.", func(_ context.Context, in soakNonceIn) (soakNonceIn, error) {
		n, _ := s.guardedRuns.LoadOrStore(in.Nonce, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
		return in, nil
	})
	guarded.Namespace = "soak"
	guarded.Policy = modebox.PolicyAsk
	return []modebox.Tool{sum, guarded}
}

// guardedRan returns how many times soak.guarded ran for nonce.
func (s *soakTools) guardedRan(nonce string) int64 {
	n, ok := s.guardedRuns.Load(nonce)
	if !ok {
		return 0
	}
	return n.(*atomic.Int64).Load()
}

// soakJobs draws n jobs from rng by soakMix.
func soakJobs(rng *rand.Rand, n int) []soakJob {
	total := 0
	for _, m := range soakMix {
		total += m.weight
	}
	jobs := make([]soakJob, n)
	for i := range jobs {
		w := rng.IntN(total)
		kind := ""
		for _, m := range soakMix {
			if w < m.weight {
				kind = m.kind
				break
			}
			w -= m.weight
		}
		xs := make([]int, 1+rng.IntN(6))
		for k := range xs {
			xs[k] = rng.IntN(1000)
		}
		// the index keeps nonces unique, the random part keeps them
		// unguessable from the index alone
		jobs[i] = soakJob{index: i, kind: kind, nonce: fmt.Sprintf("n%06d-%016x", i, rng.Uint64()), xs: xs}
	}
	return jobs
}

// program returns the job's code and options.
func (j soakJob) program() (string, modebox.RunOptions) {
	n := strconv.Quote(j.nonce) // a JS string literal: nonces are ASCII
	xs, _ := json.Marshal(j.xs)
	log := "console.log(" + n + ");\n"
	switch j.kind {
	case soakKindOK:
		return fmt.Sprintf(`const r: {nonce: string, sum: number} = await tools.soak.sum({nonce: %s, xs: %s});
			return {nonce: r.nonce, sum: r.sum};`, n, xs), modebox.RunOptions{}
	case soakKindFanout:
		return fmt.Sprintf(`const rs = await Promise.all(Array.from({length: %d}, (_, i) => soak.sum({nonce: %s, xs: [i, %d]})));
			return {nonce: %s, sums: rs.map(r => r.sum), nonces: rs.map(r => r.nonce)};`, soakFanout, n, j.xs[0], n), modebox.RunOptions{}
	case soakKindThrow:
		return fmt.Sprintf(`await tools.soak.sum({nonce: %s, xs: []}); throw new Error("boom " + %s);`, n, n), modebox.RunOptions{}
	case soakKindSyntax:
		return fmt.Sprintf("const a = 1;\nreturn %s +;\n", n), modebox.RunOptions{}
	case soakKindMemory:
		return log + `const a = []; while (true) a.push(new Array(1e5).fill(1));`,
			modebox.RunOptions{Limits: modebox.Limits{Memory: 16 << 20, Timeout: 20 * time.Second}}
	case soakKindTimeout:
		return log + `while (true) {}`, modebox.RunOptions{Limits: modebox.Limits{Timeout: 50 * time.Millisecond}}
	case soakKindFuel:
		return log + `let i = 0; while (true) i++;`, modebox.RunOptions{Limits: modebox.Limits{Fuel: 50}}
	case soakKindApprove, soakKindDeny:
		return fmt.Sprintf(`const n = %s;
			try { const r = await tools.soak.guarded({nonce: n}); return {nonce: r.nonce, approved: true} }
			catch (e) { return {nonce: n, denied: e.code} }`, n), modebox.RunOptions{}
	case soakKindProto:
		// Accessors that throw on Object.prototype under the bridge's
		// internal field names and the program's own, and Array, JSON and
		// Function methods replaced. "value", "get", "set" and "then" are
		// left alone: they break the program's own defineProperty and
		// await, not the host.
		return fmt.Sprintf(`for (const k of ["resolve", "reject", "tool", "id", "ok", "text", "payload", "args", "setup",
				"tools", "globals", "path", "key", "alias", "nonce", "sum", "xs", "code", "message"]) {
				Object.defineProperty(Object.prototype, k, {set() { throw new Error("setter " + k) }, get() { throw new Error("getter " + k) }, configurable: true});
			}
			Array.prototype.push = function () { throw new Error("push") };
			Array.prototype.map = function () { throw new Error("map") };
			Array.prototype[Symbol.iterator] = function () { throw new Error("iterator") };
			JSON.stringify = () => { throw new Error("stringify") };
			JSON.parse = () => { throw new Error("parse") };
			Function.prototype.call = function () { throw new Error("call") };
			const r = await tools.soak.sum({nonce: %s, xs: %s});
			const out = {}; Object.defineProperty(out, "nonce", {value: r.nonce, enumerable: true});
			Object.defineProperty(out, "sum", {value: r.sum, enumerable: true});
			return out;`, n, xs), modebox.RunOptions{}
	case soakKindGetter:
		return log + fmt.Sprintf(`return {nonce: %s, get bad() { throw new Error("getter") }};`, n), modebox.RunOptions{}
	case soakKindRecursion:
		return log + `function f(n) { return f(n + 1) + 1 } return f(0);`, modebox.RunOptions{}
	case soakKindHuge:
		return log + fmt.Sprintf(`return %s + "x".repeat(2 << 20);`, n), modebox.RunOptions{Limits: modebox.Limits{MaxValue: 1 << 20}}
	}
	panic("unknown soak kind " + j.kind)
}

// sum is the sum of the job's addends.
func (j soakJob) sum() int {
	s := 0
	for _, x := range j.xs {
		s += x
	}
	return s
}

// soakWant checks that r failed with code and is otherwise well formed.
func soakWant(r *modebox.Result, code modebox.Code) error {
	if r.Status != modebox.StatusError || r.Error == nil || r.Error.Code != code || r.Value != nil {
		return fmt.Errorf("want error %s, got status %q value %.200s error %+v", code, r.Status, r.Value, r.Error)
	}
	return nil
}

// soakWantLog checks that the run's only console line is its nonce.
func soakWantLog(r *modebox.Result, nonce string) error {
	if len(r.Logs) != 1 || r.Logs[0].Message != nonce {
		return fmt.Errorf("want the single log line %q, got %+v", nonce, r.Logs)
	}
	return nil
}

// soakWantValue checks that r succeeded with exactly want.
func soakWantValue(r *modebox.Result, want string) error {
	if r.Status != modebox.StatusOK || r.Error != nil || string(r.Value) != want {
		return fmt.Errorf("want value %s, got status %q value %.200s error %+v", want, r.Status, r.Value, r.Error)
	}
	return nil
}

// do runs the job (and resumes it, for the pausing kinds) and checks its
// outcome. It adds the time the engine reports for the run (and the
// resume) to spent.
func (j soakJob) do(ctx context.Context, e *modebox.Engine, st *soakTools, spent *time.Duration) error {
	code, opts := j.program()
	r, err := e.Run(ctx, code, opts)
	if err != nil {
		return fmt.Errorf("Run: %w", err)
	}
	if r == nil {
		return fmt.Errorf("Run: nil result")
	}
	*spent += r.Stats.Duration
	q := strconv.Quote(j.nonce)
	switch j.kind {
	case soakKindOK, soakKindProto:
		if err := soakWantValue(r, fmt.Sprintf(`{"nonce":%s,"sum":%d}`, q, j.sum())); err != nil {
			return err
		}
		if r.Stats.HostCalls != 1 {
			return fmt.Errorf("host calls %d, want 1", r.Stats.HostCalls)
		}
		return nil
	case soakKindFanout:
		sums, nonces := make([]int, soakFanout), make([]string, soakFanout)
		for i := range soakFanout {
			sums[i], nonces[i] = i+j.xs[0], j.nonce
		}
		s, _ := json.Marshal(sums)
		ns, _ := json.Marshal(nonces)
		if err := soakWantValue(r, fmt.Sprintf(`{"nonce":%s,"sums":%s,"nonces":%s}`, q, s, ns)); err != nil {
			return err
		}
		if r.Stats.HostCalls != soakFanout {
			return fmt.Errorf("host calls %d, want %d", r.Stats.HostCalls, soakFanout)
		}
		return nil
	case soakKindThrow:
		if err := soakWant(r, modebox.CodeUncaughtException); err != nil {
			return err
		}
		if r.Error.Message != "boom "+j.nonce || r.Error.Name != "Error" {
			return fmt.Errorf("want Error %q, got %s %q", "boom "+j.nonce, r.Error.Name, r.Error.Message)
		}
		return nil
	case soakKindSyntax:
		if err := soakWant(r, modebox.CodeSyntaxError); err != nil {
			return err
		}
		if r.Error.Line != 2 || !strings.Contains(r.Error.Source, j.nonce) {
			return fmt.Errorf("want line 2 with %q, got line %d %q", j.nonce, r.Error.Line, r.Error.Source)
		}
		return nil
	case soakKindApprove, soakKindDeny:
		return j.resume(ctx, e, st, r, spent)
	}
	want := map[string]modebox.Code{
		soakKindMemory: modebox.CodeMemoryLimit, soakKindTimeout: modebox.CodeTimeout, soakKindFuel: modebox.CodeFuelExhausted,
		soakKindGetter: modebox.CodeValueNotSerializable, soakKindRecursion: modebox.CodeStackOverflow, soakKindHuge: modebox.CodeValueTooLarge,
	}[j.kind]
	if err := soakWant(r, want); err != nil {
		return err
	}
	if j.kind == soakKindTimeout && len(r.Logs) == 0 && r.Stats.Fuel == 0 {
		// Under load the 50ms deadline can pass before the program's
		// first line has run (the clock starts before the instance is
		// restored), and the run returns at its deadline: no log line is
		// fine, someone else's is not. Once the loop has ticked, the line
		// must be there.
		st.timeoutsBeforeFirstLine.Add(1)
		return nil
	}
	return soakWantLog(r, j.nonce)
}

// resume checks a pausing job's pause, resumes it with its decision and
// checks the resumed outcome and what the guarded tool did.
func (j soakJob) resume(ctx context.Context, e *modebox.Engine, st *soakTools, r *modebox.Result, spent *time.Duration) error {
	q := strconv.Quote(j.nonce)
	if r.Status != modebox.StatusPaused || r.Token == "" || r.Error != nil || len(r.Pending) != 1 {
		return fmt.Errorf("want a pause with one pending call, got status %q error %+v pending %+v", r.Status, r.Error, r.Pending)
	}
	if p := r.Pending[0]; p.Tool != "soak.guarded" || string(p.Args) != `{"nonce":`+q+`}` {
		return fmt.Errorf("pending call %+v is not this run's", p)
	}
	if n := st.guardedRan(j.nonce); n != 0 {
		return fmt.Errorf("the guarded tool ran %d times before the decision", n)
	}
	d := modebox.Decisions{Default: modebox.Deny}
	if j.kind == soakKindApprove {
		d = modebox.Decisions{ByID: map[int]modebox.Decision{r.Pending[0].ID: modebox.Approve}}
	}
	res, err := e.Resume(ctx, r.Token, d)
	if err != nil {
		return fmt.Errorf("Resume: %w", err)
	}
	*spent += res.Stats.Duration
	if j.kind == soakKindApprove {
		if err := soakWantValue(res, fmt.Sprintf(`{"nonce":%s,"approved":true}`, q)); err != nil {
			return fmt.Errorf("resumed: %w", err)
		}
		if n := st.guardedRan(j.nonce); n != 1 {
			return fmt.Errorf("the approved tool ran %d times, want 1", n)
		}
		return nil
	}
	if err := soakWantValue(res, fmt.Sprintf(`{"nonce":%s,"denied":%q}`, q, modebox.CodeApprovalDenied)); err != nil {
		return fmt.Errorf("resumed: %w", err)
	}
	if n := st.guardedRan(j.nonce); n != 0 {
		return fmt.Errorf("the denied tool ran %d times", n)
	}
	return nil
}

// soakLatency summarises the latencies of a set of runs, as the caller
// sees them (queue wait included).
type soakLatency struct {
	Count int     `json:"count"`
	P50Ms float64 `json:"p50Ms"`
	P99Ms float64 `json:"p99Ms"`
	MaxMs float64 `json:"maxMs"`
}

// latencyOf returns the nearest-rank p50, p99 and maximum of ds.
func latencyOf(ds []time.Duration) soakLatency {
	if len(ds) == 0 {
		return soakLatency{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := func(p float64) time.Duration {
		i := int(p*float64(len(s))+0.999999) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return soakLatency{Count: len(s), P50Ms: ms(rank(0.50)), P99Ms: ms(rank(0.99)), MaxMs: ms(s[len(s)-1])}
}

// soakReport holds the soak's figures (MODEBOX_SOAK_REPORT).
type soakReport struct {
	Runs             int                    `json:"runs"`
	Seed             uint64                 `json:"seed"`
	Workers          int                    `json:"workers"`
	MaxRuns          int                    `json:"maxRuns"`
	NumCPU           int                    `json:"numCPU"`
	GOMAXPROCS       int                    `json:"gomaxprocs"`
	Race             bool                   `json:"race"`
	GoVersion        string                 `json:"goVersion"`
	LoadAvgStart     string                 `json:"loadAvgStart"`
	LoadAvgEnd       string                 `json:"loadAvgEnd"`
	WallSeconds      float64                `json:"wallSeconds"`
	RunsPerSecond    float64                `json:"runsPerSecond"`
	Resumes          int                    `json:"resumes"`
	TimeoutsEarly    int                    `json:"timeoutsBeforeFirstLine"`
	Overall          soakLatency            `json:"overall"`
	InEngine         soakLatency            `json:"inEngine"`
	Kinds            map[string]soakLatency `json:"kinds"`
	Failures         int                    `json:"failures"`
	HostPanics       int                    `json:"hostPanics"`
	PeakRSSBytes     uint64                 `json:"peakRSSBytes"`
	PeakRSSReset     bool                   `json:"peakRSSReset"`
	RSSAfterBytes    uint64                 `json:"rssAfterBytes"`
	GoroutinesBefore int                    `json:"goroutinesBefore"`
	GoroutinesAfter  int                    `json:"goroutinesAfter"`
	FDsBefore        int                    `json:"fdsBefore"`
	FDsAfter         int                    `json:"fdsAfter"`
}

// procStatus returns a "kB" field of /proc/self/status (VmHWM, VmRSS) in
// bytes, or 0 when it cannot be read.
func procStatus(field string) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		rest, ok := strings.CutPrefix(line, field+":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}

// loadAvg returns the 1, 5 and 15 minute load averages of the machine
// (/proc/loadavg), to judge figures taken on a shared machine.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// resetPeakRSS resets VmHWM to the current RSS (Linux: "5" to
// /proc/self/clear_refs), so that the peak read afterwards is this test's.
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// openFDs counts the process's open file descriptors.
func openFDs(t testing.TB) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count file descriptors: %v", err)
	}
	return len(ents)
}

// settleHost waits, collecting garbage, for the goroutines and file
// descriptors to come back to their baselines: runs abandoned at their
// deadline end at the guest's next poll, and the engine's idle tool-call
// workers exit after 2s (internal/engine workerIdle). It gives up after 3s
// once both are within their margins, and after 15s in any case; the
// caller judges the counts.
func settleHost(t testing.TB, goroutines, fds, gMargin, fdMargin int) (gAfter, fdAfter int) {
	t.Helper()
	start := time.Now()
	for {
		runtime.GC()
		gAfter, fdAfter = runtime.NumGoroutine(), openFDs(t)
		within := gAfter <= goroutines+gMargin && fdAfter <= fds+fdMargin
		switch {
		case gAfter <= goroutines && fdAfter <= fds,
			within && time.Since(start) > 3*time.Second,
			time.Since(start) > 15*time.Second:
			return gAfter, fdAfter
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkHostSettled fails the test when goroutines or file descriptors
// leaked, with the goroutine stacks.
func checkHostSettled(t testing.TB, gBefore, gAfter, fdBefore, fdAfter, gMargin, fdMargin int) {
	t.Helper()
	if gAfter > gBefore+gMargin {
		buf := make([]byte, 4<<20)
		t.Errorf("goroutines leaked: %d before, %d after (margin %d)\n%s", gBefore, gAfter, gMargin, buf[:runtime.Stack(buf, true)])
	}
	if fdAfter > fdBefore+fdMargin {
		ents, _ := os.ReadDir("/proc/self/fd")
		var links []string
		for _, ent := range ents {
			l, _ := os.Readlink("/proc/self/fd/" + ent.Name())
			links = append(links, ent.Name()+" -> "+l)
		}
		t.Errorf("file descriptors leaked: %d before, %d after (margin %d)\n%s", fdBefore, fdAfter, fdMargin, strings.Join(links, "\n"))
	}
}

// envInt reads a positive integer from the environment, or def.
func envInt(t testing.TB, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}

// TestSoak runs thousands of mixed programs (ok, fan-out, failing, pausing
// and hostile) through one engine from 32 callers at once, with 8 run
// slots, and checks every outcome against the run it belongs to; then
// that goroutines, file descriptors and run slots are back to baseline.
// It logs throughput, latency per kind and peak RSS.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("soak: skipped with -short")
	}
	def := soakDefaultRuns
	if raceEnabled {
		def = soakDefaultRunsRace
	}
	n := envInt(t, "MODEBOX_SOAK_RUNS", def)
	seed := uint64(envInt(t, "MODEBOX_SOAK_SEED", 1))
	jobs := soakJobs(rand.New(rand.NewPCG(seed, 0x50a4)), n)

	st := &soakTools{}
	e, err := modebox.New(modebox.EngineConfig{
		Tools:         st.tools(),
		MaxRuns:       soakMaxRuns,
		Continuations: &modebox.Continuations{Keys: [][]byte{newKey(t)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	// warm up (the engine image compiles once per process) before the
	// baselines are taken
	if r := run(t, e, `return (await tools.soak.sum({nonce: "warm", xs: [1, 2]})).sum`, modebox.RunOptions{}); string(r.Value) != "3" {
		t.Fatalf("warm-up: %s %+v", r.Value, r.Error)
	}
	runtime.GC()
	gBefore, fdBefore := runtime.NumGoroutine(), openFDs(t)
	rssReset := resetPeakRSS()
	loadStart := loadAvg()

	ctx := t.Context()
	latencies := make([]time.Duration, n)
	inEngine := make([]time.Duration, n) // Result.Stats.Duration: no queue wait
	var (
		mu       sync.Mutex
		failures []string
		panics   atomic.Int64
	)
	fail := func(j soakJob, err error) {
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, fmt.Sprintf("run %d (%s, %s): %v", j.index, j.kind, j.nonce, err))
	}
	queue := make(chan soakJob)
	var wg sync.WaitGroup
	start := time.Now()
	for range soakWorkers {
		wg.Go(func() {
			for j := range queue {
				func() {
					t0 := time.Now()
					defer func() {
						latencies[j.index] = time.Since(t0)
						if p := recover(); p != nil {
							panics.Add(1)
							fail(j, fmt.Errorf("host panic: %v", p))
						}
					}()
					if err := j.do(ctx, e, st, &inEngine[j.index]); err != nil {
						fail(j, err)
					}
				}()
			}
		})
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
	wall := time.Since(start)
	peakRSS := procStatus("VmHWM")

	// every approved call ran once, no denied call ran, nothing else did
	approved := 0
	for _, j := range jobs {
		if j.kind == soakKindApprove {
			approved++
		}
	}
	guarded := 0
	st.guardedRuns.Range(func(k, v any) bool {
		guarded += int(v.(*atomic.Int64).Load())
		return true
	})
	if guarded != approved {
		t.Errorf("the guarded tool ran %d times for %d approved runs", guarded, approved)
	}

	gAfter, fdAfter := settleHost(t, gBefore, fdBefore, 5, 3)
	running, queued := e.InFlight()

	byKind := map[string][]time.Duration{}
	resumes := 0
	for _, j := range jobs {
		byKind[j.kind] = append(byKind[j.kind], latencies[j.index])
		if j.kind == soakKindApprove || j.kind == soakKindDeny {
			resumes++
		}
	}
	rep := soakReport{
		Runs: n, Seed: seed, Workers: soakWorkers, MaxRuns: soakMaxRuns,
		NumCPU: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), Race: raceEnabled, GoVersion: runtime.Version(),
		LoadAvgStart: loadStart, LoadAvgEnd: loadAvg(),
		WallSeconds: wall.Seconds(), RunsPerSecond: float64(n) / wall.Seconds(), Resumes: resumes,
		TimeoutsEarly: int(st.timeoutsBeforeFirstLine.Load()),
		Overall:       latencyOf(latencies), InEngine: latencyOf(inEngine), Kinds: map[string]soakLatency{},
		Failures: len(failures), HostPanics: int(panics.Load()),
		PeakRSSBytes: peakRSS, PeakRSSReset: rssReset, RSSAfterBytes: procStatus("VmRSS"),
		GoroutinesBefore: gBefore, GoroutinesAfter: gAfter, FDsBefore: fdBefore, FDsAfter: fdAfter,
	}
	for k, ds := range byKind {
		rep.Kinds[k] = latencyOf(ds)
	}
	t.Log(rep.text())
	if path := os.Getenv("MODEBOX_SOAK_REPORT"); path != "" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Errorf("writing the report: %v", err)
		}
	}

	for i, f := range failures {
		if i == 20 {
			t.Errorf("... and %d more failures", len(failures)-20)
			break
		}
		t.Error(f)
	}
	if p := panics.Load(); p != 0 {
		t.Errorf("%d host panics", p)
	}
	if running != 0 || queued != 0 {
		t.Errorf("InFlight after the soak: %d running, %d queued", running, queued)
	}
	checkHostSettled(t, gBefore, gAfter, fdBefore, fdAfter, 5, 3)
}

// text renders the report as the block TestSoak logs.
func (r soakReport) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "soak figures\n")
	fmt.Fprintf(&b, "  runs %d (%d resumed), seed %d, %d callers, MaxRuns %d, %d CPUs, GOMAXPROCS %d, race %v, %s\n",
		r.Runs, r.Resumes, r.Seed, r.Workers, r.MaxRuns, r.NumCPU, r.GOMAXPROCS, r.Race, r.GoVersion)
	fmt.Fprintf(&b, "  machine load average %s at start, %s at end\n", r.LoadAvgStart, r.LoadAvgEnd)
	fmt.Fprintf(&b, "  wall %.2fs, %.1f runs/s, failures %d, host panics %d, timeout runs stopped before their first line %d\n",
		r.WallSeconds, r.RunsPerSecond, r.Failures, r.HostPanics, r.TimeoutsEarly)
	fmt.Fprintf(&b, "  peak RSS (VmHWM) %.1f MiB (reset at start: %v), RSS after %.1f MiB\n",
		float64(r.PeakRSSBytes)/(1<<20), r.PeakRSSReset, float64(r.RSSAfterBytes)/(1<<20))
	fmt.Fprintf(&b, "  goroutines %d -> %d, open fds %d -> %d\n", r.GoroutinesBefore, r.GoroutinesAfter, r.FDsBefore, r.FDsAfter)
	fmt.Fprintf(&b, "  latency as the caller sees it (queue wait included; pausing kinds include the resume):\n")
	fmt.Fprintf(&b, "    %-14s %6s %9s %9s %9s\n", "kind", "runs", "p50 ms", "p99 ms", "max ms")
	line := func(name string, l soakLatency) {
		fmt.Fprintf(&b, "    %-14s %6d %9.2f %9.2f %9.2f\n", name, l.Count, l.P50Ms, l.P99Ms, l.MaxMs)
	}
	for _, m := range soakMix {
		if l, ok := r.Kinds[m.kind]; ok {
			line(m.kind, l)
		}
	}
	line("overall", r.Overall)
	fmt.Fprintf(&b, "  time inside the engine (Result.Stats.Duration; no queue wait, no transform):\n")
	line("overall", r.InEngine)
	return b.String()
}

// soakHoldIn is the hold tool's argument.
type soakHoldIn struct {
	I int `json:"i"`
}

// TestManyConcurrentRunsDoNotExhaustHost starts 500 runs at once against
// an engine with 4 run slots and a queue of 100: at most 4 run at a time,
// exactly the 396 beyond slots and queue are refused with ENGINE_BUSY
// before anything runs for them, every other run succeeds with its own
// value, and RSS stays bounded.
func TestManyConcurrentRunsDoNotExhaustHost(t *testing.T) {
	const (
		n         = 500
		maxRuns   = 4
		maxQueued = 100
		admitted  = maxRuns + maxQueued
		qTimeout  = 20 * time.Second
	)
	var active, peak, calls atomic.Int64
	release := make(chan struct{})
	hold := modebox.MustTool("hold", "Holds its run until the test releases it; returns i.", func(ctx context.Context, in soakHoldIn) (int, error) {
		calls.Add(1)
		cur := active.Add(1)
		defer active.Add(-1)
		for p := peak.Load(); cur > p && !peak.CompareAndSwap(p, cur); p = peak.Load() {
		}
		select {
		case <-release:
			return in.I, nil
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	})
	e, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{hold}, MaxRuns: maxRuns, MaxQueued: maxQueued, QueueTimeout: qTimeout})
	if err != nil {
		t.Fatal(err)
	}
	// warm up with a run that does not use the tool
	if r := run(t, e, `return 1`, modebox.RunOptions{}); string(r.Value) != "1" {
		t.Fatalf("warm-up: %s %+v", r.Value, r.Error)
	}
	runtime.GC()
	gBefore, fdBefore := runtime.NumGoroutine(), openFDs(t)
	rssReset := resetPeakRSS()
	rssStart := procStatus("VmRSS")

	type outcome struct {
		r       *modebox.Result
		err     error
		elapsed time.Duration
		panic   any
	}
	outcomes := make([]outcome, n)
	var busy atomic.Int64
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			t0 := time.Now()
			defer func() {
				outcomes[i].elapsed = time.Since(t0)
				outcomes[i].panic = recover()
			}()
			r, err := e.Run(t.Context(), fmt.Sprintf(`return await tools.hold({i: %d})`, i), modebox.RunOptions{})
			outcomes[i].r, outcomes[i].err = r, err
			if err == nil && r.Error != nil && r.Error.Code == modebox.CodeEngineBusy {
				busy.Add(1)
			}
		})
	}
	close(start)
	// every refusal comes while the admitted runs still hold slots and
	// queue places: none of them can have waited for a slot
	deadline := time.Now().Add(qTimeout / 2)
	for {
		running, queued := e.InFlight()
		if busy.Load() == n-admitted && running == maxRuns && queued == maxQueued && active.Load() == maxRuns {
			break
		}
		if time.Now().After(deadline) {
			close(release)
			wg.Wait()
			t.Fatalf("no steady state before release: %d busy (want %d), %d running, %d queued, %d in the tool", busy.Load(), n-admitted, running, queued, active.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	busyAtRelease := busy.Load()
	close(release)
	wg.Wait()
	peakRSS := procStatus("VmHWM")

	var okRuns, busyRuns int
	var busyLat []time.Duration
	for i, o := range outcomes {
		switch {
		case o.panic != nil:
			t.Errorf("run %d: host panic %v", i, o.panic)
		case o.err != nil:
			t.Errorf("run %d: %v", i, o.err)
		case o.r.Status == modebox.StatusError && o.r.Error != nil && o.r.Error.Code == modebox.CodeEngineBusy:
			busyRuns++
			busyLat = append(busyLat, o.elapsed)
			if o.r.Value != nil || o.r.Stats.HostCalls != 0 || len(o.r.Logs) != 0 {
				t.Errorf("run %d: refused but something ran: %+v", i, o.r)
			}
		case o.r.Status == modebox.StatusOK && string(o.r.Value) == strconv.Itoa(i):
			okRuns++
		default:
			t.Errorf("run %d: %s %s %+v", i, o.r.Status, o.r.Value, o.r.Error)
		}
	}
	if busyRuns != n-admitted || okRuns != admitted {
		t.Errorf("%d ok and %d ENGINE_BUSY, want %d and %d", okRuns, busyRuns, admitted, n-admitted)
	}
	if c := calls.Load(); c != admitted {
		t.Errorf("the tool ran %d times, want %d (one per admitted run)", c, admitted)
	}
	if p := peak.Load(); p != maxRuns {
		t.Errorf("at most %d runs were in the tool at once, want exactly MaxRuns %d", p, maxRuns)
	}
	bl := latencyOf(busyLat)
	// Every refusal was counted before the release, so none waited for a
	// slot; a refusal after waiting in the queue would take QueueTimeout.
	// (The latency includes the program's transform, which 500 callers at
	// once on two cores make take a while.)
	if time.Duration(bl.MaxMs*float64(time.Millisecond)) >= qTimeout {
		t.Errorf("an ENGINE_BUSY refusal took %.0f ms: it waited in the queue", bl.MaxMs)
	}
	gAfter, fdAfter := settleHost(t, gBefore, fdBefore, 5, 3)
	if running, queued := e.InFlight(); running != 0 || queued != 0 {
		t.Errorf("InFlight after: %d running, %d queued", running, queued)
	}
	// Guest memory is a NORESERVE mapping per run, touched only as far as
	// the program goes, and refused runs hold nothing but their caller's
	// goroutine: the peak grows by tens of MiB, not by 500 heaps (500 x
	// 64 MiB).
	bound := uint64(256 << 20)
	if raceEnabled {
		bound = 1 << 30 // the race detector's shadow memory
	}
	if peakRSS > rssStart && peakRSS-rssStart > bound {
		t.Errorf("peak RSS %d MiB, %d MiB over the start: more than %d MiB", peakRSS>>20, (peakRSS-rssStart)>>20, bound>>20)
	}
	t.Logf("many concurrent runs: %d started at once, MaxRuns %d, MaxQueued %d: %d ok, %d ENGINE_BUSY (%d of them before any slot freed), max %d in the tool at once\n"+
		"  ENGINE_BUSY latency p50 %.2f ms, p99 %.2f ms, max %.2f ms\n"+
		"  RSS at start %.1f MiB, peak (VmHWM, reset at start: %v) %.1f MiB\n"+
		"  goroutines %d -> %d, open fds %d -> %d",
		n, maxRuns, maxQueued, okRuns, busyRuns, busyAtRelease, peak.Load(), bl.P50Ms, bl.P99Ms, bl.MaxMs,
		float64(rssStart)/(1<<20), rssReset, float64(peakRSS)/(1<<20), gBefore, gAfter, fdBefore, fdAfter)
	checkHostSettled(t, gBefore, gAfter, fdBefore, fdAfter, 5, 3)
}
