//lint:file-ignore SA1019 the conformance suite exercises deprecated MCP features (logging, sampling) on purpose

package conformance

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestConformanceServer serves modebox's MCP server, plus the suite's
// fixture tools, over Streamable HTTP at $MODEBOX_CONFORMANCE_SERVE
// (host:port) until interrupted. Without that variable it skips.
//
//	MODEBOX_CONFORMANCE_SERVE=127.0.0.1:3001 go test ./internal/conformance -run TestConformanceServer -v -timeout 0
func TestConformanceServer(t *testing.T) {
	addr := os.Getenv("MODEBOX_CONFORMANCE_SERVE")
	if addr == "" {
		t.Skip("MODEBOX_CONFORMANCE_SERVE not set (scripts/conformance.sh sets it)")
	}
	srv := newFixtureServer(t)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	// The suite sends no token: this fixture serves loopback only, for the
	// length of the suite.
	h, err := srv.HTTPHandler(mcpserver.HTTPOptions{NoAuth: true, Path: "/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	fmt.Printf("conformance server: http://%s/mcp\n", ln.Addr())
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		t.Fatal(err)
	}
}

// TestFixtureServer checks that the fixtures build and that modebox's own
// tools are still there, so the fixture program cannot rot unnoticed.
func TestFixtureServer(t *testing.T) {
	srv := newFixtureServer(t)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tl := range res.Tools {
		names[tl.Name] = true
	}
	for _, want := range []string{"run", "test_simple_text", "test_elicitation"} {
		if !names[want] {
			t.Errorf("tools/list lacks %q: %v", want, names)
		}
	}
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "test_simple_text", Arguments: map[string]any{}})
	if err != nil || r.IsError || len(r.Content) != 1 {
		t.Fatalf("test_simple_text: %v %+v", err, r)
	}
}

// newFixtureServer is modebox's server (one harmless tool) with the
// conformance fixture tools added to its SDK server.
func newFixtureServer(t *testing.T) *mcpserver.Server {
	t.Helper()
	type echoIn struct {
		Text string `json:"text"`
	}
	echo := modebox.MustTool("echo", "Returns its text.", func(_ context.Context, in echoIn) (string, error) {
		return in.Text, nil
	})
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{echo}})
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpserver.New(eng, mcpserver.Options{})
	addFixtures(srv.MCPServer())
	addStatelessFixtures(srv.MCPServer())
	return srv
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

type noArgs struct{}

