package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modebox/modebox"
)

// runsKept is how many finished runs the runs page lists.
const runsKept = 300

// runRecord is one run (or resume) as the runs page shows it.
type runRecord struct {
	ID      int64
	Kind    string // "run" or "resume"
	Start   time.Time
	End     time.Time // zero while in flight
	Status  string
	ErrCode modebox.Code
	Calls   []callRecord

	approvals map[int]string      // call id -> who or what approved or denied it
	timing    map[int]*callTiming // call id -> when it ran, as the engine reported
}

// callTiming is what the run's observer and approver saw of one call.
type callTiming struct {
	tool       string
	start, end time.Duration // since the run started
	ended, ok  bool
	asking     bool          // the approver is being asked now
	waited     time.Duration // spent waiting for the approver's decision
}

// callRecord is one tool call of a run.
type callRecord struct {
	ID       int
	Tool     string
	OK       bool
	Running  bool   // in flight: started, not settled
	Decision string // "allowed by policy", "approved once by ...", ...
	// Timed says this run made the call, so Duration (from the call
	// starting on the host to it settling, including any wait for
	// approval) and Waited (the wait for approval) are known. A resumed
	// run replays the calls made before the pause without making them.
	Timed            bool
	Duration, Waited time.Duration
}

// Took is the call's duration as the runs page shows it.
func (c callRecord) Took() string { return formatDuration(c.Duration) }

// WaitedFor is the call's wait for approval as the runs page shows it.
func (c callRecord) WaitedFor() string { return formatDuration(c.Waited) }

// formatDuration formats d, never negative, to the microsecond under a
// millisecond, to 10µs under a second, else to the millisecond: 37µs,
// 4.21ms, 1.235s. time.ParseDuration reads it back.
func formatDuration(d time.Duration) string {
	switch {
	case d < 0:
		d = 0
	case d < time.Millisecond:
		d = d.Round(time.Microsecond)
	case d < time.Second:
		d = d.Round(10 * time.Microsecond)
	default:
		d = d.Round(time.Millisecond)
	}
	return d.String()
}

// runLog keeps the runs in flight and the last keep finished ones.
type runLog struct {
	keep int
	mu   sync.Mutex
	next int64
	live map[int64]*runRecord
	done []*runRecord // oldest first
}

func newRunLog(keep int) *runLog {
	return &runLog{keep: keep, live: map[int64]*runRecord{}}
}

func (l *runLog) start(kind string) *runRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.next++
	r := &runRecord{ID: l.next, Kind: kind, Start: time.Now(), Status: "running",
		approvals: map[int]string{}, timing: map[int]*callTiming{}}
	l.live[r.ID] = r
	return r
}

