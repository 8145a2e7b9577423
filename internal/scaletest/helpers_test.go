package scaletest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modebox/modebox/cli"
	"github.com/modebox/modebox/internal/pgtest"
	"github.com/modebox/modebox/internal/syncbuf"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A replica is this test binary run with MODEBOX_SCALETEST_ARGS: it runs
// the modebox command line with those arguments (JSON), as cmd/modebox
// does.
func TestMain(m *testing.M) {
	if args := os.Getenv("MODEBOX_SCALETEST_ARGS"); args != "" {
		var a []string
		if err := json.Unmarshal([]byte(args), &a); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(cli.Run(a, cli.Streams{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
	}
	os.Exit(m.Run())
}

const (
	newVersion    = "2026-07-28"
	legacyVersion = "2025-11-25"
	oldVersion    = "2025-06-18"
)

// counter is the HTTP server the runs' approved fetches reach: each
// request to /hit/ID counts one execution of run ID; /block/ID counts
// too, then waits until released.
type counter struct {
	srv     *httptest.Server
	mu      sync.Mutex
	hits    map[string]int
	release chan struct{}
	blocked chan string
}

func newCounter(t testing.TB) *counter {
	c := &counter{hits: map[string]int{}, release: make(chan struct{}), blocked: make(chan string, 16)}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		kind, id, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		c.mu.Lock()
		c.hits[id]++
		c.mu.Unlock()
		if kind == "block" {
			c.blocked <- id
			select {
			case <-c.release:
			case <-r.Context().Done():
				return
			}
		}
		fmt.Fprint(w, id)
	}))
	t.Cleanup(func() {
		c.unblock()
		c.srv.Close()
	})
	return c
}

func (c *counter) unblock() {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.release:
	default:
		close(c.release)
	}
}

func (c *counter) count(id string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits[id]
}

func (c *counter) hostPort() string { return strings.TrimPrefix(c.srv.URL, "http://") }

// program is a run that fetches /KIND/ID with approval and returns
// "hit:ID", or "denied:CODE" when the fetch was refused.
func (c *counter) program(kind, id string) string {
	return fmt.Sprintf(`try { const r = await fetch(%q); return "hit:" + await r.text(); } catch (e) { return "denied:" + e.code; }`,
		c.srv.URL+"/"+kind+"/"+id)
}

// deployment is what the replicas share: the cluster, the database, the
// key, the configuration.
type deployment struct {
	t      testing.TB
	pg     *pgtest.Cluster
	url    string
	secret string
	bearer string // the replicas' shared MCP bearer token
	config string
	home   string
	cnt    *counter
}

func newDeployment(t testing.TB) *deployment {
	t.Helper()
	d := &deployment{t: t, pg: pgtest.Start(t), cnt: newCounter(t), home: t.TempDir()}
	d.url = d.pg.NewDatabase()
	d.secret = docSecret(t) // the documented command makes the key
	d.bearer = docBearer(t)
	bearer.Store(&d.bearer)
	// fetch is allowed to reach the counter only, and every fetch asks.
	cfg := fmt.Sprintf(`{
  "fetch": {"enabled": true, "allow": [%q]},
  "tools": {"fetch": {"policy": "ask"}},
  "mcp": {"approveTool": true}
}`, d.cnt.hostPort())
	d.config = filepath.Join(d.home, "modebox.json")
	if err := os.WriteFile(d.config, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return d
}

// replica is one `modebox mcp --http` process.
type replica struct {
	Addr string
	cmd  *exec.Cmd
	log  *syncbuf.Buffer // its stdout and stderr
	done chan struct{}
}

// env is the replicas' environment: the store in $MODEBOX_TOKEN_STORE,
// the shared key in $MODEBOX_SECRET.
func (d *deployment) env() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + d.home, "XDG_STATE_HOME=" + filepath.Join(d.home, "state"),
		"MODEBOX_TOKEN_STORE=" + d.url, "MODEBOX_SECRET=" + d.secret, "MODEBOX_MCP_TOKEN=" + d.bearer,
	}
}

// start runs a replica on a free port and waits until it serves (on
// another port if that one is taken meanwhile).
func (d *deployment) start() *replica {
	d.t.Helper()
	for attempt := 0; ; attempt++ {
		r, err := d.startOn(net.JoinHostPort("127.0.0.1", strconv.Itoa(pgtest.FreePort(d.t))))
		if err == nil {
			return r
		}
		if attempt == 4 || !strings.Contains(err.Error(), "address already in use") {
			d.t.Fatal(err)
		}
	}
}

func (d *deployment) startOn(addr string) (*replica, error) {
	args, _ := json.Marshal(docReplicaArgs(d.t, addr, d.config))
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(d.env(), "MODEBOX_SCALETEST_ARGS="+string(args))
	r := &replica{Addr: addr, cmd: cmd, log: &syncbuf.Buffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = r.log, r.log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = cmd.Wait(); close(r.done) }()
	d.t.Cleanup(func() { r.stop() })
	deadline := time.Now().Add(90 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return r, nil
		}
		select {
		case <-r.done:
			return nil, fmt.Errorf("replica exited: %s", r.log.String())
		default:
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("replica not serving after 90s: %s", r.log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends the replica gracefully.
func (r *replica) stop() {
	select {
	case <-r.done:
		return
	default:
	}
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
	case <-time.After(15 * time.Second):
		r.kill()
	}
}

// kill ends the replica at once, as a crash would.
func (r *replica) kill() {
	_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
	<-r.done
}

// elicitor answers every approval with decision ("approve" or "deny").
type elicitor struct{ decision string }

func (e elicitor) handle(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": e.decision}}, nil
}

// client connects an MCP client of protocol version to the endpoint at
// addr. With decision set it can elicit and answers so; with mrtr false
// a 2026-07-28 client leaves input_required results to the caller.
func client(t testing.TB, addr, version, decision string, mrtr bool) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	if decision != "" {
		opts.ElicitationHandler = elicitor{decision}.handle
	}
	if !mrtr {
		opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "scale-test", Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	hc := &http.Client{Transport: bearerTransport{*bearer.Load()}}
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", MaxRetries: -1, HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect %s (%s): %v", addr, version, err)
	}
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// output is the structuredContent of run and approve.
type output struct {
	Status string                 `json:"status"`
	Error  *struct{ Code string } `json:"error"`
	Token  string                 `json:"token"`
	Result json.RawMessage        `json:"result"`
}

func outputOf(res *mcp.CallToolResult) (output, error) {
	var o output
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return o, err
	}
	err = json.Unmarshal(b, &o)
	return o, err
}

// resultString is a run's string result, or a description of what came
// back instead.
func resultString(res *mcp.CallToolResult, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	if res.NeedsInput() {
		return "input_required"
	}
	o, err := outputOf(res)
	if err != nil {
		return "bad output: " + err.Error()
	}
	if o.Status != "ok" {
		code := ""
		if o.Error != nil {
			code = o.Error.Code
		}
		return "status " + o.Status + " " + code
	}
	var s string
	if json.Unmarshal(o.Result, &s) != nil {
		return "result " + string(o.Result)
	}
	return s
}

func callRun(ctx context.Context, cs *mcp.ClientSession, code string) (*mcp.CallToolResult, error) {
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": code}})
}

var approveAnswer = func(ids ...string) mcp.InputResponseMap {
	m := mcp.InputResponseMap{}
	for _, id := range ids {
		m[id] = &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "approve"}}
	}
	return m
}

// bearer is the current deployment's MCP bearer token, which clients send.
var bearer atomic.Pointer[string]

// bearerTransport adds the replicas' bearer token to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
