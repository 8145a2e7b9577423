package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/config"
	iconfig "github.com/modebox/modebox/internal/config"
	"github.com/modebox/modebox/mcpserver"
)

// parseMCPSection reads modebox.json's "mcp" section with the file's
// strict, case-sensitive checks (as `modebox config check` does).
func parseMCPSection(raw json.RawMessage) (iconfig.MCP, error) {
	return iconfig.ParseMCP(raw)
}

// mcpFlags are the flags of `modebox mcp`.
type mcpFlags struct {
	addr         string
	bearer       string
	noAuth       bool
	allowHosts   []string
	allowOrigins []string
	maxSessions  int
	sessionIdle  time.Duration
}

func newMCPCmd(s Streams, g *globals) *cobra.Command {
	var fl mcpFlags
	cmd := &cobra.Command{
		Use:   "mcp [flags]",
		Short: "Serve modebox as an MCP server (stdio, or Streamable HTTP)",
		Long: `Serves modebox as an MCP server: over stdio by default, or Streamable HTTP
at http://ADDR/mcp with --http ADDR (loopback unless ADDR names another
interface). Over HTTP every request needs a bearer token: --token, or one
generated and printed at start (--no-auth serves without one).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return serveMCP(cmd.Context(), g, fl, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.addr, "http", "", "serve Streamable HTTP on ADDR (e.g. 127.0.0.1:8080 or :8080, which binds 127.0.0.1)")
	f.StringVar(&fl.bearer, "token", os.Getenv("MODEBOX_MCP_TOKEN"), "the bearer token HTTP clients must send (default $MODEBOX_MCP_TOKEN; without either, a random one is generated and printed)")
	f.BoolVar(&fl.noAuth, "no-auth", false, "serve HTTP without authentication: anyone who can reach the port can run programs")
	f.StringArrayVar(&fl.allowHosts, "allow-host", nil, "also accept this Host over HTTP besides loopback (repeatable)")
	f.StringArrayVar(&fl.allowOrigins, "allow-origin", nil, "also accept requests from this browser origin, e.g. https://app.example.com (repeatable; the server's own origin is always accepted)")
	fl.maxSessions = mcpserver.DefaultMaxSessions
	f.Var(intCount(&fl.maxSessions), "max-sessions", "most HTTP sessions (protocol 2025-11-25 and older) open at once")
	f.DurationVar(&fl.sessionIdle, "session-idle", mcpserver.DefaultSessionIdle, "close an HTTP session idle this long")
	return cmd
}

func serveMCP(ctx context.Context, g *globals, fl mcpFlags, s Streams) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if fl.noAuth && fl.bearer != "" {
		return usageError("--no-auth and a token (--token or $MODEBOX_MCP_TOKEN) contradict each other")
	}
	if fl.sessionIdle < 0 {
		// It would otherwise be read as "the default"; --max-sessions is a
		// count flag, which refuses a negative number itself.
		return usageError("--session-idle must not be negative, got %s", fl.sessionIdle)
	}
	cfg, err := loadConfig(g.config)
	if err != nil {
		return configError(err)
	}
	sec, err := parseMCPSection(cfg.MCP)
	if err != nil {
		return configError(fmt.Errorf("%s: %v", cfg.Path, err))
	}
	ctx, stopSignals := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	opts := mcpserver.Options{ApproveTool: sec.ApproveTool}
	var srv *mcpserver.Server
	var started func() error // after serving: waits for the engine's start
	if len(cfg.MCPServers) == 0 {
		eng, stop, shared, err := openEngineShared(ctx, cfg, true, s)
		if err != nil {
			return err
		}
		defer stop()
		opts.Shared = shared
		srv = mcpserver.New(eng, opts)
		started = func() error { return nil }
	} else {
		// downstream servers may take long to start (npx fetching a
		// package): serve at once, and requests wait for the engine,
		// hearing progress meanwhile
		srv = mcpserver.NewStarting(opts, "starting MCP servers ("+strings.Join(enabledServers(cfg), ", ")+")")
		started = startEngine(&ctx, cfg, srv, s)
	}
	if fl.addr == "" {
		err := srv.ServeStdio(ctx, s.Stdin, s.Stdout)
		if serr := started(); serr != nil {
			return serr
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			return failure(err)
		}
		return nil
	}
	ho := mcpserver.HTTPOptions{
		Bearer: fl.bearer, NoAuth: fl.noAuth, AllowedHosts: fl.allowHosts, AllowedOrigins: fl.allowOrigins,
		MaxSessions: fl.maxSessions, SessionIdle: fl.sessionIdle,
	}
	generated := false
	if ho.Bearer == "" && !ho.NoAuth {
		ho.Bearer, generated = mcpserver.GenerateToken(), true
	}
	code := serveHTTP(ctx, srv, fl.addr, ho, generated, s)
	if serr := started(); serr != nil {
		return serr
	}
	return status(code)
}

// startEngine builds the engine for srv (made by NewStarting) in the
// background, replacing *ctx by a context that ends if the engine cannot
// be built. The returned function, called once serving has ended, waits
// for the start to finish (as modebox mcp did before serving when it
// started the servers first), stops the engine, and returns the start's
// error.
func startEngine(ctx *context.Context, cfg *config.File, srv *mcpserver.Server, s Streams) func() error {
	startCtx := *ctx
	serveCtx, endServe := context.WithCancel(startCtx)
	*ctx = serveCtx
	done := make(chan struct{})
	var stop func()
	var err error
	go func() {
		defer close(done)
		var eng *modebox.Engine
		var shared *mcpserver.Shared
		eng, stop, shared, err = openEngineShared(startCtx, cfg, true, s)
		if err != nil {
			srv.Fail(err)
			endServe()
			return
		}
		srv.Ready(eng, shared)
	}()
	return func() error {
		<-done
		endServe()
		if stop != nil {
			stop()
		}
		return err
	}
}

func serveHTTP(ctx context.Context, srv *mcpserver.Server, addr string, ho mcpserver.HTTPOptions, generated bool, s Streams) int {
	if strings.HasPrefix(addr, ":") {
		addr = "127.0.0.1" + addr
	}
	h, err := srv.HTTPHandler(ho)
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox mcp: %v\n", err)
		return ExitUsage
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox mcp: %v\n", err)
		return ExitUsage
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	printHTTPUsage(s.Stderr, ln.Addr(), ho, generated)
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shut)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(s.Stderr, "modebox mcp: %v\n", err)
		return ExitFailed
	}
	return ExitOK
}

// printHTTPUsage tells the user where the endpoint is and how to
// authenticate, with a client configuration to paste.
func printHTTPUsage(w io.Writer, a net.Addr, ho mcpserver.HTTPOptions, generated bool) {
	base := "http://" + a.String()
	if t, ok := a.(*net.TCPAddr); ok && t.IP.IsUnspecified() {
		base = "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(t.Port)) // the unspecified address is no Host a client can use
	}
	endpoint := base + mcpserver.DefaultPath
	fmt.Fprintf(w, "modebox mcp: serving Streamable HTTP at %s\n", endpoint)
	if t, ok := a.(*net.TCPAddr); ok && t.IP.IsUnspecified() && len(ho.AllowedHosts) == 0 {
		fmt.Fprintf(w, "modebox mcp: listening on every interface (%s), but only loopback Hosts are accepted: add --allow-host NAME for each name or address other machines use\n", a)
	}
	if ho.NoAuth {
		fmt.Fprintln(w, "modebox mcp: warning: --no-auth: no authentication; anyone who can reach this port can run programs")
		fmt.Fprintf(w, "modebox mcp: runs page: %s/runs\n", base)
		return
	}
	if generated {
		fmt.Fprintln(w, "modebox mcp: a token was generated for this process (set --token or $MODEBOX_MCP_TOKEN to choose one); clients send it in every request:")
	} else {
		fmt.Fprintln(w, "modebox mcp: clients send the token in every request:")
	}
	fmt.Fprintf(w, "    Authorization: Bearer %s\n", ho.Bearer)
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"modebox": map[string]any{
		"type": "http", "url": endpoint, "headers": map[string]string{"Authorization": "Bearer " + ho.Bearer},
	}}})
	fmt.Fprintf(w, "modebox mcp: client configuration:\n    %s\n", cfg)
	fmt.Fprintf(w, "modebox mcp: runs page (signs the browser in): %s/runs?token=%s\n", base, url.QueryEscape(ho.Bearer))
}