func addFixtures(s *mcp.Server) {
	tool := func(name, desc string, h mcp.ToolHandlerFor[noArgs, any]) {
		mcp.AddTool(s, &mcp.Tool{Name: name, Description: desc}, h)
	}
	tool("test_simple_text", "Returns simple text.", func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
		return text("This is a simple text response for testing."), nil, nil
	})
	tool("test_image_content", "Returns an image.", func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: pngData(), MIMEType: "image/png"}}}, nil, nil
	})
	tool("test_audio_content", "Returns audio.", func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{Data: wavData(), MIMEType: "audio/wav"}}}, nil, nil
	})
	tool("test_embedded_resource", "Returns an embedded resource.", func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
			URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content.",
		}}}}, nil, nil
	})
	tool("test_multiple_content_types", "Returns text, image and resource.", func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "Multiple content types test:"},
			&mcp.ImageContent{Data: pngData(), MIMEType: "image/png"},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`,
			}},
		}}, nil, nil
	})
	tool("test_tool_with_logging", "Logs three messages.", func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		for _, m := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: m})
			time.Sleep(50 * time.Millisecond)
		}
		return text("Tool with logging executed successfully"), nil, nil
	})
	tool("test_tool_with_progress", "Reports progress.", func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		tok := req.Params.GetProgressToken()
		for _, p := range []float64{0, 50, 100} {
			if tok != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: p, Total: 100})
			}
			time.Sleep(50 * time.Millisecond)
		}
		return text(fmt.Sprint(tok)), nil, nil
	})
	tool("test_error_handling", "Always fails.", func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.New("This tool intentionally returns an error for testing")
	})
	type msgIn struct {
		Message string `json:"message,omitempty"`
	}
	elicit := func(ctx context.Context, req *mcp.CallToolRequest, msg string, schema any) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: msg, RequestedSchema: schema})
		if err != nil {
			return nil, nil, fmt.Errorf("elicitation failed: %w", err)
		}
		b, _ := json.Marshal(res.Content)
		return text(fmt.Sprintf("User response: action=%s, content=%s", res.Action, b)), nil, nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "test_elicitation", Description: "Asks the user."},
		func(ctx context.Context, req *mcp.CallToolRequest, in msgIn) (*mcp.CallToolResult, any, error) {
			return elicit(ctx, req, in.Message, map[string]any{
				"type":       "object",
				"properties": map[string]any{"username": map[string]any{"type": "string", "description": "User's response"}, "email": map[string]any{"type": "string", "description": "User's email address"}},
				"required":   []string{"username", "email"},
			})
		})
	tool("test_elicitation_sep1034_defaults", "Elicitation with defaults (SEP-1034).", func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		return elicit(ctx, req, "Test defaults for primitives", map[string]any{
			"type": "object",
			"properties": map[string]any{
				"name":     map[string]any{"type": "string", "description": "User name", "default": "John Doe"},
				"age":      map[string]any{"type": "integer", "description": "User age", "default": 30},
				"score":    map[string]any{"type": "number", "description": "User score", "default": 95.5},
				"status":   map[string]any{"type": "string", "description": "User status", "enum": []string{"active", "inactive", "pending"}, "default": "active"},
				"verified": map[string]any{"type": "boolean", "description": "Verification status", "default": true},
			},
		})
	})
	tool("test_elicitation_sep1330_enums", "Elicitation with enums (SEP-1330).", func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		titled := []map[string]any{{"const": "value1", "title": "First Option"}, {"const": "value2", "title": "Second Option"}, {"const": "value3", "title": "Third Option"}}
		plain := []string{"option1", "option2", "option3"}
		return elicit(ctx, req, "Test enum schemas", map[string]any{
			"type": "object",
			"properties": map[string]any{
				"untitledSingle": map[string]any{"type": "string", "enum": plain},
				"titledSingle":   map[string]any{"type": "string", "oneOf": titled},
				"legacyEnum":     map[string]any{"type": "string", "enum": []string{"opt1", "opt2", "opt3"}, "enumNames": []string{"Option One", "Option Two", "Option Three"}},
				"untitledMulti":  map[string]any{"type": "array", "minItems": 1, "maxItems": 3, "items": map[string]any{"type": "string", "enum": plain}},
				"titledMulti":    map[string]any{"type": "array", "minItems": 1, "maxItems": 3, "items": map[string]any{"anyOf": titled}},
			},
		})
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "json_schema_2020_12_tool",
		Description: "Tool whose input schema uses JSON Schema 2020-12 features.",
		InputSchema: json.RawMessage(schema202012),
	}, func(_ context.Context, _ *mcp.CallToolRequest, in json.RawMessage) (*mcp.CallToolResult, any, error) {
		return text("JSON Schema 2020-12 tool called with: " + string(in)), nil, nil
	})
	tool("test_reconnection", "Closes the SSE stream mid-call (SEP-1699).", func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		if req.Extra != nil && req.Extra.CloseSSEStream != nil {
			req.Extra.CloseSSEStream(mcp.CloseSSEStreamArgs{RetryAfter: 10 * time.Millisecond})
		}
		time.Sleep(100 * time.Millisecond)
		return text("Reconnection test completed successfully."), nil, nil
	})
}

const schema202012 = `{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"type": "object",
	"$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
	"properties": {
		"name": {"type": "string"},
		"address": {"$ref": "#/$defs/address"},
		"contactMethod": {"type": "string", "enum": ["phone", "email"]},
		"phone": {"type": "string"},
		"email": {"type": "string"}
	},
	"allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
	"if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
	"then": {"required": ["phone"]},
	"else": {"required": ["email"]},
	"additionalProperties": false
}`

// pngData is a 1x1 red PNG.
func pngData() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// wavData is a short silent 8 kHz mono 8-bit WAV.
func wavData() []byte {
	const n = 800
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	w(uint32(36 + n))
	b.WriteString("WAVEfmt ")
	w(uint32(16))
	w(uint16(1))    // PCM
	w(uint16(1))    // mono
	w(uint32(8000)) // sample rate
	w(uint32(8000)) // byte rate
	w(uint16(1))    // block align
	w(uint16(8))    // bits per sample
	b.WriteString("data")
	w(uint32(n))
	b.Write(bytes.Repeat([]byte{128}, n))
	return b.Bytes()
}
