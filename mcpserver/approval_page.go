package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/prompt"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// baseHeader carries the base URL of the approval pages ("http://host:port",
// from the request's scheme and checked Host) from the HTTP handler to the
// tool handlers. The handler deletes any value a client sent.
const baseHeader = "X-Modebox-Page-Base"

// pageInputKey names the URL-mode input request of a 2026-07-28 pause.
const pageInputKey = "approval-page"

// pageBase returns the base URL of approval pages for this request, or ""
// when the request did not come through the HTTP handler.
func pageBase(req *mcp.CallToolRequest) string {
	if req == nil || req.Extra == nil || req.Extra.Header == nil {
		return ""
	}
	return req.Extra.Header.Get(baseHeader)
}

// setPageBase records the base URL on r for the tool handlers.
func setPageBase(r *http.Request) {
	r.Header.Del(baseHeader)
	scheme := "http://"
	if r.TLS != nil {
		scheme = "https://"
	}
	r.Header.Set(baseHeader, scheme+r.Host)
}

// canElicitURL reports whether the client declared URL-mode elicitation.
func canElicitURL(c *mcp.ClientCapabilities) bool {
	return c != nil && c.Elicitation != nil && c.Elicitation.URL != nil
}

// pageRoute routes a request that came over HTTP from a client that
// declared URL-mode elicitation to the approval pages: a URL elicitation
// while the run waits (up to 2025-11-25), or an input request carrying the
// link (2026-07-28). ok is false for other requests.
func (s *Server) pageRoute(req *mcp.CallToolRequest) (route, bool) {
	if pageBase(req) == "" || !canElicitURL(req.ClientCapabilities()) {
		return 0, false
	}
	if req.ProtocolVersion() >= version20260728 {
		return routeInput, true
	}
	return routeURL, true
}

// pageURL is the link of page p.
func pageURL(base string, p *approvalPage) string { return base + "/approve/" + p.id }

// pageMessage is the message of a URL-mode elicitation for calls.
func pageMessage(calls []pageCall) string {
	var tools []string
	for _, c := range calls {
		tools = append(tools, "tools."+prompt.Sanitize(c.Tool))
	}
	return fmt.Sprintf("modebox: %d call(s) need your approval (%s). Open the link to see the whole call and decide.", len(calls), strings.Join(tools, ", "))
}

// ErrApprovalTimedOut is why a call is denied when nobody decided on its
// approval page before the wait ended.
var ErrApprovalTimedOut = errors.New("nobody decided on the approval page before the approval wait ended")

// urlApprover asks the client's user with URL-mode elicitation: the link
// is an approval page of this server, where the person decides; then the
// server sends notifications/elicitation/complete and the run goes on.
// Like elicitApprover it keeps no answers: every request gets a page, and
// the run decides how far "approve for the rest of the run" reaches (one
// fetch origin, not past a data-flow source read after the approval).
type urlApprover struct {
	s    *Server
	ss   *mcp.ServerSession
	base string
	turn chan struct{} // one page at a time
}

func (a *urlApprover) Approve(ctx context.Context, r modebox.ApprovalRequest) (modebox.Decision, error) {
	select {
	case a.turn <- struct{}{}:
	case <-ctx.Done():
		return modebox.Deny, ctx.Err()
	}
	defer func() { <-a.turn }()
	expires := time.Now().Add(a.s.eng.ApprovalTimeout())
	if dl, ok := ctx.Deadline(); ok && dl.Before(expires) {
		expires = dl
	}
	calls := []pageCall{{ID: r.CallID, Tool: r.Tool, Reason: r.Reason, Args: r.Args, Once: r.Once}}
	p := a.s.pages.create(calls, expires)
	defer a.s.pages.close(p, "the run stopped waiting")
	ctx, cancel := context.WithDeadline(ctx, expires)
	defer cancel()

	asked := make(chan *mcp.ElicitResult, 1)
	go func() {
		res, err := a.ss.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: pageMessage(calls), URL: pageURL(a.base, p), ElicitationID: p.id})
		if err != nil {
			res = &mcp.ElicitResult{Action: "cancel"}
		}
		asked <- res
	}()
	for {
		select {
		case <-p.done:
			d, ok := a.s.pages.result(p)
			_ = a.ss.NotifyElicitationComplete(context.WithoutCancel(ctx), &mcp.ElicitationCompleteParams{ElicitationID: p.id})
			if !ok {
				return modebox.Deny, errors.New("the approval page was closed without a decision")
			}
			if d == modebox.ApproveTool && r.Once {
				d = modebox.Approve // the page did not offer it; asked anew each time
			}
			return d, nil
		case res := <-asked:
			asked = nil
			if res.Action != "accept" {
				a.s.pages.close(p, "declined in the MCP client")
				return modebox.Deny, nil
			}
		case <-ctx.Done():
			a.s.pages.close(p, "the approval wait ended")
			return modebox.Deny, ErrApprovalTimedOut
		}
	}
}

