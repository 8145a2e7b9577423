package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientOptions configures the SDK client: no roots, elicitation only with
// an Elicitor, and a handler for tools/list_changed.
func (s *server) clientOptions() *mcp.ClientOptions {
	opts := &mcp.ClientOptions{
		Capabilities:           &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { s.toolsChanged() },
		// progress of calls made under WithProgress (progress.go)
		ProgressNotificationHandler: s.progress,
	}
	if s.m.elicitor != nil {
		opts.ElicitationHandler = s.elicit
	}
	return opts
}

// MaxElicitationsPerCall is how many elicitations one call may cause;
// later ones are declined without asking.
const MaxElicitationsPerCall = 3

// RelatedRequestKey is the _meta key by which a server may name the
// JSON-RPC id of the tools/call its elicitation belongs to (stdio
// servers; over HTTP, a server names the call by its progress token).
const RelatedRequestKey = "io.modelcontextprotocol/related-request-id"

// elicit forwards a form elicitation to the Elicitor, in the context of
// the call that caused it (see callFor). One that cannot be attributed is
// declined, as are URL elicitations (the Elicitor cannot show a URL) and
// those past MaxElicitationsPerCall.
func (s *server) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	p := req.Params
	if p.Mode == "url" {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	var schema json.RawMessage
	if p.RequestedSchema != nil {
		b, err := json.Marshal(p.RequestedSchema)
		if err != nil {
			return nil, err
		}
		schema = b
	}
	c := s.elicitationStarted(p.Meta)
	if c == nil {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	defer s.elicitationEnded(c)
	// ask with the call's values (its run, its approver), until the call,
	// the server's request or the manager ends
	askCtx, cancel := context.WithCancel(c.ctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	defer context.AfterFunc(s.m.base, cancel)() // Close ends the question
	action, content, err := s.m.elicitor(askCtx, s.name, p.Message, schema)
	if err != nil {
		return nil, err
	}
	switch action {
	case "accept":
		if content == nil {
			content = map[string]any{}
		}
		return &mcp.ElicitResult{Action: action, Content: content}, nil
	case "decline", "cancel":
		return &mcp.ElicitResult{Action: action}, nil
	}
	return nil, fmt.Errorf("mcpclient: elicitor returned invalid action %q", action)
}

// elicitationStarted attributes an elicitation to its call (see callFor)
// and returns it, or returns nil when it cannot be attributed or the call
// has asked too often.
func (s *server) elicitationStarted(meta mcp.Meta) *call {
	var read *stdioConn
	s.mu.Lock()
	if s.live != nil {
		read = s.live.read
	}
	s.mu.Unlock()
	var byID string
	raw, hasID := meta[RelatedRequestKey]
	if hasID && read != nil {
		if id, err := jsonrpc.MakeID(raw); err == nil && id.IsValid() {
			byID, _ = read.callOf(id)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.callFor(meta, hasID && read != nil, byID)
	if c == nil || c.asked >= MaxElicitationsPerCall {
		return nil
	}
	c.asked++
	c.eliciting++
	return c
}

// callFor finds the call an elicitation belongs to, under s.mu. Every
// call sends a progress token of its own; a server names the call by
// putting that token in the elicitation's _meta ("progressToken"), or by
// the call's JSON-RPC id under RelatedRequestKey (byID is the token of
// the call with that id, "" if none; hasID is false where the transport
// keeps no ids, over HTTP, and the id is then not looked at). A request
// that names neither is attributed to the one call in flight to the
// server; with none or several (the question could be for another
// client's call), or when it names a call that is not in flight, it is
// not attributed.
func (s *server) callFor(meta mcp.Meta, hasID bool, byID string) *call {
	_, hasToken := meta["progressToken"]
	if hasToken || hasID {
		token, _ := meta["progressToken"].(string)
		if !hasToken {
			token = byID
		}
		for c := range s.calls {
			if token != "" && c.token == token {
				return c
			}
		}
		return nil
	}
	if len(s.calls) != 1 {
		return nil
	}
	for c := range s.calls {
		return c
	}
	return nil
}

// elicitationEnded ends what elicitationStarted began.
func (s *server) elicitationEnded(c *call) {
	s.mu.Lock()
	c.eliciting--
	c.lastElicit = time.Now()
	s.mu.Unlock()
}
