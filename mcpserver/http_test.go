package mcpserver

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func post(t *testing.T, url string, mutate func(*http.Request)) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(initBody))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	mutate(req)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

// serveHTTP serves s's HTTP handler with o on a loopback test server and
// returns the endpoint's URL.
func serveHTTP(t *testing.T, s *Server, o HTTPOptions) (*httptest.Server, string) {
	t.Helper()
	h, err := s.HTTPHandler(o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts, ts.URL + DefaultPath
}

func TestHTTPChecks(t *testing.T) {
	eng, _ := newEngine(t)
	ts, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{
		Bearer:         "s3cret",
		AllowedHosts:   []string{"mcp.example.com", "other.example:8443"},
		AllowedOrigins: []string{"https://app.example.com", "http://tool.example:8080/"},
	})
	own := strings.Replace(ts.URL, "127.0.0.1", "127.0.0.1", 1) // the server's own origin
	auth := func(r *http.Request) { r.Header.Set("Authorization", "Bearer s3cret") }

	for _, c := range []struct {
		name   string
		mutate func(*http.Request)
		want   int
	}{
		{"ok", auth, http.StatusOK},
		{"localhost host", func(r *http.Request) { auth(r); r.Host = "localhost:1234" }, http.StatusOK},
		{"ipv6 loopback host", func(r *http.Request) { auth(r); r.Host = "[::1]:1234" }, http.StatusOK},
		{"allowed host", func(r *http.Request) { auth(r); r.Host = "MCP.example.com" }, http.StatusOK},
		{"allowed host:port", func(r *http.Request) { auth(r); r.Host = "other.example:8443" }, http.StatusOK},
		{"allowed host, other port", func(r *http.Request) { auth(r); r.Host = "other.example:9999" }, http.StatusForbidden},
		{"bad host", func(r *http.Request) { auth(r); r.Host = "evil.example:80" }, http.StatusForbidden},
		{"rebinding host", func(r *http.Request) { auth(r); r.Host = "attacker.localhost.evil.example" }, http.StatusForbidden},
		{"own origin", func(r *http.Request) { auth(r); r.Header.Set("Origin", own) }, http.StatusOK},
		{"own origin, https", func(r *http.Request) { auth(r); r.Header.Set("Origin", strings.Replace(own, "http:", "https:", 1)) }, http.StatusForbidden},
		{"own origin of an allowed host", func(r *http.Request) {
			auth(r)
			r.Host = "mcp.example.com"
			r.Header.Set("Origin", "http://mcp.example.com")
		}, http.StatusOK},
		// A page served on another loopback port (a dev server, another
		// user's process) is another origin.
		{"loopback origin, other port", func(r *http.Request) { auth(r); r.Header.Set("Origin", "http://localhost:3000") }, http.StatusForbidden},
		{"loopback origin, other port, same IP", func(r *http.Request) { auth(r); r.Header.Set("Origin", "http://127.0.0.1:1") }, http.StatusForbidden},
		{"allowed host as origin from elsewhere", func(r *http.Request) { auth(r); r.Header.Set("Origin", "https://mcp.example.com") }, http.StatusForbidden},
		{"listed origin", func(r *http.Request) { auth(r); r.Header.Set("Origin", "https://app.example.com") }, http.StatusOK},
		{"listed origin, default port", func(r *http.Request) { auth(r); r.Header.Set("Origin", "https://app.example.com:443") }, http.StatusOK},
		{"listed origin with port", func(r *http.Request) { auth(r); r.Header.Set("Origin", "http://tool.example:8080") }, http.StatusOK},
		{"listed origin, other scheme", func(r *http.Request) { auth(r); r.Header.Set("Origin", "http://app.example.com") }, http.StatusForbidden},
		{"bad origin", func(r *http.Request) { auth(r); r.Header.Set("Origin", "http://evil.example") }, http.StatusForbidden},
		{"null origin", func(r *http.Request) { auth(r); r.Header.Set("Origin", "null") }, http.StatusForbidden},
		{"two origins", func(r *http.Request) { auth(r); r.Header.Add("Origin", own); r.Header.Add("Origin", own) }, http.StatusForbidden},
		{"bad origin before auth", func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") }, http.StatusForbidden},
		{"missing bearer", func(r *http.Request) {}, http.StatusUnauthorized},
		{"wrong bearer", func(r *http.Request) { r.Header.Set("Authorization", "Bearer nope") }, http.StatusUnauthorized},
		{"bearer prefix", func(r *http.Request) { r.Header.Set("Authorization", "Bearer s3cre") }, http.StatusUnauthorized},
		{"basic auth", func(r *http.Request) { r.SetBasicAuth("u", "s3cret") }, http.StatusUnauthorized},
		{"token in the query", func(r *http.Request) { r.URL.RawQuery = "token=s3cret" }, http.StatusUnauthorized},
		{"root path", func(r *http.Request) { auth(r); r.URL.Path = "/" }, http.StatusNotFound},
		{"path with slash", func(r *http.Request) { auth(r); r.URL.Path = "/mcp/" }, http.StatusNotFound},
		{"other path", func(r *http.Request) { auth(r); r.URL.Path = "/mcpx" }, http.StatusNotFound},
		{"other path, no auth", func(r *http.Request) { r.URL.Path = "/sse" }, http.StatusNotFound},
	} {
		res := post(t, endpoint, c.mutate)
		if res.StatusCode != c.want {
			t.Errorf("%s: status %d, want %d", c.name, res.StatusCode, c.want)
		}
		if c.want == http.StatusUnauthorized && !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q", c.name, res.Header.Get("WWW-Authenticate"))
		}
	}
}

