package modebox

import (
	"context"
	"encoding/json"

	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/schema"
)

// Handler runs a tool. args is the call's JSON, already validated against
// the tool's input schema. The returned value is marshalled to JSON; return
// a json.RawMessage to pass JSON through as is.
type Handler func(ctx context.Context, args json.RawMessage) (any, error)

// Policy says whether a tool may run: allow (the default), ask (a person
// must approve each call) or deny (every call is refused before it runs).
type Policy = policy.Policy

// Policies.
const (
	PolicyAllow = policy.Allow
	PolicyAsk   = policy.Ask
	PolicyDeny  = policy.Deny
)

// Tool is a function the guest can call as tools.<namespace>.<name>(args),
// or tools.<name>(args) when it has no namespace.
type Tool struct {
	// Namespace groups tools (an MCP server's name, say). It is mapped to a
	// JS identifier by MapName. "" puts the tool directly under tools.
	Namespace string
	// Name is the tool's name at its source; any string ("get-sum",
	// "create_issue", "files.read"). The guest calls it by MapName(Name),
	// and by Name itself as a property when they differ.
	Name string
	// Description is shown to the model.
	Description string
	// InputSchema is the JSON Schema of the argument; nil accepts anything.
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of the result; nil means unknown.
	OutputSchema json.RawMessage
	// Handler runs the tool.
	Handler Handler
	// Policy is allow ("" means allow), ask or deny.
	Policy Policy
	// Source marks a tool whose results may carry data to protect, and
	// Sink one that can send data out of the trust boundary (data flow).
	Source, Sink bool
}

// NewTool makes a Tool from a typed Go function. The input and output
// schemas are inferred from In and Out (json tags name fields, omitempty
// makes them optional, a `jsonschema:"..."` tag is the description, and
// unknown properties are refused).
func NewTool[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error)) (Tool, error) {
	in, err := schema.For[In]()
	if err != nil {
		return Tool{}, &ConfigError{Field: "tool " + name, Reason: "cannot infer the input schema", Err: err}
	}
	out, err := schema.For[Out]()
	if err != nil {
		return Tool{}, &ConfigError{Field: "tool " + name, Reason: "cannot infer the output schema", Err: err}
	}
	return Tool{
		Name:         name,
		Description:  description,
		InputSchema:  in,
		OutputSchema: out,
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			var v In
			if len(args) > 0 && string(args) != "null" {
				if err := json.Unmarshal(args, &v); err != nil {
					return nil, &ToolError{Code: CodeInvalidArgument, Message: "invalid argument: " + err.Error(), Err: err}
				}
			}
			return fn(ctx, v)
		},
	}, nil
}

// MustTool is NewTool that panics on error, for package-level tool tables.
func MustTool[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error)) Tool {
	t, err := NewTool(name, description, fn)
	if err != nil {
		panic(err)
	}
	return t
}

// call runs the tool's handler and turns its result into JSON.
func (t *entry) call(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	v, err := t.Handler(ctx, args)
	if err != nil {
		return nil, err
	}
	if raw, ok := v.(json.RawMessage); ok {
		if len(raw) > 0 && !json.Valid(raw) {
			return nil, &ToolError{Code: CodeToolError, Message: "the tool returned invalid JSON"}
		}
		return raw, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &ToolError{Code: CodeToolError, Message: "the tool's result is not JSON: " + err.Error(), Err: err}
	}
	return b, nil
}

// CheckSchema reports whether raw is a JSON Schema that tools can use as
// InputSchema (nil is fine: it accepts anything).
func CheckSchema(raw json.RawMessage) error {
	_, err := schema.Compile(raw)
	return err
}
