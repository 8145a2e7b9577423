package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/modebox/modebox/mcpserver"
)

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

// mcpFlags are the flags of `modebox mcp`.
type mcpFlags struct {
	addr       string
	bearer     string
	allowHosts []string
}

func newMCPCmd(s Streams, g *globals) *cobra.Command {
	var fl mcpFlags
	cmd := &cobra.Command{
		Use:   "mcp [flags]",
		Short: "Serve modebox as an MCP server (stdio, or Streamable HTTP)",
		Long: `Serves modebox as an MCP server: over stdio by default, or Streamable HTTP
with --http ADDR (loopback unless ADDR names another interface).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return serveMCP(g, fl, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.addr, "http", "", "serve Streamable HTTP on ADDR (e.g. 127.0.0.1:8080 or :8080, which binds 127.0.0.1)")
	f.StringVar(&fl.bearer, "token", os.Getenv("MODEBOX_MCP_TOKEN"), "require this bearer token over HTTP (default $MODEBOX_MCP_TOKEN)")
	f.StringArrayVar(&fl.allowHosts, "allow-host", nil, "also accept this Host/Origin over HTTP besides loopback (repeatable)")
	return cmd
}

func serveMCP(g *globals, fl mcpFlags, s Streams) error {
	cfg, err := loadConfig(g.config)
	if err != nil {
		return configError(err)
	}
	sec, err := parseMCPSection(cfg.MCP)
	if err != nil {
		return configError(fmt.Errorf("%s: %v", cfg.File, err))
	}
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	eng, stop, shared, err := openEngineShared(ctx, cfg, true, s)
	if err != nil {
		return err
	}
	defer stop()
	srv := mcpserver.New(eng, mcpserver.Options{ApproveTool: sec.ApproveTool, Shared: shared})
	if fl.addr == "" {
		if err := srv.ServeStdio(ctx, s.Stdin, s.Stdout); err != nil && !errors.Is(err, context.Canceled) {
			return failure(err)
		}
		return nil
	}
	return status(serveHTTP(ctx, srv, fl.addr, fl.allowHosts, fl.bearer, s))
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
