package mcpclient

import (
	"context"
	"net/http"
	"sync"

	"github.com/modebox/modebox/internal/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	base    *http.Transport
	headers map[string]string
}

// RoundTrip implements http.RoundTripper.
func (h *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range h.headers {
			req.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(req)
}

// httpTransport returns the SDK transport for a remote server, and a
// function that releases its resources once the session is closed. Type
// "sse" selects the legacy HTTP+SSE transport; anything else is Streamable
// HTTP.
func httpTransport(cfg config.Server) (mcp.Transport, func()) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	client := &http.Client{Transport: &headerTransport{base: base, headers: cfg.Headers}}
	if cfg.Type == "sse" {
		d := &detachedTransport{inner: &mcp.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: client}}
		return d, func() {
			d.release()
			base.CloseIdleConnections()
		}
	}
	return &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: client}, base.CloseIdleConnections
}

// detachedTransport connects inner with a context that the start timeout
// bounds only while connecting. The SDK's SSE transport ties its event
// stream to the context given to Connect, which ends with the start.
type detachedTransport struct {
	inner  mcp.Transport
	mu     sync.Mutex
	cancel context.CancelFunc
}

// Connect implements mcp.Transport.
func (d *detachedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	life, cancel := context.WithCancel(context.WithoutCancel(ctx))
	d.mu.Lock()
	d.cancel = cancel
	d.mu.Unlock()
	stop := context.AfterFunc(ctx, cancel)
	conn, err := d.inner.Connect(life)
	stop()
	if err != nil {
		cancel()
		return nil, err
	}
	return conn, nil
}

// release ends the connection's context.
func (d *detachedTransport) release() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cancel != nil {
		d.cancel()
	}
}
