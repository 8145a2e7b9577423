package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modebox/modebox/internal/schema"
)

// Call calls tool on server with args (a JSON object; empty or null means
// {}) and returns the result converted for the sandbox by the rule in the
// package doc. The call is bounded by the per-call timeout (the server's
// own Timeout, else [Options.CallTimeout]) and by ctx. A server that is
// down is restarted first, after its backoff.
//
// When the tool, as last listed, has an output schema ([Tool].Output),
// the result must be structuredContent that conforms to it (see
// [Manager.CallTool]).
//
// Errors: [*ToolError] when the server reports a failure or its result
// does not conform to the output schema, [*TimeoutError] when the
// per-call timeout runs out, [*ServerError] when the server is unknown,
// cannot be started, or exits or disconnects during the call, and ctx's
// error when ctx ends first.
func (m *Manager) Call(ctx context.Context, server, tool string, args json.RawMessage) (json.RawMessage, error) {
	var out *schema.Validator
	if s := m.servers[server]; s != nil {
		s.mu.Lock()
		for _, t := range s.tools {
			if t.Name == tool {
				out = t.Output
				break
			}
		}
		s.mu.Unlock()
	}
	return m.call(ctx, server, tool, args, out)
}

// CallTool is [Manager.Call] of t, whose result is checked against
// t.Output, the output schema of t as it was listed when t was got (a
// later listing cannot change what a program was told the result is).
// With t.Output nil the result is not checked. A result of a tool with an
// output schema is rejected with a [*ToolError] when it has no
// structuredContent (the MCP specification requires it) or when its
// structuredContent does not conform; the message names the first
// violations. A conforming result is returned exactly as without a
// schema; an isError result is the server's failure, as without one.
func (m *Manager) CallTool(ctx context.Context, t Tool, args json.RawMessage) (json.RawMessage, error) {
	return m.call(ctx, t.Server, t.Name, args, t.Output)
}

// call is Call with the output schema to check the result against (nil:
// none).
func (m *Manager) call(ctx context.Context, server, tool string, args json.RawMessage, output *schema.Validator) (json.RawMessage, error) {
	s := m.servers[server]
	if s == nil {
		return nil, &ServerError{Server: server, Reason: "is not configured", Err: ErrUnknownServer}
	}
	arguments, err := callArguments(args)
	if err != nil {
		return nil, &ToolError{Server: server, Tool: tool, Message: err.Error(), Code: jsonrpc.CodeInvalidParams}
	}
	params := &mcp.CallToolParams{Name: tool, Arguments: arguments}
	token, unwatch := s.watchProgress(ctx, params) // progress.go
	defer unwatch()
	timeout := s.callTimeout()
	cctx, cancel := s.withCallTimeout(ctx, timeout, token)
	defer cancel()
	// ended explains a call whose context ended.
	ended := func() error {
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(context.Cause(cctx), ErrClosed):
			return &ServerError{Server: server, Reason: "is closed", Err: ErrClosed}
		}
		return &TimeoutError{Server: server, Tool: tool, Timeout: timeout}
	}

	c, err := s.acquire(cctx, time.Now().Add(timeout))
	if err != nil {
		if cctx.Err() != nil {
			return nil, ended()
		}
		return nil, err
	}
	if c.read != nil {
		c.read.expect(token) // its result may be converted by the connection (stdioconn.go)
		defer c.read.forget(token)
	}
	res, err := c.session.CallTool(cctx, params)
	if err != nil {
		if cctx.Err() != nil {
			return nil, ended()
		}
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			return nil, &ToolError{Server: server, Tool: tool, Message: rpcErr.Message, Code: rpcErr.Code}
		}
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed {
			return nil, &ServerError{Server: server, Reason: "is closed", Err: ErrClosed}
		}
		if rerr := c.readErr(); rerr != nil {
			why := &ServerError{Server: server, Reason: "sent a message modebox cannot read", Err: rerr}
			if c.isDone() {
				s.markDown(c, why)
			}
			return nil, why
		}
		if c.isDone() || waitDone(c, time.Second) {
			why := s.exitError(c)
			s.markDown(c, why)
			return nil, why
		}
		return nil, &ServerError{Server: server, Reason: "failed the call to " + tool, Err: err}
	}
	s.mu.Lock()
	s.crashes = 0
	s.mu.Unlock()
	if c.read != nil {
		if out, structured, release, ok := c.read.take(token); ok {
			defer release() // after the check, which reads out
			if err := checkResult(cctx, server, tool, output, out, structured); err != nil {
				if cctx.Err() != nil {
					return nil, ended()
				}
				return nil, err
			}
			return out, nil
		}
	}
	out, structured, err := convertResultStructured(server, tool, res)
	if err != nil {
		return nil, err
	}
	if err := checkResult(cctx, server, tool, output, out, structured); err != nil {
		if cctx.Err() != nil {
			return nil, ended()
		}
		return nil, err
	}
	return out, nil
}

