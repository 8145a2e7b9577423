package runner

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modebox/modebox/internal/builtin"
	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/limits"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/seal"
	"github.com/modebox/modebox/internal/toolbox"
	"github.com/modebox/modebox/internal/tsx"
)

// MaxProgramSize caps the source of one program (4 MiB).
const MaxProgramSize = 4 << 20

// Runner runs programs for one engine.
type Runner struct {
	// Engine is the wasm engine.
	Engine *engine.Engine
	// Box is the toolbox, built-ins included.
	Box *toolbox.Box
	// Limits are the engine's (a run may only narrow them).
	Limits limits.Limits
	// Slots bound the runs in progress (nil: unbounded).
	Slots *Slots
	// Sealer lets runs pause; nil: a call that needs approval and has no
	// approver is refused.
	Sealer *Sealer
	// Binding is what tokens are bound to: the engine image and the whole
	// configuration a replay depends on.
	Binding seal.Binding
	// ApprovalTimeout bounds an approver's answer (0: the default).
	ApprovalTimeout time.Duration
}

// Request is one run.
type Request struct {
	Code     string
	Lang     tsx.Lang
	Filename string // "" : main.ts or main.js
	Limits   limits.Limits
	Policies map[string]policy.Policy
	Seed     uint64 // 0: random (unless Journal is set)
	Approver Approver
	Journal  *engine.Journal
	Observe  func(engine.Event)

	hold *engine.Hold // Resume's hold on the engine (engine.Hold)
}

// Outcome is what a run did, for the API to report. Exactly one of
// Refused, Syntax and Result is set.
type Outcome struct {
	// Refused is set when nothing ran: ENGINE_BUSY, CANCELLED while
	// queued, PROGRAM_TOO_LARGE.
	Refused *errs.Tool
	// Syntax is the transform's error (a *tsx.Error) for a program that
	// does not parse.
	Syntax error
	// Filename names the program in errors and stacks.
	Filename string
	// Prog is the transformed program (for positions in errors).
	Prog *tsx.Program
	// Result is the engine's result.
	Result *engine.Result
	// Files is what the run's staged writes did (fs), or nil.
	Files *builtin.Files
	// Pending lists the calls a paused run waits on, and Token resumes it
	// (empty when the engine cannot seal).
	Pending []Pending
	Token   string
}

// Run runs req. The error is for invalid options (an *errs.Config);
// everything that goes wrong with the program is in the outcome, a paused
// run that cannot be sealed too (TOKEN_TOO_LARGE, as a failed run).
func (r *Runner) Run(ctx context.Context, req Request) (*Outcome, error) {
	if _, err := policy.Compile("RunOptions.Policies", req.Policies); err != nil {
		return nil, err
	}
	if err := r.Box.CheckRules("RunOptions.Policies", req.Policies); err != nil {
		return nil, err
	}
	return r.run(ctx, req, &Host{}, false)
}

// run runs req with h answering calls; Resume passes a host that already
// holds the pending calls' decisions, and a slot it took.
func (r *Runner) run(ctx context.Context, req Request, h *Host, slotHeld bool) (*Outcome, error) {
	if err := req.Limits.Validate("RunOptions.Limits"); err != nil {
		return nil, err
	}
	// against the engine's limits with their defaults: an engine that
	// leaves a limit at zero allows the default, not more
	if err := r.Limits.WithDefaults().Narrows(req.Limits); err != nil {
		return nil, err
	}
	runPolicies, err := policy.Compile("RunOptions.Policies", req.Policies)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Filename: req.Filename}
	if out.Filename == "" {
		out.Filename = req.Lang.Filename()
	}
	if len(req.Code) > MaxProgramSize {
		out.Refused = &errs.Tool{Code: codes.ProgramTooLarge, Message: fmt.Sprintf("the program is %d bytes, over the limit of %d", len(req.Code), MaxProgramSize)}
		return out, nil
	}
	if !slotHeld {
		// the compile too: esbuild's work on a large program is seconds of
		// processor time, which the engine's run limit would not bound
		release, busy := r.Slots.Acquire(ctx)
		if busy != nil {
			out.Refused = busy
			return out, nil
		}
		defer release()
	}
	prog, err := tsx.Transform(req.Code, req.Lang)
	if err != nil {
		out.Syntax = err
		return out, nil
	}
	seed := req.Seed
	if seed == 0 && req.Journal == nil {
		var b [8]byte
		_, _ = rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	lim := r.Limits.Merge(req.Limits)
	h.box, h.run, h.approver, h.canPause = r.Box, runPolicies, req.Approver, r.Sealer != nil
	h.approvalTimeout = r.ApprovalTimeout
	ereq := engine.Request{
		Code:    prog.Code,
		Setup:   r.Box.Setup(),
		Seed:    seed,
		Limits:  lim,
		Host:    h,
		Replay:  req.Journal,
		Observe: req.Observe,
		Hold:    req.hold,
	}
	h.newStates(r.Box)
	res := r.Engine.Run(ctx, ereq)
	if prog.Direct && res.Err != nil && res.Err.Code == codes.SyntaxError {
		// QuickJS did not parse the program as sent. A compile error comes
		// before anything runs (no call, no log), so compile it with
		// esbuild and run that: esbuild's diagnostics for a program that
		// is wrong, its lowering for syntax QuickJS lacks.
		full, err := tsx.TransformFull(req.Code, req.Lang)
		if err != nil {
			out.Syntax = err
			return out, nil
		}
		prog = full
		ereq.Code = prog.Code
		h.newStates(r.Box)
		res = r.Engine.Run(ctx, ereq)
	}
	out.Prog, out.Result = prog, res
	out.Files = h.finish(res.Err == nil && !res.Paused)
	if res.Paused {
		for _, c := range res.Pending {
			out.Pending = append(out.Pending, Pending{ID: c.ID, Tool: c.Tool, Args: c.Args, Reason: c.Approval})
		}
		if r.Sealer != nil {
			approved := h.approvedTools()
			slices.Sort(approved)
			var tok string
			var err error
			if res.JournalTooLarge {
				// its journal dropped the results (engine.MaxJournalValues):
				// a token without them would run the tools again
				err = &seal.Error{Code: codes.TokenTooLarge, Message: fmt.Sprintf(
					"the run's tool results exceed what a token can carry (more than %d bytes)", engine.MaxJournalValues)}
			} else {
				tok, err = r.Sealer.seal(body{
					Code: req.Code, Lang: req.Lang.String(), Filename: out.Filename, Limits: lim, Policies: req.Policies,
					Journal: res.Journal, Pending: out.Pending, Approved: approved,
				}, r.Binding)
			}
			if err != nil {
				// the run is lost, not the outcome: it ends as a failed run
				// with what it did (its calls, logs, journal)
				code, msg := codes.Internal, err.Error()
				if se, ok := errors.AsType[*seal.Error](err); ok {
					code, msg = se.Code, se.Message
				}
				res.Paused, res.Pending, out.Pending = false, nil, nil
				res.Err = &engine.Error{Code: code, Message: "the run paused, but it cannot be sealed into a token: " + msg}
				return out, nil
			}
			out.Token = tok
		}
	}
	return out, nil
}

