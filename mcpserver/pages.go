package mcpserver

import (
	"crypto/subtle"
	"fmt"
	"html"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/prompt"
)

// Cookies of the pages. Both are HttpOnly and SameSite=Strict, so a
// cross-site form post carries neither. Neither is enough on its own:
// browsers send a cookie of 127.0.0.1 to every port of it, so a service on
// another port the person's browser visits may hold them.
const (
	csrfCookie = "modebox_csrf"
	runsCookie = "modebox_runs"
)

// pageHeaders are the headers of every page: no script at all, no
// framing, no third-party anything, not cached, no referrer leaving with
// the link.
func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin") // "no-referrer" would make the form post send Origin: null
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "text/html; charset=utf-8")
}

// servePage serves the handler's own pages: /approve/<id> (the link is the
// credential) and /runs (behind the endpoint's bearer token). false: no
// page at this path.
func (h *httpHandler) servePage(w http.ResponseWriter, r *http.Request) bool {
	switch {
	case r.URL.Path == "/runs":
		h.serveRuns(w, r)
	case strings.HasPrefix(r.URL.Path, "/approve/"):
		h.serveApproval(w, r, strings.TrimPrefix(r.URL.Path, "/approve/"))
	default:
		return false
	}
	return true
}

// runsAuthorized accepts a request to the runs page that carries the
// bearer (Authorization header), or a live browser visit: the visit id in
// the address together with that visit's cookie. The cookie alone, which
// any port of the host may receive, authorizes nothing.
func (h *httpHandler) runsAuthorized(r *http.Request) bool {
	if h.bearer == nil || h.authorized(r) {
		return true
	}
	c, err := r.Cookie(runsCookie)
	return err == nil && h.visits.valid(r.URL.Query().Get("visit"), c.Value)
}

func (h *httpHandler) serveRuns(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET")
		httpError(w, http.StatusMethodNotAllowed, modebox.CodeMethodNotAllowed, "the runs page is read-only")
		return
	}
	if tok := r.URL.Query().Get("token"); tok != "" && h.bearer != nil {
		// The printed link signs this browser in for one visit: a
		// random visit id goes in the address (it replaces the token
		// there and in history) and a random cookie, scoped to /runs,
		// goes with it; the page needs both.
		if !h.tokenOK(tok) {
			httpError(w, http.StatusUnauthorized, CodeUnauthorized, "wrong token")
			return
		}
		var old string
		if c, err := r.Cookie(runsCookie); err == nil {
			old = c.Value
		}
		id, cookie := h.visits.begin(old)
		http.SetCookie(w, &http.Cookie{Name: runsCookie, Value: cookie, Path: "/runs", MaxAge: int(visitLife / time.Second),
			HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
		http.Redirect(w, r, "/runs?visit="+url.QueryEscape(id), http.StatusSeeOther)
		return
	}
	if !h.runsAuthorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="modebox"`)
		httpError(w, http.StatusUnauthorized, CodeUnauthorized, fmt.Sprintf("open the runs page link modebox mcp printed (it carries the token and signs this browser in for %d minutes), or send Authorization: Bearer <token>", int(visitLife/time.Minute)))
		return
	}
	live, done := h.srv.runs.snapshot()
	var pend []pendingView
	base := "http://" + r.Host
	if r.TLS != nil {
		base = "https://" + r.Host
	}
	for _, p := range h.srv.pages.pending() {
		var tools []string
		for _, c := range p.calls {
			tools = append(tools, c.Tool)
		}
		pend = append(pend, pendingView{Link: pageURL(base, p), Tools: strings.Join(tools, ", "), Expires: p.expires.Format(time.RFC3339)})
	}
	v := runsView{Live: views(live), Done: views(done), Pending: pend, Chart: chart(done, time.Now()), Latency: latency(done)}
	pageHeaders(w)
	_ = runsTemplate.Execute(w, v)
}

type pendingView struct{ Link, Tools, Expires string }

type runView struct {
	ID       int64
	Kind     string
	Started  string
	Duration string
	Status   string
	ErrCode  string
	Calls    []callRecord
}

type runsView struct {
	Live, Done []runView
	Pending    []pendingView
	Chart      template.HTML
	Latency    []latencyView
}

type latencyView struct {
	Name  string
	Value string
	Width int
}

func views(rs []runRecord) []runView {
	var out []runView
	for _, r := range rs {
		end := r.End
		if end.IsZero() {
			end = time.Now()
		}
		out = append(out, runView{ID: r.ID, Kind: r.Kind, Started: r.Start.UTC().Format("15:04:05"),
			Duration: formatDuration(end.Sub(r.Start)), Status: r.Status, ErrCode: string(r.ErrCode), Calls: r.Calls})
	}
	return out
}

// chart draws runs per minute over the last 30 minutes as an inline SVG.
func chart(done []runRecord, now time.Time) template.HTML {
	const minutes, barW, height = 30, 12, 60
	var counts [minutes]int
	most := 1
	for _, r := range done {
		ago := int(now.Sub(r.Start) / time.Minute)
		if ago >= 0 && ago < minutes {
			counts[minutes-1-ago]++
			most = max(most, counts[minutes-1-ago])
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg role="img" aria-label="runs per minute, last 30 minutes" width="%d" height="%d" viewBox="0 0 %d %d">`, minutes*barW, height+14, minutes*barW, height+14)
	for i, c := range counts {
		hgt := c * height / most
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#3b6ea5"><title>%d run(s), %d min ago</title></rect>`, i*barW, height-hgt, barW-2, hgt, c, minutes-1-i)
	}
	fmt.Fprintf(&b, `<text x="0" y="%d" font-size="10">-30 min</text><text x="%d" y="%d" font-size="10" text-anchor="end">now (max %d/min)</text></svg>`, height+12, minutes*barW, height+12, most)
	return template.HTML(b.String()) // numbers only: nothing of a run's content
}

