package mcpclient

import (
	"net/http"

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
// function that releases its idle connections. Type "sse" selects the
// legacy HTTP+SSE transport; anything else is Streamable HTTP.
func httpTransport(cfg config.Server) (mcp.Transport, func()) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	client := &http.Client{Transport: &headerTransport{base: base, headers: cfg.Headers}}
	if cfg.Type == "sse" {
		return &mcp.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: client}, base.CloseIdleConnections
	}
	return &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: client}, base.CloseIdleConnections
}
