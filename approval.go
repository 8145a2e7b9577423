package modebox

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/schema"
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

// CodeApprovalDenied: a person (or a resume decision) denied the call.
const CodeApprovalDenied = "APPROVAL_DENIED"

// runHost answers one run's calls: policies, data flow and approvals, then
// the tool. Gate runs on the driver in call order (replayed calls too), so
// the flow state is deterministic; Call runs on workers.
type runHost struct {
	box      *toolbox
	run      *policyRules
	approver Approver
	canPause bool

	// resume: decisions and what each pending call must look like
	decisions map[int]Decision
	expect    map[int]PendingCall

	source string // first source called in this run, as a label (driver only)

	caps     *runCaps // this run's built-in state (fs staging, fetch session)
	slotHeld bool     // the run already holds a run slot (Resume takes it first)

	mu            sync.Mutex
	approved      map[string]bool // tools approved for the rest of the run
	approvedCalls map[int]bool    // calls approved one by one
}

func (h *runHost) approveTool(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.approved == nil {
		h.approved = map[string]bool{}
	}
	h.approved[key] = true
}

func (h *runHost) toolApproved(key string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.approved[key]
}

func (h *runHost) approvedTools() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for k := range h.approved {
		out = append(out, k)
	}
	return out
}

// Gate decides, before anything runs, whether a call runs, is refused,
// needs an approver, or parks until a resume.
func (h *runHost) Gate(c engine.Call, replayed bool) engine.Verdict {
	if c.Tool == searchKey {
		return engine.Verdict{}
	}
	e := h.box.byKey[c.Tool]
	if e == nil {
		return engine.Verdict{RejectCode: CodeToolNotFound, RejectMessage: "no tool named " + c.Tool}
	}
	if replayed && e.replay != nil {
		if err := e.replay(h, c); err != nil {
			return engine.Verdict{Abort: fmt.Sprintf("resume: %s call %d cannot be replayed: %v", e.label(), c.ID, err)}
		}
	}
	var gi gateInfo
	if e.gate != nil {
		gi = e.gate(c.Args)
	}
	pol := stricter(e.Policy, h.run.policyFor(e.key, PolicyAllow))
	if pol == PolicyDeny {
		return engine.Verdict{RejectCode: CodeToolDenied, RejectMessage: e.label() + " is denied by policy; the call was refused"}
	}
	if gi.reject != nil && !replayed {
		return engine.Verdict{RejectCode: gi.reject.Code, RejectMessage: gi.reject.Message}
	}
	reason := ""
	if pol == PolicyAsk {
		reason = `the tool's policy is "ask"`
	}
	if gi.reason != "" {
		if reason != "" {
			reason += "; " + gi.reason
		} else {
			reason = gi.reason
		}
	}
	if e.Sink && h.source != "" {
		flow := fmt.Sprintf("data flow: %s is a sink, and %s (a source) was called earlier in this run", e.label(), h.source)
		if reason != "" {
			reason += "; " + flow
		} else {
			reason = flow
		}
	}
	if (e.Source || gi.source) && h.source == "" {
		h.source = e.label()
	}
	if replayed {
		return engine.Verdict{}
	}
	akey := approvalKey(e, gi)
	if d, ok := h.decisions[c.ID]; ok {
		want := h.expect[c.ID]
		if want.Tool != c.Tool || argsDigest(want.Args) != argsDigest(c.Args) {
			return engine.Verdict{Abort: fmt.Sprintf("resume: call %d was %s when the run paused; the replay called %s with other arguments", c.ID, want.Tool, c.Tool)}
		}
		switch d {
		case Deny:
			return engine.Verdict{RejectCode: CodeApprovalDenied, RejectMessage: e.label() + ": the call was denied"}
		case ApproveTool:
			h.approveTool(akey)
		}
		h.approveCall(c.ID)
		return engine.Verdict{}
	}
	if reason == "" {
		return engine.Verdict{}
	}
	if h.toolApproved(akey) {
		h.approveCall(c.ID)
		return engine.Verdict{}
	}
	switch {
	case h.approver != nil:
		return engine.Verdict{Approval: reason}
	case h.canPause:
		return engine.Verdict{Park: true, Approval: reason}
	}
	return engine.Verdict{RejectCode: CodeApprovalUnavailable, RejectMessage: e.label() + " needs approval (" + reason + ") and nothing can approve it; the call was refused"}
}

