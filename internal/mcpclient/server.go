package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modebox/modebox/internal/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Restart backoff: the first restart after a crash waits backoffMin, each
// further consecutive failure doubles it, up to backoffMax.
const (
	backoffMin = 500 * time.Millisecond
	backoffMax = 30 * time.Second
)

// backoff returns the wait before the next start after n consecutive
// failures (n ≥ 1).
func backoff(n int) time.Duration {
	d := backoffMin
	for i := 1; i < n && d < backoffMax; i++ {
		d *= 2
	}
	return min(d, backoffMax)
}

// conn is one live session with a server.
type conn struct {
	session *mcp.ClientSession
	proc    *process         // nil for a remote server
	read    *stdioConn       // nil for a remote server
	http    *headerTransport // nil for a stdio server
	release func()           // frees transport resources; may be nil
	done    chan struct{}
	once    sync.Once
}

// readErr is the error that made a message from the server unreadable
// (over MaxMessageSize, not JSON), or nil.
func (c *conn) readErr() error {
	if c.http != nil {
		return c.http.readErr()
	}
	return c.read.readErr()
}

// isDone reports whether the session has ended.
func (c *conn) isDone() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// close ends the session and stops the process; it is idempotent and
// returns once the process is reaped.
func (c *conn) close() {
	c.once.Do(func() {
		_ = c.session.Close()
		if c.proc != nil {
			c.proc.stop(stopGrace)
		}
		if c.release != nil {
			c.release()
		}
	})
}

// server is the state of one configured server.
type server struct {
	name string
	cfg  config.Server
	m    *Manager

	mu       sync.Mutex
	live     *conn                     // nil while down
	starting chan struct{}             // closed when the start in progress ends
	tools    []Tool                    // last listed; nil before the first listing
	outputs  map[string]compiledOutput // the output schemas of tools, by name (tools.go)
	skipped  []Skipped                 // tools the last listing skipped
	crashes  int                       // consecutive failures, for the backoff
	retryAt  time.Time                 // no start before this
	lastErr  *ServerError              // the last failure
	closed   bool

	calls map[*call]bool // calls in flight

	relisting    bool // a tools/list_changed re-list is running
	relistAgain  bool // another notification came during it
	relistOnLive bool // a notification came before the session was live
}

// MinStartTimeout is the least time a server gets to start when its own
// timeout is shorter: starting (npx, a cold runtime) takes longer than a
// quick call.
const MinStartTimeout = 5 * time.Second

// startTimeout bounds connecting, initializing and listing: the server's
// own timeout (but at least MinStartTimeout) when it is set and shorter
// than the manager's, else the manager's.
func (s *server) startTimeout() time.Duration {
	if t := max(s.cfg.Timeout, MinStartTimeout); s.cfg.Timeout > 0 && t < s.m.startTimeout {
		return t
	}
	return s.m.startTimeout
}

// callTimeout is the server's own timeout or the manager's.
func (s *server) callTimeout() time.Duration {
	if s.cfg.Timeout > 0 {
		return s.cfg.Timeout
	}
	return s.m.callTimeout
}

// acquire returns the live connection, starting the server if it is down
// (after the backoff). Concurrent callers share one start. If the backoff
// ends after deadline (or ctx's deadline), acquire fails at once; a zero
// deadline means none.
func (s *server) acquire(ctx context.Context, deadline time.Time) (*conn, error) {
	if dl, ok := ctx.Deadline(); ok && (deadline.IsZero() || dl.Before(deadline)) {
		deadline = dl
	}
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, &ServerError{Server: s.name, Reason: "is closed", Err: ErrClosed}
		}
		if c := s.live; c != nil {
			s.mu.Unlock()
			if !c.isDone() {
				return c, nil
			}
			s.markDown(c, s.exitError(c))
			continue
		}
		ch := s.starting
		if ch == nil {
			if wait := time.Until(s.retryAt); wait > 0 {
				last := s.lastErr
				s.mu.Unlock()
				if !deadline.IsZero() && time.Until(deadline) < wait {
					return nil, downError(s.name, last, wait)
				}
				if err := sleepCtx(ctx, wait); err != nil {
					return nil, err
				}
				continue
			}
			ch = make(chan struct{})
			s.starting = ch
			go s.start(ch)
		}
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		s.mu.Lock()
		c, last := s.live, s.lastErr
		s.mu.Unlock()
		if c == nil && last != nil {
			return nil, last
		}
	}
}

// start connects in the background, bounded by the start timeout and by
// Close, then records the outcome and closes ch.
func (s *server) start(ch chan struct{}) {
	ctx, cancel := context.WithTimeout(s.m.base, s.startTimeout())
	defer cancel()
	c, tools, err := s.connect(ctx)
	s.mu.Lock()
	defer close(ch)
	defer s.mu.Unlock()
	if err == nil && s.closed {
		s.mu.Unlock()
		c.close()
		s.mu.Lock()
		err = &ServerError{Server: s.name, Reason: "is closed", Err: ErrClosed}
	}
	s.starting = nil
	if err != nil {
		var se *ServerError
		if !errors.As(err, &se) {
			se = &ServerError{Server: s.name, Reason: "did not start", Err: err}
		}
		s.crashes++
		s.retryAt = time.Now().Add(backoff(s.crashes))
		s.lastErr = se
		return
	}
	s.live, s.tools, s.lastErr = c, tools, nil
	if s.relistOnLive {
		s.relistOnLive = false
		s.toolsChangedLocked()
	}
}

