package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type addArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addOut struct {
	Sum int `json:"sum"`
}

// newGoServer serves a go-sdk MCP server over Streamable HTTP and records
// the Authorization headers it receives.
func newGoServer(t *testing.T) (*mcp.Server, *httptest.Server, func() []string) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "gotest", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "add", Description: "adds"},
		func(_ context.Context, _ *mcp.CallToolRequest, in addArgs) (*mcp.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B}, nil
		})
	var mu sync.Mutex
	var auth []string
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"arguments":null`)) {
			t.Errorf("request with null arguments: %s", body)
		}
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return srv, hs, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(auth)
	}
}

func TestStreamableHTTP(t *testing.T) {
	srv, hs, auth := newGoServer(t)
	m := startManager(t, map[string]config.Server{
		"remote": {URL: hs.URL, Headers: map[string]string{"Authorization": "Bearer s3cret"}},
	}, Options{})
	if f := m.Failures(); len(f) != 0 {
		t.Fatalf("Failures = %v", f)
	}
	if names := toolNames(m, "remote"); !slices.Equal(names, []string{"add"}) {
		t.Fatalf("tools = %v", names)
	}
	var out addOut
	res := mustCall(t, m, "remote", "add", `{"a":40,"b":2}`)
	if err := json.Unmarshal(res, &out); err != nil || out.Sum != 42 {
		t.Errorf("add = %s (%v)", res, err)
	}
	for _, h := range auth() {
		if h != "Bearer s3cret" {
			t.Errorf("a request had Authorization %q", h)
		}
	}

	// A new tool is announced with notifications/tools/list_changed.
	srv.AddTool(&mcp.Tool{Name: "hello", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}, nil
		})
	if !waitFor(5*time.Second, func() bool { return hasTool(m, "remote", "hello") }) {
		t.Errorf("tools after list_changed = %v", toolNames(m, "remote"))
	}
	for _, args := range []string{``, `null`} { // sent as {}
		if got := string(mustCall(t, m, "remote", "hello", args)); got != `"hi"` {
			t.Errorf("hello = %s", got)
		}
	}

	// Refresh picks up a change too.
	srv.RemoveTools("hello")
	if err := m.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if names := toolNames(m, "remote"); !slices.Equal(names, []string{"add"}) {
		t.Errorf("tools after Refresh = %v", names)
	}
}

func TestHTTPServerDown(t *testing.T) {
	hs := httptest.NewServer(http.NotFoundHandler())
	url := hs.URL
	hs.Close()
	m := startManager(t, map[string]config.Server{"gone": {URL: url}}, Options{StartTimeout: 5 * time.Second})
	f := m.Failures()
	if len(f) != 1 || f[0].Server != "gone" || !strings.Contains(f[0].Error(), "gone") {
		t.Fatalf("Failures = %+v", f)
	}
}

// startEverythingHTTP runs server-everything in mode ("streamableHttp" or
// "sse") on a free port and returns its address (host:port).
func startEverythingHTTP(t *testing.T, mode string) string {
	srv := npmServer(t, pkgEverything, mode)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	cmd := exec.Command(srv.Command, srv.Args...)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	addr := "127.0.0.1:" + strconv.Itoa(port)
	if !waitFor(30*time.Second, func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			_ = c.Close()
		}
		return err == nil
	}) {
		t.Fatal("server-everything did not listen on " + addr)
	}
	return addr
}

func TestEverythingOverHTTP(t *testing.T) {
	url := "http://" + startEverythingHTTP(t, "streamableHttp") + "/mcp"
	var asked string
	elicitor := func(_ context.Context, server, message string, _ json.RawMessage) (string, map[string]any, error) {
		asked = server + ": " + message
		return "accept", map[string]any{"name": "Grace Hopper"}, nil
	}
	m := startManager(t, map[string]config.Server{"web": {URL: url, Type: "http"}}, Options{Elicitor: elicitor})
	if f := m.Failures(); len(f) != 0 {
		t.Fatalf("Failures = %v", f)
	}
	if names := toolNames(m, "web"); len(names) < 10 {
		t.Fatalf("tools = %v", names)
	}
	if got := string(mustCall(t, m, "web", "echo", `{"message":"over http"}`)); got != `"Echo: over http"` {
		t.Errorf("echo = %s", got)
	}
	if !waitFor(5*time.Second, func() bool { return hasTool(m, "web", "trigger-elicitation-request") }) {
		t.Fatalf("no trigger-elicitation-request: %v", toolNames(m, "web"))
	}
	res := string(mustCall(t, m, "web", "trigger-elicitation-request", `{}`))
	if !strings.Contains(res, "Grace Hopper") || !strings.HasPrefix(asked, "web: Please provide") {
		t.Errorf("elicitation over HTTP: asked %q, result %s", asked, res)
	}
}

func TestEverythingOverSSE(t *testing.T) {
	url := "http://" + startEverythingHTTP(t, "sse") + "/sse"
	m := startManager(t, map[string]config.Server{"old": {URL: url, Type: "sse"}}, Options{})
	if f := m.Failures(); len(f) != 0 {
		t.Fatalf("Failures = %v", f)
	}
	if got := string(mustCall(t, m, "old", "echo", `{"message":"over sse"}`)); got != `"Echo: over sse"` {
		t.Errorf("echo = %s", got)
	}
}
