// Package mcpserver serves a modebox engine as an MCP server: a model gets
// one tool, run, that runs a JavaScript or TypeScript program against the
// whole toolbox, plus search to find tools and read their declarations, and
// (when configured) approve to resume runs paused for approval.
//
// Approvals follow what the calling client declared, per request:
//
//   - a client on protocol 2025-11-25 or older with the elicitation
//     capability is asked with elicitation/create while the run waits, one
//     question at a time;
//   - a 2026-07-28 client with elicitation gets an input_required result
//     (multi round-trip requests): the run pauses, its continuation token
//     is the requestState, and the retry's answers resume it;
//   - any other client: with Options.ApproveTool the run pauses and the
//     model is told to call approve with the token (the client shows that
//     call to its user); without it, calls that need approval are denied
//     and the run goes on.
//
// The server serves stdio (ServeStdio) and Streamable HTTP (Handler). The
// HTTP handler routes requests of protocol 2026-07-28 and later to a
// stateless handler and older ones to a stateful one, so that both
// generations can be asked for approval on one endpoint.
//
// A retried resume gets the first resume's result for ten minutes. With
// Options.Shared that retry cache lives in a store every replica reaches
// (package pgstore's PostgreSQL store), so the retry may reach any replica
// of a deployment behind a load balancer (docs/scaling.md).
package mcpserver

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"io"

	"github.com/modebox/modebox"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxResultText is the default cap, in characters, of the text
// mirror of a tool result.
const DefaultMaxResultText = 24000

// Options configures a Server.
type Options struct {
	// Name and Version are the server's identity (serverInfo). Defaults:
	// "modebox" and modebox.Version.
	Name, Version string
	// ApproveTool offers the approve tool, which resumes a run that paused
	// for approval, to clients that cannot be asked (no elicitation).
	// Without it such clients' calls that need approval are denied.
	ApproveTool bool
	// MaxResultText caps the text mirror of a tool result, in characters
	// (default 24,000); longer text is cut with a note. structuredContent
	// is never cut, but for the search tool's declarations (no query),
	// which are cut in both alike.
	MaxResultText int
	// Shared puts the retry cache in a store every replica reaches (such
	// as package pgstore's), so that a retried resume gets the first
	// result on any replica. nil: the cache is this process's own. New
	// panics if Shared has a Store but no valid Keys.
	Shared *Shared
}

// Server is modebox as an MCP server. It is safe for concurrent use; one
// Server can serve stdio and HTTP at once.
type Server struct {
	eng     *modebox.Engine
	opts    Options
	srv     *mcp.Server
	resumes *resumeCache
	asks    *askStore
	pages   *pageStore // approval pages (served over HTTP)
	runs    *runLog    // the runs page's record
	start   *starting  // set by NewStarting: the wait for the engine
	// carriers ends a stateful session's tool calls with the POSTs that
	// carried them, and with the session's DELETE (carriers.go)
	carriers carriers
}

// New returns a server for eng. An engine without continuations gets a
// copy with an in-memory key and token store (tokens then resume only in
// this process), because pausing is how 2026-07-28 clients and the approve
// tool approve calls.
func New(eng *modebox.Engine, opts Options) *Server {
	s := newServer(opts, nil)
	s.setEngine(eng, opts.Shared)
	return s
}

// newServer returns a server without its engine and tools: setEngine
// gives it both. caps, when not nil, are the capabilities to declare.
func newServer(opts Options, caps *mcp.ServerCapabilities) *Server {
	if opts.Name == "" {
		opts.Name = "modebox"
	}
	if opts.Version == "" {
		opts.Version = modebox.Version
	}
	if opts.MaxResultText <= 0 {
		opts.MaxResultText = DefaultMaxResultText
	}
	s := &Server{
		opts:    opts,
		resumes: newResumeCache(resumeKeep),
		asks:    newAskStore(askKeep),
		pages:   newPageStore(),
		runs:    newRunLog(runsKept),
	}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: opts.Name, Title: "modebox", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Capabilities: caps,
	})
	s.srv.AddReceivingMiddleware(recoverPanics, s.bindCarrier)
	return s
}

// setEngine gives s its engine and shared retry cache and adds the tools,
// whose descriptions come from the engine.
func (s *Server) setEngine(eng *modebox.Engine, shared *Shared) {
	s.eng = withContinuations(eng)
	s.opts.Shared = shared
	if sh := newShared(shared); sh != nil {
		s.resumes.shared, s.asks.shared = sh, sh
	}
	s.addTools()
}

// MCPServer returns the underlying SDK server, for transports other than
// stdio and Streamable HTTP.
func (s *Server) MCPServer() *mcp.Server { return s.srv }

// withContinuations returns eng, or a copy of it that can pause when it
// cannot.
func withContinuations(eng *modebox.Engine) *modebox.Engine {
	// Resume reports a ConfigError, before looking at the token, exactly
	// when the engine has no continuations; an empty token claims nothing.
	_, err := eng.Resume(context.Background(), "", modebox.Decisions{})
	var ce *modebox.ConfigError
	if !errors.As(err, &ce) {
		return eng
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	cp, err := eng.WithContinuations(&modebox.Continuations{Keys: [][]byte{key}})
	if err != nil {
		return eng
	}
	return cp
}

// ServeStdio serves one client over newline-delimited JSON-RPC on in and
// out until in ends or ctx is cancelled.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	w := &lockedWriter{w: out}
	err := s.srv.Run(ctx, &mcp.IOTransport{Reader: &stdioIDs{r: bufio.NewReaderSize(in, 64<<10), out: w}, Writer: w})
	if errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// instructions are the server's initialize instructions; the run tool's
// description is the manual, so they only point to it.
const instructions = "Do each task in one run program; run's description says how."