// maxResultMessage bounds the message of a result refused by its output
// schema, in bytes.
const maxResultMessage = 1000

// checkResult checks a converted result against the tool's output schema
// (nil: none, anything goes). structured says whether out is the
// result's structuredContent.
func checkResult(ctx context.Context, server, tool string, output *schema.Validator, out json.RawMessage, structured bool) error {
	if output == nil {
		return nil
	}
	if !structured {
		return &ToolError{Server: server, Tool: tool,
			Message: "the result has no structuredContent, which the tool's output schema requires"}
	}
	err := output.ValidateJSONContext(ctx, out)
	if err == nil {
		return nil
	}
	var msg string
	var verr *schema.ValidationError
	if errors.As(err, &verr) {
		vs := verr.Violations
		if len(vs) == 0 {
			vs = []schema.Violation{{Path: verr.Path, Rule: verr.Rule, Message: verr.Message}}
		}
		parts := make([]string, 0, 3)
		for i, v := range vs {
			if i == 3 {
				break
			}
			parts = append(parts, "at "+truncate(displayPointer(v.Path), 120)+": "+v.Rule+": "+v.Message)
		}
		msg = "structuredContent does not match the tool's output schema: " + strings.Join(parts, "; ")
		if more := len(vs) - len(parts) + verr.Omitted; more > 0 {
			tail := fmt.Sprintf(" (and %d more)", more)
			msg = cut(msg, maxResultMessage-len(tail)) + tail
		}
	} else {
		// over the validation bound, or the validator failed: not known
		// to conform, so not passed on
		msg = "structuredContent could not be checked against the tool's output schema: " + err.Error()
	}
	return &ToolError{Server: server, Tool: tool, Message: cut(msg, maxResultMessage)}
}

// cut is truncate to at most n bytes, its mark included.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return truncate(s, n-len("…"))
}

// displayPointer renders a JSON Pointer for a message ("root" for "").
func displayPointer(p string) string {
	if p == "" {
		return "root"
	}
	return p
}

// waitDone waits up to d for c's session to end and reports whether it did.
func waitDone(c *conn, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.done:
		return true
	case <-t.C:
		return false
	}
}

// callArguments checks that args is a JSON object, and turns empty or null
// arguments into {} (the SDK and some servers choke on "arguments": null).
func callArguments(args json.RawMessage) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return json.RawMessage(`{}`), nil
	}
	if trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, errors.New("arguments must be a JSON object")
	}
	return json.RawMessage(trimmed), nil
}

// convertResult applies the conversion rule of the package doc.
func convertResult(server, tool string, res *mcp.CallToolResult) (json.RawMessage, error) {
	out, _, err := convertResultStructured(server, tool, res)
	return out, err
}

// convertResultStructured is convertResult that also reports whether
// out is the result's structuredContent.
func convertResultStructured(server, tool string, res *mcp.CallToolResult) (out json.RawMessage, structured bool, err error) {
	if res.IsError {
		return nil, false, &ToolError{Server: server, Tool: tool, Message: errorMessage(res)}
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err == nil && string(b) != "null" {
			return b, true, nil
		}
	}
	if len(res.Content) == 1 {
		if t, ok := res.Content[0].(*mcp.TextContent); ok {
			out, err := marshalText(t.Text)
			return out, false, err
		}
	}
	blocks := res.Content
	if blocks == nil {
		blocks = []mcp.Content{}
	}
	b, err := json.Marshal(struct {
		Content []mcp.Content `json:"content"`
	}{blocks})
	if err != nil {
		return nil, false, &ServerError{Server: server, Reason: "sent a result that cannot be encoded", Err: err}
	}
	return b, false, nil
}

// marshalText returns the JSON string for s, byte for byte what
// json.Marshal returns, in one allocation of the final size when s is
// plain printable ASCII without the characters json.Marshal escapes (the
// encoder would otherwise grow its buffer by doubling and copy it out).
func marshalText(s string) (json.RawMessage, error) {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < 0x20 || b >= utf8.RuneSelf || b == '"' || b == '\\' || b == '<' || b == '>' || b == '&' {
			return json.Marshal(s)
		}
	}
	out := make([]byte, len(s)+2)
	out[0] = '"'
	copy(out[1:], s)
	out[len(out)-1] = '"'
	return out, nil
}

// errorMessage joins the text blocks of an isError result; without any (or
// with only blank ones) it falls back to the structured content, then to a
// fixed message.
func errorMessage(res *mcp.CallToolResult) string {
	var texts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	// blank text blocks are no message: fall back as if there were none
	if msg := strings.Join(texts, "\n"); strings.TrimSpace(msg) != "" {
		return msg
	}
	if b := rawJSON(res.StructuredContent); b != nil {
		return string(b)
	}
	return "the tool reported an error without a message"
}
