package mcpclient

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// convertTool turns an SDK tool into a [Tool] of server.
func convertTool(server string, t *mcp.Tool) Tool {
	tool := Tool{
		Server:       server,
		Name:         t.Name,
		Description:  t.Description,
		InputSchema:  rawJSON(t.InputSchema),
		OutputSchema: rawJSON(t.OutputSchema),
	}
	if tool.InputSchema == nil {
		tool.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	if t.Annotations != nil {
		tool.Annotations = rawJSON(t.Annotations)
	}
	return tool
}

// rawJSON marshals v, or returns nil for nil or a value that does not
// marshal.
func rawJSON(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return nil
	}
	return b
}

// sortTools sorts tools by server, then name.
func sortTools(tools []Tool) {
	sort.Slice(tools, func(i, j int) bool {
		if tools[i].Server != tools[j].Server {
			return tools[i].Server < tools[j].Server
		}
		return tools[i].Name < tools[j].Name
	})
}

// relist lists the tools of the live session again and keeps them. It does
// nothing while the server is down.
func (s *server) relist(ctx context.Context) error {
	s.mu.Lock()
	c := s.live
	s.mu.Unlock()
	if c == nil || c.isDone() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.m.startTimeout)
	defer cancel()
	tools, err := s.list(ctx, c.session)
	if err != nil {
		return &ServerError{Server: s.name, Reason: "could not list its tools", Err: err}
	}
	s.mu.Lock()
	if s.live == c {
		s.tools = tools
	}
	s.mu.Unlock()
	return nil
}

// toolsChanged handles notifications/tools/list_changed: the tools are
// listed again at once, in the background. Notifications arriving during a
// re-list cause one more; one arriving before the session is live causes a
// re-list as soon as it is.
func (s *server) toolsChanged() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.toolsChangedLocked()
}

// toolsChangedLocked is toolsChanged with s.mu held.
func (s *server) toolsChangedLocked() {
	if s.closed {
		return
	}
	if s.live == nil {
		s.relistOnLive = true
		return
	}
	if s.relisting {
		s.relistAgain = true
		return
	}
	s.relisting = true
	go func() {
		for {
			_ = s.relist(s.m.base)
			s.mu.Lock()
			if !s.relistAgain || s.closed {
				s.relisting = false
				s.mu.Unlock()
				return
			}
			s.relistAgain = false
			s.mu.Unlock()
		}
	}()
}
