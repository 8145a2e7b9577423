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
	ErrCode string
	Calls   []callRecord

	approvals map[int]string // call id -> who or what approved or denied it
}

// callRecord is one tool call of a run.
type callRecord struct {
	ID       int
	Tool     string
	OK       bool
	Decision string // "allowed by policy", "approved once by ...", ...
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
	r := &runRecord{ID: l.next, Kind: kind, Start: time.Now(), Status: "running", approvals: map[int]string{}}
	l.live[r.ID] = r
	return r
}

// approved records who decided call id.
func (l *runLog) approved(r *runRecord, id int, d modebox.Decision, by string) {
	what := "denied by "
	switch d {
	case modebox.Approve:
		what = "approved once by "
	case modebox.ApproveTool:
		what = "approved for the run by "
	}
	l.mu.Lock()
	r.approvals[id] = what + by
	l.mu.Unlock()
}

// finish records a run's end.
func (l *runLog) finish(r *runRecord, res *modebox.Result, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r.End = time.Now()
	switch {
	case err != nil:
		r.Status, r.ErrCode = "error", "RUN_FAILED"
	case res != nil:
		r.Status = res.Status
		if res.Error != nil {
			r.ErrCode = res.Error.Code
		}
		if res.Journal != nil {
			forRun := map[string]string{} // tool -> who approved it for the run
			for _, c := range res.Journal.Calls {
				d := r.approvals[c.ID]
				if strings.HasPrefix(d, "approved for the run by ") {
					forRun[c.Tool] = strings.TrimPrefix(d, "approved for the run by ")
				}
				switch {
				case d != "":
				case forRun[c.Tool] != "":
					d = "covered by the approval for the run by " + forRun[c.Tool]
				default:
					d = "allowed by policy"
				}
				r.Calls = append(r.Calls, callRecord{ID: c.ID, Tool: c.Tool, OK: c.OK, Decision: d})
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

// snapshot returns copies of the runs in flight and the finished ones,
// newest first.
func (l *runLog) snapshot() (live, done []runRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.live {
		live = append(live, *r)
	}
	slices.SortFunc(live, func(a, b runRecord) int { return int(b.ID - a.ID) })
	for i := len(l.done) - 1; i >= 0; i-- {
		done = append(done, *l.done[i])
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
	d, err := a.inner.Approve(ctx, r)
	by := a.by
	if err != nil && d == modebox.Deny {
		by += " (" + err.Error() + ")"
	}
	a.log.approved(a.rec, r.CallID, d, by)
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
