package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modebox/modebox/internal/engine"
)

// Decision answers an approval request.
type Decision int

// Decisions.
const (
	// Deny refuses the call: the program's promise rejects with
	// APPROVAL_DENIED, which it can catch; the run goes on.
	Deny Decision = iota
	// Approve lets this one call run.
	Approve
	// ApproveTool lets this call and every later call of the same tool in
	// this run run without asking.
	ApproveTool
)

// ApprovalRequest is a call that stopped before its tool ran.
type ApprovalRequest struct {
	// CallID is the program's call number (1, 2, ...).
	CallID int `json:"id"`
	// Tool is the tool's key: tools.<Tool>.
	Tool string `json:"tool"`
	// Args are the call's arguments, already validated against the
	// tool's input schema. They come from the program: untrusted.
	Args json.RawMessage `json:"args"`
	// Reason says why approval is needed: the tool's "ask" policy, or a
	// data flow (a sink called after a source, naming the source).
	Reason string `json:"reason"`
	// Once marks a question that cannot be approved for the rest of the
	// run (a downstream server's elicitation, asked through [Ask]): an
	// approver offers no such answer, and ApproveTool counts as Approve.
	Once bool `json:"once,omitempty"`
}

// Approver answers approval requests. Approve may block (a terminal
// prompt); ctx ends with the run. An error counts as Deny.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) (Decision, error)
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, req ApprovalRequest) (Decision, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req ApprovalRequest) (Decision, error) {
	return f(ctx, req)
}

// DefaultApprovalTimeout is how long a call waits for an approver's
// answer when EngineConfig.ApprovalTimeout is not set.
const DefaultApprovalTimeout = 10 * time.Minute

// errApprovalTimeout is the cause of an approval wait that ran out.
var errApprovalTimeout = errors.New("no answer to the approval request in time")

// ask asks the approver with the run's clock held (a person's thinking
// time is not the program's time), for at most the approval timeout. An
// approver that does not return when its context ends is left behind:
// its late answer is ignored.
func (h *Host) ask(ctx context.Context, req ApprovalRequest) (Decision, error) {
	release := engine.HoldClock(ctx)
	defer release()
	return waitApproval(ctx, h.timeout(), func(ctx context.Context) (Decision, error) {
		return h.approver.Approve(ctx, req)
	})
}

func (h *Host) timeout() time.Duration {
	if h.approvalTimeout > 0 {
		return h.approvalTimeout
	}
	return DefaultApprovalTimeout
}

// waitApproval runs f with a context that ends after d, and returns an
// *ApprovalTimeoutError when d passes first.
func waitApproval[T any](ctx context.Context, d time.Duration, f func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, d, errApprovalTimeout)
	defer cancel()
	type answer struct {
		v   T
		err error
	}
	done := make(chan answer, 1)
	go func() {
		v, err := f(ctx)
		done <- answer{v, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-ctx.Done():
		a.err = ctx.Err()
	}
	if context.Cause(ctx) == errApprovalTimeout && (a.err != nil || ctx.Err() != nil) {
		var zero T
		return zero, &ApprovalTimeoutError{Wait: d}
	}
	return a.v, a.err
}

// ApprovalTimeoutError is the error of a wait for an approver that ran
// past EngineConfig.ApprovalTimeout.
type ApprovalTimeoutError struct {
	Wait time.Duration
}

// Error says how long the call waited and how to wait longer.
func (e *ApprovalTimeoutError) Error() string {
	return fmt.Sprintf("nobody answered the approval request within %s (EngineConfig.ApprovalTimeout; modebox.json limits.approvalTimeout)", e.Wait)
}

type approverKey struct{}

// approvalTimeoutKey carries the engine's approval timeout to Ask and
// AskForm.
type approvalTimeoutKey struct{}

// ErrNoApprover is Ask's error when the run has no approver.
var ErrNoApprover = errors.New("modebox: nothing can approve this now")

// Ask puts a question to the approver of the run that ctx (a tool
// handler's context) belongs to, with the run's clock held and the wait
// bounded by EngineConfig.ApprovalTimeout. Tools use it to route a person-facing
// question (for example a downstream MCP server's elicitation) to the same
// person who approves calls. Without an approver it returns Deny and
// ErrNoApprover.
func Ask(ctx context.Context, req ApprovalRequest) (Decision, error) {
	a, _ := ctx.Value(approverKey{}).(Approver)
	if a == nil {
		return Deny, ErrNoApprover
	}
	to, _ := ctx.Value(approvalTimeoutKey{}).(time.Duration)
	h := &Host{approver: a, approvalTimeout: to}
	return h.ask(ctx, req)
}

// FormAsker is an Approver that can also put a form to the person (an MCP
// client's elicitation). AskForm returns the person's action ("accept",
// "decline" or "cancel") and, on accept, the form's content.
type FormAsker interface {
	AskForm(ctx context.Context, message string, schema json.RawMessage) (action string, content map[string]any, err error)
}

// AskForm puts a form to the person who approves the run that ctx (a tool
// handler's context) belongs to, with the run's clock held, when its
// approver can show forms; ok is false when it cannot.
func AskForm(ctx context.Context, message string, schema json.RawMessage) (action string, content map[string]any, ok bool, err error) {
	fa, _ := ctx.Value(approverKey{}).(FormAsker)
	if fa == nil {
		return "", nil, false, nil
	}
	release := engine.HoldClock(ctx)
	defer release()
	to, _ := ctx.Value(approvalTimeoutKey{}).(time.Duration)
	if to <= 0 {
		to = DefaultApprovalTimeout
	}
	type form struct {
		action  string
		content map[string]any
	}
	f, err := waitApproval(ctx, to, func(ctx context.Context) (form, error) {
		a, c, err := fa.AskForm(ctx, message, schema)
		return form{a, c}, err
	})
	if err != nil && f.action == "" {
		f.action = "cancel"
	}
	return f.action, f.content, true, err
}
