// Package builtin is the shape of a built-in capability (sh, fetch, fs):
// the global functions it adds, each with its input schema, handler, and
// the hooks the run's gate calls, plus the TypeScript declarations, the
// per-run state and what the engine releases on Close. Each built-in is one
// folder under internal/builtin: a package that returns a *Capability and
// the global's JavaScript (prelude.js, which internal/guest assembles into
// the engine's prelude). The toolbox and the run know built-ins only
// through this type; internal/builtin/all lists them, so adding one is a
// new folder and its line (and configuration field) there.
package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/schema"
)

// Capability is one built-in: a global function (sh, fetch) or a global
// object of functions (fs).
type Capability struct {
	// Name is the global the prelude installs ("sh", "fetch", "fs").
	Name string
	// Decl declares the global in TypeScript (added to the toolbox's
	// declarations while one of Funcs is not denied).
	Decl string
	// Funcs are the host calls the global makes, each a toolbox entry with
	// its own key ("sh", "fs.read").
	Funcs []*Func
	// NewRun makes one run's state (a fetch session, an fs session with
	// staged writes); nil when the capability keeps none. The state is
	// passed to the handlers and the replay hooks as Call.State.
	NewRun func() Run
	// Close releases what the capability holds (a proxy, open directories).
	Close func() error
}

// Run is a capability's state for one run.
type Run interface {
	// Finish ends the run: ok reports whether it ended well (staged
	// writes commit then, and are dropped otherwise). It returns what
	// the run's file writes did, or nil.
	Finish(ok bool) *Files
}

// Files is what a run's staged file writes did when it ended.
type Files struct {
	// Committed are the guest paths written or removed.
	Committed []string
	// Conflicts are changes not applied because the file changed since.
	Conflicts []Conflict
}

// Conflict is a staged change that was not applied.
type Conflict struct{ Path, Reason string }

// Func is one host call of a built-in.
type Func struct {
	// Key is the call's toolbox key: "sh", "fetch", "fs.read".
	Key string
	// Namespace is the global object for methods ("fs"), "" for a global
	// function.
	Namespace string
	// Description is shown to the model.
	Description string
	// Schema is the JSON Schema of the argument object the prelude sends.
	Schema json.RawMessage
	// Policy is the default policy (a "tools" rule may override it).
	Policy policy.Policy
	// Source and Sink are the default data-flow marks.
	Source, Sink bool
	// Handler runs a call whose arguments passed the schema.
	Handler func(ctx context.Context, c Call, args json.RawMessage) (any, error)
	// Gate, when set, looks at a call's arguments on the run's driver,
	// before anything runs (fetch's allowlist, fs's source mounts).
	Gate func(args json.RawMessage) Gate
	// Replay, when set, runs for a call served from the journal on resume,
	// to rebuild the run's state (fs re-stages writes).
	Replay func(state Run, c engine.Call) error

	// Input is Schema compiled (set by Compile).
	Input *schema.Validator
}

// Call is what a handler knows about its call.
type Call struct {
	// ID is the program's call number.
	ID int
	// Approved is true when a person (or a resume decision) approved this
	// very call.
	Approved bool
	// State is the capability's state for this run (Capability.NewRun),
	// nil when it keeps none.
	State Run
	// MaxValue is the run's limit on the result's size in bytes of JSON
	// (0: none known). A result of more raw bytes cannot be returned, so
	// a built-in may refuse it before reading it all.
	MaxValue int
}

// Gate is what a built-in's gate hook says about one call.
type Gate struct {
	// Reject refuses the call before it runs.
	Reject *errs.Tool
	// Reason, when set, means the call needs approval.
	Reason string
	// ApprovalKey is what "approve for the rest of the run" approves
	// (default: the call's key).
	ApprovalKey string
	// Source marks this call as a data-flow source; SourceName names it in
	// approval reasons (default: the call's label).
	Source     bool
	SourceName string
}

// Label names a built-in call in messages: "sh()", "fs.read()".
func (f *Func) Label() string { return f.Key + "()" }

// Compile compiles every Func's schema. A built-in's schema is part of the
// program, so a bad one is a bug: Compile panics.
func (c *Capability) Compile() *Capability {
	for _, f := range c.Funcs {
		v, err := schema.Compile(f.Schema)
		if err != nil {
			panic(fmt.Sprintf("modebox: built-in %s has a bad schema: %v", f.Key, err))
		}
		f.Input = v
	}
	return c
}

// ToolError keeps an error's stable code for the program: a coded error
// keeps its code (and message), anything else is TOOL_ERROR, with prefix
// before the message.
func ToolError(prefix string, err error) *errs.Tool {
	var te *errs.Tool
	if errors.As(err, &te) {
		return te
	}
	code := errs.CodeOf(err)
	if code == "" {
		code = codes.ToolError
	}
	return &errs.Tool{Code: code, Message: prefix + err.Error(), Err: err}
}

// DecodeArgs decodes a call's arguments (which passed the schema) into v.
// An error is INVALID_ARGUMENT, its message prefixed with label
// ("fetch()", "fs.read()").
func DecodeArgs(label string, raw json.RawMessage, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return &errs.Tool{Code: codes.InvalidArgument, Message: label + ": " + err.Error(), Err: err}
	}
	return nil
}

// StateOf returns the call's run state (Capability.NewRun's) as S. A call
// without it is a bug in modebox, reported as TOOL_ERROR "<name>: no
// session".
func StateOf[S any](name string, c Call) (S, error) {
	s, ok := c.State.(S)
	if !ok {
		return s, &errs.Tool{Code: codes.ToolError, Message: name + ": no session"}
	}
	return s, nil
}
