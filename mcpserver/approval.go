package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/prompt"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Protocol versions that change how approvals work.
const (
	version20260728 = "2026-07-28" // no server-initiated requests: multi round-trip requests
	version20251125 = "2025-11-25" // titled enums in elicitation forms
)

// route is how one request's calls that need approval are approved.
type route int

const (
	// routeElicit: the approver asks with elicitation/create while the run
	// waits (clients up to 2025-11-25 with elicitation).
	routeElicit route = iota
	// routeInput: the run pauses and the result is input_required, with
	// the continuation token as requestState (2026-07-28 clients with
	// elicitation).
	routeInput
	// routePause: the run pauses and the model is told to call approve
	// (Options.ApproveTool, client cannot elicit).
	routePause
	// routeDeny: calls that need approval are denied; the run goes on.
	routeDeny
	// routeURL: the approver asks with URL-mode elicitation whose link is
	// an approval page of the HTTP server (clients up to 2025-11-25 that
	// declared url elicitation, over HTTP).
	routeURL
)

// routeFor picks the route from what the client declared for this request.
func (s *Server) routeFor(req *mcp.CallToolRequest) route {
	if rt, ok := s.pageRoute(req); ok {
		return rt
	}
	if canElicitForm(req.ClientCapabilities()) {
		if req.ProtocolVersion() >= version20260728 {
			return routeInput
		}
		return routeElicit
	}
	if s.opts.ApproveTool {
		return routePause
	}
	return routeDeny
}

// canElicitForm reports whether the client accepts form elicitation. An
// empty elicitation capability means form (before 2025-11-25 there was
// only form).
func canElicitForm(c *mcp.ClientCapabilities) bool {
	if c == nil || c.Elicitation == nil {
		return false
	}
	return c.Elicitation.Form != nil || c.Elicitation.URL == nil
}

// approverFor returns the run's approver for rt: nil lets the run pause.
func (s *Server) approverFor(rt route, req *mcp.CallToolRequest) modebox.Approver {
	switch rt {
	case routeElicit:
		return &elicitApprover{ss: req.Session, titled: req.ProtocolVersion() >= version20251125, turn: make(chan struct{}, 1)}
	case routeDeny:
		return denyApprover
	case routeURL:
		return &urlApprover{s: s, ss: req.Session, base: pageBase(req), turn: make(chan struct{}, 1)}
	}
	return nil
}

// errCannotAsk is why calls are denied for clients that cannot be asked.
var errCannotAsk = errors.New("this MCP client cannot ask its user for approval (no elicitation support), and the server does not offer the approve tool (\"mcp\": {\"approveTool\": true} in modebox.json, or mcpserver.Options.ApproveTool, offers it)")

var denyApprover = modebox.ApproverFunc(func(context.Context, modebox.ApprovalRequest) (modebox.Decision, error) {
	return modebox.Deny, errCannotAsk
})

// Answers of the approval form.
const (
	answerApprove     = "approve"
	answerApproveTool = "approve_tool"
	answerDeny        = "deny"
	decisionField     = "decision"
)

// elicitApprover asks the client's user with elicitation/create, one
// question at a time. It keeps no answers: the run remembers what was
// approved for the rest of it, and how far that reaches (one fetch host,
// not every host; not past a data-flow source read after the approval).
type elicitApprover struct {
	ss     *mcp.ServerSession
	titled bool
	turn   chan struct{} // one question at a time
}

func (a *elicitApprover) Approve(ctx context.Context, r modebox.ApprovalRequest) (modebox.Decision, error) {
	select {
	case a.turn <- struct{}{}:
	case <-ctx.Done():
		return modebox.Deny, ctx.Err()
	}
	defer func() { <-a.turn }()
	if _, fits := formMessage(r); !fits {
		return modebox.Deny, errTooLongToShow
	}
	res, err := a.ss.Elicit(ctx, elicitParams(r, a.titled))
	if err != nil {
		return modebox.Deny, fmt.Errorf("asking the user failed: %w", err)
	}
	d, ok := decisionOf(res)
	if !ok {
		return modebox.Deny, errors.New("the user's answer was not one of the choices")
	}
	if d == modebox.ApproveTool && r.Once {
		d = modebox.Approve // a forwarded question is asked anew each time
	}
	return d, nil
}

