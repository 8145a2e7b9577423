package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/tsx"
)

// barrierHost answers tools.add({a, b}) with a+b, but holds every call
// until n calls are waiting at once (or a minute has passed), so that n
// runs are in flight together and wait in their calls: what makes runs
// hibernate. Later calls are answered at once or after a short wait, in
// turn, so that runs wake onto instances other runs gave back.
type barrierHost struct {
	mu    sync.Mutex
	n     int
	calls int
	open  chan struct{}
}

func newBarrierHost(n int) *barrierHost { return &barrierHost{n: n, open: make(chan struct{})} }

func (*barrierHost) Gate(Call, bool) Verdict { return Verdict{} }

func (h *barrierHost) Call(ctx context.Context, c Call) (json.RawMessage, error) {
	h.mu.Lock()
	h.calls++
	k := h.calls
	if k == h.n {
		close(h.open)
	}
	h.mu.Unlock()
	select {
	case <-h.open:
	case <-time.After(time.Minute):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if k%3 == 0 {
		time.Sleep(time.Millisecond)
	}
	var a struct{ A, B float64 }
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return nil, err
	}
	return json.Marshal(a.A + a.B)
}

// hibernateProgram keeps state of every kind across its awaited calls
// (closures, strings, a Map, a typed array, a class instance, a pending
// promise chain, calls in flight together), so that a run woken with any
// byte of its memory wrong computes another answer or crashes.
const hibernateProgram = `
const id = %d;
class Acc { constructor() { this.sum = 0; this.log = []; } add(x) { this.sum += x; this.log.push("v" + x); } }
const acc = new Acc();
const m = new Map();
const ta = new Float64Array(64);
let counter = 0;
const bump = () => ++counter;
const s0 = "run-" + id + "-" + "x".repeat(id);
for (let i = 0; i < 5; i++) {
  const r = await tools.add({a: id, b: i});
  acc.add(r);
  m.set("k" + i, {r, s: s0 + i});
  ta[i] = r * 1.5;
  bump();
  const [p, q] = await Promise.all([tools.add({a: r, b: 1}), tools.add({a: r, b: 2})]);
  acc.add(p + q);
}
let t = 0;
for (const [k, v] of m) t += v.r + v.s.length + k.length;
return [acc.sum, acc.log.join(","), t, ta.reduce((a, b) => a + b, 0), counter, s0.length].join("|");
`

// hibernateWant is hibernateProgram's answer for id, computed in Go.
func hibernateWant(id int) string {
	sum, t, ta := 0.0, 0, 0.0
	var log []string
	s0 := fmt.Sprintf("run-%d-%s", id, strings.Repeat("x", id))
	for i := range 5 {
		r := float64(id + i)
		sum += r
		log = append(log, fmt.Sprintf("v%g", r))
		ta += r * 1.5
		pq := (r + 1) + (r + 2)
		sum += pq
		log = append(log, fmt.Sprintf("v%g", pq))
		t += int(r) + len(s0) + len(fmt.Sprint(i)) + 1 + len(fmt.Sprint(i))
	}
	return fmt.Sprintf(`"%g|%s|%d|%g|5|%d"`, sum, strings.Join(log, ","), t, ta, len(s0))
}

