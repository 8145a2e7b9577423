package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawLine is one JSON-RPC message the server wrote.
type rawLine struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// rawStdio serves s over stdio pipes and returns a function that writes
// a line and one that reads the next message.
func rawStdio(t *testing.T, s *Server) (func(string), func() rawLine) {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, sr, sw) }()
	t.Cleanup(func() {
		cancel()
		cw.Close()
		cr.Close()
		<-done
	})
	lines := make(chan rawLine, 100)
	go func() {
		sc := bufio.NewScanner(cr)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var l rawLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Errorf("server wrote %q: %v", sc.Text(), err)
			}
			lines <- l
		}
		close(lines)
	}()
	write := func(s string) {
		if _, err := io.WriteString(cw, s+"\n"); err != nil {
			t.Fatalf("write %s: %v", s, err)
		}
	}
	read := func() rawLine {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the server's output ended (did it panic?)")
			}
			return l
		case <-time.After(2 * time.Minute):
			t.Fatal("no message from the server")
		}
		return rawLine{}
	}
	return write, read
}

// readID reads messages until the response with id, passing each other
// message to other (when not nil).
func readID(t *testing.T, read func() rawLine, id string, other func(rawLine)) rawLine {
	t.Helper()
	for {
		l := read()
		if string(l.ID) == id && l.Method == "" {
			return l
		}
		if other != nil {
			other(l)
		}
	}
}

// A tools/list without params (what the TypeScript SDK's listTools, the
// Inspector and desktop clients send) while the downstream servers are
// still starting waits and is answered; it used to dereference the nil
// params and end the process. A tools/call without params is answered
// with an error, not a panic.
func TestStartingToolsListWithoutParams(t *testing.T) {
	eng, _ := newEngine(t)
	s := NewStarting(Options{}, "starting MCP servers (slow)")
	write, read := rawStdio(t, s)
	write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	readID(t, read, "1", nil)
	write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	write(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}`)
	readID(t, read, "2", nil)
	write(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	// the starting message is logged after the request's params were
	// looked at: the request surely got that far before Ready
	for l := read(); l.Method != "notifications/message"; l = read() {
		if string(l.ID) == "3" {
			t.Fatalf("tools/list answered before Ready: %+v", l)
		}
	}
	s.Ready(eng, nil)
	l := readID(t, read, "3", nil)
	if l.Error != nil || !strings.Contains(string(l.Result), `"run"`) {
		t.Fatalf("tools/list: %s %+v", l.Result, l.Error)
	}
	write(`{"jsonrpc":"2.0","id":4,"method":"tools/call"}`)
	if l := readID(t, read, "4", nil); l.Error == nil && !strings.Contains(string(l.Result), `"isError":true`) {
		t.Fatalf("tools/call without params: %s", l.Result)
	}
	write(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	readID(t, read, "5", nil)
}

// The same over HTTP: a tools/list without params while starting is
// answered, and the server goes on serving.
func TestStartingToolsListWithoutParamsHTTP(t *testing.T) {
	eng, _ := newEngine(t)
	s := NewStarting(Options{}, "starting MCP servers (slow)")
	_, endpoint := serveHTTP(t, s, HTTPOptions{Bearer: "tok"})
	id, status := initSession(t, endpoint, "tok")
	if status != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d %q", status, id)
	}
	send := func(body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer tok")
		req.Header.Set("Mcp-Session-Id", id)
		req.Header.Set("Mcp-Protocol-Version", legacyVersion)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	events := func(res *http.Response) func() rawLine {
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<24)
		return func() rawLine {
			for sc.Scan() {
				data, ok := strings.CutPrefix(sc.Text(), "data: ")
				if !ok {
					continue
				}
				var l rawLine
				if err := json.Unmarshal([]byte(data), &l); err != nil {
					t.Fatalf("event %q: %v", data, err)
				}
				return l
			}
			t.Fatalf("the response ended: %v", sc.Err())
			return rawLine{}
		}
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
	readID(t, events(send(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}`)), "2", nil)
	read := events(send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`))
	for l := read(); l.Method != "notifications/message"; l = read() {
		if string(l.ID) == "3" {
			t.Fatalf("tools/list answered before Ready: %+v", l)
		}
	}
	s.Ready(eng, nil)
	if l := readID(t, read, "3", nil); l.Error != nil || !strings.Contains(string(l.Result), `"run"`) {
		t.Fatalf("tools/list: %s %+v", l.Result, l.Error)
	}
	readID(t, events(send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)), "4", nil)
}

// A handler that panics answers with a JSON-RPC internal error.
func TestRecoverPanics(t *testing.T) {
	h := recoverPanics(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		var p *mcp.ListToolsParams
		_ = p.Cursor // nil dereference
		return nil, nil
	})
	res, err := h(context.Background(), "tools/list", &mcp.ListToolsRequest{})
	var we *jsonrpc.Error
	if res != nil || !errors.As(err, &we) || we.Code != jsonrpc.CodeInternalError {
		t.Fatalf("got %v, %v", res, err)
	}
}

// The progress of a tools/call that waited for the servers to start and
// then ran goes on increasing: the run's notifications continue from the
// wait's. The server is made ready once the wait has reported twice (the
// second a tick later), and every starting notification must have a
// lower value than every notification of the run, whatever order the
// client handles them in.
func TestStartingProgressIncreases(t *testing.T) {
	eng, _ := newEngine(t)
	s := NewStarting(Options{}, "starting MCP servers (slow)")
	var (
		mu       sync.Mutex
		starting []float64
		run      []float64
	)
	cs := connect(t, s, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		if strings.HasPrefix(r.Params.Message, "starting MCP servers") {
			starting = append(starting, r.Params.Progress)
			if len(starting) == 2 {
				s.Ready(eng, nil)
			}
			return
		}
		run = append(run, r.Params.Progress)
	}}, legacyVersion)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": `return await tools.math.mul({a: 2, b: 3})`}}
	p.SetProgressToken("tok")
	res, err := cs.CallTool(ctx, p)
	if err != nil || res.IsError {
		t.Fatalf("run: %v %+v", err, res)
	}
	// the client handles notifications on their own goroutine: one sent
	// before the result may be handled after CallTool returned (it was,
	// on a loaded machine)
	for wait := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		if len(starting) >= 2 && len(run) > 0 || time.Now().After(wait) {
			break
		}
		mu.Unlock()
	}
	defer mu.Unlock()
	if len(starting) < 2 || len(run) == 0 {
		t.Fatalf("starting %v, run %v", starting, run)
	}
	seen := map[float64]bool{}
	for _, v := range append(append([]float64{}, starting...), run...) {
		if seen[v] {
			t.Fatalf("progress %v sent twice: starting %v, run %v", v, starting, run)
		}
		seen[v] = true
	}
	for _, a := range starting {
		for _, b := range run {
			if a >= b {
				t.Fatalf("starting progress %v not below the run's %v: starting %v, run %v", a, b, starting, run)
			}
		}
	}
}
