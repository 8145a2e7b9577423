package modebox

import (
	"context"
	"encoding/json"

	"github.com/modebox/modebox/internal/runner"
)

// Decision answers an approval request: Deny, Approve or ApproveTool.
type Decision = runner.Decision

// Decisions.
const (
	// Deny refuses the call: the program's promise rejects with
	// APPROVAL_DENIED, which it can catch; the run goes on.
	Deny = runner.Deny
	// Approve lets this one call run.
	Approve = runner.Approve
	// ApproveTool lets this call and every later call of the same tool in
	// this run run without asking.
	ApproveTool = runner.ApproveTool
)

// ApprovalRequest is a call that stopped before its tool ran: its CallID
// (the program's call number), its Tool key (tools.<Tool>), its Args
// (validated against the tool's input schema, but from the program:
// untrusted), the Reason approval is needed (the tool's "ask" policy, or a
// data flow naming the source), and Once for a question that cannot be
// approved for the rest of the run (a downstream server's elicitation,
// asked through [Ask]).
type ApprovalRequest = runner.ApprovalRequest

// Approver answers approval requests. Approve may block (a terminal
// prompt); ctx ends with the run. An error counts as Deny.
type Approver = runner.Approver

// ApproverFunc adapts a function to Approver.
type ApproverFunc = runner.ApproverFunc

// FormAsker is an Approver that can also put a form to the person (an MCP
// client's elicitation). AskForm returns the person's action ("accept",
// "decline" or "cancel") and, on accept, the form's content.
type FormAsker = runner.FormAsker

// ApprovalTimeoutError is the error of a wait for an approver that ran
// past EngineConfig.ApprovalTimeout; Wait is how long it waited.
type ApprovalTimeoutError = runner.ApprovalTimeoutError

// DefaultApprovalTimeout is how long a call waits for an approver's
// answer when EngineConfig.ApprovalTimeout is not set.
const DefaultApprovalTimeout = runner.DefaultApprovalTimeout

// ErrNoApprover is Ask's error when the run has no approver.
var ErrNoApprover = runner.ErrNoApprover

// Ask puts a question to the approver of the run that ctx (a tool
// handler's context) belongs to, with the run's clock held and the wait
// bounded by EngineConfig.ApprovalTimeout. Tools use it to route a
// person-facing question (for example a downstream MCP server's
// elicitation) to the same person who approves calls. Without an approver
// it returns Deny and ErrNoApprover.
func Ask(ctx context.Context, req ApprovalRequest) (Decision, error) { return runner.Ask(ctx, req) }

// AskForm puts a form to the person who approves the run that ctx (a tool
// handler's context) belongs to, with the run's clock held, when its
// approver can show forms; ok is false when it cannot.
func AskForm(ctx context.Context, message string, schema json.RawMessage) (action string, content map[string]any, ok bool, err error) {
	return runner.AskForm(ctx, message, schema)
}