// TestHibernatedRunsResume: many runs in flight at once, each waiting in
// host calls, hibernate (at every wait: hibernateNow; their instances go
// back to be reused by the others) and wake with their memory exactly as
// they left it: every run's answer is right and, with verifyWake, the
// whole memory each wake rebuilt equals the memory its run left.
func TestHibernatedRunsResume(t *testing.T) {
	e, err := Load(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.cow == nil {
		t.Fatal("no copy-on-write snapshot image on this system: nothing hibernates")
	}
	verifyWake.Store(true)
	hibernateNow.Store(true)
	defer func() { verifyWake.Store(false); hibernateNow.Store(false) }()
	n := 3 * int(shareThreshold.Load())
	h := newBarrierHost(n)
	before := hibernations.Load()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for id := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := tsx.Transform(fmt.Sprintf(hibernateProgram, id), tsx.JS)
			if err != nil {
				errs <- err
				return
			}
			res := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Host: h, Limits: Limits{Timeout: 5 * time.Minute}})
			switch {
			case res.Err != nil:
				errs <- fmt.Errorf("run %d: %s: %s", id, res.Err.Code, res.Err.Message)
			case string(res.Value) != hibernateWant(id):
				errs <- fmt.Errorf("run %d returned %s, want %s", id, res.Value, hibernateWant(id))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got := hibernations.Load() - before
	if got < int64(n)-int64(shareThreshold.Load()) {
		t.Errorf("%d hibernations for %d runs in flight together, want at least %d", got, n, n-int(shareThreshold.Load()))
	}
	t.Logf("%d hibernations", got)
	e.awaitResets()
	if live := e.live.Load(); live != 0 {
		t.Errorf("%d runs still counted live after all ended", live)
	}
}

// TestHibernatedRunStops: a hibernated run whose tool is still running
// when its context ends stops (CANCELLED) without its instance (it gave
// it back), and the engine's count of runs goes back to zero; a
// hibernated run whose engine is closed while it waits wakes onto a new
// instance and finishes.
func TestHibernatedRunStops(t *testing.T) {
	e, err := Load(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := tsx.Transform(liveProgram, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	n := 2 * int(shareThreshold.Load())
	hold := blockHost{entered: make(chan struct{}, n), release: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	before := hibernations.Load()
	results := make(chan *Result, n)
	for i := range n {
		c := context.Background()
		if i%2 == 0 {
			c = ctx // half of them are cancelled in their tool
		}
		go func() { results <- e.Run(c, Request{Code: p.Code, Setup: addSetup, Host: hold}) }()
	}
	awaitWaiting(t, hold, n, before)
	cancel()
	cancelled := 0
	for range n / 2 {
		r := <-results
		if r.Err == nil || r.Err.Code != codes.Cancelled {
			t.Fatalf("a cancelled run: %s %+v", r.Value, r.Err)
		}
		cancelled++
	}
	e.Close() // the rest wait in their tools: they finish on new instances
	close(hold.release)
	for range n - cancelled {
		if r := <-results; r.Err != nil || string(r.Value) != "6" {
			t.Errorf("a run woken after Close: %s %+v", r.Value, r.Err)
		}
	}
	e.awaitResets()
	if live := e.live.Load(); live != 0 {
		t.Errorf("%d runs still counted live after all ended", live)
	}
}

// awaitWaiting waits until n runs have entered hold's call, then until
// the sweeper has hibernated all but shareThreshold of them.
func awaitWaiting(t *testing.T, hold blockHost, n int, before int64) {
	t.Helper()
	for range n {
		select {
		case <-hold.entered:
		case <-time.After(time.Minute):
			t.Fatal("the runs did not all reach their call within a minute")
		}
	}
	awaitHibernations(t, before, n-int(shareThreshold.Load()))
}

// awaitHibernations waits until want runs have hibernated since before:
// the sweeper hibernates runs that have waited a millisecond; the test
// fails if they have not within a minute.
func awaitHibernations(t *testing.T, before int64, want int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); hibernations.Load()-before < int64(want); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d runs hibernated within a minute, want %d", hibernations.Load()-before, want)
		}
	}
}

