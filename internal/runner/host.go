// Package runner runs one program for an engine: the transform, the run
// slot, the engine run with a Host that answers its calls (policies, data
// flow, approvals, built-in hooks, then the tool), the built-ins' per-run
// state, and pausing into a sealed token and resuming from one.
package runner

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modebox/modebox/internal/builtin"
	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/schema"
	"github.com/modebox/modebox/internal/toolbox"
)

// Host answers one run's calls: policies, data flow and approvals, then
// the tool. Gate runs on the driver in call order (replayed calls too), so
// the flow state is deterministic; Call runs on workers.
type Host struct {
	box      *toolbox.Box
	run      *policy.Rules
	approver Approver
	canPause bool

	// resume: decisions and what each pending call must look like
	decisions map[int]Decision
	expect    map[int]Pending

	sources   []string        // distinct sources called in this run, in order, as labels (driver only)
	sourceSet map[string]bool // sources as a set

	states map[*builtin.Capability]builtin.Run // this run's built-in state (fs staging, fetch session)

	approvalTimeout time.Duration // EngineConfig.ApprovalTimeout (0: the default)

	last atomic.Pointer[lastEntry] // the tool Gate looked up last (lookup)

	mu            sync.Mutex
	approved      map[string]bool  // tools approved for the rest of the run
	approvedCalls map[int]bool     // calls approved one by one
	anyApproved   atomic.Bool      // approvedCalls has an entry: callApproved must look
	covers        map[int][]string // approval keys of calls waiting for their approver (setCover)
	turn          chan struct{}    // one question to the approver at a time (decide)
}

// lastEntry is a tool key and its entry.
type lastEntry struct {
	key string
	e   *toolbox.Entry
}

// lookup is h.box.Lookup(key), without the map when key is the tool Gate
// looked up last (a loop calls one tool; Call follows Gate). Gate stores,
// on the driver; Call, on the driver or a worker, only reads.
func (h *Host) lookup(key string, store bool) *toolbox.Entry {
	if l := h.last.Load(); l != nil && l.key == key {
		return l.e
	}
	e := h.box.Lookup(key)
	if store && e != nil {
		h.last.Store(&lastEntry{key: key, e: e})
	}
	return e
}

func (h *Host) approveTool(keys ...string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.approved == nil {
		h.approved = map[string]bool{}
	}
	for _, k := range keys {
		h.approved[k] = true
	}
}

// flowApprovalKey is what an approval for the rest of the run covers when
// it is given for a sink call after the run's first n distinct sources:
// later sink calls while no further source has been read. The plain key
// (given before any source) does not cover them, and a new source read
// later invalidates it (the sources only grow, so n names the set).
func flowApprovalKey(key string, n int) string {
	return key + "\x00after " + strconv.Itoa(n) + " sources"
}

// maxNamedSources is how many sources a data-flow reason names; the rest
// are counted.
const maxNamedSources = 5

// sourcesText names the sources read so far for a data-flow reason,
// with its verb: "tools.a (a source) was", "tools.a, tools.b (sources)
// were", the first maxNamedSources and "and N more" past them.
func sourcesText(sources []string) string {
	if len(sources) == 1 {
		return sources[0] + " (a source) was"
	}
	named := sources
	more := ""
	if len(named) > maxNamedSources {
		named = named[:maxNamedSources]
		more = fmt.Sprintf(" and %d more", len(sources)-maxNamedSources)
	}
	return strings.Join(named, ", ") + more + " (sources) were"
}

// approvedBefore reports whether key was approved for the rest of the
// run before any source, or after fewer than n sources (the last few
// counts are looked at: this only words the reason).
func (h *Host) approvedBefore(key string, n int) bool {
	if h.toolApproved(key) {
		return true
	}
	for i := n - 1; i >= 1 && i >= n-8; i-- {
		if h.toolApproved(flowApprovalKey(key, i)) {
			return true
		}
	}
	return false
}

// addSource records a source read, once per distinct label.
func (h *Host) addSource(label string) {
	if h.sourceSet[label] {
		return
	}
	if h.sourceSet == nil {
		h.sourceSet = map[string]bool{}
	}
	h.sourceSet[label] = true
	h.sources = append(h.sources, label)
}

// setCover records, for a call that will ask its approver, the approval
// keys an answer "for the rest of the run" approves (the last one is the
// one that must be approved for the call to go without asking).
func (h *Host) setCover(id int, keys []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.covers == nil {
		h.covers = map[int][]string{}
	}
	h.covers[id] = keys
}

