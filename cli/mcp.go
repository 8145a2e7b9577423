package cli

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/config"
	"github.com/modebox/modebox/internal/prompt"
	"github.com/modebox/modebox/mcpclient"
)

// serverStart bounds starting the configured downstream servers.
const serverStart = 60 * time.Second

// slowStart is how long the servers may take to start before the CLI
// says on stderr that it is starting them.
const slowStart = 2 * time.Second

// serverNames lists the enabled servers, sorted.
func serverNames(cfg *config.File) string {
	var names []string
	for name, srv := range cfg.MCPServers {
		if !srv.Disabled {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// downstream starts the configured MCP servers and returns their tools as
// modebox tools, and a function that stops the servers. A server that
// does not start is reported once on stderr and the rest keep working.
func downstream(ctx context.Context, cfg *config.File, s Streams) ([]modebox.Tool, func(), error) {
	if len(cfg.MCPServers) == 0 {
		return nil, func() {}, nil
	}
	sctx, cancel := context.WithTimeout(ctx, serverStart)
	defer cancel()
	started := time.Now()
	said := make(chan struct{})
	slow := time.AfterFunc(slowStart, func() {
		defer close(said)
		fmt.Fprintf(s.Stderr, "modebox: starting MCP servers (%s); a first start with npx may be fetching packages...\n", serverNames(cfg))
	})
	c, err := mcpclient.Start(sctx, cfg.MCPServers, nil)
	if !slow.Stop() {
		<-said
		fmt.Fprintf(s.Stderr, "modebox: MCP servers started in %s\n", time.Since(started).Round(100*time.Millisecond))
	}
	if err != nil {
		return nil, nil, err
	}
	// server names, reasons and stderr tails are server text: sanitised
	for _, f := range c.Failures() {
		fmt.Fprintf(s.Stderr, "modebox: MCP server %q did not start: %s\n", f.Server, indent(prompt.Sanitize(f.Error())))
	}
	for _, sk := range c.Skipped() {
		fmt.Fprintf(s.Stderr, "modebox: MCP server %q: tool %s skipped: %s\n", sk.Server, prompt.Sanitize(strconv.Quote(sk.Tool)), prompt.Sanitize(sk.Reason))
	}
	for _, u := range c.Unchecked() {
		fmt.Fprintf(s.Stderr, "modebox: %s/%s: its input schema is not usable (%s); arguments are passed unchecked\n", u.Server, prompt.Sanitize(u.Tool), prompt.Sanitize(u.Err.Error()))
	}
	for _, u := range c.UncheckedResults() {
		fmt.Fprintf(s.Stderr, "modebox: %s/%s: its output schema is not usable (%s); results are passed unchecked and declared without a type\n", u.Server, prompt.Sanitize(u.Tool), prompt.Sanitize(u.Err.Error()))
	}
	return c.Tools(), func() { _ = c.Close() }, nil
}

func indent(s string) string {
	out := "    "
	for _, r := range s {
		out += string(r)
		if r == '\n' {
			out += "    "
		}
	}
	return out
}
