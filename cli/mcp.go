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

// enabledServers lists the enabled servers, sorted.
func enabledServers(cfg *config.File) []string {
	var names []string
	for name, srv := range cfg.MCPServers {
		if !srv.Disabled {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
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
		fmt.Fprintf(s.Stderr, "modebox: starting MCP servers (%s); a first start with npx may be fetching packages...\n", strings.Join(enabledServers(cfg), ", "))
	})
	c, err := mcpclient.Start(sctx, cfg.MCPServers, nil)
	saidSlow := !slow.Stop()
	if saidSlow {
		<-said
	}
	if err != nil {
		return nil, nil, err
	}
	failures := c.Failures()
	if saidSlow {
		// the follow-up of the "starting" line: how many of them started
		took := time.Since(started).Round(100 * time.Millisecond)
		enabled := len(enabledServers(cfg))
		switch up := enabled - len(failures); {
		case up <= 0:
			fmt.Fprintf(s.Stderr, "modebox: no MCP server started (after %s)\n", took)
		case len(failures) > 0:
			fmt.Fprintf(s.Stderr, "modebox: %d of %d MCP servers started in %s\n", up, enabled, took)
		default:
			fmt.Fprintf(s.Stderr, "modebox: MCP servers started in %s\n", took)
		}
	}
	// server names, reasons and stderr tails are server text: sanitised
	for _, f := range failures {
		fmt.Fprintf(s.Stderr, "modebox: %s\n", prompt.Sanitize(startFailure(f)))
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

// startFailure says why server f did not start, in one line (then its
// stderr's last lines, indented): `MCP server "x" did not start: it
// exited during startup (exit status 1)`.
func startFailure(f *mcpclient.ServerError) string {
	line := fmt.Sprintf("MCP server %q ", f.Server)
	if strings.HasPrefix(f.Reason, "did not start") {
		line += f.Reason
	} else {
		line += "did not start: it " + f.Reason
	}
	if f.Err != nil {
		line += ": " + f.Err.Error()
	}
	if tail := strings.TrimSpace(f.StderrTail); tail != "" {
		line += "\n" + indent("stderr: "+tail)
	}
	return line
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
