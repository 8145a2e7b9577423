package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/config"
	"github.com/modebox/modebox/internal/hostilemcp"
)

// TestMain lets the test binary serve as a hostile MCP server.
func TestMain(m *testing.M) {
	hostilemcp.MaybeRun()
	maybeRunTypedServer()
	os.Exit(m.Run())
}

// hostileStdio is the config of the test binary as a stdio server in mode.
func hostileStdio(mode string) config.Server {
	return config.Server{Command: os.Args[0], Env: map[string]string{hostilemcp.ModeEnv: mode}}
}

// hostileHTTP serves mode over HTTP and returns its config.
func hostileHTTP(t *testing.T, mode, redirectTo string) config.Server {
	hs := httptest.NewServer(hostilemcp.Handler(mode, redirectTo))
	t.Cleanup(hs.Close)
	return config.Server{Type: "http", URL: hs.URL}
}

// bounded checks that the host came back to its goroutine baseline.
func bounded(t *testing.T, baseline int) {
	t.Helper()
	if !waitFor(10*time.Second, func() bool { return runtime.NumGoroutine() <= baseline+10 }) {
		t.Errorf("goroutines: %d, baseline %d", runtime.NumGoroutine(), baseline)
	}
}

func TestHostileRedirectKeepsCredentials(t *testing.T) {
	baseline := runtime.NumGoroutine()
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		leaked = append(leaked, r.Header.Get("Authorization")+" "+string(body))
		mu.Unlock()
		http.Error(w, "no", http.StatusNotFound)
	}))
	defer other.Close()
	for _, typ := range []string{"http", "sse"} {
		srv := hostileHTTP(t, "redirect", other.URL+"/mcp")
		srv.Type = typ
		srv.Headers = map[string]string{"Authorization": "Bearer s3cret"}
		m := startManager(t, map[string]config.Server{"evil": srv, "good": hostileHTTP(t, "escapes", "")}, Options{})
		f := m.Failures()
		if len(f) != 1 || f[0].Server != "evil" || !errors.Is(f[0].Err, ErrRedirect) && !strings.Contains(f[0].Error(), "redirect") {
			t.Errorf("%s: failures %v, want evil refused for its redirect", typ, f)
		}
		if got := mustCall(t, m, "good", "echo", `{"a":1}`); string(got) != `"{\"a\":1}"` {
			t.Errorf("the other server: %s", got)
		}
		m.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Errorf("requests reached the other origin: %q", leaked)
	}
	bounded(t, baseline)
}

func TestHostileHugeBodyCapped(t *testing.T) {
	baseline := runtime.NumGoroutine()
	for _, mode := range []string{"huge-body", "huge-event"} {
		m := startManager(t, map[string]config.Server{"evil": hostileHTTP(t, mode, "")}, Options{CallTimeout: time.Minute})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := m.Call(context.Background(), "evil", "evil", nil)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatalf("%s: a %d MiB result was accepted", mode, hostilemcp.HugeBody>>20)
		}
		if !errors.Is(err, ErrMessageTooLarge) || !strings.Contains(err.Error(), "16 MiB") {
			t.Errorf("%s: error %q does not say the message is over 16 MiB", mode, err)
		}
		// the cap is 16 MiB; reading the whole body would allocate 400 MiB+
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 160<<20 {
			t.Errorf("%s: the call allocated %d MiB", mode, alloc>>20)
		}
		t.Logf("%s: %v", mode, err)
		m.Close()
	}
	bounded(t, baseline)
}

func TestHostileStartErrors(t *testing.T) {
	cfg := hostileStdio("no-init")
	cfg.Timeout = time.Second
	start := time.Now()
	m := startManager(t, map[string]config.Server{
		"noinit": cfg, "big": hostileStdio("oversized"), "garbage": hostileStdio("malformed"), "good": hostileStdio("names"),
	}, Options{})
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Start took %s with a server whose timeout is 1s (start bound %s)", d, MinStartTimeout)
	}
	got := map[string]string{}
	for _, f := range m.Failures() {
		got[f.Server] = f.Error()
	}
	if !strings.Contains(got["noinit"], "did not start within "+MinStartTimeout.String()) {
		t.Errorf("noinit: %q", got["noinit"])
	}
	if !strings.Contains(got["big"], "cannot read") || !strings.Contains(got["big"], "16 MiB") {
		t.Errorf("big: %q", got["big"])
	}
	if !strings.Contains(got["garbage"], "cannot read") || strings.Contains(got["garbage"], "exit status 0") {
		t.Errorf("garbage: %q", got["garbage"])
	}
	if len(got) != 3 {
		t.Errorf("failures: %q", got)
	}
}

