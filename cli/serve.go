package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
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

	"github.com/modebox/modebox/mcpserver"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// mcpSection is modebox.json's "mcp" section.
type mcpSection struct {
	// ApproveTool offers the approve tool to clients that cannot elicit.
	ApproveTool bool `json:"approveTool"`
}

func parseMCPSection(raw json.RawMessage) (mcpSection, error) {
	var m mcpSection
	if len(raw) == 0 {
		return m, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("/mcp: %v (known keys: approveTool)", err)
	}
	return m, nil
}

func mcpCmd(args []string, s Streams) int {
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	return mcpCmdContext(ctx, args, s)
}

// mcpCmdContext is modebox mcp, serving until ctx is done.
func mcpCmdContext(ctx context.Context, args []string, s Streams) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	fs.Usage = func() {
		fmt.Fprint(s.Stderr, "Usage: modebox mcp [flags]\n\nServes modebox as an MCP server: over stdio by default, or Streamable HTTP\nat http://ADDR/mcp with --http ADDR (loopback unless ADDR names another\ninterface). Over HTTP every request needs a bearer token: --token, or one\ngenerated and printed at start (--no-auth serves without one).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	cfgPath := configFlag(fs)
	addr := fs.String("http", "", "serve Streamable HTTP on ADDR (e.g. 127.0.0.1:8080 or :8080, which binds 127.0.0.1)")
	bearer := fs.String("token", os.Getenv("MODEBOX_MCP_TOKEN"), "the bearer token HTTP clients must send (default $MODEBOX_MCP_TOKEN; without either, a random one is generated and printed)")
	noAuth := fs.Bool("no-auth", false, "serve HTTP without authentication: anyone who can reach the port can run programs")
	var allowHosts, allowOrigins listFlag
	fs.Var(&allowHosts, "allow-host", "also accept this Host over HTTP besides loopback (repeatable)")
	fs.Var(&allowOrigins, "allow-origin", "also accept requests from this browser origin, e.g. https://app.example.com (repeatable; the server's own origin is always accepted)")
	maxSessions := fs.Int("max-sessions", mcpserver.DefaultMaxSessions, "most HTTP sessions (protocol 2025-11-25 and older) open at once")
	sessionIdle := fs.Duration("session-idle", mcpserver.DefaultSessionIdle, "close an HTTP session idle this long")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitUsage
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return ExitUsage
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		fmt.Fprintln(s.Stderr, err)
		return ExitUsage
	}
	sec, err := parseMCPSection(cfg.MCP)
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: %v\n", cfg.File, err)
		return ExitUsage
	}
	eng, stop, err := engineWithContinuations(ctx, cfg, s)
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox mcp: %v\n", err)
		return ExitUsage
	}
	defer stop()
	srv := mcpserver.New(eng, mcpserver.Options{ApproveTool: sec.ApproveTool})
	if *addr == "" {
		if err := srv.ServeStdio(ctx, s.Stdin, s.Stdout); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(s.Stderr, "modebox mcp: %v\n", err)
			return ExitFailed
		}
		return ExitOK
	}
	if *noAuth && *bearer != "" {
		fmt.Fprintln(s.Stderr, "modebox mcp: --no-auth and a token (--token or $MODEBOX_MCP_TOKEN) contradict each other")
		return ExitUsage
	}
	ho := mcpserver.HTTPOptions{
		Bearer: *bearer, NoAuth: *noAuth, AllowedHosts: allowHosts, AllowedOrigins: allowOrigins,
		MaxSessions: *maxSessions, SessionIdle: *sessionIdle,
	}
	generated := false
	if ho.Bearer == "" && !ho.NoAuth {
		ho.Bearer, generated = mcpserver.GenerateToken(), true
	}
	return serveHTTP(ctx, srv, *addr, ho, generated, s)
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
