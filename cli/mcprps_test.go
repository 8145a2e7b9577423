package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type benchAddIn struct {
	A float64 `json:"a" jsonschema:"the first number"`
	B float64 `json:"b" jsonschema:"the second number"`
}

// BenchmarkMCPRunHTTP measures the throughput of the run tool over
// Streamable HTTP: the mcpserver handler the `modebox mcp --http` command
// serves, on an engine with one Go tool, driven by the Go SDK client with
// concurrent requests on one session. It reports runs/s and the median
// latency of one run, for a 2026-07-28 client (the stateless handler) and
// a 2025-11-25 client (the stateful one).
func BenchmarkMCPRunHTTP(b *testing.B) {
	add := modebox.MustTool("add", "Adds two numbers.", func(ctx context.Context, in benchAddIn) (float64, error) {
		return in.A + in.B, nil
	})
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{add}})
	if err != nil {
		b.Fatal(err)
	}
	const token = "bench-token"
	h, err := mcpserver.New(eng, mcpserver.Options{}).HTTPHandler(mcpserver.HTTPOptions{Bearer: token, MaxSessions: 4})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(h)
	b.Cleanup(ts.Close)

	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		b.Run(version, func(b *testing.B) {
			ctx := context.Background()
			c := mcp.NewClient(&mcp.Implementation{Name: "bench-client", Version: "1"}, nil)
			cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + mcpserver.DefaultPath, HTTPClient: &http.Client{Transport: benchBearer(token)}}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				b.Fatalf("protocol %s, want %s", got, version)
			}
			runOnce := func() error {
				// New params each call: CallTool writes to them (_meta).
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": "return 1+1"}})
				if err != nil {
					return err
				}
				if bs, _ := json.Marshal(res.StructuredContent); res.IsError || !strings.Contains(string(bs), `"result":2`) {
					return &benchError{string(bs)}
				}
				return nil
			}
			if err := runOnce(); err != nil { // warm up (compile caches, connections)
				b.Fatal(err)
			}

			var (
				mu   sync.Mutex
				lats []time.Duration
			)
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				var mine []time.Duration
				for pb.Next() {
					t0 := time.Now()
					if err := runOnce(); err != nil {
						b.Error(err)
						return
					}
					mine = append(mine, time.Since(t0))
				}
				mu.Lock()
				lats = append(lats, mine...)
				mu.Unlock()
			})
			elapsed := time.Since(start)
			b.StopTimer()
			if len(lats) == 0 {
				return
			}
			slices.Sort(lats)
			median := lats[len(lats)/2]
			b.ReportMetric(float64(len(lats))/elapsed.Seconds(), "runs/s")
			b.ReportMetric(float64(median.Microseconds())/1000, "p50-ms")
			b.Logf("%s: %d runs in %v: %.0f runs/s, median latency %v", version, len(lats), elapsed.Round(time.Millisecond),
				float64(len(lats))/elapsed.Seconds(), median)
		})
	}
}

type benchError struct{ out string }

func (e *benchError) Error() string { return "run: " + e.out }

// benchBearer adds the bearer token to each request.
type benchBearer string

func (b benchBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}