// latency returns the p50, p90 and p99 of the finished runs' durations.
func latency(done []runRecord) []latencyView {
	var ds []time.Duration
	for _, r := range done {
		ds = append(ds, r.End.Sub(r.Start))
	}
	if len(ds) == 0 {
		return nil
	}
	slices.Sort(ds)
	top := ds[len(ds)-1]
	var out []latencyView
	for _, q := range []struct {
		name string
		p    float64
	}{{"p50", 0.50}, {"p90", 0.90}, {"p99", 0.99}} {
		d := ds[min(len(ds)-1, int(q.p*float64(len(ds))))]
		w := 1
		if top > 0 {
			w = max(1, int(200*d/top))
		}
		out = append(out, latencyView{Name: q.name, Value: formatDuration(d), Width: w})
	}
	return out
}

// approvalView is what an approval page shows.
type approvalView struct {
	Title   string
	Message string // for a link that is not open
	Open    bool
	Once    bool // no approve for the rest of the run
	ID      string
	CSRF    string
	Expires string
	Calls   []callView
}

type callView struct {
	ID     int
	Tool   template.HTML
	Reason template.HTML
	Args   template.HTML
	Size   int
}

func (h *httpHandler) serveApproval(w http.ResponseWriter, r *http.Request, id string) {
	p, st := h.srv.pages.lookup(id)
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodPost:
		h.decideApproval(w, r, p, st)
		return
	default:
		w.Header().Set("Allow", "GET, POST")
		httpError(w, http.StatusMethodNotAllowed, modebox.CodeMethodNotAllowed, "GET or POST")
		return
	}
	if st != linkOpen {
		closedPage(w, p, st)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: p.csrf, Path: "/approve/" + p.id, HttpOnly: true,
		Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode, Expires: p.expires})
	v := approvalView{Title: "Approve a tool call?", Open: true, Once: p.once, ID: p.id, CSRF: p.csrf, Expires: p.expires.UTC().Format(time.RFC3339)}
	for _, c := range p.calls {
		v.Calls = append(v.Calls, callView{ID: c.ID, Tool: visibleHTML("tools." + c.Tool), Reason: visibleHTML(orDash(c.Reason)),
			Args: visibleHTML(prettyArgs(c.Args)), Size: len(c.Args)})
	}
	pageHeaders(w)
	_ = approvalTemplate.Execute(w, v)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// decideApproval takes a person's decision. It must come from this
