package modebox

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modebox/modebox/internal/dnstest"
)

// The tests of this file set FetchConfig.Resolver, to make names resolve
// where the attack needs them (the rest of fetch's tests are in
// integration/builtin_fetch_test.go).

func fetchServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"method": %q}`, r.Method)
		case "/redirect-meta":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, srv.Listener.Addr().String()
}

func fetchEngine(t *testing.T, fc *FetchConfig, _ func(*EngineConfig)) *Engine {
	t.Helper()
	e, err := New(EngineConfig{Fetch: fc})
	must(t, err)
	t.Cleanup(func() { _ = e.Close() })
	return e
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, e *Engine, code string, opts RunOptions) *Result {
	t.Helper()
	r, err := e.Run(t.Context(), code, opts)
	must(t, err)
	return r
}

// recorder approves by tool and records what it was asked.
type recorder struct {
	answers map[string]Decision
	mu      sync.Mutex
	asked   []ApprovalRequest
}

func (r *recorder) Approve(_ context.Context, req ApprovalRequest) (Decision, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, req)
	return r.answers[req.Tool], nil
}

func (r *recorder) requests() []ApprovalRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ApprovalRequest(nil), r.asked...)
}

func TestFetchRefusals(t *testing.T) {
	srv, addr := fetchServer(t)
	rec := &recorder{answers: map[string]Decision{"fetch": Approve}}
	other, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer other.Close()
	e := fetchEngine(t, &FetchConfig{Allow: []string{addr}, Resolver: stubResolver{"sneaky.test": {netip.MustParseAddr("127.0.0.1")}}}, nil)
	var hits atomic.Int32
	go func() {
		for {
			c, err := other.Accept()
			if err != nil {
				return
			}
			hits.Add(1)
			c.Close()
		}
	}()
	for code, want := range map[string]string{
		`"file:///etc/passwd"`:                      "FETCH_BAD_URL",
		`"gopher://127.0.0.1/"`:                     "FETCH_BAD_URL",
		`"http://2130706433/"`:                      "FETCH_BAD_URL",
		`"http://0x7f000001/"`:                      "FETCH_BAD_URL",
		`"http://user@evil@127.0.0.1/"`:             "FETCH_BAD_URL",
		`"http://127.0.0.1.:1/"`:                    "FETCH_BAD_URL",
		`"http://[::1%25lo]/"`:                      "FETCH_BAD_URL",
		fmt.Sprintf("%q", srv.URL+"/redirect-meta"): "FETCH_",
		// unlisted loopback: refused before anyone is asked, since an
		// approval never opens it
		fmt.Sprintf("%q", "http://"+other.Addr().String()+"/"): "FETCH_ADDRESS_REFUSED",
		// an unlisted name that resolves to loopback: asked (it looks
		// public), approved, and still refused at connect time
		`"http://sneaky.test:` + strings.Split(other.Addr().String(), ":")[1] + `/"`: "FETCH_ADDRESS_REFUSED",
	} {
		r := run(t, e, `try { await fetch(`+code+`); return "no error" } catch (e) { return e.code }`, RunOptions{Lang: "js", Approver: rec})
		var got string
		_ = json.Unmarshal(r.Value, &got)
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s: got %s %+v, want %s", code, r.Value, r.Error, want)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("an unlisted loopback listener was reached %d times", hits.Load())
	}
	asked := rec.requests()
	if len(asked) != 1 || !strings.Contains(asked[0].Reason, "GET http://sneaky.test:") {
		t.Fatalf("approval requests %+v", asked)
	}
	// without an approver an unlisted host is refused before anything runs
	r := run(t, e, `try { await fetch("https://example.com/") } catch (e) { return e.code }`, RunOptions{Lang: "js"})
	if string(r.Value) != `"APPROVAL_UNAVAILABLE"` {
		t.Fatalf("%s", r.Value)
	}
}

// stubResolver answers names from a table.
type stubResolver map[string][]netip.Addr

func (s stubResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := s[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// A wildcard entry never opens a private address, even when the name is
// listed, and neither does a plain name entry (api.test, whose DNS
// answers loopback: the attacker's case, through a real DNS server on
// loopback); a name entry marked private does.
func TestFetchPrivateOnlyByExplicitEntry(t *testing.T) {
	srv, addr := fetchServer(t)
	_, port, _ := net.SplitHostPort(addr)
	dns := dnstest.Start(t)
	for _, n := range []string{"svc.test", "a.wild.test", "api.test"} {
		dns.Set(n, "127.0.0.1")
	}
	e := fetchEngine(t, &FetchConfig{Allow: []string{"svc.test:" + port + " private", "*.wild.test:" + port, "api.test:" + port}, Resolver: dns.Resolver()}, nil)
	_ = srv
	r := run(t, e, fmt.Sprintf(`
		const ok = (await fetch("http://svc.test:%s/json")).status;
		let wild; try { await fetch("http://a.wild.test:%s/json") } catch (e) { wild = e.code }
		let name; try { await fetch("http://api.test:%s/json") } catch (e) { name = e.code }
		return [ok, wild, name]`, port, port, port), RunOptions{Lang: "js"})
	if string(r.Value) != `[200,"FETCH_ADDRESS_REFUSED","FETCH_ADDRESS_REFUSED"]` {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
}