func TestHostileListingLimits(t *testing.T) {
	servers := map[string]config.Server{}
	for _, mode := range []string{"names", "huge-word", "refchain", "long-name"} {
		servers[mode] = hostileStdio(mode)
		servers[mode+"-http"] = hostileHTTP(t, mode, "")
	}
	m := startManager(t, servers, Options{})
	skipped := map[string]string{}
	for _, s := range m.Skipped() {
		skipped[s.Server+"."+s.Tool[:min(len(s.Tool), 20)]] = s.Reason
	}
	for _, suffix := range []string{"", "-http"} {
		for _, k := range []string{"names" + suffix + ".twice", "huge-word" + suffix + ".aaaaaaaaaaaaaaaaaaaa",
			"refchain" + suffix + ".chain", "long-name" + suffix + ".IGNORE_ALL_PREVIOUS_"} {
			if skipped[k] == "" {
				t.Errorf("%s not skipped (skipped: %q)", k, skipped)
			}
		}
	}
	for _, tool := range m.Tools() {
		if len(tool.Name) > MaxToolNameLength || len(tool.Description) > MaxDescriptionLength+len("…") {
			t.Errorf("tool %.40s… kept: name %d bytes, description %d", tool.Name, len(tool.Name), len(tool.Description))
		}
	}
	for name := range servers {
		mustCall(t, m, name, "echo", `{}`)
	}
}

// whoKey carries the caller's identity to the Elicitor.
type whoKey struct{}

func TestHostileElicitationsRoutedToTheirCall(t *testing.T) {
	for _, srv := range []config.Server{hostileStdio("elicit-who"), hostileHTTP(t, "elicit-who", "")} {
		aliceAsked := make(chan struct{})
		release := make(chan struct{})
		var mu sync.Mutex
		var asked []string
		elicitor := func(ctx context.Context, server, message string, _ json.RawMessage) (string, map[string]any, error) {
			who, _ := ctx.Value(whoKey{}).(string)
			mu.Lock()
			asked = append(asked, who+": "+message)
			mu.Unlock()
			if who == "alice" {
				close(aliceAsked)
				<-release
			}
			answer := map[string]string{"alice": "approve", "bob": "deny"}[who]
			return "accept", map[string]any{"decision": answer}, nil
		}
		m := startManager(t, map[string]config.Server{"s": srv}, Options{Elicitor: elicitor})
		var wg sync.WaitGroup
		var aliceRes json.RawMessage
		wg.Go(func() {
			aliceRes, _ = m.Call(context.WithValue(context.Background(), whoKey{}, "alice"), "s", "evil", json.RawMessage(`{"who":"alice"}`))
		})
		<-aliceAsked
		bobRes, err := m.Call(context.WithValue(context.Background(), whoKey{}, "bob"), "s", "evil", json.RawMessage(`{"who":"bob"}`))
		close(release)
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		if len(asked) != 1 || asked[0] != "alice: question for alice" {
			t.Errorf("asked %q, want only alice about her own call", asked)
		}
		mu.Unlock()
		if !strings.Contains(string(aliceRes), `\"approve\"`) {
			t.Errorf("alice got %s", aliceRes)
		}
		if !strings.Contains(string(bobRes), `decline`) || strings.Contains(string(bobRes), "approve") {
			t.Errorf("bob got %s, want his question declined (two calls in flight)", bobRes)
		}
	}
}

