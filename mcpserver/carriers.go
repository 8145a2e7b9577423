package mcpserver

import (
	"context"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// carrierHeader carries the id of the POST that brought a stateful
// session's message, from the HTTP handler to the tool handlers. The
// handler deletes any value a client sent and sets its own.
const carrierHeader = "X-Modebox-Carrier"

// carriers ties the tool calls of a stateful session (protocols up to
// 2025-11-25) to the POSTs that carried them. The SDK keeps such a call's
// handler running when its POST is gone (the client closed the
// connection: nothing can deliver the result, as the stateful handler
// keeps no events to resume from) and when the session is deleted (its
// Close waits for the handlers, so a client's DELETE would wait, with the
// run, for an approval until the approval timeout). A tool call's context
// ends when its POST's request ends, or when its session is deleted.
//
// 2026-07-28 requests need none of this: the stateless handler ends a
// handler's context with its request (PropagateRequestCancellation).
type carriers struct {
	mu sync.Mutex
	m  map[string]*carrier
}

type carrier struct {
	session string
	ctx     context.Context
	cancel  context.CancelFunc
}

// open registers the POST r of session and marks r with its id; done
// unregisters it when the POST's handler has returned.
func (c *carriers) open(r *http.Request, session string) (done func()) {
	id := randomToken()
	ctx, cancel := context.WithCancel(r.Context())
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*carrier{}
	}
	c.m[id] = &carrier{session: session, ctx: ctx, cancel: cancel}
	c.mu.Unlock()
	r.Header.Set(carrierHeader, id)
	return func() {
		c.mu.Lock()
		delete(c.m, id)
		c.mu.Unlock()
		cancel()
	}
}

// endSession ends the carriers of session's POSTs in flight (before the
// SDK closes the session, which waits for their handlers).
func (c *carriers) endSession(session string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cr := range c.m {
		if cr.session == session {
			cr.cancel()
		}
	}
}

// bind returns ctx ended also when the carrier named in extra's header
// ends, and a function that releases the tie; ctx itself when the
// message came another way.
func (c *carriers) bind(ctx context.Context, extra *mcp.RequestExtra) (context.Context, func()) {
	if extra == nil || extra.Header == nil {
		return ctx, func() {}
	}
	id := extra.Header.Get(carrierHeader)
	if id == "" {
		return ctx, func() {}
	}
	c.mu.Lock()
	cr := c.m[id]
	c.mu.Unlock()
	if cr == nil {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(cr.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// bindCarrier is the receiving middleware that gives a tool call the
// context bind makes.
func (s *Server) bindCarrier(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		ctx, release := s.carriers.bind(ctx, req.GetExtra())
		defer release()
		return next(ctx, method, req)
	}
}
