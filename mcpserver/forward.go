package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/forward"
	"github.com/modebox/modebox/internal/prompt"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Forwarded questions for 2026-07-28 clients.
//
// A client of protocol 2026-07-28 cannot be sent elicitation/create (the
// protocol has no server-initiated requests; a server asks with an
// input_required result, and the client retries the call with the
// answers). A downstream server's question comes while the run is live,
// inside a call that waits for the answer, so it cannot become a
// continuation token: the run goes on in the background, the run request
// is answered with input_required (the question as its one input request,
// a single-use random requestState naming the live run), and the client's
// retry hands the answer to the waiting call and waits again for the run:
// its result, the next question, or its approval pause (then the usual
// input_required of a paused run). Questions are asked one at a time.

// liveStatePrefix begins the requestState of a live run's question.
const liveStatePrefix = "mbx-live-"

// forwardedInputKey names the input request of a forwarded question.
const forwardedInputKey = "forwarded-question"

// liveRuns maps the requestState of each question to its live run, until
// a retry used it or a while after the question ended (liveKeep more
// than the approval timeout).
var liveRuns sync.Map // string -> *liveRun

// liveKeep is how long past the approval timeout a question's state still
// reaches its run: a retry that comes after the question ended (its call
// ended, or it timed out) gets the run's result or its next question.
const liveKeep = time.Minute

// liveRun is a run of a 2026-07-28 client that keeps running across the
// requests of its forwarded questions.
type liveRun struct {
	s      *Server
	args   [32]byte                                                  // argsDigest of the run request: retries must match
	render func(*modebox.Result, error) (*mcp.CallToolResult, error) // the run's end as the request's result
	forms  bool                                                      // the client shows forms (not only links)
	stop   func()                                                    // ends the run when a request waiting for it ends; nil: it goes on

	turn    chan struct{} // one question at a time
	changed chan struct{} // a question or the end (capacity 1)

	mu       sync.Mutex
	question *liveQuestion // the open question, nil if none
	done     bool
	res      *modebox.Result
	err      error
}

// liveQuestion is one forwarded question waiting for its answer.
type liveQuestion struct {
	state   string
	message string
	schema  json.RawMessage
	answer  chan *liveAnswer // capacity 1
}

type liveAnswer struct {
	action  string
	content map[string]any
}

// AskForwarded puts a downstream server's form (already framed as
// forwarded) to the client of the run that ctx (the downstream call's
// context) belongs to, when that run was started by a client of protocol
// 2026-07-28 that shows forms, and this server keeps its state to itself
// (no Options.Shared store: a retry could reach another replica, which
// has no live run); ok is false otherwise. The run's clock is
// held while waiting; the wait ends with "cancel" after the engine's
// approval timeout or when ctx ends. mcpclient's default elicitor asks
// this way first (through internal/forward, which the run's context
// carries, so that mcpclient does not import this package).
func AskForwarded(ctx context.Context, message string, schema json.RawMessage) (action string, content map[string]any, ok bool, err error) {
	return forward.Ask(ctx, message, schema)
}

// ask is the run's forward.Asker: AskForwarded for this live run.
func (lr *liveRun) ask(ctx context.Context, message string, schema json.RawMessage) (action string, content map[string]any, ok bool, err error) {
	if !lr.forms {
		return "", nil, false, nil
	}
	release := engine.HoldClock(ctx)
	defer release()
	timeout := lr.s.eng.ApprovalTimeout()
	if timeout <= 0 {
		timeout = modebox.DefaultApprovalTimeout
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case lr.turn <- struct{}{}:
	case <-ctx.Done():
		return "cancel", nil, true, ctx.Err()
	case <-t.C:
		return "cancel", nil, true, nil
	}
	defer func() { <-lr.turn }()
	q := &liveQuestion{state: newLiveState(), message: prompt.Sanitize(message), schema: schema, answer: make(chan *liveAnswer, 1)}
	liveRuns.Store(q.state, lr)
	// once the question is over (answered, timed out, or its call ended)
	// a retry with its state still gets the run, for a while
	defer time.AfterFunc(timeout+liveKeep, func() { liveRuns.CompareAndDelete(q.state, lr) })
	lr.mu.Lock()
	lr.question = q
	lr.mu.Unlock()
	lr.notify()
	defer func() {
		lr.mu.Lock()
		if lr.question == q {
			lr.question = nil
		}
		lr.mu.Unlock()
	}()
	select {
	case a := <-q.answer:
		return a.action, a.content, true, nil
	case <-ctx.Done():
		return "cancel", nil, true, ctx.Err()
	case <-t.C:
		return "cancel", nil, true, nil
	}
}

func newLiveState() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return liveStatePrefix + hex.EncodeToString(b)
}

// notify wakes the request waiting for the run.
func (lr *liveRun) notify() {
	select {
	case lr.changed <- struct{}{}:
	default:
	}
}