// Authentication is on unless switched off by name.
func TestHTTPAuthByDefault(t *testing.T) {
	eng, _ := newEngine(t)
	s := New(eng, Options{})
	if _, err := s.HTTPHandler(HTTPOptions{}); !errors.Is(err, ErrNoAuth) {
		t.Fatalf("no bearer, no NoAuth: %v, want ErrNoAuth", err)
	}
	if _, err := s.HTTPHandler(HTTPOptions{NoAuth: true, AllowedOrigins: []string{"localhost:3000"}}); err == nil {
		t.Error("an origin without a scheme was accepted")
	}
	tok := GenerateToken()
	if len(tok) < 40 || tok == GenerateToken() {
		t.Errorf("GenerateToken: %q", tok)
	}
	_, endpoint := serveHTTP(t, s, HTTPOptions{Bearer: tok})
	if res := post(t, endpoint, func(*http.Request) {}); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("no Authorization: status %d, want 401", res.StatusCode)
	}
	if res := post(t, endpoint, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+tok) }); res.StatusCode != http.StatusOK {
		t.Errorf("with the token: status %d", res.StatusCode)
	}

	// NoAuth serves without a token, and still checks Host and Origin.
	_, open := serveHTTP(t, s, HTTPOptions{NoAuth: true})
	if res := post(t, open, func(*http.Request) {}); res.StatusCode != http.StatusOK {
		t.Errorf("NoAuth: status %d", res.StatusCode)
	}
	if res := post(t, open, func(r *http.Request) { r.Host = "mcp.example.com" }); res.StatusCode != http.StatusForbidden {
		t.Errorf("NoAuth, host not in an empty allow list: status %d", res.StatusCode)
	}
	if res := post(t, open, func(r *http.Request) { r.Header.Set("Origin", "http://localhost:3000") }); res.StatusCode != http.StatusForbidden {
		t.Errorf("NoAuth, loopback origin on another port: status %d", res.StatusCode)
	}
}

// initSession opens a raw stateful session and returns its id.
func initSession(t *testing.T, endpoint, bearer string) (string, int) {
	t.Helper()
	var id string
	res := post(t, endpoint, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+bearer) })
	id = res.Header.Get("Mcp-Session-Id")
	return id, res.StatusCode
}

// sessionPing sends a request on a session; the status tells whether the
// session is still open (404 when it is not).
func sessionPing(t *testing.T, endpoint, bearer, id string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+bearer)
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", legacyVersion)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// eventually404 pings a session until it is gone (sessions are closed in
// the background), for up to a minute.
func eventually404(t *testing.T, endpoint, id string) int {
	t.Helper()
	var code int
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if code = sessionPing(t, endpoint, "tok", id); code == http.StatusNotFound {
			break
		}
	}
	return code
}

