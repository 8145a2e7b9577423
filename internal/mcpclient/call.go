package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Call calls tool on server with args (a JSON object; empty or null means
// {}) and returns the result converted for the sandbox by the rule in the
// package doc. The call is bounded by the per-call timeout (the server's
// own Timeout, else [Options.CallTimeout]) and by ctx. A server that is
// down is restarted first, after its backoff.
//
// Errors: [*ToolError] when the server reports a failure, [*TimeoutError]
// when the per-call timeout runs out, [*ServerError] when the server is
// unknown, cannot be started, or exits or disconnects during the call, and
// ctx's error when ctx ends first.
func (m *Manager) Call(ctx context.Context, server, tool string, args json.RawMessage) (json.RawMessage, error) {
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
		if out, release, ok := c.read.take(token); ok {
			release()
			return out, nil
		}
	}
	return convertResult(server, tool, res)
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
	if res.IsError {
		return nil, &ToolError{Server: server, Tool: tool, Message: errorMessage(res)}
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err == nil && string(b) != "null" {
			return b, nil
		}
	}
	if len(res.Content) == 1 {
		if t, ok := res.Content[0].(*mcp.TextContent); ok {
			return marshalText(t.Text)
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
		return nil, &ServerError{Server: server, Reason: "sent a result that cannot be encoded", Err: err}
	}
	return b, nil
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
