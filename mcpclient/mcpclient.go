// Package mcpclient attaches downstream MCP servers to a modebox engine:
// it starts the servers listed under "mcpServers" in modebox.json (or built
// by hand), lists their tools and returns them as [modebox.Tool] values
// whose handlers call the server. The CLI and `modebox mcp` use it too, so
// an embedder gets exactly what they do.
//
//	f, err := config.Load("modebox.json")
//	if err != nil { ... }
//	c, err := mcpclient.Start(ctx, f.MCPServers, nil)
//	if err != nil { ... }
//	defer c.Close() // stops the servers
//	ec := f.Engine
//	ec.Tools = append(ec.Tools, c.Tools()...)
//	eng, err := modebox.New(ec)
//
// The tool of server "github" named "get_issue" is the program's
// github.get_issue (see [modebox.MapName] for names that are not
// identifiers). A server that does not start is reported by
// [Client.Failures] and the others keep working; a tool whose input schema
// is over the schema limits is left out ([Client.Skipped]); one whose
// schema cannot be compiled is offered with its arguments unchecked
// ([Client.Unchecked]).
//
// A call's result becomes one JSON value for the program: an isError
// result rejects the call with a [*ToolError] (the text blocks joined by
// newlines); else the result's structuredContent, as sent; else a result
// of exactly one text block is that text, as a JSON string (never parsed);
// else {"content": [block, ...]}, each block in its MCP wire shape.
// Results are data from an untrusted server, never instructions.
//
// A tool's outputSchema becomes its [modebox.Tool].OutputSchema (the
// result type declared to programs) and is checked: a result that is not
// isError must have structuredContent conforming to it, else the call
// fails with a [*ToolError] naming the first violations (TOOL_ERROR in
// the program). A conforming result is passed on unchanged. An output
// schema that cannot be compiled (or is over the schema limits) is
// dropped: the tool is offered with no output type and its results
// unchecked ([Client.UncheckedResults]).
//
// A stdio server runs as a child process with a minimal environment (PATH,
// HOME and its "env"); [Client.Close] closes its session and stops its
// process group. A server's progress notifications on a call reach the
// run's observer ([modebox.ReportProgress]). A server's elicitation
// requests go, by default, to the approver of the run whose call caused
// them ([ElicitWithApprover]).
package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/config"
	imc "github.com/modebox/modebox/internal/mcpclient"
	"github.com/modebox/modebox/internal/schema"
)

// Server is one "mcpServers" entry: exactly one of Command (a stdio server
// started as a child process) and URL (a Streamable HTTP endpoint) is set.
// Its fields are Command, Args, Env, Cwd, URL, Headers, Type, Disabled and
// Timeout, as written in modebox.json (see docs/configuration.md).
type Server = config.Server

// Elicitor answers a server's elicitation request: ctx carries the run of
// the call that caused it, server is the server's name, message and
// requestedSchema are what the server sent (untrusted). action is
// "accept", "decline" or "cancel"; content holds the answers on "accept".
type Elicitor = imc.Elicitor

// ServerError reports a server that did not start, exited or lost its
// connection, with the tail of its stderr.
type ServerError = imc.ServerError

// ToolError is a call the server answered with a failure (isError, or a
// JSON-RPC error).
type ToolError = imc.ToolError

// TimeoutError is a call that ran past its per-call timeout.
type TimeoutError = imc.TimeoutError

// Skipped is a tool a server listed that is not offered, with the reason.
type Skipped = imc.Skipped

// Default timeouts, used when [Options] leaves them zero.
const (
	// DefaultCallTimeout bounds one tools/call.
	DefaultCallTimeout = imc.DefaultCallTimeout
	// DefaultStartTimeout bounds starting one server and listing its tools.
	DefaultStartTimeout = imc.DefaultStartTimeout
)

// Options configure [Start]. The zero value (or nil) is what the CLI uses.
type Options struct {
	// CallTimeout bounds each call (default [DefaultCallTimeout]); a
	// server's own Timeout overrides it.
	CallTimeout time.Duration
	// StartTimeout bounds starting one server and listing its tools
	// (default [DefaultStartTimeout]).
	StartTimeout time.Duration
	// Elicitor answers the servers' elicitation requests; nil means
	// [ElicitWithApprover], which asks the run's approver.
	Elicitor Elicitor
	// NoElicitation does not advertise elicitation at all: servers are
	// told the client cannot answer questions.
	NoElicitation bool
	// Stderr receives the stdio servers' stderr, each line prefixed with
	// "[server] "; nil discards it (its tail is still kept for
	// [ServerError]).
	Stderr io.Writer
}

