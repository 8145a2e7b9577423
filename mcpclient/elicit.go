package mcpclient

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/forward"
	"github.com/modebox/modebox/internal/prompt"
)

// ElicitWithApprover is the default [Elicitor]: it sends a downstream
// server's elicitation to the approver of the run whose call caused it
// (each elicitation is attributed to its call, and askCtx carries that
// call's run; one that cannot be attributed is declined before it gets
// here). The server's message is framed so that it cannot pass for
// modebox's own question: one sanitised line, cut at 300 characters and
// attributed to the server.
//
// An approver that shows forms ([modebox.AskForm]: an MCP client's
// elicitation) gets the server's form, with a marker property modebox's own
// approval form never has. Any other approver is asked to approve or deny:
// approving accepts with the form's default values, and a form with a
// required field that has no default is declined without asking.
func ElicitWithApprover(askCtx context.Context, server, message string, schema json.RawMessage) (action string, content map[string]any, err error) {
	message = forwardedMessage(server, message)
	// an approver that shows forms (an MCP client's elicitation, or its
	// input_required results on protocol 2026-07-28, which mcpserver
	// offers through internal/forward) gets the server's form as it is
	action, content, ok, err := forward.Ask(askCtx, message, forwardedSchema(schema))
	if !ok {
		action, content, ok, err = modebox.AskForm(askCtx, message, forwardedSchema(schema))
	}
	if ok {
		if err != nil {
			return "cancel", nil, nil
		}
		delete(content, forwardedMarker) // ours, not the server's
		return action, content, nil
	}
	// otherwise approve or deny: approving sends the form's defaults, and
	// a form with required fields that have no default is declined
	if !defaultsComplete(schema) {
		return "decline", nil, nil
	}
	d, err := modebox.Ask(askCtx, modebox.ApprovalRequest{
		Tool:   server + " (asks for input)",
		Reason: message + " (approving sends the form's default values)",
		Args:   schema,
		Once:   true,
	})
	if err != nil || d == modebox.Deny {
		return "decline", nil, nil
	}
	return "accept", schemaDefaults(schema), nil
}

// schemaDefaults returns the "default" of each property of an object
// schema.
func schemaDefaults(schema json.RawMessage) map[string]any {
	var s struct {
		Properties map[string]struct {
			Default any `json:"default"`
		} `json:"properties"`
	}
	out := map[string]any{}
	if json.Unmarshal(schema, &s) != nil {
		return out
	}
	for name, p := range s.Properties {
		if p.Default != nil {
			out[name] = p.Default
		}
	}
	return out
}

// defaultsComplete reports whether every required property has a default.
func defaultsComplete(schema json.RawMessage) bool {
	var s struct {
		Required []string `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return false
	}
	d := schemaDefaults(schema)
	for _, name := range s.Required {
		if _, ok := d[name]; !ok {
			return false
		}
	}
	return true
}

// maxForwarded caps the server's message in a forwarded question.
const maxForwarded = 300

// forwardedMessage frames a server's question so that it cannot pass for
// modebox's own: one line (sanitised, line breaks and runs of blanks
// folded), cut at maxForwarded, and attributed to the server.
func forwardedMessage(server, message string) string {
	clean := strings.Join(strings.Fields(prompt.Sanitize(message)), " ")
	if r := []rune(clean); len(r) > maxForwarded {
		clean = string(r[:maxForwarded]) + "…"
	}
	return "[question from MCP server " + strings.Join(strings.Fields(prompt.Sanitize(server)), " ") + ", not from modebox] " + clean
}

// forwardedMarker is the property forwardedSchema adds.
const forwardedMarker = "forwarded_from_mcp_server"

// forwardedSchema is the server's form with a marker property that
// modebox's own approval form never has, so that the two cannot be equal.
func forwardedSchema(schema json.RawMessage) json.RawMessage {
	var s map[string]any
	if json.Unmarshal(schema, &s) != nil || s == nil {
		s = map[string]any{"type": "object"}
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	props[forwardedMarker] = map[string]any{
		"type": "boolean", "title": "This question comes from a downstream MCP server, not from modebox",
		"default": true, "const": true,
	}
	s["properties"] = props
	b, err := json.Marshal(s)
	if err != nil {
		return schema
	}
	return b
}