// An attacker opening sessions in a loop: the table stays bounded, the
// least recently used idle session goes first, and when every session
// has a request in flight a new one gets 503 SESSION_LIMIT.
func TestHTTPSessionBound(t *testing.T) {
	eng, _ := newEngine(t)
	s := New(eng, Options{})
	h, err := s.HTTPHandler(HTTPOptions{Bearer: "tok", MaxSessions: 3, SessionIdle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	table := h.(*httpHandler).sessions
	var mu sync.Mutex
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	table.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Second) // every reading is later: a strict order of use
		return clock
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	endpoint := ts.URL + DefaultPath

	var ids []string
	for range 3 {
		id, code := initSession(t, endpoint, "tok")
		if code != http.StatusOK || id == "" {
			t.Fatalf("initialize: %d %q", code, id)
		}
		ids = append(ids, id)
	}
	// Use the first again: the second is now the least recently used.
	if code := sessionPing(t, endpoint, "tok", ids[0]); code >= 300 {
		t.Fatalf("ping: %d", code)
	}
	for range 20 {
		id, code := initSession(t, endpoint, "tok")
		if code != http.StatusOK {
			t.Fatalf("initialize past the bound: %d", code)
		}
		ids = append(ids, id)
		if n := table.open(); n > 3 {
			t.Fatalf("%d sessions open, bound 3", n)
		}
	}
	if code := eventually404(t, endpoint, ids[1]); code != http.StatusNotFound {
		t.Errorf("the least recently used session: status %d, want 404 (closed)", code)
	}
	if code := sessionPing(t, endpoint, "tok", ids[len(ids)-1]); code >= 300 {
		t.Errorf("the newest session: status %d", code)
	}

	// Idle sessions are closed: move the clock past SessionIdle.
	mu.Lock()
	clock = clock.Add(2 * time.Hour)
	mu.Unlock()
	last := ids[len(ids)-1]
	if _, code := initSession(t, endpoint, "tok"); code != http.StatusOK {
		t.Fatalf("initialize after idle: %d", code)
	}
	if code := eventually404(t, endpoint, last); code != http.StatusNotFound {
		t.Errorf("an idle session: status %d, want 404 (closed)", code)
	}
	if n := table.open(); n != 1 {
		t.Errorf("%d sessions open after the idle ones closed, want 1", n)
	}
}

// Sessions with a run in flight are not evicted: past the bound the new
// session is refused with a clear error.
func TestHTTPSessionLimitBusy(t *testing.T) {
	eng, _ := newEngine(t)
	s := New(eng, Options{})
	_, endpoint := serveHTTP(t, s, HTTPOptions{Bearer: "tok", MaxSessions: 2})
	release := make(chan struct{})
	asked := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for range 2 {
		opts := clientOptions(nil)
		opts.ElicitationHandler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked <- struct{}{}
			<-release
			return &mcp.ElicitResult{Action: "decline"}, nil
		}
		cs := connectHTTP(t, endpoint, "tok", opts, legacyVersion)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": `await files.delete({path: "/busy"})`}}); err != nil {
				t.Errorf("run: %v", err)
				asked <- struct{}{}
			}
		}()
	}
	<-asked
	<-asked // both sessions have a run waiting for approval
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(initBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer tok")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	close(release)
	wg.Wait()
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), string(CodeSessionLimit)) {
		t.Errorf("a third session while both are busy: %d %s", res.StatusCode, body)
	}
}

