// Package forward carries, in a run's context, the way to put a downstream
// MCP server's question (an elicitation) to the person behind the run when
// the run's own approver cannot show it. mcpserver sets it for a run of a
// client that answers questions with retries (protocol 2026-07-28:
// input_required results); mcpclient's default elicitor asks through it
// first. Neither package imports the other: a program that attaches
// downstream servers with mcpclient does not link modebox's MCP server.
package forward

import (
	"context"
	"encoding/json"
)

// Asker puts a form (already framed as a downstream server's) to the
// person behind the run and waits for the answer: action is "accept",
// "decline" or "cancel", content the accepted values. ok is false when it
// cannot ask this question (the caller falls back to the run's approver).
type Asker func(ctx context.Context, message string, schema json.RawMessage) (action string, content map[string]any, ok bool, err error)

type key struct{}

// With returns ctx carrying ask for the calls of the run it belongs to.
func With(ctx context.Context, ask Asker) context.Context {
	return context.WithValue(ctx, key{}, ask)
}

// Ask asks through the Asker ctx carries; ok is false, and nothing is
// asked, when ctx carries none.
func Ask(ctx context.Context, message string, schema json.RawMessage) (action string, content map[string]any, ok bool, err error) {
	ask, _ := ctx.Value(key{}).(Asker)
	if ask == nil {
		return "", nil, false, nil
	}
	return ask(ctx, message, schema)
}
