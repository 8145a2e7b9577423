package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modebox/modebox/internal/schema"
)

// convertTool turns an SDK tool into a [Tool] of server.
func convertTool(server string, t *mcp.Tool) Tool {
	tool := Tool{
		Server:       server,
		Name:         t.Name,
		Description:  truncate(t.Description, MaxDescriptionLength),
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

// Limits on what a server lists. A tool beyond them is skipped (and
// reported by [Manager.Skipped]); the server's other tools are kept.
const (
	// MaxTools is the most tools one server may list.
	MaxTools = 1000
	// MaxToolNameLength is the longest tool name, in bytes (the MCP
	// specification asks for at most 128 characters).
	MaxToolNameLength = 128
	// MaxDescriptionLength is the longest description kept, in bytes; a
	// longer one is cut (and marked with "…").
	MaxDescriptionLength = 8 << 10
	// MaxToolSchemaSize is the largest input or output schema, in bytes.
	MaxToolSchemaSize = 1 << 20
)

// toolProblem says why t cannot be offered, or returns "".
func toolProblem(t Tool) string {
	switch {
	case t.Name == "":
		return "it has no name"
	case len(t.Name) > MaxToolNameLength:
		return fmt.Sprintf("its name is %d bytes long (at most %d)", len(t.Name), MaxToolNameLength)
	case !utf8.ValidString(t.Name):
		return "its name is not valid UTF-8"
	case len(t.InputSchema) > MaxToolSchemaSize:
		return fmt.Sprintf("its input schema is %d bytes (at most %d)", len(t.InputSchema), MaxToolSchemaSize)
	case len(t.OutputSchema) > MaxToolSchemaSize:
		return fmt.Sprintf("its output schema is %d bytes (at most %d)", len(t.OutputSchema), MaxToolSchemaSize)
	}
	return ""
}

// truncate cuts s to at most n bytes (at a rune boundary), marking a cut
// with "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
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
	ctx, cancel := context.WithTimeout(ctx, s.startTimeout())
	defer cancel()
	tools, skipped, err := s.list(ctx, c.session)
	if err != nil {
		return &ServerError{Server: s.name, Reason: "could not list its tools", Err: err}
	}
	s.mu.Lock()
	if s.live == c {
		s.tools, s.skipped = tools, skipped
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

// compiledOutput is a tool's output schema as listed and what compiling
// it gave.
type compiledOutput struct {
	raw string
	v   *schema.Validator
	err error
}

// compileOutputs compiles the output schema of each of tools (a new
// listing of s) into its Output, with the limits of input schemas
// ([schema.Compile]). A schema that does not compile, or is over the
// limits, is dropped: the tool has no output type, its results are not
// checked, and OutputErr says why. A schema a tool of the same name had
// in the previous listing is not compiled again.
func (s *server) compileOutputs(tools []Tool) {
	s.mu.Lock()
	prev := s.outputs
	s.mu.Unlock()
	next := make(map[string]compiledOutput)
	for i := range tools {
		t := &tools[i]
		if t.OutputSchema == nil {
			continue
		}
		c, ok := prev[t.Name]
		if !ok || c.raw != string(t.OutputSchema) {
			c = compiledOutput{raw: string(t.OutputSchema)}
			c.v, c.err = schema.Compile(t.OutputSchema)
		}
		next[t.Name] = c
		if c.err != nil {
			t.OutputSchema, t.OutputErr = nil, c.err
			continue
		}
		t.Output = c.v
	}
	s.mu.Lock()
	s.outputs = next
	s.mu.Unlock()
}
