package mcpclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modebox/modebox/internal/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessageSize caps one message from a server: a line on stdio, a JSON
// body or one event of an event stream over HTTP. The cap is applied while
// reading, so a larger message costs no more memory than the cap.
const MaxMessageSize = mcp.DefaultMaxLineLength

// ErrMessageTooLarge is the error of reading a message over
// [MaxMessageSize].
var ErrMessageTooLarge = fmt.Errorf("mcpclient: message over %d MiB", MaxMessageSize>>20)

// ErrRedirect is the error of a request the server redirected to another
// origin (scheme, host or port). Redirects are followed only within the
// configured origin, so that the configured headers (credentials) and the
// JSON-RPC bodies (the program's arguments) never go elsewhere.
var ErrRedirect = errors.New("mcpclient: redirect to another origin refused")

// headerTransport adds the configured headers to every request to the
// configured origin, and caps the responses.
type headerTransport struct {
	base     *http.Transport
	origin   string // scheme://host:port of the configured URL
	headers  map[string]string
	tooLarge atomic.Bool // a response went over MaxMessageSize
}

// readErr reports ErrMessageTooLarge once a response went over the cap.
func (h *headerTransport) readErr() error {
	if h.tooLarge.Load() {
		return ErrMessageTooLarge
	}
	return nil
}

// originOf returns scheme://host:port of u, with the default port made
// explicit.
func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// RoundTrip implements http.RoundTripper.
func (h *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if originOf(req.URL) != h.origin {
		return nil, fmt.Errorf("%w: %s", ErrRedirect, req.URL.Redacted())
	}
	if len(h.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range h.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := h.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body = &eventCap{body: resp.Body, limit: MaxMessageSize, over: &h.tooLarge}
	} else {
		resp.Body = &bodyCap{body: resp.Body, left: MaxMessageSize, over: &h.tooLarge}
	}
	return resp, nil
}

// checkRedirect refuses redirects to another origin.
func checkRedirect(origin string) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if originOf(req.URL) != origin {
			return fmt.Errorf("%w: %s", ErrRedirect, req.URL.Redacted())
		}
		if len(via) >= 5 {
			return errors.New("mcpclient: too many redirects")
		}
		return nil
	}
}

// bodyCap fails a body that goes on past MaxMessageSize.
type bodyCap struct {
	body io.ReadCloser
	left int
	over *atomic.Bool // set when the cap is hit
}

// Read implements io.Reader.
func (b *bodyCap) Read(p []byte) (int, error) {
	if b.left <= 0 {
		b.over.Store(true)
		return 0, ErrMessageTooLarge
	}
	if len(p) > b.left {
		p = p[:b.left]
	}
	n, err := b.body.Read(p)
	b.left -= n
	return n, err
}

// Close implements io.Closer.
func (b *bodyCap) Close() error { return b.body.Close() }

// eventCap fails an event stream one of whose events (the bytes up to a
// blank line) is over MaxMessageSize.
type eventCap struct {
	body  io.ReadCloser
	limit int          // the cap on one event
	size  int          // bytes of the current event
	line  int          // bytes of the current line so far
	cr    bool         // the current line so far ends with '\r'
	over  *atomic.Bool // set when the cap is hit
}

// Read implements io.Reader.
func (e *eventCap) Read(p []byte) (int, error) {
	if e.size >= e.limit {
		e.over.Store(true)
		return 0, ErrMessageTooLarge
	}
	if len(p) > e.limit-e.size {
		p = p[:e.limit-e.size]
	}
	n, err := e.body.Read(p)
	chunk := p[:n]
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			e.size += len(chunk)
			e.line += len(chunk)
			e.cr = chunk[len(chunk)-1] == '\r'
			break
		}
		seg := chunk[:i]
		cr := e.cr
		if len(seg) > 0 {
			cr = seg[len(seg)-1] == '\r'
		}
		if n := e.line + len(seg); n == 0 || n == 1 && cr {
			e.size = 0 // a blank line: the event ended
		} else {
			e.size += len(seg) + 1
		}
		e.line, e.cr = 0, false
		chunk = chunk[i+1:]
	}
	return n, err
}

// Close implements io.Closer.
func (e *eventCap) Close() error { return e.body.Close() }

// httpTransport returns the SDK transport for a remote server, and a
// function that releases its resources once the session is closed. Type
// "sse" selects the legacy HTTP+SSE transport; anything else is Streamable
// HTTP.
func httpTransport(cfg config.Server) (mcp.Transport, func(), *headerTransport) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	origin := ""
	if u, err := url.Parse(cfg.URL); err == nil {
		origin = originOf(u)
	}
	ht := &headerTransport{base: base, origin: origin, headers: cfg.Headers}
	client := &http.Client{Transport: ht, CheckRedirect: checkRedirect(origin)}
	if cfg.Type == "sse" {
		d := &detachedTransport{inner: &mcp.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: client}}
		return d, func() {
			d.release()
			base.CloseIdleConnections()
		}, ht
	}
	return &mcp.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: client}, base.CloseIdleConnections, ht
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
