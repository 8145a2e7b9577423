package cli

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modebox/modebox"
)

// elicitRouter sends a downstream server's elicitation to the person who
// approves the calls of the run that is calling that server: the human
// sees it through the same prompt (terminal, or the MCP client's
// elicitation). An elicitation cannot be tied to one call, so it goes to
// the latest call in flight to that server; with none, it is declined.
type elicitRouter struct {
	mu     sync.Mutex
	active map[string][]context.Context // server -> contexts of calls in flight
}

// enter records a call to server in flight; the returned func ends it.
func (r *elicitRouter) enter(server string, ctx context.Context) func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active == nil {
		r.active = map[string][]context.Context{}
	}
	r.active[server] = append(r.active[server], ctx)
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		list := r.active[server]
		for i, c := range list {
			if c == ctx {
				r.active[server] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
	}
}

func (r *elicitRouter) latest(server string) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	list := r.active[server]
	if len(list) == 0 {
		return nil
	}
	return list[len(list)-1]
}

// elicit answers the elicitation: approve accepts with the form's default
// values, deny declines.
func (r *elicitRouter) elicit(ctx context.Context, server, message string, schema json.RawMessage) (string, map[string]any, error) {
	callCtx := r.latest(server)
	if callCtx == nil {
		return "decline", nil, nil
	}
	// ask in the run's context (its approver, its clock), and stop asking
	// when either the run or the downstream request ends
	askCtx, cancel := context.WithCancel(callCtx)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	// an approver that shows forms (an MCP client's elicitation) gets the
	// server's form as it is
	if action, content, ok, err := modebox.AskForm(askCtx, "The MCP server "+server+" asks: "+message, schema); ok {
		if err != nil {
			return "cancel", nil, nil
		}
		return action, content, nil
	}
	// otherwise approve or deny: approving sends the form's defaults, and
	// a form with required fields that have no default is declined
	if !defaultsComplete(schema) {
		return "decline", nil, nil
	}
	d, err := modebox.Ask(askCtx, modebox.ApprovalRequest{
		Tool:   server + " (asks for input)",
		Reason: "the MCP server " + server + " asks: " + message + " (approving sends the form's default values)",
		Args:   schema,
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
