package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/tsx"
)

// TestMain runs the package's tests with derived engines off: most of them
// look at the engine Shared returns, its instances, restores and resets,
// which runs on a derived engine (setup.go) would not touch. The tests of
// derived engines, and the benchmarks (which measure runs as users' runs
// go), turn them on (deriving).
func TestMain(m *testing.M) {
	deriveSetups.Store(false)
	os.Exit(m.Run())
}

// deriving turns derived engines on for a test or benchmark.
func deriving(tb testing.TB) {
	old := deriveSetups.Load()
	deriveSetups.Store(true)
	tb.Cleanup(func() { deriveSetups.Store(old) })
}

// richSetup has tools at the top level and in namespaces (one a global),
// aliases, the search tool and a built-in enabled (the others get their
// stand-ins).
var richSetup = []byte(`{"tools":[` +
	`{"key":"add","path":["add"]},` +
	`{"key":"crm.get-user","path":["crm","getUser"],"alias":"get-user"},` +
	`{"key":"crm.list_users","path":["crm","listUsers"],"alias":"list_users"},` +
	`{"key":"math.mul","path":["math2","mul"]}` +
	`],"globals":["crm"],"search":true,"builtins":{"fetch":true}}`)

// runOn runs src (JavaScript) on e with setup.
func runOn(t *testing.T, e *Engine, setup []byte, src string) *Result {
	t.Helper()
	p, err := tsx.Transform(src, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	return e.Run(context.Background(), Request{Code: p.Code, Setup: setup, Host: addHost{}})
}

// derivedFor runs `return 1` on e with setup until e has derived the
// setup's engine, and returns it. Deriving is in the background: the wait
// is bounded by a minute, not by how fast the machine is.
func derivedFor(t *testing.T, e *Engine, setup []byte) *Engine {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if r := runOn(t, e, setup, `return 1`); r.Err != nil || string(r.Value) != "1" {
			t.Fatalf("run: %s %+v", r.Value, r.Err)
		}
		e.setups.mu.Lock()
		d := e.setups.byKey[string(setup)]
		var eng *Engine
		failed := false
		if d != nil {
			eng, failed = d.eng, d.failed
		}
		e.setups.mu.Unlock()
		if failed {
			t.Fatal("deriving the setup's engine failed")
		}
		if eng != nil {
			return eng
		}
		if time.Now().After(deadline) {
			t.Fatal("the setup's engine was not derived within a minute")
		}
		time.Sleep(time.Millisecond)
	}
}

