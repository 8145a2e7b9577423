package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
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
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	fs.Usage = func() {
		fmt.Fprint(s.Stderr, "Usage: modebox mcp [flags]\n\nServes modebox as an MCP server: over stdio by default, or Streamable HTTP\nwith --http ADDR (loopback unless ADDR names another interface).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	cfgPath := configFlag(fs)
	addr := fs.String("http", "", "serve Streamable HTTP on ADDR (e.g. 127.0.0.1:8080 or :8080, which binds 127.0.0.1)")
	bearer := fs.String("token", os.Getenv("MODEBOX_MCP_TOKEN"), "require this bearer token over HTTP (default $MODEBOX_MCP_TOKEN)")
	var allowHosts listFlag
	fs.Var(&allowHosts, "allow-host", "also accept this Host/Origin over HTTP besides loopback (repeatable)")
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
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	cont, pg, closeStore, err := cliContinuationsPG(ctx, cfg)
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox mcp: %v\n", err)
		return ExitUsage
	}
	eng, stop, err := engineWith(ctx, cfg, s, cont, closeStore)
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox mcp: %v\n", err)
		return ExitUsage
	}
	defer stop()
	srv := mcpserver.New(eng, mcpserver.Options{ApproveTool: sec.ApproveTool, Shared: sharedCache(pg, cont)})
	if *addr == "" {
		if err := srv.ServeStdio(ctx, s.Stdin, s.Stdout); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(s.Stderr, "modebox mcp: %v\n", err)
			return ExitFailed
		}
		return ExitOK
	}
	return serveHTTP(ctx, srv, *addr, allowHosts, *bearer, s)
}

func serveHTTP(ctx context.Context, srv *mcpserver.Server, addr string, allow []string, bearer string, s Streams) int {
	if strings.HasPrefix(addr, ":") {
		addr = "127.0.0.1" + addr
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox mcp: %v\n", err)
		return ExitUsage
	}
	hs := &http.Server{Handler: srv.Handler(allow, bearer), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(s.Stderr, "modebox mcp: serving http://%s/ (Streamable HTTP)\n", ln.Addr())
	if bearer == "" && !isLoopback(ln.Addr()) {
		fmt.Fprintln(s.Stderr, "modebox mcp: warning: listening beyond loopback without --token")
	}
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

func isLoopback(a net.Addr) bool {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.IsLoopback()
	}
	return false
}