// BenchmarkHostCallsManyLive runs 2 × shareThreshold runs of
// hostcalls100.js at once (100 awaited calls each), so that every call's
// wait hibernates its run; "keep" is the same with hibernation off (each
// run keeps its instance while it waits). An op is one host call.
func BenchmarkHostCallsManyLive(b *testing.B) {
	deriving(b)
	src, err := os.ReadFile(filepath.Join("..", "..", "bench", "programs", "hostcalls100.js"))
	if err != nil {
		b.Fatal(err)
	}
	p, err := tsx.Transform(string(src), tsx.JS)
	if err != nil {
		b.Fatal(err)
	}
	e, err := Shared()
	if err != nil {
		b.Fatal(err)
	}
	n := 2 * int(shareThreshold.Load())
	for _, on := range []bool{true, false} {
		name := "hibernate"
		if !on {
			name = "keep"
		}
		b.Run(name, func(b *testing.B) {
			old := hibernateRuns.Load()
			hibernateRuns.Store(on)
			defer hibernateRuns.Store(old)
			c0, h0 := processCPU(), hibernations.Load()
			calls := 0
			for b.Loop() {
				var wg sync.WaitGroup
				for range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if r := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Host: yieldHost{}}); r.Err != nil {
							b.Error(r.Err.Code, r.Err.Message)
						}
					}()
				}
				wg.Wait()
				calls += 100 * n
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(calls), "ns/call")
			b.ReportMetric(float64(hibernations.Load()-h0)/float64(calls), "hibernations/call")
			if c := processCPU(); c > 0 {
				b.ReportMetric(float64(c-c0)/float64(calls), "cpu-ns/call")
			}
		})
	}
}

// yieldHost is addHost, yielding the processor in each call so that the
// runs in flight interleave as a server's would.
type yieldHost struct{}

func (yieldHost) Gate(Call, bool) Verdict { return Verdict{} }

func (yieldHost) Call(ctx context.Context, c Call) (json.RawMessage, error) {
	runtime.Gosched()
	return addHost{}.Call(ctx, c)
}

// TestHibernatedRunLeavesNothing: the instance a hibernating run gives
// back holds nothing of the run (it is reset before any other run can
// take it): with runs holding a secret all hibernated in their calls,
// no idle instance's memory has the secret, while the hibernated runs'
// memories did (verifyWake keeps each whole: a record holds only the
// bytes that differ from the snapshot, so the secret is whole in it only
// when no byte of it happens to equal the snapshot's there).
func TestHibernatedRunLeavesNothing(t *testing.T) {
	e, err := Load(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	secret := fmt.Sprintf("hibernated-secret-%d", time.Now().UnixNano())
	p, err := tsx.Transform(`const s = ["`+secret[:10]+`", "`+secret[10:]+`"].join(""); globalThis.kept = s;
const r = await tools.add({a: 1, b: 2}); return kept.length + r;`, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	n := 2 * int(shareThreshold.Load())
	hold := blockHost{entered: make(chan struct{}, n), release: make(chan struct{})}
	var mu sync.Mutex
	var records [][]byte
	verifyWake.Store(true)
	defer verifyWake.Store(false)
	record := func(h *hibernated) {
		mu.Lock()
		records = append(records, append([]byte(nil), h.full...))
		mu.Unlock()
	}
	hibernatedHook.Store(&record)
	defer hibernatedHook.Store(nil)
	before := hibernations.Load()
	results := make(chan *Result, n)
	for range n {
		go func() { results <- e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Host: hold}) }()
	}
	awaitWaiting(t, hold, n, before)
	mu.Lock()
	inRecords := 0
	for _, r := range records {
		if bytes.Contains(r, []byte(secret)) {
			inRecords++
		}
	}
	mu.Unlock()
	if inRecords == 0 {
		t.Fatal("no hibernated run's record holds the secret: the check would find nothing anyway")
	}
	e.idleMu.Lock()
	for i, in := range e.idle {
		buf, _ := in.mod.Memory().Read(0, in.mod.Memory().Size())
		if bytes.Contains(buf, []byte(secret)) {
			t.Errorf("idle instance %d holds a hibernated run's secret", i)
		}
	}
	idle := len(e.idle)
	e.idleMu.Unlock()
	if idle == 0 {
		t.Error("no idle instance to look at: no run gave its instance back")
	}
	close(hold.release)
	want := fmt.Sprint(len(secret) + 5)
	for range n {
		if r := <-results; r.Err != nil || string(r.Value) != want {
			t.Errorf("%s %+v, want %s", r.Value, r.Err, want)
		}
	}
}