// addPageRequest adds the approval page's link to a 2026-07-28 input
// request for a paused run, when the request came over HTTP and the client
// declared URL-mode elicitation; the form requests say the link too, and
// are dropped for a client that declared no form mode. It returns the
// page, or nil.
func (s *Server) addPageRequest(req *mcp.CallToolRequest, reqs mcp.InputRequestMap, pending []modebox.PendingCall) *approvalPage {
	base := pageBase(req)
	if base == "" || !canElicitURL(req.ClientCapabilities()) {
		return nil
	}
	var calls []pageCall
	for _, p := range pending {
		calls = append(calls, pageCall{ID: p.ID, Tool: p.Tool, Reason: p.Reason, Args: p.Args})
	}
	if !canElicitForm(req.ClientCapabilities()) {
		clear(reqs) // the client shows links, not forms
	}
	p := s.pages.create(calls, time.Now().Add(s.eng.ApprovalTimeout()))
	setPageRequest(reqs, base, p)
	return p
}

// setPageRequest puts page p in reqs.
func setPageRequest(reqs mcp.InputRequestMap, base string, p *approvalPage) {
	link := pageURL(base, p)
	for k, r := range reqs {
		if ep, ok := r.(*mcp.ElicitParams); ok && k != pageInputKey {
			ep.Message += "\n\nOr decide in a browser: " + link
		}
	}
	reqs[pageInputKey] = &mcp.ElicitParams{Mode: "url", Message: pageMessage(p.calls), URL: link, ElicitationID: p.id}
}

// pageDecisions decides a 2026-07-28 retry from the pause's approval page:
// the page's decision for every call when the person decided there; when
// the client only accepted to open the link, it waits for the decision
// (up to the page's expiry); a decline in the client denies. ok is false
// when the page has no say (no page, or the form answers decide).
func (s *Server) pageDecisions(ctx context.Context, req *mcp.CallToolRequest, a *ask, formComplete bool) (map[int]modebox.Decision, bool) {
	p := a.page
	if p == nil {
		return nil, false
	}
	resp, _ := req.Params.InputResponses[pageInputKey].(*mcp.ElicitResult)
	all := func(d modebox.Decision) map[int]modebox.Decision {
		m := map[int]modebox.Decision{}
		for _, c := range a.calls {
			m[c.ID] = d
		}
		return m
	}
	if d, ok := s.pages.result(p); ok {
		return all(d), true
	}
	if formComplete {
		s.pages.close(p, "answered in the MCP client")
		return nil, false
	}
	if resp == nil {
		return nil, false
	}
	if resp.Action != "accept" {
		s.pages.close(p, "declined in the MCP client")
		return all(modebox.Deny), true
	}
	wctx, cancel := context.WithDeadline(ctx, p.expires)
	defer cancel()
	select {
	case <-p.done:
	case <-wctx.Done():
		s.pages.close(p, "the approval wait ended")
	}
	d, ok := s.pages.result(p)
	if !ok {
		return all(modebox.Deny), true
	}
	return all(d), true
}

// decidedBy says who answered the input requests of pause a.
func (s *Server) decidedBy(a *ask) string {
	if a.page != nil {
		if _, ok := s.pages.result(a.page); ok {
			return "a person on the approval page"
		}
	}
	return "the MCP client's user (input request)"
}