// finish records the run's end.
func (lr *liveRun) finish(res *modebox.Result, err error) {
	lr.mu.Lock()
	lr.done, lr.res, lr.err = true, res, err
	lr.mu.Unlock()
	lr.notify()
}

// runLive starts a run (or resume) of a 2026-07-28 client that can
// elicit, in the background (it outlives the request when it forwards a
// question), and waits for it; render makes its end the result.
// stopWithRequest stops the run when a request waiting for it ends.
func (s *Server) runLive(ctx context.Context, in runInput, run func(context.Context) (*modebox.Result, error),
	render func(*modebox.Result, error) (*mcp.CallToolResult, error), stopWithRequest bool) (*mcp.CallToolResult, error) {
	lr := &liveRun{s: s, args: argsDigest(in), render: render, turn: make(chan struct{}, 1), changed: make(chan struct{}, 1)}
	// replicas share no live runs, and a 2026-07-28 retry may reach any
	// of them: with a shared store, forwarded questions are declined
	if in.req != nil && (s.opts.Shared == nil || s.opts.Shared.Store == nil) {
		lr.forms = canElicitForm(in.req.ClientCapabilities())
	}
	runCtx, cancel := context.WithCancel(forward.With(context.WithoutCancel(ctx), lr.ask))
	if stopWithRequest {
		lr.stop = cancel
	}
	go func() {
		defer cancel()
		res, err := run(runCtx)
		lr.finish(res, err)
	}()
	return s.awaitLive(ctx, lr)
}

// awaitLive waits for the live run's end or its next question. When the
// request ends first (the client cancelled it), a run is stopped, as a
// run without questions is; a resume goes on (its result is kept for a
// retry). An input_required result leaves the run waiting for the answer
// until the approval timeout.
func (s *Server) awaitLive(ctx context.Context, lr *liveRun) (*mcp.CallToolResult, error) {
	for {
		lr.mu.Lock()
		done, res, err, q := lr.done, lr.res, lr.err, lr.question
		lr.mu.Unlock()
		switch {
		case done:
			return lr.render(res, err)
		case q != nil:
			return forwardedInput(q), nil
		}
		select {
		case <-lr.changed:
		case <-ctx.Done():
			if lr.stop != nil {
				lr.stop() // the client gave up the run (as it would a run without questions)
			}
			return nil, ctx.Err()
		}
	}
}

// forwardedInput is the input_required result that asks q.
func forwardedInput(q *liveQuestion) *mcp.CallToolResult {
	var rs any
	if len(q.schema) > 0 && json.Unmarshal(q.schema, &rs) != nil {
		rs = nil
	}
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{forwardedInputKey: &mcp.ElicitParams{Mode: "form", Message: q.message, RequestedSchema: rs}},
		RequestState:  q.state,
	}
}

// retryLive is a client's retry of run with the answer to a forwarded
// question: the answer goes to the call waiting for it (a missing answer
// asks again), then the retry waits for the run like the first request.
// The requestState is single use: each question has its own. A retry for
// a question that is over (it timed out, or its call ended) delivers
// nothing and waits for the run too.
func (s *Server) retryLive(ctx context.Context, req *mcp.CallToolRequest, in runInput) (*mcp.CallToolResult, error) {
	state := req.Params.RequestState
	if v := req.ProtocolVersion(); v < version20260728 {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: "requestState is part of protocol " + version20260728 + " and later; this request is protocol " + v}
	}
	v, _ := liveRuns.Load(state)
	lr, _ := v.(*liveRun)
	if lr == nil || lr.s != s {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: "requestState names no question this server is waiting on (answered already, or it timed out)"}
	}
	if lr.args != argsDigest(in) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "requestState belongs to another run call (other code or lang)"}
	}
	lr.mu.Lock()
	q := lr.question
	lr.mu.Unlock()
	open := q != nil && q.state == state
	er, _ := req.Params.InputResponses[forwardedInputKey].(*mcp.ElicitResult)
	if open && (er == nil || (er.Action != "accept" && er.Action != "decline" && er.Action != "cancel")) {
		return forwardedInput(q), nil
	}
	if _, loaded := liveRuns.LoadAndDelete(state); !loaded {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "requestState names no question this server is waiting on (answered already, or it timed out)"}
	}
	if open {
		a := &liveAnswer{action: er.Action}
		if er.Action == "accept" {
			a.content = er.Content
		}
		q.answer <- a
		lr.mu.Lock()
		if lr.question == q {
			lr.question = nil
		}
		lr.mu.Unlock()
	}
	// a question that is over already takes no answer: the retry waits
	// for what the run does next
	return s.awaitLive(ctx, lr)
}

// isLiveState reports whether a requestState names a live run's question.
func isLiveState(state string) bool { return strings.HasPrefix(state, liveStatePrefix) }