func (h *Host) takeCover(id int) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := h.covers[id]
	delete(h.covers, id)
	return k
}

func (h *Host) toolApproved(key string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.approved[key]
}

func (h *Host) approvedTools() []string {
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
func (h *Host) Gate(c engine.Call, replayed bool) engine.Verdict {
	if c.Tool == toolbox.SearchKey {
		return engine.Verdict{}
	}
	e := h.lookup(c.Tool, true)
	if e == nil {
		return engine.Verdict{RejectCode: codes.ToolNotFound, RejectMessage: "no tool named " + c.Tool}
	}
	if replayed && e.Func != nil && e.Func.Replay != nil {
		if err := e.Func.Replay(h.states[e.Cap], c); err != nil {
			return engine.Verdict{Abort: fmt.Sprintf("resume: %s call %d cannot be replayed: %v", e.Label(), c.ID, err)}
		}
	}
	gi := gateOf(e, c.Args)
	pol := e.Policy
	if h.run != nil { // a run's own rules: by every name the tool has, as the engine's
		pol = policy.Stricter(pol, h.run.ForNames(policy.Allow, e.RuleNames()...))
	}
	if pol == policy.Deny {
		return engine.Verdict{RejectCode: codes.ToolDenied, RejectMessage: e.Label() + " is denied by policy; the call was refused"}
	}
	if gi.Reject != nil && !replayed {
		return engine.Verdict{RejectCode: gi.Reject.Code, RejectMessage: gi.Reject.Message}
	}
	reason := ""
	if pol == policy.Ask {
		reason = `the tool's policy is "ask"`
	}
	if gi.Reason != "" {
		if reason != "" {
			reason += "; " + gi.Reason
		} else {
			reason = gi.Reason
		}
	}
	akey := approvalKey(e, gi)
	plainKey := "" // with akey, what approving this call for the rest of the run approves (coverKeys)
	if e.Sink && len(h.sources) > 0 {
		flow := fmt.Sprintf("data flow: %s is a sink, and %s called earlier in this run", e.Label(), sourcesText(h.sources))
		// an approval given before a source was read does not cover a
		// sink after it: that person did not know the data would be there
		fkey := flowApprovalKey(akey, len(h.sources))
		plainKey = akey
		last := h.sources[len(h.sources)-1]
		if !h.toolApproved(fkey) && h.approvedBefore(akey, len(h.sources)) {
			flow += "; " + e.Label() + " was approved for the rest of the run before " + last + " was read, which does not cover this call"
		}
		akey = fkey
		if reason != "" {
			reason += "; " + flow
		} else {
			reason = flow
		}
	}
	if e.Source || gi.Source {
		name := e.Label()
		if gi.SourceName != "" {
			name = gi.SourceName
		}
		h.addSource(name)
	}
	if replayed {
		return engine.Verdict{}
	}
	if d, ok := h.decisions[c.ID]; ok {
		want := h.expect[c.ID]
		if want.Tool != c.Tool || argsDigest(want.Args) != argsDigest(c.Args) {
			return engine.Verdict{Abort: fmt.Sprintf("resume: call %d was %s when the run paused; the replay called %s with other arguments", c.ID, want.Tool, c.Tool)}
		}
		switch d {
		case Deny:
			return engine.Verdict{RejectCode: codes.ApprovalDenied, RejectMessage: e.Label() + ": the call was denied"}
		case ApproveTool:
			h.approveTool(coverKeys(plainKey, akey)...)
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
	h.setCover(c.ID, coverKeys(plainKey, akey))
	switch {
	case h.approver != nil:
		return engine.Verdict{Approval: reason}
	case h.canPause:
		return engine.Verdict{Park: true, Approval: reason}
	}
	return engine.Verdict{RejectCode: codes.ApprovalUnavailable, RejectMessage: e.Label() + " needs approval (" + reason + ") and nothing can approve it; the call was refused"}
}

// coverKeys lists the approval keys an approval for the rest of the run
// gives: the call's key, after the plain key when there is one (a sink
// after a source).
func coverKeys(plain, key string) []string {
	if plain == "" {
		return []string{key}
	}
	return []string{plain, key}
}

// gateOf runs a built-in's gate hook on a call's arguments.
func gateOf(e *toolbox.Entry, args json.RawMessage) builtin.Gate {
	if e.Func != nil && e.Func.Gate != nil {
		return e.Func.Gate(args)
	}
	return builtin.Gate{}
}

// approvalKey is what approving "for the rest of the run" covers.
func approvalKey(e *toolbox.Entry, gi builtin.Gate) string {
	if gi.ApprovalKey != "" {
		return gi.ApprovalKey
	}
	return e.Key
}

// Call validates the arguments, asks the approver when the gate said so,
// and runs the tool.
func (h *Host) Call(ctx context.Context, c engine.Call) (json.RawMessage, error) {
	if c.Tool == toolbox.SearchKey {
		return h.box.SearchCall(c.Args)
	}
	e := h.lookup(c.Tool, false)
	if e == nil {
		return nil, &errs.Tool{Code: codes.ToolNotFound, Message: "no tool named " + c.Tool}
	}
	if err := e.Input.ValidateJSONContext(ctx, c.Args); err != nil {
		code := codes.InvalidArgument
		var le *schema.LimitError
		if errors.As(err, &le) {
			code = codes.SchemaTooComplex
		}
		return nil, &errs.Tool{Code: code, Message: e.Label() + ": " + err.Error(), Err: err}
	}
	approved := h.callApproved(c.ID)
	if c.Approval != "" {
		cover := h.takeCover(c.ID)
		if len(cover) == 0 {
			cover = []string{approvalKey(e, gateOf(e, c.Args))}
		}
		if err := h.decide(ctx, e, c, cover); err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			// approved after the run stopped (an approver that did not
			// return when its context ended): the tool does not run
			return nil, &errs.Tool{Code: codes.Cancelled, Message: e.Label() + ": the run stopped while the call waited for approval; the tool did not run", Err: ctx.Err()}
		}
		approved = true
	}
	if h.approver != nil {
		ctx = context.WithValue(ctx, approverKey{}, h.approver)
		ctx = context.WithValue(ctx, approvalTimeoutKey{}, h.timeout())
	}
	return e.Call(ctx, builtin.Call{ID: c.ID, Approved: approved, State: h.states[e.Cap], MaxValue: c.MaxValue}, c.Args)
}

// decide asks the approver about call c unless an approval for the rest
// of the run already covers it (cover's last key). Asks take turns, and
// the cover is checked again once it is this call's turn, so calls waiting
// while an earlier one is approved for the rest of the run are not asked.
func (h *Host) decide(ctx context.Context, e *toolbox.Entry, c engine.Call, cover []string) error {
	// waiting its turn to be asked is waiting for the person too: the
	// run's clock is held from here (ask holds it again while asking)
	release := engine.HoldClock(ctx)
	defer release()
	h.mu.Lock()
	if h.turn == nil {
		h.turn = make(chan struct{}, 1)
	}
	turn := h.turn
	h.mu.Unlock()
	select {
	case turn <- struct{}{}:
	case <-ctx.Done():
		return &errs.Tool{Code: codes.ApprovalDenied, Message: e.Label() + ": the call was denied (the run ended while it waited to be asked)", Err: ctx.Err()}
	}
	defer func() { <-turn }()
	if h.toolApproved(cover[len(cover)-1]) {
		return nil
	}
	d, err := h.ask(ctx, ApprovalRequest{CallID: c.ID, Tool: e.Key, Args: c.Args, Reason: c.Approval})
	var te *ApprovalTimeoutError
	if errors.As(err, &te) {
		return &errs.Tool{Code: codes.ApprovalTimeout, Message: e.Label() + ": the call was refused: " + te.Error(), Err: err}
	}
	if err != nil || d == Deny {
		msg := e.Label() + ": the call was denied"
		if err != nil {
			msg += " (" + err.Error() + ")"
		}
		return &errs.Tool{Code: codes.ApprovalDenied, Message: msg, Err: err}
	}
	if d == ApproveTool {
		h.approveTool(cover...)
	}
	return nil
}

func (h *Host) approveCall(id int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.approvedCalls == nil {
		h.approvedCalls = map[int]bool{}
	}
	h.approvedCalls[id] = true
	h.anyApproved.Store(true)
}

func (h *Host) callApproved(id int) bool {
	if !h.anyApproved.Load() { // no call was approved one by one: no lock
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.approvedCalls[id]
}

// argsDigest compares arguments: a pending call on resume must be the
// same call as when the run paused.
func argsDigest(args json.RawMessage) [32]byte {
	return sha256.Sum256(args)
}