// MaxApprovalForm is the longest approval form, in bytes of its message.
// The form shows the whole call (tool, reason, every argument, sanitised);
// a call whose form would be longer is denied without asking (the
// elicitation route), or gets a form that says so and offers only "deny"
// (the input_required route): a person never approves a call they could
// not see all of.
const MaxApprovalForm = 16 << 10

// errTooLongToShow is why a call too long for a form was denied.
var errTooLongToShow = fmt.Errorf("the call is too long to show in an approval form (more than %d bytes), so it was not put to the user", MaxApprovalForm)

// formMessage renders the whole call for a form, and reports whether it
// fits MaxApprovalForm.
func formMessage(r modebox.ApprovalRequest) (string, bool) {
	msg := strings.TrimRight(prompt.Render(prompt.Request{Tool: "tools." + r.Tool, Reason: r.Reason, Args: r.Args}, math.MaxInt32, math.MaxInt32), "\n")
	return msg, len(msg) <= MaxApprovalForm
}

// elicitParams is the approval form for one call: the tool, the reason and
// the whole arguments (untrusted: sanitised by prompt.Render), and a
// choice of approve once, approve the tool for this run (not for a
// question marked Once), or deny. A call too long to show gets a form
// that says so and offers only deny.
func elicitParams(r modebox.ApprovalRequest, titled bool) *mcp.ElicitParams {
	tool := prompt.Sanitize(r.Tool)
	msg, fits := formMessage(r)
	values := []string{answerApprove, answerApproveTool, answerDeny}
	titles := []string{"Approve this call once", "Approve tools." + tool + " for the rest of this run", "Deny"}
	if r.Once { // a question asked anew each time
		values, titles = []string{answerApprove, answerDeny}, []string{"Approve once", "Deny"}
	}
	if !fits {
		msg = fmt.Sprintf("A call of tools.%s needs approval, but it is too long to show here (%d bytes, over the %d a form shows), so it can only be denied.\nReason: %s",
			tool, len(msg), MaxApprovalForm, prompt.Sanitize(r.Reason))
		if len(msg) > MaxApprovalForm {
			msg = strings.ToValidUTF8(msg[:MaxApprovalForm-3], "") + "..."
		}
		values, titles = []string{answerDeny}, []string{"Deny (too long to show)"}
	}
	prop := map[string]any{
		"type":        "string",
		"title":       "Decision",
		"description": "Let this call of tools." + tool + " run?",
	}
	if titled {
		var one []any
		for i, v := range values {
			one = append(one, map[string]any{"const": v, "title": titles[i]})
		}
		prop["oneOf"] = one
	} else {
		prop["enum"] = values
		prop["enumNames"] = titles
	}
	return &mcp.ElicitParams{
		Mode:    "form",
		Message: strings.TrimRight(msg, "\n"),
		RequestedSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{decisionField: prop},
			"required":   []string{decisionField},
		},
	}
}

// decisionOf reads an answer to the approval form. Decline and cancel
// deny; ok is false for an accept without a valid choice.
func decisionOf(res *mcp.ElicitResult) (modebox.Decision, bool) {
	if res == nil {
		return modebox.Deny, false
	}
	switch res.Action {
	case "decline", "cancel":
		return modebox.Deny, true
	case "accept":
	default:
		return modebox.Deny, false
	}
	v, _ := res.Content[decisionField].(string)
	switch v {
	case answerApprove:
		return modebox.Approve, true
	case answerApproveTool:
		return modebox.ApproveTool, true
	case answerDeny:
		return modebox.Deny, true
	}
	return modebox.Deny, false
}

