package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

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

// elicit forwards a form elicitation to the Elicitor; URL elicitations are
// declined (the Elicitor cannot show a URL).
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.m.base, cancel)() // Close ends the question
	s.elicitationStarted()
	action, content, err := s.m.elicitor(ctx, s.name, p.Message, schema)
	s.elicitationEnded()
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

// elicitationStarted and elicitationEnded bracket a call to the Elicitor.
func (s *server) elicitationStarted() {
	s.mu.Lock()
	s.eliciting++
	s.mu.Unlock()
}

func (s *server) elicitationEnded() {
	s.mu.Lock()
	s.eliciting--
	s.lastElicit = time.Now()
	s.mu.Unlock()
}
