//lint:file-ignore SA1019 the starting message also goes out as an MCP log notification, which clients up to 2025-11-25 read; the feature is deprecated from 2026-07-28 but still served

package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modebox/modebox"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startTick is how often a waiting request hears that the server is
// still starting.
const startTick = time.Second

// starting is the wait of a server made by NewStarting for its engine.
type starting struct {
	what  string
	since time.Time
	ready chan struct{} // closed by Ready or Fail
	once  sync.Once
	err   error // set by Fail before ready closes
}

// NewStarting returns a server that serves before its engine exists, for
// an engine whose downstream MCP servers take a while to start (npx
// fetching a package the first time). what says what is starting, such
// as "starting MCP servers (everything)".
//
// Until Ready or Fail is called, tools/list and tools/call (every tools/
// method) wait; everything else (initialize, server/discover, ping,
// logging/setLevel, notifications) is answered at once. A waiting request that carries a progress token
// gets notifications/progress at once and then every second, with the
// message "<what>: <seconds>s"; a client that set a logging level also
// gets that message once as a log notification (logger "modebox"). Once
// Ready is called the tools are exactly those New would have, and waiting
// requests proceed.
func NewStarting(opts Options, what string) *Server {
	// the capabilities New's server infers from its tools, declared before
	// the tools exist
	s := newServer(opts, &mcp.ServerCapabilities{
		Logging: &mcp.LoggingCapabilities{},
		Tools:   &mcp.ToolCapabilities{ListChanged: true},
	})
	s.start = &starting{what: what, since: time.Now(), ready: make(chan struct{})}
	s.srv.AddReceivingMiddleware(s.awaitEngine)
	return s
}

// Ready gives a server made by NewStarting its engine and, when shared is
// not nil, its shared retry cache (Options.Shared); waiting requests then
// proceed. Only the first call of Ready or Fail counts.
func (s *Server) Ready(eng *modebox.Engine, shared *Shared) {
	if s.start == nil {
		panic("mcpserver: Ready on a server not made by NewStarting")
	}
	s.start.once.Do(func() {
		if shared == nil {
			shared = s.opts.Shared
		}
		s.setEngine(eng, shared)
		close(s.start.ready)
	})
}

// Fail ends the wait of a server made by NewStarting without an engine:
// waiting and later requests fail with err. Only the first call of Ready
// or Fail counts.
func (s *Server) Fail(err error) {
	if s.start == nil {
		panic("mcpserver: Fail on a server not made by NewStarting")
	}
	s.start.once.Do(func() {
		s.start.err = fmt.Errorf("modebox did not start: %w", err)
		close(s.start.ready)
	})
}

// awaitEngine is the receiving middleware of a starting server: requests
// that need the engine wait for it.
func (s *Server) awaitEngine(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !strings.HasPrefix(method, "tools/") {
			return next(ctx, method, req)
		}
		// one counter for the request's progress, which the run's reporter
		// continues: progress must increase for a token
		c := &progressCounter{}
		ctx = context.WithValue(ctx, progressCounterKey{}, c)
		if err := s.start.wait(ctx, req, c); err != nil {
			return nil, err
		}
		return next(ctx, method, req)
	}
}

// wait blocks until the engine is ready (or failed, or ctx ends), telling
// the client the server is starting meanwhile.
// Progress values come from c.
func (st *starting) wait(ctx context.Context, req mcp.Request, c *progressCounter) error {
	select {
	case <-st.ready:
		return st.err
	default:
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	token := progressToken(req)
	tell := func(first bool) {
		if ss == nil {
			return
		}
		msg := fmt.Sprintf("%s: %ds", st.what, int(time.Since(st.since).Seconds()))
		if token != nil {
			_ = ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Message: msg, Progress: c.next()})
		}
		if first {
			_ = ss.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "modebox", Data: msg})
		}
	}
	tell(true)
	tick := time.NewTicker(startTick)
	defer tick.Stop()
	for {
		select {
		case <-st.ready:
			return st.err
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			tell(false)
		}
	}
}