// inputKey names the input request for pending call id.
func inputKey(id int) string { return "call-" + strconv.Itoa(id) }

// inputRequired asks for the pending calls of a paused run in one round
// (2026-07-28 multi round-trip requests). The requestState is the run's
// continuation token: sealed, bound to this engine and tool set, expiring
// and single use.
func (s *Server) inputRequired(res *modebox.Result, in runInput) *mcp.CallToolResult {
	s.asks.put(res.Token, &ask{calls: res.Pending, args: argsDigest(in)})
	reqs := mcp.InputRequestMap{}
	for _, p := range res.Pending {
		reqs[inputKey(p.ID)] = elicitParams(modebox.ApprovalRequest{CallID: p.ID, Tool: p.Tool, Args: p.Args, Reason: p.Reason}, true)
	}
	a := s.asks.get(context.Background(), res.Token)
	if in.req != nil && a != nil {
		a.page, a.base, a.forms = s.addPageRequest(in.req, reqs, res.Pending), pageBase(in.req), canElicitForm(in.req.ClientCapabilities())
	}
	return &mcp.CallToolResult{InputRequests: reqs, RequestState: res.Token}
}

// askInput re-asks for the calls of a pause whose answers were missing
// or not valid.
func askInput(state string, a *ask) *mcp.CallToolResult {
	reqs := mcp.InputRequestMap{}
	for _, p := range a.calls {
		reqs[inputKey(p.ID)] = elicitParams(modebox.ApprovalRequest{CallID: p.ID, Tool: p.Tool, Args: p.Args, Reason: p.Reason}, true)
	}
	if a.page != nil {
		if !a.forms {
			clear(reqs)
		}
		setPageRequest(reqs, a.base, a.page)
	}
	return &mcp.CallToolResult{InputRequests: reqs, RequestState: state}
}

func argsDigest(in runInput) [32]byte {
	lang := in.Lang
	if lang == "" {
		lang = "ts"
	}
	return sha256.Sum256([]byte(lang + "\x00" + in.Code))
}

// retryRun is a 2026-07-28 client's retry of run with the answers to an
// input_required result: the token in requestState resumes the run with
// those decisions. Missing or invalid answers are asked again while the
// pause is known here; otherwise they deny. A retried resume gets the
// first resume's result.
func (s *Server) retryRun(ctx context.Context, req *mcp.CallToolRequest, in runInput) (*mcp.CallToolResult, error) {
	state := req.Params.RequestState
	if isLiveState(state) {
		return s.retryLive(ctx, req, in) // the answer to a forwarded question (forward.go)
	}
	a, err := s.issuedState(ctx, req, state)
	if err != nil {
		return nil, err
	}
	if res, err, ok := s.resumes.wait(ctx, state); ok {
		return s.resumedResult(res, err, routeInput, in)
	}
	if a.args != argsDigest(in) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "requestState belongs to another run call (other code or lang)"}
	}
	byID := map[int]modebox.Decision{}
	for key, resp := range req.Params.InputResponses {
		id, err := strconv.Atoi(strings.TrimPrefix(key, "call-"))
		if err != nil || !strings.HasPrefix(key, "call-") {
			continue
		}
		er, _ := resp.(*mcp.ElicitResult)
		if d, ok := decisionOf(er); ok {
			byID[id] = d
		}
	}
	complete := true
	for _, p := range a.calls {
		if _, ok := byID[p.ID]; !ok {
			complete = false
			continue
		}
		if _, fits := formMessage(modebox.ApprovalRequest{CallID: p.ID, Tool: p.Tool, Args: p.Args, Reason: p.Reason}); !fits {
			byID[p.ID] = modebox.Deny // its form offered only deny
		}
	}
	if d, ok := s.pageDecisions(ctx, req, a, complete); ok {
		byID = d
	} else if !complete {
		return askInput(state, a), nil
	}
	resume := func(ctx context.Context) (*modebox.Result, error) {
		return s.resumes.do(ctx, state, func(ctx context.Context) (*modebox.Result, error) {
			rec := s.runs.start("resume")
			for id, d := range byID {
				s.runs.approved(rec, id, d, s.decidedBy(a), 0)
			}
			ctx = modebox.WithObserver(ctx, s.runs.observer(rec)) // times the calls the resume makes
			res, err := s.eng.Resume(ctx, state, modebox.Decisions{ByID: byID, Default: modebox.Deny})
			s.runs.finish(rec, res, err)
			return res, err
		})
	}
	// a downstream server's question during the resume is forwarded as
	// input_required while it goes on (forward.go)
	return s.runLive(ctx, in, resume, func(res *modebox.Result, err error) (*mcp.CallToolResult, error) {
		return s.resumedResult(res, err, routeInput, in)
	}, false)
}

