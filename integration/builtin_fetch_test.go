package integration_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

var lastAuth atomic.Value

func fetchServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lastAuth.Store(r.Header.Get("Authorization"))
		switch r.URL.Path {
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"method": %q, "auth": %q}`, r.Method, r.Header.Get("Authorization"))
		case "/echo":
			b, _ := io.ReadAll(r.Body)
			w.Header().Set("X-Got", r.Header.Get("X-Custom"))
			w.Write(b)
		case "/bin":
			w.Write([]byte{0, 1, 2, 255})
		case "/redirect-meta":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, srv.Listener.Addr().String()
}

func fetchEngine(t *testing.T, fc *modebox.FetchConfig, extra func(*modebox.EngineConfig)) *modebox.Engine {
	t.Helper()
	cfg := modebox.EngineConfig{Fetch: fc}
	if extra != nil {
		extra(&cfg)
	}
	e, err := modebox.New(cfg)
	must(t, err)
	t.Cleanup(func() { _ = e.Close() })
	return e
}

func TestFetchFromTheGuest(t *testing.T) {
	srv, addr := fetchServer(t)
	t.Setenv("MBX_TEST_KEY", "Bearer k-123")
	// the test server is plain http: the entry with a secret header says so
	e := fetchEngine(t, &modebox.FetchConfig{Allow: []string{"http://" + addr}, Headers: map[string]map[string]string{"http://" + addr: {"Authorization": "env:MBX_TEST_KEY"}}}, nil)
	r := run(t, e, fmt.Sprintf(`
		const base = %q;
		const j = await fetch(base + "/json");
		const body = await j.json();
		let again; try { await j.text() } catch (e) { again = e.name }
		const p = await fetch(base + "/echo", {method: "POST", headers: {"X-Custom": "c"}, body: "hello"});
		const bin = new Uint8Array(await (await fetch(base + "/bin")).arrayBuffer());
		const up = await (await fetch(base + "/echo", {method: "PUT", body: new Uint8Array([9, 8])})).bytes();
		const nf = await fetch(base + "/nope");
		return {status: j.status, ok: j.ok, ct: j.headers.get("content-type"), body, again, echo: await p.text(), got: p.headers.get("x-got"),
			bin: Array.from(bin), up: Array.from(up), nf: [nf.status, nf.ok], url: j.url, redirected: j.redirected};
	`, srv.URL), modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusOK {
		t.Fatalf("%+v", r.Error)
	}
	var v struct {
		Status     int
		Ok         bool
		Ct, Again  string
		Body       map[string]string
		Echo, Got  string
		Bin, Up    []int
		Nf         []any
		URL        string
		Redirected bool
	}
	must(t, json.Unmarshal(r.Value, &v))
	if v.Status != 200 || !v.Ok || v.Ct != "application/json" || v.Body["method"] != "GET" || v.Again != "TypeError" ||
		v.Echo != "hello" || v.Got != "c" || fmt.Sprint(v.Bin) != "[0 1 2 255]" || fmt.Sprint(v.Up) != "[9 8]" || v.Nf[0] != 404.0 || v.Nf[1] != false || v.Redirected {
		t.Fatalf("%s", r.Value)
	}
	// the injected secret reached the server, and the program never saw
	// it, not even in the server's echo of it
	if got, _ := lastAuth.Load().(string); got != "Bearer k-123" || strings.Contains(string(r.Value), "k-123") {
		t.Fatalf("secret header: server saw %q; program saw %s", got, r.Value)
	}
	r = run(t, e, fmt.Sprintf(`const r = await fetch(%q); return JSON.stringify([...r.headers])`, srv.URL+"/echo"), modebox.RunOptions{Lang: "js"})
	if strings.Contains(string(r.Value), "k-123") {
		t.Fatalf("secret visible: %s", r.Value)
	}
}

// fetch is always a sink: after a source, it needs approval.
func TestFetchIsASink(t *testing.T) {
	_, addr := fetchServer(t)
	e := fetchEngine(t, &modebox.FetchConfig{Allow: []string{addr}}, func(c *modebox.EngineConfig) {
		c.Tools = []modebox.Tool{{Name: "secret", Source: true, Handler: func(context.Context, json.RawMessage) (any, error) { return "s", nil }}}
	})
	r := run(t, e, `await tools.secret(); try { await fetch("http://`+addr+`/json") } catch (e) { return e.code }`, modebox.RunOptions{Lang: "js"})
	if string(r.Value) != `"APPROVAL_UNAVAILABLE"` {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
}

// fetch's maxRequests holds across a pause: the requests a resumed run
// replays from its journal count, so pausing does not reset the cap.
func TestFetchRequestLimitAcrossResume(t *testing.T) {
	_, addr := fetchServer(t)
	c := &counter{}
	e := fetchEngine(t, &modebox.FetchConfig{Allow: []string{addr}, MaxRequests: 2}, func(cfg *modebox.EngineConfig) {
		cfg.Tools = []modebox.Tool{c.tool("t", "guarded", modebox.PolicyAsk)}
		cfg.Continuations = &modebox.Continuations{Keys: [][]byte{newKey(t)}}
	})
	r := run(t, e, `const u = "http://`+addr+`/json";
		await fetch(u); await fetch(u);
		await t.guarded({});
		try { await fetch(u); return "a third request" } catch (e) { return e.code }`, modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusPaused {
		t.Fatalf("%+v", r)
	}
	r, err := e.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
	must(t, err)
	if string(r.Value) != `"FETCH_REQUEST_LIMIT"` {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
}

// Headers behaves as Node's: no toJSON, so JSON.stringify gives "{}" and a
// Headers returned as the result is an empty object, while fetch still
// sends the headers a Headers init holds (the prelude converts them
// itself, not through a toJSON a program could see).
func TestFetchHeadersHaveNoToJSON(t *testing.T) {
	srv, addr := fetchServer(t)
	e := fetchEngine(t, &modebox.FetchConfig{Allow: []string{"http://" + addr}}, nil)
	r := run(t, e, fmt.Sprintf(`
		const h = new Headers({"X-Custom": "from-headers", b: "two"});
		const p = await fetch(%q, {method: "POST", headers: h, body: "x"});
		return {toJSON: typeof Headers.prototype.toJSON, own: typeof h.toJSON, str: JSON.stringify(h), nested: JSON.stringify({h}),
			entries: Object.fromEntries(h), got: p.headers.get("x-got"), resp: JSON.stringify(p.headers), value: h};
	`, srv.URL+"/echo"), modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusOK {
		t.Fatalf("%+v", r.Error)
	}
	want := `{"toJSON":"undefined","own":"undefined","str":"{}","nested":"{\"h\":{}}","entries":{"b":"two","x-custom":"from-headers"},"got":"from-headers","resp":"{}","value":{}}`
	if !jsonEqual(r.Value, []byte(want)) {
		t.Fatalf("got  %s\nwant %s", r.Value, want)
	}
}

// TestFetchSignal: fetch honours an AbortSignal as Node's does: an
// aborted signal rejects before any request with its reason; an abort
// while the request waits rejects with AbortError (and a timeout signal
// with TimeoutError) without waiting for the answer; a signal never
// aborted changes nothing.
func TestFetchSignal(t *testing.T) {
	release := make(chan struct{})
	var slowHits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			slowHits.Add(1)
			select {
			case <-release:
			case <-r.Context().Done():
			}
			w.Write([]byte("late"))
		default:
			w.Write([]byte("fast"))
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	e := fetchEngine(t, &modebox.FetchConfig{Allow: []string{"http://" + srv.Listener.Addr().String()}}, nil)
	r := run(t, e, fmt.Sprintf(`
		const base = %q;
		const out = {};
		try { await fetch(base + "/slow", {signal: AbortSignal.abort()}); out.pre = "fetched"; } catch (e) { out.pre = e.name; }
		const c = new AbortController();
		setTimeout(() => c.abort(), 20);
		try { await fetch(base + "/slow", {signal: c.signal}); out.during = "fetched"; } catch (e) { out.during = [e.name, e.message]; }
		try { await fetch(base + "/slow", {signal: AbortSignal.timeout(20)}); out.timeout = "fetched"; } catch (e) { out.timeout = e.name; }
		const ok = new AbortController();
		out.fine = await (await fetch(base + "/fast", {signal: ok.signal})).text();
		ok.abort();
		return out;
	`, srv.URL), modebox.RunOptions{Lang: "js", Limits: modebox.Limits{Timeout: 30 * time.Second}})
	if r.Status != modebox.StatusOK {
		t.Fatalf("%+v", r.Error)
	}
	if got := string(r.Value); got != `{"pre":"AbortError","during":["AbortError","This operation was aborted"],"timeout":"TimeoutError","fine":"fast"}` {
		t.Fatalf("%s", got)
	}
	if n := slowHits.Load(); n != 2 {
		t.Fatalf("the slow path was asked %d times, want 2 (an aborted signal sends nothing)", n)
	}
}