// A requestState that this server did not issue through an input request
// is refused: a legacy session replaying it, and a 2026-07-28 client
// presenting a paused run's token (which the model saw in a result) with
// answers of its own.
func TestRequestStateOrigin(t *testing.T) {
	eng, rec := newEngine(t)
	s := New(eng, Options{ApproveTool: true})
	_, endpoint := serveHTTP(t, s, HTTPOptions{Bearer: "tok"})
	code := `return (await files.delete({path: "/stolen"})).deleted`
	args := map[string]any{"code": code}
	answer := mcp.InputResponseMap{"call-1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "approve"}}}

	// A client without elicitation: the run pauses, the model sees the token.
	plain := connectHTTP(t, endpoint, "tok", clientOptions(nil), newVersion)
	_, o := runCode(t, plain, code)
	if o.Status != "paused" || o.Token == "" {
		t.Fatalf("%+v", o)
	}
	// The model presents it as a requestState with its own answer.
	_, err := plain.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: o.Token, InputResponses: answer})
	if err == nil || !strings.Contains(err.Error(), "not issued by this server") {
		t.Errorf("a paused run's token as requestState: %v", err)
	}

	// An input_required state issued to a 2026-07-28 client, replayed on
	// a 2025-11-25 session.
	opts := clientOptions(&elicitor{decision: "approve"})
	opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	mrtr := connectHTTP(t, endpoint, "tok", opts, newVersion)
	first, err := mrtr.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: args})
	if err != nil || !first.NeedsInput() {
		t.Fatalf("first call: %v %+v", err, first)
	}
	legacy := connectHTTP(t, endpoint, "tok", clientOptions(nil), legacyVersion)
	_, err = legacy.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState, InputResponses: answer})
	if err == nil || !strings.Contains(err.Error(), "protocol") {
		t.Errorf("a 2026-07-28 requestState on a 2025-11-25 session: %v", err)
	}
	if got := rec.list(); len(got) != 0 {
		t.Fatalf("the tool ran: %v", got)
	}
	// The client it was issued to can still use it.
	res, err := mrtr.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState, InputResponses: answer})
	if err != nil {
		t.Fatal(err)
	}
	wantResult(t, structured(t, res), `"/stolen"`)
}

func connectHTTP(t *testing.T, url, bearer string, opts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "http-client", Version: "v1"}, opts)
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearerTransport{bearer}}}
	cs, err := c.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// Both protocol generations on one endpoint, each with its way of asking.
func TestHTTPApprovals(t *testing.T) {
	eng, rec := newEngine(t)
	_, endpoint := serveHTTP(t, New(eng, Options{ApproveTool: true}), HTTPOptions{Bearer: "tok"})

	for _, version := range []string{newVersion, legacyVersion} {
		t.Run(version, func(t *testing.T) {
			el := &elicitor{decision: "approve"}
			cs := connectHTTP(t, endpoint, "tok", clientOptions(el), version)
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Fatalf("protocol %s, want %s", got, version)
			}
			if got := toolNames(t, cs); !contains(got, "run") || !contains(got, "approve") {
				t.Errorf("tools %v", got)
			}
			before := len(rec.list())
			res, o := runCode(t, cs, twoDeletes)
			if res.IsError {
				t.Fatal(text(t, res))
			}
			wantResult(t, o, `["/tmp/a","/tmp/b"]`)
			if el.count() != 2 || len(rec.list()) != before+2 {
				t.Errorf("%d elicitations, %d deletes", el.count(), len(rec.list())-before)
			}

			res, o = runCode(t, cs, `throw new Error("over http")`)
			if !res.IsError || o.Error.Code != "UNCAUGHT_EXCEPTION" {
				t.Errorf("thrown error: %v %+v", res.IsError, o.Error)
			}
		})
	}

	// A client without elicitation pauses and approves with the tool.
	for _, version := range []string{newVersion, legacyVersion} {
		cs := connectHTTP(t, endpoint, "tok", clientOptions(nil), version)
		_, o := runCode(t, cs, `return (await files.delete({path: "/p"})).deleted`)
		if o.Status != "paused" {
			t.Fatalf("%s: %+v", version, o)
		}
		o = structured(t, call(t, cs, "approve", map[string]any{"token": o.Token, "decisions": "approve"}))
		wantResult(t, o, `"/p"`)
	}
	if got := rec.list(); slices.Index(got, "/p") < 0 {
		t.Errorf("deleted %v", got)
	}
}

func TestServeStdio(t *testing.T) {
	eng, _ := newEngine(t)
	s := New(eng, Options{})
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, sr, sw) }()

	for _, version := range []string{newVersion} {
		c := mcp.NewClient(&mcp.Implementation{Name: "stdio-client", Version: "v1"}, clientOptions(nil))
		cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		_, o := runCode(t, cs, `return await tools.add({a: 20, b: 22})`)
		wantResult(t, o, `42`)
		cs.Close()
	}
	cw.Close()
	if err := <-done; err != nil {
		t.Errorf("ServeStdio: %v", err)
	}
}
