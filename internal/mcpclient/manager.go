package mcpclient

import (
	"context"
	"errors"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/modebox/modebox/internal/config"
)

// Manager owns the connections to the configured servers. Its methods are
// safe for concurrent use.
type Manager struct {
	servers      map[string]*server // enabled servers
	names        []string           // their names, sorted
	callTimeout  time.Duration
	startTimeout time.Duration
	elicitor     Elicitor
	stderr       *lockedWriter // nil: discard

	base   context.Context // ends at Close; bounds starts and re-lists
	cancel context.CancelFunc

	mu       sync.Mutex
	failures []ServerError
	closed   bool
}

// New returns a Manager for the given servers (keyed by name); disabled
// entries are ignored. Nothing is started before [Manager.Start].
func New(servers map[string]config.Server, opts Options) *Manager {
	m := &Manager{
		servers:      map[string]*server{},
		callTimeout:  opts.CallTimeout,
		startTimeout: opts.StartTimeout,
		elicitor:     opts.Elicitor,
	}
	if m.callTimeout <= 0 {
		m.callTimeout = DefaultCallTimeout
	}
	if m.startTimeout <= 0 {
		m.startTimeout = DefaultStartTimeout
	}
	if opts.Stderr != nil {
		m.stderr = &lockedWriter{w: opts.Stderr}
	}
	m.base, m.cancel = context.WithCancel(context.Background())
	for name, cfg := range servers {
		if cfg.Disabled {
			continue
		}
		m.servers[name] = &server{name: name, cfg: cfg, m: m}
		m.names = append(m.names, name)
	}
	sort.Strings(m.names)
	return m
}

// Start connects to every enabled server in parallel and lists its tools.
// A server that will not start is reported by [Manager.Failures], with its
// stderr tail, and the others keep working; a later call to it tries again
// (see the package doc on backoff). Start only fails when ctx ends first,
// with ctx's error; the starts still running then go on in the background
// until they finish or [Manager.Close] stops them.
func (m *Manager) Start(ctx context.Context) error {
	type outcome struct {
		name string
		err  error
	}
	results := make(chan outcome, len(m.names))
	for _, name := range m.names {
		s := m.servers[name]
		go func() {
			_, err := s.acquire(m.base, time.Time{})
			results <- outcome{name, err}
		}()
	}
	var failures []ServerError
	for range m.names {
		select {
		case r := <-results:
			if r.err == nil {
				continue
			}
			var se *ServerError
			if !errors.As(r.err, &se) {
				se = &ServerError{Server: r.name, Reason: "did not start", Err: r.err}
			}
			failures = append(failures, *se)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	sort.Slice(failures, func(i, j int) bool { return failures[i].Server < failures[j].Server })
	m.mu.Lock()
	m.failures = failures
	m.mu.Unlock()
	return nil
}

// Tools returns the tools of all servers that started, sorted by server,
// then name. A server that crashed keeps its last listed tools, since the
// next call restarts it.
func (m *Manager) Tools() []Tool {
	var all []Tool
	for _, name := range m.names {
		s := m.servers[name]
		s.mu.Lock()
		all = append(all, s.tools...)
		s.mu.Unlock()
	}
	return all
}

// Skipped returns the tools the servers listed but that are not offered
// (over a limit of the listing, or listed twice), sorted by server.
func (m *Manager) Skipped() []Skipped {
	var all []Skipped
	for _, name := range m.names {
		s := m.servers[name]
		s.mu.Lock()
		all = append(all, s.skipped...)
		s.mu.Unlock()
	}
	return all
}

// Failures returns the servers that did not start during [Manager.Start],
// sorted by name, with the reason and the tail of their stderr.
func (m *Manager) Failures() []ServerError {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.failures)
}

// Refresh lists again the tools of every running server, so that a changed
// tools/list is picked up. (A server's notifications/tools/list_changed
// triggers the same re-list for that server at once.) Servers that are
// down are skipped; they are listed when they restart. The error joins the
// servers whose listing failed (they keep their previous tools), or is
// ctx's error.
func (m *Manager) Refresh(ctx context.Context) error {
	errs := make([]error, len(m.names))
	var wg sync.WaitGroup
	for i, name := range m.names {
		s := m.servers[name]
		wg.Go(func() { errs[i] = s.relist(ctx) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// Close stops all servers: it closes each session, then stops each stdio
// server's process group (closed stdin, then SIGTERM, then SIGKILL) and
// waits until the processes are reaped. Calls in flight fail. Close is
// idempotent; it always returns nil.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	var wg sync.WaitGroup
	for _, name := range m.names {
		s := m.servers[name]
		wg.Go(s.shutdown)
	}
	wg.Wait()
	return nil
}

// shutdown closes the server for good and waits until its start in
// progress, if any, has ended and its process is reaped.
func (s *server) shutdown() {
	s.mu.Lock()
	s.closed = true
	c, ch := s.live, s.starting
	s.live = nil
	s.mu.Unlock()
	if ch != nil {
		<-ch // the start sees closed and closes its connection
	}
	if c != nil {
		c.close()
	}
}
