package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/config"
	"github.com/modebox/modebox/internal/mcpclient"
)

// serverStart bounds starting the configured downstream servers.
const serverStart = 60 * time.Second

// slowStart is how long the servers may take to start before the CLI
// says on stderr that it is starting them.
const slowStart = 2 * time.Second

// serverNames lists the enabled servers, sorted.
func serverNames(cfg *config.Config) string {
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
func downstream(ctx context.Context, cfg *config.Config, s Streams) ([]modebox.Tool, func(), error) {
	if len(cfg.MCPServers) == 0 {
		return nil, func() {}, nil
	}
	router := &elicitRouter{}
	m := mcpclient.New(cfg.MCPServers, mcpclient.Options{Elicitor: router.elicit})
	sctx, cancel := context.WithTimeout(ctx, serverStart)
	defer cancel()
	started := time.Now()
	said := make(chan struct{})
	slow := time.AfterFunc(slowStart, func() {
		defer close(said)
		fmt.Fprintf(s.Stderr, "modebox: starting MCP servers (%s); a first start with npx may be fetching packages...\n", serverNames(cfg))
	})
	err := m.Start(sctx)
	if !slow.Stop() {
		<-said
		fmt.Fprintf(s.Stderr, "modebox: MCP servers started in %s\n", time.Since(started).Round(100*time.Millisecond))
	}
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	for _, f := range m.Failures() {
		fmt.Fprintf(s.Stderr, "modebox: MCP server %q did not start: %s\n", f.Server, indent(f.Error()))
	}
	var tools []modebox.Tool
	for _, t := range m.Tools() {
		in := t.InputSchema
		if err := modebox.CheckSchema(in); err != nil {
			fmt.Fprintf(s.Stderr, "modebox: %s/%s: its input schema is not usable (%v); arguments are passed unchecked\n", t.Server, t.Name, err)
			in = nil
		}
		server, name := t.Server, t.Name
		tools = append(tools, modebox.Tool{
			Namespace: server, Name: name, Description: t.Description,
			InputSchema: in, OutputSchema: t.OutputSchema,
			Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
				defer router.enter(server, ctx)()
				// the server's progress on this call goes to the run's observer
				key := server + "." + modebox.MapName(name)
				ctx = mcpclient.WithProgress(ctx, func(p mcpclient.Progress) {
					modebox.ReportProgress(ctx, key, p.Message, p.Progress, p.Total)
				})
				v, err := m.Call(ctx, server, name, args)
				if err != nil {
					return nil, err
				}
				return v, nil
			},
		})
	}
	return tools, func() { m.Close() }, nil
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