// observer returns the run observer (see modebox.WithObserver) that
// times r's tool calls.
func (l *runLog) observer(r *runRecord) func(modebox.Event) {
	return func(ev modebox.Event) {
		if ev.Kind != modebox.EventCallStart && ev.Kind != modebox.EventCallEnd {
			return
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		t := r.timing[ev.CallID]
		if t == nil {
			t = &callTiming{tool: ev.Tool}
			r.timing[ev.CallID] = t
		}
		if ev.Kind == modebox.EventCallStart {
			t.start = ev.Elapsed
		} else {
			t.end, t.ended, t.ok = ev.Elapsed, true, ev.OK
		}
	}
}

// asking records that the approver is being asked about call id.
func (l *runLog) asking(r *runRecord, id int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if t := r.timing[id]; t != nil {
		t.asking = true
	}
}

// approved records who decided call id, and how long the decision took
// (waited; 0 when no one was asked while the call ran, as for the
// decisions a resume starts with).
func (l *runLog) approved(r *runRecord, id int, d modebox.Decision, by string, waited time.Duration) {
	what := "denied by "
	switch d {
	case modebox.Approve:
		what = "approved once by "
	case modebox.ApproveTool:
		what = "approved for the run by "
	}
	l.mu.Lock()
	r.approvals[id] = what + by
	if t := r.timing[id]; t != nil {
		t.asking = false
		t.waited += waited
	}
	l.mu.Unlock()
}

// finish records a run's end.
func (l *runLog) finish(r *runRecord, res *modebox.Result, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r.End = time.Now()
	switch {
	case err != nil:
		r.Status, r.ErrCode = "error", modebox.CodeRunFailed
	case res != nil:
		r.Status = string(res.Status)
		if res.Error != nil {
			r.ErrCode = res.Error.Code
		}
		if res.Journal != nil {
			forRun := map[string]string{} // tool -> who approved it for the run
			for _, c := range res.Journal.Calls {
				cr := callRecord{ID: c.ID, Tool: c.Tool, OK: c.OK, Decision: r.decision(c.ID, c.Tool, forRun)}
				if t := r.timing[c.ID]; t != nil && t.ended {
					cr.Timed, cr.Duration, cr.Waited = true, t.end-t.start, t.waited
				} else if r.Kind == "resume" {
					cr.Decision += "; replayed from before the pause"
				}
				r.Calls = append(r.Calls, cr)
			}
		}
		for _, p := range res.Pending {
			r.Calls = append(r.Calls, callRecord{ID: p.ID, Tool: p.Tool, Decision: "waiting for approval (paused)"})
		}
	}
	delete(l.live, r.ID)
	l.done = append(l.done, r)
	if len(l.done) > l.keep {
		l.done = slices.Delete(l.done, 0, len(l.done)-l.keep)
	}
}

// decision says who or what let call id of tool go on (or stopped it);
// forRun, kept across the run's calls in order, maps a tool to who
// approved it for the rest of the run.
func (r *runRecord) decision(id int, tool string, forRun map[string]string) string {
	d := r.approvals[id]
	if strings.HasPrefix(d, "approved for the run by ") {
		forRun[tool] = strings.TrimPrefix(d, "approved for the run by ")
	}
	switch {
	case d != "":
		return d
	case forRun[tool] != "":
		return "covered by the approval for the run by " + forRun[tool]
	default:
		return "allowed by policy"
	}
}

// liveCalls is the calls of a run in flight so far, from its timing.
func (r *runRecord) liveCalls(now time.Duration) []callRecord {
	ids := make([]int, 0, len(r.timing))
	for id := range r.timing {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	forRun := map[string]string{}
	var out []callRecord
	for _, id := range ids {
		t := r.timing[id]
		c := callRecord{ID: id, Tool: t.tool, Decision: r.decision(id, t.tool, forRun), Timed: true, Waited: t.waited}
		switch {
		case t.ended:
			c.OK = t.ok
			c.Duration = t.end - t.start
		default:
			c.Running = true
			c.Duration = max(now-t.start, 0)
			if t.asking {
				c.Decision = "waiting for approval"
			}
		}
		out = append(out, c)
	}
	return out
}

// snapshot returns copies of the runs in flight and the finished ones,
// newest first. The copies share nothing that changes.
func (l *runLog) snapshot() (live, done []runRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.live {
		c := *r
		c.Calls = r.liveCalls(time.Since(r.Start))
		c.approvals, c.timing = nil, nil
		live = append(live, c)
	}
	slices.SortFunc(live, func(a, b runRecord) int { return int(b.ID - a.ID) })
	for i := len(l.done) - 1; i >= 0; i-- {
		c := *l.done[i]
		c.approvals, c.timing = nil, nil
		done = append(done, c)
	}
	return live, done
}

// recordingApprover records each decision of inner on the run's record.
type recordingApprover struct {
	inner modebox.Approver
	log   *runLog
	rec   *runRecord
	by    string
}

func (a *recordingApprover) Approve(ctx context.Context, r modebox.ApprovalRequest) (modebox.Decision, error) {
	a.log.asking(a.rec, r.CallID)
	asked := time.Now()
	d, err := a.inner.Approve(ctx, r)
	waited := time.Since(asked)
	by := a.by
	if err != nil && d == modebox.Deny {
		by += " (" + err.Error() + ")"
	}
	a.log.approved(a.rec, r.CallID, d, by, waited)
	return d, err
}

// recorded wraps approver so that the run's record says who decided; nil
// stays nil (the run pauses).
func (s *Server) recorded(rec *runRecord, rt route, approver modebox.Approver) modebox.Approver {
	if approver == nil {
		return nil
	}
	by := map[route]string{
		routeElicit: "the MCP client's user (form)",
		routeURL:    "a person on the approval page",
		routeDeny:   "the server (the client cannot ask)",
	}[rt]
	ra := &recordingApprover{inner: approver, log: s.runs, rec: rec, by: by}
	if fa, ok := approver.(modebox.FormAsker); ok {
		return &recordingFormApprover{ra, fa} // downstream forms still reach the person
	}
	return ra
}

// recordingFormApprover is a recordingApprover whose inner approver also
// takes downstream servers' forms.
type recordingFormApprover struct {
	*recordingApprover
	fa modebox.FormAsker
}

func (a *recordingFormApprover) AskForm(ctx context.Context, message string, schema json.RawMessage) (string, map[string]any, error) {
	return a.fa.AskForm(ctx, message, schema)
}