// server's own page: same-site (Sec-Fetch-Site, Origin checked before),
// with the page's CSRF token both in the form and in its SameSite cookie.
func (h *httpHandler) decideApproval(w http.ResponseWriter, r *http.Request, p *approvalPage, st linkStatus) {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		httpError(w, http.StatusForbidden, modebox.CodeCrossSite, "a decision must be posted from the approval page itself")
		return
	}
	if st != linkOpen {
		closedPage(w, p, st)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	if err := r.ParseForm(); err != nil {
		httpError(w, http.StatusBadRequest, modebox.CodeBadForm, "the form could not be read")
		return
	}
	c, err := r.Cookie(csrfCookie)
	form := r.PostForm.Get("csrf")
	if err != nil || form == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(form)) != 1 {
		httpError(w, http.StatusForbidden, modebox.CodeCSRF, "the page's token is missing or wrong: reload the approval page and decide there")
		return
	}
	var d modebox.Decision
	switch r.PostForm.Get("decision") {
	case answerApprove:
		d = modebox.Approve
	case answerApproveTool:
		if p.once {
			httpError(w, http.StatusBadRequest, modebox.CodeBadForm, "this page does not offer approval for the rest of the run (a question asked anew each time, or more than one call): decision must be approve or deny, not approve_tool")
			return
		}
		d = modebox.ApproveTool
	case answerDeny:
		d = modebox.Deny
	default:
		httpError(w, http.StatusBadRequest, modebox.CodeBadForm, "decision must be approve, approve_tool or deny")
		return
	}
	st, ok := h.srv.pages.decide(p, form, d)
	if !ok {
		if st == linkOpen {
			httpError(w, http.StatusForbidden, modebox.CodeCSRF, "the page's token is wrong")
			return
		}
		closedPage(w, p, st)
		return
	}
	what := map[modebox.Decision]string{modebox.Approve: "Approved once.", modebox.ApproveTool: "Approved for the rest of the run.", modebox.Deny: "Denied."}[d]
	pageHeaders(w)
	_ = approvalTemplate.Execute(w, approvalView{Title: "Decision recorded", Message: what + " The run goes on; you can close this page."})
}

// closedPage says why a link is not open.
func closedPage(w http.ResponseWriter, p *approvalPage, st linkStatus) {
	v := approvalView{Title: "This approval link is not open"}
	status := http.StatusGone
	switch st {
	case linkUsed:
		v.Message = "This link was already used: a decision was made on it. Each approval link works once."
	case linkClosed:
		v.Message = "The run stopped waiting for this approval (" + p.note + ")."
	case linkExpired:
		v.Message = "This link has expired: the approval wait ended and the call was denied."
	default:
		v.Message = "This is not an approval link of this server (it may come from another modebox server, or be altered)."
		status = http.StatusNotFound
	}
	pageHeaders(w)
	w.WriteHeader(status)
	_ = approvalTemplate.Execute(w, v)
}

// maxMarks is how many combining marks in a row are shown as they are
// (as the terminal prompt does).
const maxMarks = 4

// visibleHTML escapes s for HTML and makes every character the terminal
// prompt would not show as itself (controls, bidi and format characters,
// invalid UTF-8, long runs of combining marks) visible as an escape in a
// marked span. Newlines stay.
func visibleHTML(s string) template.HTML {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	marks := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		chunk := s[i : i+size]
		i += size
		if unicode.In(r, unicode.Mn, unicode.Me) {
			marks++
		} else {
			marks = 0
		}
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `<span class="esc">\x%02x</span>`, chunk[0])
		case r == '\n':
			b.WriteByte('\n')
		case r == '\t':
			b.WriteString(`<span class="esc">\t</span>`)
		case marks > maxMarks:
			fmt.Fprintf(&b, `<span class="esc">\u{%04x}</span>`, r)
		default:
			if vis := prompt.Sanitize(chunk); vis != chunk {
				b.WriteString(`<span class="esc">` + html.EscapeString(vis) + `</span>`)
			} else {
				b.WriteString(html.EscapeString(chunk))
			}
		}
	}
	return template.HTML(b.String())
}

