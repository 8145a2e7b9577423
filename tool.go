package modebox

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/modebox/modebox/internal/jsonstruct"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/schema"
	"github.com/modebox/modebox/internal/toolbox"
)

// Handler runs a tool. args is the call's JSON, already validated against
// the tool's input schema. The returned value is marshalled to JSON; return
// a json.RawMessage to pass JSON through as is.
type Handler = toolbox.Handler

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
// or tools.<name>(args) when it has no namespace. Its fields: Namespace
// (an MCP server's name, say; mapped by MapName, "" puts the tool directly
// under tools), Name (any string; the guest calls MapName(Name), and Name
// itself as a property when they differ), Description (shown to the
// model), InputSchema and OutputSchema (JSON Schema; nil accepts anything,
// and means unknown), Handler, Policy ("" is allow) and the data-flow
// marks Source (its results may carry data to protect) and Sink (it can
// send data out).
type Tool = toolbox.Tool

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
	dec := jsonstruct.For(reflect.TypeFor[In]()) // nil: In is not a flat struct
	return Tool{
		Name:         name,
		Description:  description,
		InputSchema:  in,
		OutputSchema: out,
		Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
			var v In
			if len(args) > 0 && string(args) != "null" && (dec == nil || !dec.Decode(args, &v)) {
				v = *new(In) // the decoder declined, maybe halfway
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

// CheckSchema reports whether raw is a JSON Schema that tools can use as
// InputSchema (nil is fine: it accepts anything).
func CheckSchema(raw json.RawMessage) error {
	_, err := schema.Compile(raw)
	return err
}