// Unchecked is a tool offered with its arguments unchecked, because its
// input schema could not be compiled ([Client.Unchecked]), or with its
// results unchecked and no output type, because its output schema could
// not be compiled ([Client.UncheckedResults]).
type Unchecked struct {
	// Server and Tool name the tool (Tool as the server listed it).
	Server, Tool string
	// Err is why the schema is not usable.
	Err error
}

// Client is the running set of servers started by [Start]. Its methods
// are safe for concurrent use.
type Client struct {
	m         *imc.Manager
	tools     []modebox.Tool
	skipped   []Skipped
	unchecked []Unchecked
	untyped   []Unchecked
}

// Start starts every enabled server in servers (keyed by name, which
// becomes the namespace of its tools) in parallel and lists their tools.
// It returns once every server has started or failed; it fails only when
// ctx ends first (its error), having stopped the servers. Call
// [Client.Close] when done.
func Start(ctx context.Context, servers map[string]Server, opts *Options) (*Client, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	el := o.Elicitor
	if el == nil {
		el = ElicitWithApprover
	}
	if o.NoElicitation {
		el = nil
	}
	m := imc.New(servers, imc.Options{CallTimeout: o.CallTimeout, StartTimeout: o.StartTimeout, Elicitor: el, Stderr: o.Stderr})
	if err := m.Start(ctx); err != nil {
		m.Close()
		return nil, err
	}
	c := &Client{m: m, skipped: m.Skipped()}
	for _, t := range m.Tools() {
		in := t.InputSchema
		if err := modebox.CheckSchema(in); errors.As(err, new(*schema.LimitError)) {
			c.skipped = append(c.skipped, Skipped{Server: t.Server, Tool: t.Name, Reason: err.Error()})
			continue
		} else if err != nil {
			c.unchecked = append(c.unchecked, Unchecked{Server: t.Server, Tool: t.Name, Err: err})
			in = nil
		}
		if t.OutputErr != nil {
			c.untyped = append(c.untyped, Unchecked{Server: t.Server, Tool: t.Name, Err: t.OutputErr})
		}
		c.tools = append(c.tools, c.tool(t, in))
	}
	return c, nil
}

// tool is t as a modebox tool whose handler calls the server; its
// results are checked against t's output schema as listed now, the one
// declared to programs.
func (c *Client) tool(t imc.Tool, in json.RawMessage) modebox.Tool {
	server, name := t.Server, t.Name
	key := server + "." + modebox.MapName(name)
	return modebox.Tool{
		Namespace: server, Name: name, Description: t.Description,
		InputSchema: in, OutputSchema: t.OutputSchema,
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			// the server's progress on this call goes to the run's observer
			ctx = imc.WithProgress(ctx, func(p imc.Progress) {
				modebox.ReportProgress(ctx, key, p.Message, p.Progress, p.Total)
			})
			v, err := c.m.CallTool(ctx, t, args)
			var se *ServerError
			if errors.As(err, &se) && se.StderrTail != "" {
				// the server's stderr is the operator's (tracebacks,
				// logged URLs with keys): the program learns that the
				// server exited, not what it wrote
				quiet := *se
				quiet.StderrTail = ""
				return nil, &quiet
			}
			if err != nil {
				return nil, err
			}
			return v, nil
		},
	}
}

// Tools returns the servers' tools as modebox tools, sorted by server and
// then name, as listed at [Start]. Add them to [modebox.EngineConfig].Tools.
func (c *Client) Tools() []modebox.Tool { return append([]modebox.Tool(nil), c.tools...) }

// Failures returns the servers that did not start, sorted by name, with
// the reason and the tail of their stderr. A later call to such a server
// tries to start it again.
func (c *Client) Failures() []*ServerError {
	var out []*ServerError
	for _, f := range c.m.Failures() {
		out = append(out, &f)
	}
	return out
}

// Skipped returns the tools the servers listed that are not offered: over
// a limit of the listing, listed twice, or with an input schema over the
// schema limits.
func (c *Client) Skipped() []Skipped { return append([]Skipped(nil), c.skipped...) }

// Unchecked returns the tools offered with their arguments unchecked.
func (c *Client) Unchecked() []Unchecked { return append([]Unchecked(nil), c.unchecked...) }

// UncheckedResults returns the tools offered with no output type and
// their results unchecked, because the output schema their server
// declared could not be compiled or is over the schema limits (Err says
// which).
func (c *Client) UncheckedResults() []Unchecked { return append([]Unchecked(nil), c.untyped...) }

// Close stops every server: it closes each session, then stops each stdio
// server's process group and waits until it is reaped. Calls in flight
// fail. Close is idempotent and returns nil.
func (c *Client) Close() error { return c.m.Close() }