// TestHostileElicitationsOfParallelCalls runs two calls of two callers
// at once to one server that elicits during both, naming the call each
// question belongs to (by the call's progress token, over stdio and HTTP,
// or by its JSON-RPC id, over stdio): each question reaches its own
// caller, and each answer lands on its own call. Both questions are in
// flight together (each caller answers only once the other was asked). A
// question naming a call that is not in flight is declined, even with
// one call in flight.
func TestHostileElicitationsOfParallelCalls(t *testing.T) {
	servers := map[string]config.Server{
		"tagged": hostileStdio("elicit-tagged"), "tagged-http": hostileHTTP(t, "elicit-tagged", ""),
		"related": hostileStdio("elicit-related"),
	}
	for name, srv := range servers {
		var mu sync.Mutex
		var asked []string
		both := make(chan struct{})
		var once sync.Once
		elicitor := func(ctx context.Context, server, message string, _ json.RawMessage) (string, map[string]any, error) {
			who, _ := ctx.Value(whoKey{}).(string)
			mu.Lock()
			asked = append(asked, who+": "+message)
			if len(asked) == 2 {
				once.Do(func() { close(both) })
			}
			mu.Unlock()
			select {
			case <-both:
			case <-time.After(20 * time.Second):
			}
			answer := map[string]string{"alice": "approve", "bob": "deny"}[who]
			return "accept", map[string]any{"decision": answer}, nil
		}
		m := startManager(t, map[string]config.Server{"s": srv}, Options{Elicitor: elicitor})
		results := map[string]json.RawMessage{}
		var wg sync.WaitGroup
		for _, who := range []string{"alice", "bob"} {
			wg.Go(func() {
				res, err := m.Call(context.WithValue(context.Background(), whoKey{}, who), "s", "evil", json.RawMessage(`{"who":"`+who+`"}`))
				if err != nil {
					t.Errorf("%s: %s: %v", name, who, err)
				}
				mu.Lock()
				results[who] = res
				mu.Unlock()
			})
		}
		wg.Wait()
		slices.Sort(asked)
		if strings.Join(asked, "|") != "alice: question for alice|bob: question for bob" {
			t.Errorf("%s: asked %q, want each caller about their own call", name, asked)
		}
		if !strings.Contains(string(results["alice"]), `\"approve\"`) || strings.Contains(string(results["alice"]), "deny") {
			t.Errorf("%s: alice got %s", name, results["alice"])
		}
		if !strings.Contains(string(results["bob"]), `\"deny\"`) || strings.Contains(string(results["bob"]), "approve") {
			t.Errorf("%s: bob got %s", name, results["bob"])
		}
		m.Close()
	}
	// over HTTP no ids are kept: a related-request id is not looked at, and
	// the question goes to the one call in flight
	{
		var n atomic.Int32
		elicitor := func(context.Context, string, string, json.RawMessage) (string, map[string]any, error) {
			n.Add(1)
			return "accept", map[string]any{"decision": "approve"}, nil
		}
		m := startManager(t, map[string]config.Server{"s": hostileHTTP(t, "elicit-related", "")}, Options{Elicitor: elicitor})
		if res := mustCall(t, m, "s", "evil", `{"who":"alice"}`); n.Load() != 1 || !strings.Contains(string(res), "approve") {
			t.Errorf("http, related id, one call: asked %d times, result %s", n.Load(), res)
		}
		m.Close()
	}
	for _, srv := range []config.Server{hostileStdio("elicit-stale"), hostileHTTP(t, "elicit-stale", "")} {
		var n atomic.Int32
		elicitor := func(context.Context, string, string, json.RawMessage) (string, map[string]any, error) {
			n.Add(1)
			return "accept", map[string]any{"decision": "approve"}, nil
		}
		m := startManager(t, map[string]config.Server{"s": srv}, Options{Elicitor: elicitor})
		res := mustCall(t, m, "s", "evil", `{"who":"alice"}`)
		if n.Load() != 0 || !strings.Contains(string(res), "decline") {
			t.Errorf("%s: a question naming no call in flight: asked %d times, result %s", srv.Transport(), n.Load(), res)
		}
		m.Close()
	}
}

func TestHostileElicitationFlood(t *testing.T) {
	for _, srv := range []config.Server{hostileStdio("elicit-flood"), hostileHTTP(t, "elicit-flood", "")} {
		var n atomic.Int32
		elicitor := func(context.Context, string, string, json.RawMessage) (string, map[string]any, error) {
			n.Add(1)
			return "decline", nil, nil
		}
		m := startManager(t, map[string]config.Server{"s": srv}, Options{Elicitor: elicitor})
		res := mustCall(t, m, "s", "evil", `{}`)
		if n.Load() != MaxElicitationsPerCall {
			t.Errorf("%s: asked %d times, want %d", srv.Transport(), n.Load(), MaxElicitationsPerCall)
		}
		if c := strings.Count(string(res), "decline"); c != 40 {
			t.Errorf("%s: %d of 40 declined: %s", srv.Transport(), c, res)
		}
	}
}

func TestServerEnvironmentIsAnExplicitList(t *testing.T) {
	t.Setenv("MODEBOX_TEST_SECRET", "hunter2")
	cfg := hostileStdio("names")
	cfg.Env["LANG"] = "C.UTF-8"
	m := startManager(t, map[string]config.Server{"s": cfg}, Options{})
	var env string
	if err := json.Unmarshal(mustCall(t, m, "s", "env", `{}`), &env); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, kv := range strings.Split(env, "\n") {
		k, _, _ := strings.Cut(kv, "=")
		names = append(names, k)
	}
	slices.Sort(names)
	if got := strings.Join(names, ","); got != "HOME,LANG,"+hostilemcp.ModeEnv+",PATH" {
		t.Errorf("server environment: %s, want PATH, HOME and the configured env only", got)
	}
}