// resumedResult renders a resume for a retry of run: a token that does
// not open is a protocol error (the client sent a requestState that is
// not ours, or too late).
func (s *Server) resumedResult(res *modebox.Result, err error, rt route, in runInput) (*mcp.CallToolResult, error) {
	if err != nil {
		var te *modebox.TokenError
		if errors.As(err, &te) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "requestState: " + te.Error()}
		}
		return s.failure(modebox.CodeResumeFailed, err.Error()), nil
	}
	return s.runResult(res, rt, in), nil
}

type approveInput struct {
	Token     string `json:"token"`
	Decisions string `json:"decisions"`
}

// handleApprove resumes a paused run with one decision for all its
// pending calls. Later calls that need approval are asked the way this
// request's client allows, or pause the run again.
func (s *Server) handleApprove(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in approveInput
	if err := decodeArgs(req.Params.Arguments, &in); err != nil {
		return s.failure(codeInvalidArgument, "approve: invalid arguments: "+err.Error()), nil
	}
	var d modebox.Decision
	switch in.Decisions {
	case "approve":
		d = modebox.Approve
	case "deny":
		d = modebox.Deny
	default:
		return s.failure(codeInvalidArgument, `approve: "decisions" must be "approve" or "deny"`), nil
	}
	if strings.TrimSpace(in.Token) == "" {
		return s.failure(codeInvalidArgument, `approve: "token" is required: the token of a paused run result`), nil
	}
	rt := s.routeFor(req)
	if rt == routeInput || rt == routeDeny {
		rt = routePause // a tool call cannot become input_required here; let it pause again
	}
	res, err := s.resumes.do(ctx, in.Token, func(ctx context.Context) (*modebox.Result, error) {
		return s.eng.Resume(ctx, in.Token, modebox.Decisions{Default: d, Approver: s.approverFor(rt, req)})
	})
	if err != nil {
		var te *modebox.TokenError
		if errors.As(err, &te) {
			return s.failure(te.Code, "approve: "+te.Message), nil
		}
		return s.failure(modebox.CodeResumeFailed, "approve: "+err.Error()), nil
	}
	return s.runResult(res, rt, runInput{}), nil
}

// AskForm forwards a form (a downstream server's elicitation) to the
// client's user as it is: the person fills it in.
func (a *elicitApprover) AskForm(ctx context.Context, message string, schema json.RawMessage) (string, map[string]any, error) {
	select {
	case a.turn <- struct{}{}:
	case <-ctx.Done():
		return "cancel", nil, ctx.Err()
	}
	defer func() { <-a.turn }()
	var rs any
	if len(schema) > 0 {
		if err := json.Unmarshal(schema, &rs); err != nil {
			return "decline", nil, err
		}
	}
	res, err := a.ss.Elicit(ctx, &mcp.ElicitParams{Message: prompt.Sanitize(message), RequestedSchema: rs})
	if err != nil {
		return "cancel", nil, err
	}
	return res.Action, res.Content, nil
}
