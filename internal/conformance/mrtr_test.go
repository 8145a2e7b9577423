//lint:file-ignore SA1019 the conformance suite exercises deprecated MCP features (logging, sampling) on purpose

package conformance

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addStatelessFixtures adds the 2026-07-28 (SEP-2575 stateless, SEP-2322
// input_required) fixture tools. Only elicitation inputs are covered:
// modebox asks clients for approvals, never for sampling or roots.
func addStatelessFixtures(s *mcp.Server) {
	tool := func(name, desc string, h mcp.ToolHandlerFor[noArgs, any]) {
		mcp.AddTool(s, &mcp.Tool{Name: name, Description: desc}, h)
	}
	tool("test_missing_capability", "Needs the sampling client capability (-32021 without it).", func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		if caps := req.ClientCapabilities(); caps != nil && caps.Sampling != nil {
			return text("Client declared the sampling capability."), nil, nil
		}
		data, _ := json.Marshal(mcp.MissingRequiredClientCapabilityData{RequiredCapabilities: &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{}}})
		return nil, nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: "sampling capability required", Data: data}
	})
	tool("test_streaming_elicitation", "Returns a plain result (no independent requests on the stream).", func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
		return text("result only"), nil, nil
	})
	tool("test_logging_tool", "Tries to log; dropped unless the request set a log level.", func(ctx context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "test_logging_tool executed"})
		return text("Log attempted."), nil, nil
	})

	ask := func(key, msg, field, typ string) mcp.InputRequestMap {
		return mcp.InputRequestMap{key: &mcp.ElicitParams{Message: msg, RequestedSchema: map[string]any{
			"type": "object", "properties": map[string]any{field: map[string]any{"type": typ}}, "required": []string{field},
		}}}
	}
	tool("test_input_required_result_elicitation", "Asks for the caller's name (input_required).", func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		if name, _ := accepted(req, "user_name")["name"].(string); name != "" {
			return text("Hello, " + name + "!"), nil, nil
		}
		return &mcp.CallToolResult{InputRequests: ask("user_name", "What is your name?", "name", "string")}, nil, nil
	})
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	// confirm is the request-state and tampered-state fixture: the state
	// is HMAC-sealed, and a retry with a state that fails to open is an
	// invalid-params error.
	confirm := func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		if st := req.Params.RequestState; st != "" {
			if _, ok := unseal(key, st); !ok {
				return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid requestState"}
			}
			if accepted(req, "confirm") != nil {
				return text("state-ok: requestState received and confirmation accepted"), nil, nil
			}
		}
		return &mcp.CallToolResult{InputRequests: ask("confirm", "Please confirm", "ok", "boolean"), RequestState: seal(key, "confirm")}, nil, nil
	}
	tool("test_input_required_result_request_state", "Round-trips a sealed requestState.", confirm)
	tool("test_input_required_result_tampered_state", "Rejects a tampered requestState.", confirm)
	tool("test_input_required_result_multi_round", "Two elicitation rounds, state carried in requestState.", func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		st, ok := unseal(key, req.Params.RequestState)
		switch {
		case req.Params.RequestState == "":
			return &mcp.CallToolResult{InputRequests: ask("step1", "Step 1: What is your name?", "name", "string"), RequestState: seal(key, "round=1")}, nil, nil
		case !ok:
			return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid requestState"}
		case st == "round=1":
			name, _ := accepted(req, "step1")["name"].(string)
			if name == "" {
				name = "unknown"
			}
			return &mcp.CallToolResult{InputRequests: ask("step2", "Step 2: What is your favorite color?", "color", "string"), RequestState: seal(key, "round=2;name="+name)}, nil, nil
		default:
			color, _ := accepted(req, "step2")["color"].(string)
			if color == "" {
				color = "unknown"
			}
			return text(fmt.Sprintf("Multi-round complete: %s likes %s", strings.TrimPrefix(st, "round=2;name="), color)), nil, nil
		}
	})
	tool("test_input_required_result_capabilities", "Asks only for what the client declared (elicitation).", func(_ context.Context, req *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
		if len(req.Params.InputResponses) > 0 {
			return text("Capability-aware input requests fulfilled"), nil, nil
		}
		if caps := req.ClientCapabilities(); caps == nil || caps.Elicitation == nil {
			return text("No declared client capability supports an in-band input request"), nil, nil
		}
		return &mcp.CallToolResult{InputRequests: ask("user_name", "What is your name?", "name", "string")}, nil, nil
	})
}

// accepted is the content of an accepted elicitation answer under key, or nil.
func accepted(req *mcp.CallToolRequest, key string) map[string]any {
	r, ok := req.Params.InputResponses[key].(*mcp.ElicitResult)
	if !ok || r == nil || r.Action != "accept" {
		return nil
	}
	return r.Content
}

func seal(key []byte, s string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(s))
	return base64.RawURLEncoding.EncodeToString([]byte(s)) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func unseal(key []byte, tok string) (string, bool) {
	p, sig, ok := strings.Cut(tok, ".")
	if !ok {
		return "", false
	}
	b, err1 := base64.RawURLEncoding.DecodeString(p)
	got, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil {
		return "", false
	}
	m := hmac.New(sha256.New, key)
	m.Write(b)
	return string(b), hmac.Equal(got, m.Sum(nil))
}