// sleepers returns the pids of processes running "sleep ARG".
func sleepers(arg string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(b), "sleep\x00"+arg) {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestHostileDetachedChildrenDieWithTheServer(t *testing.T) {
	arg := fmt.Sprintf("3000.%d", time.Now().UnixNano()%1_000_000)
	cfg := hostileStdio("setsid")
	cfg.Env["MODEBOX_HOSTILE_SLEEP"] = arg
	m := New(map[string]config.Server{"s": cfg}, Options{})
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !waitFor(10*time.Second, func() bool { return len(sleepers(arg)) > 0 }) {
		t.Fatalf("the detached child did not start (failures: %v)", m.Failures())
	}
	if noNamespaces.Load() {
		defer func() {
			for _, p := range sleepers(arg) {
				if n, err := strconv.Atoi(p); err == nil {
					_ = syscall.Kill(n, syscall.SIGKILL)
				}
			}
		}()
		if os.Getenv("CI") != "" {
			t.Fatal("PID namespaces are not available (CI needs unprivileged user namespaces or root)")
		}
		t.Skip("PID namespaces are not available here: detached children outlive their server")
	}
	mustCall(t, m, "s", "echo", `{}`)
	_ = m.Close()
	if !waitFor(10*time.Second, func() bool { return len(sleepers(arg)) == 0 }) {
		pids := sleepers(arg)
		for _, p := range pids {
			if n, err := strconv.Atoi(p); err == nil {
				_ = syscall.Kill(n, syscall.SIGKILL)
			}
		}
		t.Errorf("the server's detached child outlived it: pids %v", pids)
	}
}

// heapPeak runs fn and returns the peak of the heap in use during it
// over the heap in use before, sampled every 2ms.
func heapPeak(fn func()) uint64 {
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var max uint64
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				peak <- max
				return
			case <-time.After(2 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			max = maxU(max, ms.HeapInuse)
		}
	}()
	fn()
	close(stop)
	p := <-peak
	return p - min(p, base.HeapInuse)
}

// TestHostileBigResultMemory checks that one result of 11 to 15 MiB costs
// the host well under 4 times its size at the peak (a structured value:
// under 5 times): the line is read once
// into a buffer of its size and the result converted from it (plain text:
// the line's own bytes; text with escapes and a structured value of
// 50,000 rows: one buffer of its final size).
func TestHostileBigResultMemory(t *testing.T) {
	for _, mode := range []string{"big-result", "big-result-escaped", "big-structured"} {
		m := startManager(t, map[string]config.Server{"s": hostileStdio(mode)}, Options{})
		var res json.RawMessage
		var err error
		over := heapPeak(func() { res, err = m.Call(context.Background(), "s", "evil", nil) })
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: a %d MiB result: heap peak %d MiB over the baseline (%.1fx)", mode, len(res)>>20, over>>20, float64(over)/float64(len(res)))
		limit := 4 * uint64(len(res))
		if mode == "big-structured" {
			limit = 5 * uint64(len(res)) // the line, its blocks and the value rewritten: about 3x
		}
		if over > limit {
			t.Errorf("%s: heap peak %d MiB for a %d MiB result", mode, over>>20, len(res)>>20)
		}
		m.Close()
	}
}

// TestHostileBigResultMemoryParallel makes 8 calls at once, two to each of
// four servers that answer with a result of 11 to 15 MiB (plain text,
// text with escapes, structured rows), and checks that the heap peak stays under 40 MiB per
// result: each connection holds at most one line it reads (up to 16 MiB
// in blocks, then its buffer), the big lines being converted are bounded
// by ResultBudget, and plain results are the lines' own bytes. The budget
// is all given back after.
func TestHostileBigResultMemoryParallel(t *testing.T) {
	for _, mode := range []string{"big-result", "big-result-escaped", "big-structured"} {
		m := startManager(t, map[string]config.Server{"a": hostileStdio(mode), "b": hostileStdio(mode), "c": hostileStdio(mode), "d": hostileStdio(mode)}, Options{})
		const calls = 8
		var sizes []int
		over := heapPeak(func() {
			errs := make(chan error, calls)
			got := make(chan int, calls)
			for i := range calls {
				go func() {
					res, err := m.Call(context.Background(), []string{"a", "b", "c", "d"}[i%4], "evil", nil)
					got <- len(res)
					errs <- err
				}()
			}
			for range calls {
				if err := <-errs; err != nil {
					t.Error(err)
				}
				sizes = append(sizes, <-got)
			}
		})
		for _, n := range sizes {
			if n < 11<<20 {
				t.Fatalf("%s: results of %v bytes", mode, sizes)
			}
		}
		t.Logf("%s: %d calls of a %d MiB result at once: heap peak %d MiB over the baseline", mode, calls, sizes[0]>>20, over>>20)
		if over > calls*40<<20 {
			t.Errorf("%s: heap peak %d MiB for %d results at once", mode, over>>20, calls)
		}
		if !waitFor(5*time.Second, func() bool { return resultBudget.inUse() == 0 }) {
			t.Errorf("%s: %d bytes of the budget still held after the calls", mode, resultBudget.inUse())
		}
		m.Close()
	}
}