// loadOwn loads an engine of the test's own (sharing the process's
// compilation cache), closed at the end of the test.
func loadOwn(t *testing.T) *Engine {
	t.Helper()
	e, err := Load(context.Background(), DefaultCacheDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestSetupDerivedOnSecondUse: an engine's first run derives nothing; a
// setup is derived the second time it comes, and runs with it run on the
// derived engine from then on (its instances, not the base's); a setup
// that comes once is never derived; a run with no setup is not routed.
func TestSetupDerivedOnSecondUse(t *testing.T) {
	deriving(t)
	e := loadOwn(t)
	if r := runOn(t, e, addSetup, `return 1`); r.Err != nil {
		t.Fatal(r.Err)
	}
	quiesce(e)
	if n := derivations(e); n != 0 {
		t.Fatalf("the engine's first run began %d derivations, want 0", n)
	}
	d := derivedFor(t, e, addSetup)
	if d.base != e {
		t.Fatal("the derived engine's base is not the engine")
	}
	if e.forSetup(addSetup) != d {
		t.Fatal("a run with the setup is not routed to its derived engine")
	}
	if e.forSetup(nil) != nil || d.forSetup(addSetup) != nil {
		t.Fatal("a run with no setup, or on a derived engine, is routed")
	}
	quiesce(e)
	baseIdle := idleCount(e)
	for i := range 5 {
		r := runOn(t, e, addSetup, fmt.Sprintf(`return await tools.add({a: %d, b: 1})`, i))
		if r.Err != nil || string(r.Value) != fmt.Sprint(i+1) {
			t.Fatalf("run %d: %s %+v", i, r.Value, r.Err)
		}
	}
	if idleCount(d) == 0 {
		t.Fatal("the derived engine keeps no idle instance after its runs: they did not run on it")
	}
	if n := idleCount(e); n != baseIdle {
		t.Fatalf("the base's idle instances went from %d to %d: runs with a derived setup used them", baseIdle, n)
	}
	once := []byte(`{"tools":[{"key":"once","path":["once"]}]}`)
	runOn(t, e, once, `return 1`)
	e.setups.mu.Lock()
	_, derivedOnce := e.setups.byKey[string(once)]
	e.setups.mu.Unlock()
	n := derivations(e)
	if derivedOnce || n != 1 {
		t.Fatalf("a setup run once was derived (%v), derivations %d, want 1", derivedOnce, n)
	}
}

// setupPrograms look at everything the setup installs, and at the global
// object as a whole: a run that starts from a derived engine's snapshot
// must see exactly what one that installs the setup itself sees.
var setupPrograms = []string{
	`return Object.getOwnPropertyNames(globalThis).sort()`,
	`return [Object.keys(tools), Object.getOwnPropertyNames(tools).sort(), Object.keys(crm), Object.keys(tools.math2)]`,
	`return [typeof tools.add, tools.add.name, tools.add.length, tools.crm.getUser.name, crm === tools.crm, tools.crm["get-user"] === tools.crm.getUser]`,
	`return [typeof fetch, typeof sh, typeof fs, typeof fs.readFile, typeof tools.search]`,
	`return Object.getOwnPropertyDescriptors(globalThis.tools)`,
	`return await tools.add({a: 2, b: 3})`,
	`try { await tools.crm.getUsr({}); } catch (e) { return [e.name, e.code, e.message]; }`,
	`try { await tools.nope.deeper(); } catch (e) { return [e.name, e.code, e.message]; }`,
	`try { await tools.ad(); } catch (e) { return [e.name, e.code, e.message]; }`,
	`try { await sh("ls"); } catch (e) { return [e.name, e.code, e.message]; }`,
	`try { await fs.readFile("x"); } catch (e) { return [e.name, e.code, e.message]; }`,
	`try { null.x; } catch (e) { return [e.message, e.stack]; }`,
	`console.log(tools, crm); return 1`,
	`return [typeof Headers, typeof Response, typeof Request, String(fetch)]`,
	`const before = Object.keys(tools); tools.add = 1; delete tools.crm; Object.prototype.polluted = 1; return before`,
	`return [String(Object.getPrototypeOf(tools)), "polluted" in {}, typeof tools.add]`,
	`throw new Error("boom")`,
	`return undefinedName + 1`,
}

// derivations counts the derivations e has begun.
func derivations(e *Engine) int {
	e.setups.mu.Lock()
	defer e.setups.mu.Unlock()
	return e.setups.derives
}

// TestSetupDerivedSameAsInstalled is a differential test: every program
// in setupPrograms gives the same result (value, error, logs), byte for
// byte, on a derived engine as when the run installs its setup, for a
// rich setup, a setup with no tools and one with 200.
func TestSetupDerivedSameAsInstalled(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{"tools":[`)
	for i := range 200 {
		if i > 0 {
			many.WriteString(",")
		}
		fmt.Fprintf(&many, `{"key":"ns%d.tool-%d","path":["ns%d","tool%d"],"alias":"tool-%d"}`, i%7, i, i%7, i, i)
	}
	many.WriteString(`],"globals":["ns1"],"search":true}`)
	for _, setup := range [][]byte{richSetup, []byte(`{"tools":[],"globals":[],"search":true}`), []byte(many.String())} {
		t.Run(fmt.Sprintf("%.30s", setup), func(t *testing.T) {
			e := loadOwn(t)
			var want []*Result
			for _, src := range setupPrograms {
				want = append(want, runOn(t, e, setup, src)) // deriving is off: each run installs the setup
			}
			deriving(t)
			d := derivedFor(t, e, setup)
			for round := range 2 { // the second on reset instances
				for i, src := range setupPrograms {
					got := runOn(t, e, setup, src)
					if a, b := describe(want[i]), describe(got); a != b {
						t.Errorf("round %d, %q:\ninstalled: %s\nderived:   %s", round, src, a, b)
					}
				}
			}
			if idleCount(d) == 0 {
				t.Fatal("the derived engine ran nothing")
			}
		})
	}
}

// describe is what a test compares of a result.
func describe(r *Result) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "value=%s", r.Value)
	if r.Err != nil {
		fmt.Fprintf(&b, " err=%s: %s", r.Err.Code, r.Err.Message)
	}
	for _, l := range r.Logs {
		fmt.Fprintf(&b, " log=%s:%s", l.Level, l.Message)
	}
	return b.String()
}

// TestSetupDerivedInstanceIsFresh is TestReusedInstanceIsFresh on a
// derived engine: a run that tampers with what the setup installed (tool
// functions, namespaces, the stand-ins, prototypes) and leaves secrets in
// the heap hands its instance back byte for byte the derived snapshot, and
// the next run finds nothing of it.
func TestSetupDerivedInstanceIsFresh(t *testing.T) {
	deriving(t)
	noSpares(t)
	e := loadOwn(t)
	runOn(t, e, richSetup, `return 1`)
	d := derivedFor(t, e, richSetup)
	for _, in := range takeIdle(d) {
		in.mod.Close(context.Background())
	}
	// what a run on a fresh instance of d sees, to compare the next run's with
	const look = `return [typeof tools.add, tools.add.secret, tools.crm.getUser.name, "leak" in tools, String(sh), typeof globalThis.kept, String(Function.prototype.call)]`
	first := runOn(t, e, richSetup, look)
	if first.Err != nil {
		t.Fatal(first.Err)
	}
	for _, in := range takeIdle(d) {
		in.mod.Close(context.Background())
	}
	r := runOn(t, e, richSetup, `
tools.add.secret = "S3CRET-one";
tools.crm.getUser = () => "S3CRET-two";
Object.defineProperty(tools, "add", {value: "S3CRET-three"});
Object.getPrototypeOf(Object.getPrototypeOf(tools)).leak = "S3CRET-four";
globalThis.sh = () => "S3CRET-five";
Function.prototype.call = () => "S3CRET-six";
globalThis.kept = ["S3CRET-seven".repeat(100), await tools.math2.mul({a: 1, b: 2})];
return 1`)
	if r.Err != nil || string(r.Value) != "1" {
		t.Fatalf("%s %+v", r.Value, r.Err)
	}
	idle := takeIdle(d)
	if len(idle) != 1 {
		t.Fatalf("%d instances kept after one clean run, want 1", len(idle))
	}
	in := idle[0]
	fresh, err := d.restore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close(context.Background())
	got, _ := in.mod.Memory().Read(0, in.mod.Memory().Size())
	want, _ := fresh.Memory().Read(0, fresh.Memory().Size())
	if !bytes.Equal(got, want) {
		t.Fatal("the reset instance's memory is not the derived snapshot's")
	}
	if bytes.Contains(got, []byte("S3CRET")) {
		t.Fatal("a secret of the run is in the reset instance's memory")
	}
	if in.sp.Get() != d.snap.sp {
		t.Fatalf("stack pointer %d after reset, want %d", in.sp.Get(), d.snap.sp)
	}
	d.idleMu.Lock()
	d.idle = append(d.idle, in)
	d.idleMu.Unlock()
	r = runOn(t, e, richSetup, look)
	if a, b := describe(first), describe(r); a != b {
		t.Fatalf("the next run saw the first's changes: %s\nwant %s", b, a)
	}
	if n := idleCount(d); n != 1 {
		t.Fatalf("%d idle instances after the next run, want 1 (the same instance)", n)
	}
}

// TestSetupFailingNotDerived: a setup that the prelude cannot install is
// not derived (once tried, never again); its runs install it themselves
// and report the failure as they did.
func TestSetupFailingNotDerived(t *testing.T) {
	e := loadOwn(t)
	bad := []byte(`{"tools":5}`)
	want := describe(runOn(t, e, bad, `return 1`))
	if !strings.Contains(want, "err=") {
		t.Fatalf("the bad setup's run did not fail: %s", want)
	}
	deriving(t)
	deadline := time.Now().Add(time.Minute)
	for {
		if got := describe(runOn(t, e, bad, `return 1`)); got != want {
			t.Fatalf("a run with the bad setup: %s, want %s", got, want)
		}
		e.setups.mu.Lock()
		d := e.setups.byKey[string(bad)]
		failed := d != nil && d.failed
		e.setups.mu.Unlock()
		if failed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("deriving the bad setup did not end within a minute")
		}
		time.Sleep(time.Millisecond)
	}
	for range 3 {
		if got := describe(runOn(t, e, bad, `return 1`)); got != want {
			t.Fatalf("a run with the bad setup: %s, want %s", got, want)
		}
	}
	if n := derivations(e); n != 1 {
		t.Fatalf("the bad setup was derived %d times, want 1", n)
	}
}

// TestSetupDerivedEvicted: an engine keeps setupsMax derived engines; the
// one used least recently is closed when another is derived, and its setup
// runs correctly after (installing itself, then derived again).
func TestSetupDerivedEvicted(t *testing.T) {
	deriving(t)
	e := loadOwn(t)
	setup := func(i int) []byte {
		return fmt.Appendf(nil, `{"tools":[{"key":"t%d","path":["t%d"]},{"key":"add","path":["add"]}]}`, i, i)
	}
	var ds []*Engine
	for i := range setupsMax + 1 {
		runOn(t, e, setup(i), `return 1`)
		ds = append(ds, derivedFor(t, e, setup(i)))
	}
	// the dropped engine is closed in the background: wait for it (a
	// minute bounds the wait, not the machine's speed)
	for deadline := time.Now().Add(time.Minute); !ds[0].Closed(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the derived engine used least recently was not closed")
		}
	}
	for i := 1; i <= setupsMax; i++ {
		if ds[i].Closed() {
			t.Fatalf("derived engine %d was closed", i)
		}
	}
	e.setups.mu.Lock()
	n := len(e.setups.byKey)
	e.setups.mu.Unlock()
	if n != setupsMax {
		t.Fatalf("%d derived engines kept, want %d", n, setupsMax)
	}
	for i := range setupsMax + 1 {
		r := runOn(t, e, setup(i), fmt.Sprintf(`return [typeof tools.t%d, await tools.add({a: %d, b: 1})]`, i, i))
		if want := fmt.Sprintf(`["function",%d]`, i+1); r.Err != nil || string(r.Value) != want {
			t.Fatalf("setup %d: %s %+v, want %s", i, r.Value, r.Err, want)
		}
	}
}

// TestSetupDerivedClosedWithBase: closing an engine closes its derived
// engines (their idle instances go, a run on one fails with
// IMAGE_CLOSED), and the base is freed only after the last of them: its
// snapshot memfd and theirs are closed (the process's fds come back).
func TestSetupDerivedClosedWithBase(t *testing.T) {
	deriving(t)
	warm := loadOwn(t)
	runOn(t, warm, addSetup, `return 1`)
	derivedFor(t, warm, addSetup)
	warm.Close()
	before := openFDs(t)
	for i := range 10 {
		e, err := Load(context.Background(), DefaultCacheDir())
		if err != nil {
			t.Fatal(err)
		}
		runOn(t, e, addSetup, `return 1`)
		d := derivedFor(t, e, addSetup)
		if d.cow == nil && e.cow != nil {
			t.Fatal("the derived engine has no snapshot memfd: the test would not see it leak")
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if !d.Closed() {
			t.Fatalf("engine %d: its derived engine is open after Close", i)
		}
		if n := idleCount(d); n != 0 {
			t.Fatalf("engine %d: the derived engine keeps %d idle instances after Close", i, n)
		}
		for _, eng := range []*Engine{e, d} {
			r := eng.Run(context.Background(), Request{Code: "(async () => 1)", Host: addHost{}})
			if r.Err == nil || r.Err.Code != codes.ImageClosed {
				t.Fatalf("engine %d: run after Close: %+v %s", i, r.Err, r.Value)
			}
		}
		if r := runOn(t, e, addSetup, `return 1`); r.Err == nil || r.Err.Code != codes.ImageClosed {
			t.Fatalf("engine %d: run with the setup after Close: %+v %s", i, r.Err, r.Value)
		}
	}
	// two memfds an engine (its own, its derived one's); a leak is 20
	if after := openFDs(t); after > before+3 {
		t.Fatalf("open fds grew from %d to %d over 10 closed engines with a derived one each", before, after)
	}
}

// BenchmarkRunStartTools is a run of `return 1` with a setup of n tools
// (in namespaces, with aliases), with the setup derived (as users' runs
// go) and installed by each run.
func BenchmarkRunStartTools(b *testing.B) {
	for _, n := range []int{1, 10, 50, 500} {
		for _, mode := range []string{"derived", "installed"} {
			b.Run(fmt.Sprintf("%d/%s", n, mode), func(b *testing.B) {
				var s strings.Builder
				s.WriteString(`{"tools":[`)
				for i := range n {
					if i > 0 {
						s.WriteString(",")
					}
					fmt.Fprintf(&s, `{"key":"ns%d.tool_%d","path":["ns%d","tool%d"],"alias":"tool_%d"}`, i%5, i, i%5, i, i)
				}
				s.WriteString(`],"globals":[],"search":true}`)
				old := deriveSetups.Load()
				deriveSetups.Store(mode == "derived")
				defer deriveSetups.Store(old)
				e, err := Shared()
				if err != nil {
					b.Fatal(err)
				}
				req := Request{Code: "(async () => 1)", Setup: []byte(s.String())}
				for range 3 { // the second use derives, in the background
					e.Run(context.Background(), req)
				}
				if mode == "derived" {
					for deadline := time.Now().Add(time.Minute); e.forSetup(req.Setup) == nil; time.Sleep(time.Millisecond) {
						if time.Now().After(deadline) {
							b.Fatal("not derived within a minute")
						}
					}
				}
				c0 := processCPU()
				for b.Loop() {
					if r := e.Run(context.Background(), req); r.Err != nil {
						b.Fatal(r.Err.Code, r.Err.Message)
					}
				}
				if c := processCPU(); c > 0 {
					b.ReportMetric(float64(c-c0)/float64(b.N), "cpu-ns/op")
				}
			})
		}
	}
}

// TestSetupDerivedDirtiesFewPages is TestSmallRunDirtiesFewPages on a
// derived engine, and a run of a bigger program (60 functions, more than
// the top of the heap holds) on both: the derived snapshot's heap must
// serve it without spreading its blocks over the snapshot's pages (with
// mb_setup plugging the heap's holes as mb_init does, it plugged the big
// free blocks too, and that run wrote 97 pages against the base's 36).
func TestSetupDerivedDirtiesFewPages(t *testing.T) {
	e := loadOwn(t)
	var big strings.Builder
	for i := range 60 {
		fmt.Fprintf(&big, "function f%d(x) { const y = x * %d + 1; return y > 1e9 ? y %% 7 : y - %d * x; }\n", i, i+2, i+1)
	}
	big.WriteString(liveProgram)
	baseSmall, baseBig := dirtiedPages(t, e, liveProgram), dirtiedPages(t, e, big.String())
	deriving(t)
	runOn(t, e, addSetup, `return 1`)
	d := derivedFor(t, e, addSetup)
	small, bigger := dirtiedPages(t, d, liveProgram), dirtiedPages(t, d, big.String())
	t.Logf("pages written: a small run %d (base %d), a 60-function program %d (base %d)", small, baseSmall, bigger, baseBig)
	if small > maxDirtiedPages {
		t.Errorf("a small run on the derived engine dirtied %d pages, want at most %d", small, maxDirtiedPages)
	}
	if bigger > baseBig+8 {
		t.Errorf("the 60-function program dirtied %d pages on the derived engine, %d on the base", bigger, baseBig)
	}
}

// TestSetupDerivedConcurrent runs with setupsMax+2 setups from 8
// goroutines at once, so that setups are derived, used and dropped while
// runs are in flight on them: every run's result is its own setup's.
func TestSetupDerivedConcurrent(t *testing.T) {
	deriving(t)
	e := loadOwn(t)
	const setupCount, workers, runsEach = setupsMax + 2, 8, 30
	setup := func(i int) []byte {
		return fmt.Appendf(nil, `{"tools":[{"key":"only%d","path":["only%d"]},{"key":"add","path":["add"]}]}`, i, i)
	}
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			for k := range runsEach {
				i := (w + k) % setupCount
				p, err := tsx.Transform(fmt.Sprintf(`return [Object.keys(tools).join(), await tools.add({a: %d, b: 1})]`, k), tsx.JS)
				if err != nil {
					errs <- err
					return
				}
				r := e.Run(context.Background(), Request{Code: p.Code, Setup: setup(i), Host: addHost{}})
				if want := fmt.Sprintf(`["only%d,add",%d]`, i, k+1); r.Err != nil || string(r.Value) != want {
					errs <- fmt.Errorf("worker %d run %d: %s %+v, want %s", w, k, r.Value, r.Err, want)
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if n := derivations(e); n < setupsMax {
		t.Fatalf("%d derivations for %d setups run %d times each: the test did not exercise derived engines", n, setupCount, workers*runsEach/setupCount)
	}
	t.Logf("%d derivations", derivations(e))
}

// TestSetupDerivedClosedBeforeRun: a derived engine closed between the
// lookup that found it and its run (a concurrent run dropped it, the
// least recently used) ran nothing, and the run installs its setup
// itself instead of failing with IMAGE_CLOSED (TestSetupDerivedConcurrent
// met this under load).
func TestSetupDerivedClosedBeforeRun(t *testing.T) {
	deriving(t)
	e := loadOwn(t)
	runOn(t, e, addSetup, `return 1`)
	d := derivedFor(t, e, addSetup)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	p, err := tsx.Transform(`return [Object.keys(tools).join(), await tools.add({a: 2, b: 3})]`, tsx.JS)
	if err != nil {
		t.Fatal(err)
	}
	r := e.Run(context.Background(), Request{Code: p.Code, Setup: addSetup, Host: addHost{}})
	if r.Err != nil || !strings.Contains(string(r.Value), ",5]") {
		t.Fatalf("%s %+v", r.Value, r.Err)
	}
}