// Decisions answer a paused run's pending calls on resume
// (modebox.Decisions).
type Decisions struct {
	// ByID decides pending calls by their id.
	ByID map[int]Decision
	// Default decides the pending calls ByID leaves out (zero: Deny).
	Default Decision
	// Approver answers calls that need approval later in the resumed run;
	// without one they pause it again.
	Approver Approver
}

// check refuses decisions for calls the paused run does not have (a
// typo in an id would otherwise leave the real call to Default, a denial,
// and spend the token), naming the pending ids.
func (d Decisions) check(b *body) error {
	for id := range d.ByID {
		if !slices.ContainsFunc(b.Pending, func(p Pending) bool { return p.ID == id }) {
			ids := make([]string, len(b.Pending))
			for i, p := range b.Pending {
				ids[i] = strconv.Itoa(p.ID)
			}
			return &errs.Config{Field: "Decisions.ByID", Reason: fmt.Sprintf("call %d is not pending in this run (its pending calls: %s); nothing ran, and the token is still usable", id, strings.Join(ids, ", "))}
		}
	}
	return nil
}

// Resume opens and claims token, then replays the run it holds with d
// deciding its pending calls; observe is told what the run does (nil:
// nothing). Without a Sealer it returns an *errs.Config; a token that
// does not open gives a *seal.Error.
func (r *Runner) Resume(ctx context.Context, token string, d Decisions, observe func(engine.Event)) (*Outcome, error) {
	if r.Sealer == nil {
		return nil, &errs.Config{Field: "EngineConfig.Continuations", Reason: "this engine has no continuations, so it cannot resume"}
	}
	// take a run slot before the token is claimed, so a busy engine
	// leaves the token usable
	release, busy := r.Slots.Acquire(ctx)
	if busy != nil {
		return &Outcome{Refused: busy}, nil
	}
	defer release()
	// a closed image cannot run the resumed program: refuse before the
	// token is claimed, so it still resumes on an engine that can. The
	// hold keeps the image open from here: once the token is claimed,
	// the run starts even if Close comes meanwhile.
	var hold *engine.Hold
	if r.Engine != nil {
		var err error
		if hold, err = r.Engine.Hold(r.Box.Setup()); err != nil {
			return &Outcome{Refused: &errs.Tool{Code: codes.ImageClosed, Message: "the engine image is closed; nothing ran, and the token is still usable"}}, nil
		}
		defer hold.Release()
	}
	// a caller whose context ended while it waited keeps its token
	if err := ctx.Err(); err != nil {
		return &Outcome{Refused: ContextRefusal(err, "before the run resumed")}, nil
	}
	b, err := r.Sealer.open(token, r.Binding, d.check)
	if err != nil {
		return nil, err
	}
	lang, err := tsx.ParseLang(b.Lang)
	if err != nil {
		return nil, &seal.Error{Code: codes.TokenMalformed, Message: "the token's contents are not a paused run"}
	}
	h := &Host{approver: d.Approver, decisions: map[int]Decision{}, expect: map[int]Pending{}}
	for _, pc := range b.Pending {
		dec, ok := d.ByID[pc.ID]
		if !ok {
			dec = d.Default
		}
		h.decisions[pc.ID] = dec
		h.expect[pc.ID] = pc
	}
	for _, t := range b.Approved {
		h.approveTool(t)
	}
	return r.run(ctx, Request{
		Code: b.Code, Lang: lang, Filename: b.Filename, Limits: r.Limits.WithDefaults().Clamp(b.Limits), Policies: b.Policies,
		Journal: b.Journal, Approver: d.Approver, Observe: observe, hold: hold,
	}, h, true)
}

// newStates gives the run fresh built-in state.
func (h *Host) newStates(box *toolbox.Box) {
	h.states = nil
	for _, c := range box.Capabilities() {
		if c.NewRun == nil {
			continue
		}
		if h.states == nil {
			h.states = map[*builtin.Capability]builtin.Run{}
		}
		h.states[c] = c.NewRun()
	}
}

// finish ends the run's built-in state: staged writes commit when ok and
// are dropped otherwise (a paused run re-stages them when it resumes).
func (h *Host) finish(ok bool) *builtin.Files {
	var files *builtin.Files
	for _, st := range h.states {
		if f := st.Finish(ok); f != nil {
			files = f
		}
	}
	return files
}