// connect starts the transport, initializes the session and lists tools.
func (s *server) connect(ctx context.Context) (*conn, []Tool, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "modebox", Version: "1"}, s.clientOptions())
	var t mcp.Transport
	var st *stdioTransport
	var release func()
	var ht *headerTransport
	if s.cfg.Transport() == "stdio" {
		st = &stdioTransport{cfg: s.cfg, out: s.m.stderr, prefix: "[" + s.name + "] "}
		t = st
	} else {
		t, release, ht = httpTransport(s.cfg)
	}
	session, err := client.Connect(ctx, t, nil)
	if err != nil {
		if st != nil && st.proc != nil {
			st.proc.stop(0) // it failed to initialize: no grace
		}
		if release != nil {
			release()
		}
		return nil, nil, s.startError(ctx, st, err)
	}
	c := &conn{session: session, release: release, http: ht, done: make(chan struct{})}
	if st != nil {
		c.proc, c.read = st.proc, st.conn
	}
	go func() {
		_ = session.Wait()
		close(c.done)
	}()
	tools, skipped, err := s.list(ctx, session)
	if err != nil {
		c.close()
		return nil, nil, s.startError(ctx, st, err)
	}
	s.mu.Lock()
	s.skipped = skipped
	s.mu.Unlock()
	return c, tools, nil
}

// startError explains why a start failed.
func (s *server) startError(ctx context.Context, st *stdioTransport, err error) *ServerError {
	se := &ServerError{Server: s.name, Reason: "did not start", Err: err}
	switch {
	case st != nil && st.startErr != nil:
		se.Reason, se.Err = "could not be started", st.startErr
	case st != nil && st.conn.readErr() != nil:
		se.Reason, se.Err = "sent a message modebox cannot read", st.conn.readErr()
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		se.Reason, se.Err = fmt.Sprintf("did not start within %s", s.startTimeout()), nil
	case st != nil && st.proc != nil && st.proc.hasExited(time.Second):
		se.Reason, se.Err = fmt.Sprintf("exited during startup (%s)", st.proc.exitStatus()), nil
	}
	if st != nil && st.proc != nil {
		se.StderrTail = st.proc.stderrTail()
	}
	return se
}

// exitError explains why a live session ended.
func (s *server) exitError(c *conn) *ServerError {
	if err := c.readErr(); err != nil {
		return &ServerError{Server: s.name, Reason: "sent a message modebox cannot read", Err: err}
	}
	if c.proc != nil && c.proc.hasExited(time.Second) {
		return &ServerError{Server: s.name, Reason: "exited (" + c.proc.exitStatus() + ")",
			StderrTail: c.proc.stderrTail()}
	}
	return &ServerError{Server: s.name, Reason: "lost its connection", Err: mcp.ErrConnectionClosed}
}

// markDown records that c ended, unless that was already done.
func (s *server) markDown(c *conn, why *ServerError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live != c {
		return
	}
	s.live = nil
	s.crashes++
	s.retryAt = time.Now().Add(backoff(s.crashes))
	s.lastErr = why
	go c.close()
}

// list returns the server's tools, sorted by name, and the tools it
// skipped (see [Manager.Skipped]).
func (s *server) list(ctx context.Context, session *mcp.ClientSession) ([]Tool, []Skipped, error) {
	tools := []Tool{}
	var skipped []Skipped
	seen := map[string]bool{}
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			return nil, nil, err
		}
		if len(tools)+len(skipped) >= MaxTools {
			skipped = append(skipped, Skipped{Server: s.name, Reason: fmt.Sprintf("the server lists more than %d tools; the rest are ignored", MaxTools)})
			break
		}
		tool := convertTool(s.name, t)
		if why := toolProblem(tool); why != "" {
			skipped = append(skipped, Skipped{Server: s.name, Tool: truncate(tool.Name, 80), Reason: why})
			continue
		}
		if seen[tool.Name] {
			skipped = append(skipped, Skipped{Server: s.name, Tool: tool.Name, Reason: "it is listed twice; the first is kept"})
			continue
		}
		seen[tool.Name] = true
		tools = append(tools, tool)
	}
	s.compileOutputs(tools)
	sortTools(tools)
	return tools, skipped, nil
}

// downError is the error of a call that finds the server down and its
// next restart later than the call's deadline.
func downError(name string, last *ServerError, wait time.Duration) *ServerError {
	e := &ServerError{Server: name,
		Reason: fmt.Sprintf("is down (next restart in %s)", wait.Round(100*time.Millisecond))}
	if last != nil {
		e.Reason += " after it " + last.Reason
		e.StderrTail, e.Err = last.StderrTail, last.Err
	}
	return e
}

// sleepCtx sleeps for d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
