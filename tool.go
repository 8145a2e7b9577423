package modebox

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/modebox/modebox/internal/schema"
)

// Handler runs a tool. args is the call's JSON, already validated against
// the tool's input schema. The returned value is marshalled to JSON; return
// a json.RawMessage to pass JSON through as is.
type Handler func(ctx context.Context, args json.RawMessage) (any, error)

// Tool is a function the guest can call as tools.<name>(args).
type Tool struct {
	// Name is a JS identifier, optionally with one namespace: "add" is
	// tools.add, "math.add" is tools.math.add.
	Name string
	// Description is shown to the model.
	Description string
	// InputSchema is the JSON Schema of the argument; nil accepts anything.
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of the result; nil means unknown.
	OutputSchema json.RawMessage
	// Handler runs the tool.
	Handler Handler
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

var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// registered is a tool ready to be called.
type registered struct {
	Tool
	path  []string
	input *schema.Validator
}

func compileTools(tools []Tool) (map[string]*registered, []byte, error) {
	byName := make(map[string]*registered, len(tools))
	type entry struct {
		Key  string   `json:"key"`
		Path []string `json:"path"`
	}
	setup := struct {
		Tools []entry `json:"tools"`
	}{Tools: []entry{}}
	for i, t := range tools {
		field := fmt.Sprintf("Tools[%d]", i)
		if t.Handler == nil {
			return nil, nil, &ConfigError{Field: field, Reason: fmt.Sprintf("tool %q has no handler", t.Name)}
		}
		path := strings.Split(t.Name, ".")
		if len(path) > 2 {
			return nil, nil, &ConfigError{Field: field, Reason: fmt.Sprintf("tool name %q has more than one namespace", t.Name)}
		}
		for _, p := range path {
			if !identRE.MatchString(p) {
				return nil, nil, &ConfigError{Field: field, Reason: fmt.Sprintf("tool name %q is not a JS identifier (or ns.identifier)", t.Name)}
			}
		}
		if _, dup := byName[t.Name]; dup {
			return nil, nil, &ConfigError{Field: field, Reason: fmt.Sprintf("tool %q is registered twice", t.Name)}
		}
		v, err := schema.Compile(t.InputSchema)
		if err != nil {
			return nil, nil, &ConfigError{Field: field, Reason: fmt.Sprintf("tool %q has an invalid input schema", t.Name), Err: err}
		}
		byName[t.Name] = &registered{Tool: t, path: path, input: v}
		setup.Tools = append(setup.Tools, entry{Key: t.Name, Path: path})
	}
	for name, r := range byName {
		if len(r.path) == 2 {
			if other, ok := byName[r.path[0]]; ok {
				return nil, nil, &ConfigError{Field: "Tools", Reason: fmt.Sprintf("tool %q clashes with namespace of %q", other.Name, name)}
			}
		}
	}
	b, err := json.Marshal(setup)
	return byName, b, err
}

// host answers the guest's calls with the registered tools.
type host struct {
	tools map[string]*registered
}

func (h *host) Call(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	t := h.tools[name]
	if t == nil {
		return nil, &ToolError{Code: CodeToolNotFound, Message: "no tool named " + name}
	}
	if err := t.input.ValidateJSON(args); err != nil {
		return nil, &ToolError{Code: CodeInvalidArgument, Message: "tools." + name + ": " + err.Error(), Err: err}
	}
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
