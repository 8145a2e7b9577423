package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	legacyVersion = "2025-11-25"
	oldVersion    = "2025-06-18"
	newVersion    = "2026-07-28"
)

// recorder counts the runs of the files.delete tool.
type recorder struct {
	mu    sync.Mutex
	paths []string
}

func (r *recorder) add(p string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.paths = append(r.paths, p)
}

func (r *recorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.paths...)
}

type addIn struct {
	A float64 `json:"a" jsonschema:"the first number"`
	B float64 `json:"b" jsonschema:"the second number"`
}

type deleteIn struct {
	Path string `json:"path" jsonschema:"the file to delete"`
}

type deleteOut struct {
	Deleted string `json:"deleted"`
}

// newEngine returns an engine with add (allowed), math.mul (allowed) and
// files.delete (policy ask), and the recorder of files.delete.
func newEngine(t *testing.T) (*modebox.Engine, *recorder) {
	t.Helper()
	rec := &recorder{}
	add := modebox.MustTool("add", "Adds two numbers.", func(ctx context.Context, in addIn) (float64, error) {
		return in.A + in.B, nil
	})
	mul := modebox.MustTool("mul", "Multiplies two numbers.", func(ctx context.Context, in addIn) (float64, error) {
		return in.A * in.B, nil
	})
	mul.Namespace = "math"
	del := modebox.MustTool("delete", "Deletes a file by path.", func(ctx context.Context, in deleteIn) (deleteOut, error) {
		rec.add(in.Path)
		return deleteOut{Deleted: in.Path}, nil
	})
	del.Namespace = "files"
	del.Policy = modebox.PolicyAsk
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{add, mul, del}})
	if err != nil {
		t.Fatal(err)
	}
	return eng, rec
}

// elicitor answers elicitation requests with a fixed decision and keeps
// the messages it was shown.
type elicitor struct {
	decision string // "approve", "approve_tool", "deny", or "decline" for the action
	mu       sync.Mutex
	messages []string
	schemas  []string
}

func (e *elicitor) handle(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	b, _ := json.Marshal(req.Params.RequestedSchema)
	e.mu.Lock()
	e.messages = append(e.messages, req.Params.Message)
	e.schemas = append(e.schemas, string(b))
	e.mu.Unlock()
	if e.decision == "decline" {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": e.decision}}, nil
}

func (e *elicitor) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.messages)
}

func (e *elicitor) message(i int) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.messages[i]
}

// clientOptions returns options without roots, with e's handler if e is
// not nil.
func clientOptions(e *elicitor) *mcp.ClientOptions {
	o := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	if e != nil {
		o.ElicitationHandler = e.handle
	}
	return o
}

// connect connects an SDK client at version to s over in-memory
// transports.
func connect(t *testing.T, s *Server, opts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v1"}, opts)
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// output is the structuredContent of run and approve, as a client reads it.
type output struct {
	Status  string          `json:"status"`
	Error   *modebox.Error  `json:"error"`
	Pending []pending       `json:"pending"`
	Token   string          `json:"token"`
	Next    string          `json:"next"`
	Result  json.RawMessage `json:"result"`
	Logs    []modebox.Log   `json:"logs"`
	Stats   map[string]any  `json:"stats"`
}

type pending struct {
	ID     int             `json:"id"`
	Tool   string          `json:"tool"`
	Args   json.RawMessage `json:"args"`
	Reason string          `json:"reason"`
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func runCode(t *testing.T, cs *mcp.ClientSession, code string) (*mcp.CallToolResult, output) {
	t.Helper()
	res := call(t, cs, "run", map[string]any{"code": code})
	return res, structured(t, res)
}

func structured(t *testing.T, res *mcp.CallToolResult) output {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var o output
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
	return o
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("content has %d items, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	return tc.Text
}

func wantResult(t *testing.T, o output, want string) {
	t.Helper()
	if o.Status != "ok" {
		t.Fatalf("status %q, error %+v; want ok", o.Status, o.Error)
	}
	if got := compactJSON(t, o.Result); got != want {
		t.Fatalf("result %s, want %s", got, want)
	}
}

func compactJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// bearerTransport adds an Authorization header.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func mustContain(t *testing.T, what, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%s does not contain %q:\n%s", what, p, s)
		}
	}
}
