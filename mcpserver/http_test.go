package mcpserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

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

func TestHTTPChecks(t *testing.T) {
	eng, _ := newEngine(t)
	ts := httptest.NewServer(New(eng, Options{}).Handler([]string{"mcp.example.com", "other.example:8443"}, "s3cret"))
	t.Cleanup(ts.Close)
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
		{"loopback origin", func(r *http.Request) { auth(r); r.Header.Set("Origin", "http://localhost:3000") }, http.StatusOK},
		{"allowed origin", func(r *http.Request) { auth(r); r.Header.Set("Origin", "https://mcp.example.com") }, http.StatusOK},
		{"bad origin", func(r *http.Request) { auth(r); r.Header.Set("Origin", "http://evil.example") }, http.StatusForbidden},
		{"null origin", func(r *http.Request) { auth(r); r.Header.Set("Origin", "null") }, http.StatusForbidden},
		{"bad origin before auth", func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") }, http.StatusForbidden},
		{"missing bearer", func(r *http.Request) {}, http.StatusUnauthorized},
		{"wrong bearer", func(r *http.Request) { r.Header.Set("Authorization", "Bearer nope") }, http.StatusUnauthorized},
		{"basic auth", func(r *http.Request) { r.SetBasicAuth("u", "s3cret") }, http.StatusUnauthorized},
	} {
		res := post(t, ts.URL, c.mutate)
		if res.StatusCode != c.want {
			t.Errorf("%s: status %d, want %d", c.name, res.StatusCode, c.want)
		}
		if c.want == http.StatusUnauthorized && !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q", c.name, res.Header.Get("WWW-Authenticate"))
		}
	}

	// Without a bearer configured, no Authorization is needed.
	open := httptest.NewServer(New(eng, Options{}).Handler(nil, ""))
	t.Cleanup(open.Close)
	if res := post(t, open.URL, func(*http.Request) {}); res.StatusCode != http.StatusOK {
		t.Errorf("no bearer configured: status %d", res.StatusCode)
	}
	if res := post(t, open.URL, func(r *http.Request) { r.Host = "mcp.example.com" }); res.StatusCode != http.StatusForbidden {
		t.Errorf("host not in an empty allow list: status %d", res.StatusCode)
	}
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
	ts := httptest.NewServer(New(eng, Options{ApproveTool: true}).Handler(nil, "tok"))
	t.Cleanup(ts.Close)

	for _, version := range []string{newVersion, legacyVersion} {
		t.Run(version, func(t *testing.T) {
			el := &elicitor{decision: "approve"}
			cs := connectHTTP(t, ts.URL, "tok", clientOptions(el), version)
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
		cs := connectHTTP(t, ts.URL, "tok", clientOptions(nil), version)
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