// TestMemDiffRoundTrip: a memDiff of generated changes to generated pages
// (single bytes, runs, gaps around diffGap, the first and last bytes,
// whole pages) rebuilds the page from the snapshot (apply) and the
// snapshot from the page (restore), byte for byte.
func TestMemDiffRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 2000 {
		snap := make([]byte, 3*osPage)
		for i := range snap {
			if rng.IntN(4) == 0 {
				snap[i] = byte(rng.IntN(256))
			}
		}
		mem := bytes.Clone(snap)
		switch round % 5 {
		case 0: // a few single bytes
			for range rng.IntN(8) {
				i := rng.IntN(len(mem))
				mem[i] ^= byte(1 + rng.IntN(255))
			}
		case 1: // runs with gaps near diffGap
			at := rng.IntN(osPage)
			for k := 0; k < 6 && at < len(mem); k++ {
				mem[at] ^= 0xff
				at += diffGap - 2 + rng.IntN(5)
			}
		case 2: // the edges of the pages
			mem[0] ^= 1
			mem[osPage-1] ^= 1
			mem[osPage] ^= 1
			mem[len(mem)-1] ^= 1
		case 3: // a whole page
			for i := osPage; i < 2*osPage; i++ {
				mem[i] = byte(rng.IntN(256))
			}
		case 4: // nothing
		}
		var d memDiff
		for off := 0; off < len(mem); off += osPage {
			d.add(uint32(off), mem[off:off+osPage], snap[off:off+osPage])
		}
		rebuilt := bytes.Clone(snap)
		if !d.apply(rebuilt) || !bytes.Equal(rebuilt, mem) {
			t.Fatalf("round %d: apply does not rebuild the memory", round)
		}
		back := bytes.Clone(mem)
		d.restore(back, snap)
		if !bytes.Equal(back, snap) {
			t.Fatalf("round %d: restore does not give the snapshot back", round)
		}
		if round%5 == 4 && len(d.offs) != 0 {
			t.Fatalf("round %d: %d runs recorded for an unchanged memory", round, len(d.offs))
		}
	}
}

// TestGrownRunDoesNotHibernate: a run whose memory grew past the
// snapshot's (a 4 MiB buffer it keeps) cannot hibernate (only the
// snapshot's pages are recorded, and a reset instance is the snapshot's
// size): it keeps its instance through its waits, with many runs in
// flight and every wait trying (hibernateNow), and its answers are right.
func TestGrownRunDoesNotHibernate(t *testing.T) {
	e, err := Load(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	hibernateNow.Store(true)
	defer hibernateNow.Store(false)
	p, err := tsx.Transform(`const big = new Uint8Array(4 << 20);
for (let i = 0; i < big.length; i += 4096) big[i] = (i >> 12) & 0xff;
let s = 0;
for (let k = 0; k < 3; k++) s += await tools.add({a: k, b: 1});
let sum = 0;
for (let i = 0; i < big.length; i += 4096) sum += big[i];
return [s, sum];`, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	n := 2 * int(shareThreshold.Load())
	h := newBarrierHost(n)
	before := hibernations.Load()
	want := fmt.Sprintf("[6,%d]", 1024/256*(255*256/2))
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Host: h, Limits: Limits{Timeout: 5 * time.Minute, Memory: 64 << 20}})
			if r.Err != nil || string(r.Value) != want {
				t.Errorf("%s %+v, want %s", r.Value, r.Err, want)
			}
		}()
	}
	wg.Wait()
	if got := hibernations.Load() - before; got != 0 {
		t.Errorf("%d runs with grown memory hibernated", got)
	}
}
