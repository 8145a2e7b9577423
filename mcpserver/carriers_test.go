package mcpserver

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// blockEngine returns an engine whose tool srv.block waits until its
// context ends; started is closed when it starts, stopped when it saw
// its context end. Runs time out after 10 minutes, so a run that stops
// within the tests' minute stopped for another reason.
func blockEngine(t *testing.T) (eng *modebox.Engine, started, stopped chan struct{}) {
	t.Helper()
	started, stopped = make(chan struct{}), make(chan struct{})
	block := modebox.MustTool("block", "Waits until cancelled.", func(ctx context.Context, in askIn) (string, error) {
		close(started)
		<-ctx.Done()
		close(stopped)
		return "", ctx.Err()
	})
	block.Namespace = "srv"
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{block}, Limits: modebox.Limits{Timeout: 10 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	return eng, started, stopped
}

// dropTransport is an HTTP transport whose connections can all be cut at
// once, as when the client's process dies: no DELETE, no cancellation.
type dropTransport struct {
	http.Transport
	mu    sync.Mutex
	conns []net.Conn
}

func newDropTransport() *dropTransport {
	d := &dropTransport{}
	d.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			d.mu.Lock()
			d.conns = append(d.conns, c)
			d.mu.Unlock()
		}
		return c, err
	}
	return d
}

func (d *dropTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r.Header.Set("Authorization", "Bearer tok")
	return d.Transport.RoundTrip(r)
}

func (d *dropTransport) cut() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.conns {
		c.Close()
	}
}

// within waits for ch, or fails the test after d.
func within(t *testing.T, ch <-chan struct{}, d time.Duration, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(d):
		t.Fatalf("%s: not within %v", what, d)
	}
}

// A client of a stateful session (2025-11-25) that deletes its session
// while its run is in a tool call stops the run: the SDK's Close waits for
// the session's handlers, so without this the DELETE (and a server's
// shutdown) waited for the run.
func TestSessionDeleteStopsItsRuns(t *testing.T) {
	eng, started, stopped := blockEngine(t)
	_, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	cs := connectHTTP(t, endpoint, "tok", clientOptions(nil), legacyVersion)
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": `return await srv.block({q: "x"})`}})
	within(t, started, time.Minute, "the tool started")
	deleted := make(chan struct{})
	go func() { deleteSession(t, endpoint, cs.ID()); close(deleted) }()
	within(t, stopped, time.Minute, "the run stopped with its session")
	within(t, deleted, time.Minute, "the DELETE was answered")
}

// deleteSession closes session id as a client does, with a DELETE (the
// SDK's client sends it only once its calls in flight have ended).
func deleteSession(t *testing.T, endpoint, id string) {
	req, err := http.NewRequest(http.MethodDelete, endpoint, nil)
	if err != nil {
		t.Error(err)
		return
	}
	req.Header.Set("Authorization", "Bearer tok")
	req.Header.Set(sessionIDHeader, id)
	req.Header.Set("Mcp-Protocol-Version", legacyVersion)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Errorf("DELETE: %s", res.Status)
	}
}

// A client whose connections drop (its process died: no DELETE, no
// notifications/cancelled) stops its run: nothing can deliver the result.
func TestDroppedPOSTStopsItsRun(t *testing.T) {
	eng, started, stopped := blockEngine(t)
	_, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	tr := newDropTransport()
	c := mcp.NewClient(&mcp.Implementation{Name: "dropping", Version: "v1"}, clientOptions(nil))
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: tr}, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: legacyVersion})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": `return await srv.block({q: "x"})`}})
	within(t, started, time.Minute, "the tool started")
	tr.cut()
	within(t, stopped, time.Minute, "the run stopped with its POST")
}

// A run waiting on its approval page stops when its client closes the
// session: the page closes (the run stopped waiting) and the call never
// runs. This is the wait that held a test's cleanup, and with it the whole
// package, until the approval timeout.
func TestApprovalWaitEndsWithTheSession(t *testing.T) {
	eng, rec := newEngine(t)
	srv := New(eng, Options{})
	_, endpoint := serveHTTP(t, srv, HTTPOptions{Bearer: "tok"})
	links, completed := make(chan string, 4), make(chan string, 4)
	cs := urlClient(t, endpoint, links, completed)
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": `return (await files.delete({path: "/left"})).deleted`}})
	var link string
	select {
	case link = <-links:
	case <-time.After(time.Minute):
		t.Fatal("no approval link within a minute")
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimPrefix(u.Path, "/approve/")
	if _, st := srv.pages.lookup(id); st != linkOpen {
		t.Fatalf("the page is %d, want open", st)
	}
	deleteSession(t, endpoint, cs.ID())
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, st := srv.pages.lookup(id); st == linkClosed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the run still waits on its approval page after its session closed")
		}
	}
	if got := rec.list(); len(got) != 0 {
		t.Errorf("the call ran: %v", got)
	}
}

// A client cannot name another POST's carrier: open replaces the header,
// and an id that is not a POST in flight ties the call to nothing.
func TestCarrierHeaderIsTheServers(t *testing.T) {
	var c carriers
	r, err := http.NewRequest(http.MethodPost, "http://x/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set(carrierHeader, "forged")
	done := c.open(r, "s1")
	defer done()
	if got := r.Header.Get(carrierHeader); got == "forged" || got == "" {
		t.Fatalf("carrier header %q", got)
	}
	forged, release := c.bind(context.Background(), &mcp.RequestExtra{Header: http.Header{carrierHeader: {"forged"}}})
	defer release()
	real, release2 := c.bind(context.Background(), &mcp.RequestExtra{Header: r.Header})
	defer release2()
	c.endSession("s2")
	if real.Err() != nil {
		t.Fatal("another session's DELETE ended the call")
	}
	c.endSession("s1")
	within(t, real.Done(), time.Minute, "the call ended with its session")
	if forged.Err() != nil {
		t.Error("a forged carrier id tied the call to another POST")
	}
}