// approvalKey is what approving "for the rest of the run" covers.
func approvalKey(e *entry, gi gateInfo) string {
	if gi.approvalKey != "" {
		return gi.approvalKey
	}
	return e.key
}

// Call validates the arguments, asks the approver when the gate said so,
// and runs the tool.
func (h *runHost) Call(ctx context.Context, c engine.Call) (json.RawMessage, error) {
	if c.Tool == searchKey {
		return h.box.searchCall(c.Args)
	}
	e := h.box.byKey[c.Tool]
	if e == nil {
		return nil, &ToolError{Code: CodeToolNotFound, Message: "no tool named " + c.Tool}
	}
	if err := e.input.ValidateJSONContext(ctx, c.Args); err != nil {
		code := CodeInvalidArgument
		var le *schema.LimitError
		if errors.As(err, &le) {
			code = CodeSchemaTooComplex
		}
		return nil, &ToolError{Code: code, Message: e.label() + ": " + err.Error(), Err: err}
	}
	approved := h.callApproved(c.ID)
	if c.Approval != "" {
		var gi gateInfo
		if e.gate != nil {
			gi = e.gate(c.Args)
		}
		akey := approvalKey(e, gi)
		if !h.toolApproved(akey) {
			d, err := h.ask(ctx, ApprovalRequest{CallID: c.ID, Tool: e.key, Args: c.Args, Reason: c.Approval})
			if err != nil || d == Deny {
				msg := e.label() + ": the call was denied"
				if err != nil {
					msg += " (" + err.Error() + ")"
				}
				return nil, &ToolError{Code: CodeApprovalDenied, Message: msg, Err: err}
			}
			if d == ApproveTool {
				h.approveTool(akey)
			}
		}
		approved = true
	}
	if h.approver != nil {
		ctx = context.WithValue(ctx, approverKey{}, h.approver)
	}
	if e.builtin {
		ctx = context.WithValue(ctx, callKey{}, callInfo{host: h, id: c.ID, approved: approved})
	}
	return e.call(ctx, c.Args)
}

// callKey carries a built-in call's run and approval to its handler.
type callKey struct{}

type callInfo struct {
	host     *runHost
	id       int
	approved bool // a person (or a resume decision) approved this call
}

func callFrom(ctx context.Context) callInfo {
	ci, _ := ctx.Value(callKey{}).(callInfo)
	return ci
}

func (h *runHost) approveCall(id int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.approvedCalls == nil {
		h.approvedCalls = map[int]bool{}
	}
	h.approvedCalls[id] = true
}

func (h *runHost) callApproved(id int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.approvedCalls[id]
}

// MaxApprovalWait bounds how long a call waits for an approver; past it
// the call is denied. The run's wall-clock limit does not count this wait.
const MaxApprovalWait = 10 * time.Minute

// ask asks the approver with the run's clock held: a person's thinking
// time is not the program's time.
func (h *runHost) ask(ctx context.Context, req ApprovalRequest) (Decision, error) {
	release := engine.HoldClock(ctx)
	defer release()
	ctx, cancel := context.WithTimeout(ctx, MaxApprovalWait)
	defer cancel()
	return h.approver.Approve(ctx, req)
}

// argsDigest compares arguments: a pending call on resume must be the
// same call as when the run paused.
func argsDigest(args json.RawMessage) [32]byte {
	return sha256.Sum256(args)
}

type approverKey struct{}

// ErrNoApprover is Ask's error when the run has no approver.
var ErrNoApprover = errors.New("modebox: nothing can approve this now")

// Ask puts a question to the approver of the run that ctx (a tool
// handler's context) belongs to, with the run's clock held and the wait
// bounded by MaxApprovalWait. Tools use it to route a person-facing
// question (for example a downstream MCP server's elicitation) to the same
// person who approves calls. Without an approver it returns Deny and
// ErrNoApprover.
func Ask(ctx context.Context, req ApprovalRequest) (Decision, error) {
	a, _ := ctx.Value(approverKey{}).(Approver)
	if a == nil {
		return Deny, ErrNoApprover
	}
	h := &runHost{approver: a}
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
	ctx, cancel := context.WithTimeout(ctx, MaxApprovalWait)
	defer cancel()
	action, content, err = fa.AskForm(ctx, message, schema)
	return action, content, true, err
}