func maxU(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

// chunkReader returns its data in reads of random sizes.
type chunkReader struct {
	data []byte
	rnd  *rand.Rand
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.data), 1+c.rnd.IntN(300))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

func TestEventCapProperty(t *testing.T) {
	// streams of events (LF or CRLF line ends, every byte value in the
	// data) pass through unchanged while every event is under the limit,
	// and fail with ErrMessageTooLarge as soon as one is over
	rnd := rand.New(rand.NewPCG(1, 2))
	const limit = 1000
	for i := range 2000 {
		var stream []byte
		biggest := 0
		for range rnd.IntN(6) {
			nl := "\n"
			if rnd.IntN(2) == 0 {
				nl = "\r\n"
			}
			var ev []byte
			for range 1 + rnd.IntN(3) {
				line := make([]byte, rnd.IntN(limit/2))
				for j := range line {
					line[j] = byte(rnd.IntN(256))
					if line[j] == '\n' || line[j] == '\r' {
						line[j] = 'x'
					}
				}
				ev = append(append(append(ev, "data: "...), line...), nl...)
			}
			biggest = max(biggest, len(ev))
			stream = append(append(stream, ev...), nl...)
		}
		var over atomic.Bool
		ec := &eventCap{body: io.NopCloser(&chunkReader{data: slices.Clone(stream), rnd: rnd}), limit: limit, over: &over}
		got, err := io.ReadAll(ec)
		if biggest < limit {
			if err != nil || !bytes.Equal(got, stream) {
				t.Fatalf("case %d: events up to %d bytes: err %v, %d of %d bytes", i, biggest, err, len(got), len(stream))
			}
		} else if !errors.Is(err, ErrMessageTooLarge) || !over.Load() {
			t.Fatalf("case %d: an event of %d bytes passed (err %v)", i, biggest, err)
		}
	}
	// a body is capped at its limit exactly
	var over atomic.Bool
	bc := &bodyCap{body: io.NopCloser(bytes.NewReader(make([]byte, 5000))), left: 4999, over: &over}
	if _, err := io.ReadAll(bc); !errors.Is(err, ErrMessageTooLarge) || !over.Load() {
		t.Errorf("a 5000-byte body under a 4999-byte cap: %v", err)
	}
	bc = &bodyCap{body: io.NopCloser(bytes.NewReader(make([]byte, 5000))), left: 5000, over: &over}
	if b, err := io.ReadAll(bc); err != nil && !errors.Is(err, ErrMessageTooLarge) || len(b) != 5000 {
		t.Errorf("a 5000-byte body under a 5000-byte cap: %d bytes, %v", len(b), err)
	}
}

// TestStdioBatches talks to a server that answers everything in JSON-RPC
// batches (of one) and sends a batch of a notification and two requests:
// the results are read from the batches, and the answers to the batched
// requests go back together in one batch.
func TestStdioBatches(t *testing.T) {
	m := startManager(t, map[string]config.Server{"s": hostileStdio("batch")}, Options{})
	if got := mustCall(t, m, "s", "echo", `{"a":"<b>"}`); string(got) != `"{\"a\":\"\\u003cb\\u003e\"}"` {
		t.Errorf("echo in a batch: %s", got)
	}
	var res string
	if err := json.Unmarshal(mustCall(t, m, "s", "batch", `{}`), &res); err != nil {
		t.Fatal(err)
	}
	if res != `answers in batches: [["\"b1\"","\"b2\""]]` && res != `answers in batches: [["\"b2\"","\"b1\""]]` {
		t.Errorf("the batch of requests was answered as %s", res)
	}
}