const pageStyle = `body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#111}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f4f4;padding:.8em;border:1px solid #ccc}
.esc{background:#ffe08a;color:#7a2e00;border:1px solid #c90;border-radius:2px;font-weight:bold}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
button{font-size:1em;margin-right:.6em;padding:.4em .9em}.deny{background:#fdd}.ok{background:#dfd}
.took{font-variant-numeric:tabular-nums;color:#444}.took::before{content:"· "}`

var approvalTemplate = template.Must(template.New("approval").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>modebox: {{.Title}}</title><style>` + pageStyle + `</style></head>
<body><h1>{{.Title}}</h1>
{{if .Message}}<p id="message">{{.Message}}</p>{{end}}
{{if .Open}}
<p>A program run by modebox wants to make {{len .Calls}} call(s) that need a person's approval. The arguments below are complete; highlighted marks stand for characters that would otherwise be invisible or reorder text. This link works once and expires at {{.Expires}}.</p>
{{range .Calls}}<section class="call">
<h2>Call {{.ID}}: <code class="tool">{{.Tool}}</code></h2>
<p>Reason: <span class="reason">{{.Reason}}</span></p>
<p>Arguments ({{.Size}} bytes of JSON):</p>
<pre class="args">{{.Args}}</pre>
</section>{{end}}
<form method="post" action="/approve/{{.ID}}">
<input type="hidden" name="csrf" value="{{.CSRF}}">
<button class="ok" name="decision" value="approve" id="approve">Approve once</button>
{{if not .Once}}<button name="decision" value="approve_tool" id="approve_tool">Approve this tool for the rest of the run</button>{{end}}
<button class="deny" name="decision" value="deny" id="deny">Deny</button>
</form>
{{end}}
</body></html>
`))

var runsTemplate = template.Must(template.New("runs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>modebox: runs</title><style>` + pageStyle + `</style></head>
<body><h1>modebox runs</h1>
<h2>Runs per minute</h2>
{{.Chart}}
{{if .Latency}}<h2>Latency of the finished runs</h2><table id="latency">{{range .Latency}}<tr><th>{{.Name}}</th><td>{{.Value}}</td><td><svg width="200" height="10"><rect width="{{.Width}}" height="10" fill="#3b6ea5"></rect></svg></td></tr>{{end}}</table>{{end}}
<h2>Waiting for approval</h2>
{{if .Pending}}<ul id="pending">{{range .Pending}}<li><a href="{{.Link}}">{{.Tools}}</a> (until {{.Expires}})</li>{{end}}</ul>{{else}}<p>None.</p>{{end}}
<h2>In flight</h2>
{{template "table" .Live}}
<h2>Finished (newest first, last 300)</h2>
{{template "table" .Done}}
</body></html>
{{define "table"}}{{if .}}<table class="runs"><tr><th>#</th><th>kind</th><th>started (UTC)</th><th>duration</th><th>status</th><th>error</th><th>tool calls</th></tr>
{{range .}}<tr class="run" id="run-{{.ID}}"><td>{{.ID}}</td><td>{{.Kind}}</td><td>{{.Started}}</td><td>{{.Duration}}</td><td class="status">{{.Status}}</td><td class="code">{{.ErrCode}}</td><td>{{range .Calls}}<div class="call">tools.{{.Tool}}{{if .Running}} (running){{else if not .OK}} (failed or not run){{end}}: {{.Decision}}{{if .Timed}} <span class="took" title="from the call starting to it settling, including any wait for approval">{{.Took}}</span>{{if .Waited}}<span class="waited"> ({{.WaitedFor}} waiting for approval)</span>{{end}}{{end}}</div>{{end}}</td></tr>
{{end}}</table>{{else}}<p>None.</p>{{end}}{{end}}
`))
