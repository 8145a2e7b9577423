package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// browser starts a headless Chromium (Debian's chromium) for the test. In
// CI a missing browser fails the test; elsewhere it skips.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("chromium is not installed (apt-get install -y chromium): %v", err)
		}
		t.Skip("chromium is not installed (apt-get install -y chromium)")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true), // Chromium's sandbox needs a non-root user
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelC := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelC(); cancelB(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// do runs browser steps or fails the test.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// get runs one browser action that returns a value, or fails the test.
func get[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// decide clicks a decision button and returns the message of the page
// that answers; a page without one (an error) fails the test.
func decide(t *testing.T, ctx context.Context, button string) string {
	t.Helper()
	// The button is clicked in the page (a real form submission); the
	// click is queued so the evaluation returns before the navigation.
	get(t, ctx, chromedp.Evaluate[bool](`setTimeout(() => document.querySelector(`+strconvQuote(button)+`).click(), 0), true`))
	waitFor(t, ctx, `!document.querySelector("form") && document.readyState === "complete" && document.body.innerText.length > 0`)
	if ok := get(t, ctx, chromedp.Evaluate[bool](`document.querySelector("#message") !== null`)); !ok {
		t.Fatalf("after %s the page says: %s", button, pageText(t, ctx, "body"))
	}
	return pageText(t, ctx, "#message")
}

// waitFor evaluates expr until it is true, across navigations (an
// evaluation during one fails and is retried), for up to 30 seconds, so
// that a page that never shows what the test waits for fails the test
// instead of hanging it.
func waitFor(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	var last error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		last = err
	}
	t.Fatalf("waiting for %s: %v", expr, last)
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// pageText is the text of the first element matching css.
func pageText(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	waitFor(t, ctx, `document.readyState === "complete" && document.querySelector(`+strconvQuote(css)+`) !== null`)
	return get(t, ctx, chromedp.Text(chromedp.CSS(css)))
}

// urlClient connects a 2025-11-25 client that declares URL-mode
// elicitation only; each link it is sent goes to links.
func urlClient(t *testing.T, endpoint string, links chan<- string, completed chan<- string) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if req.Params.Mode != "url" || req.Params.URL == "" {
				t.Errorf("elicitation %+v, want url mode", req.Params)
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
			links <- req.Params.URL
			return &mcp.ElicitResult{Action: "accept"}, nil // the user agreed to open it
		},
		ElicitationCompleteHandler: func(ctx context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			completed <- req.Params.ElicitationID
		},
	}
	return connectHTTP(t, endpoint, "tok", opts, legacyVersion)
}

// runAsync runs code on cs and delivers the output.
func runAsync(t *testing.T, cs *mcp.ClientSession, code string) <-chan output {
	ch := make(chan output, 1)
	// A test that fails before deciding cancels the call, so the run
	// stops waiting and the cleanups do not hang.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": code}})
		if err != nil {
			if ctx.Err() == nil {
				t.Errorf("run: %v", err)
			}
			ch <- output{}
			return
		}
		ch <- structured(t, res)
	}()
	return ch
}

// recv receives from ch, or fails the test after two minutes (a run that
// waits for a decision that never comes must fail the test, not hang it).
func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(2 * time.Minute):
		t.Fatalf("%s: nothing within two minutes", what)
	}
	var zero T
	return zero
}

// artifact saves a screenshot where the log says; it is not committed.
func artifact(t *testing.T, name string, png []byte) {
	dir := os.Getenv("MODEBOX_TEST_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "modebox-test-artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

// A client declaring URL elicitation receives the link; a person opens it
// in a browser, sees the whole call, and decides; the run goes on.
func TestBrowserApproval(t *testing.T) {
	bctx := browser(t)
	eng, rec := newEngine(t)
	_, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	links, completed := make(chan string, 4), make(chan string, 4)
	cs := urlClient(t, endpoint, links, completed)

	// Approve once.
	done := runAsync(t, cs, `await tools.add({a: 1, b: 2}); return (await files.delete({path: "/approved & <kept>"})).deleted`)
	link := recv(t, links, "the approval link")
	// While the person decides, the runs page shows the run in flight:
	// the policy-allowed call timed, the other one waiting.
	base := strings.TrimSuffix(endpoint, DefaultPath)
	live := getRunsPage(t, base, "tok")
	if len(live) != 1 || live[0].section != "In flight" || live[0].status != "running" || len(live[0].calls) != 2 {
		t.Fatalf("runs page while waiting: %+v", live)
	}
	if c := live[0].calls[0]; !strings.HasPrefix(c.text, "tools.add: allowed by policy") || c.took == "" {
		t.Errorf("the allowed call in flight: %+v", c)
	} else {
		checkDuration(t, "tools.add in flight", c.took)
	}
	if c := live[0].calls[1]; !strings.HasPrefix(c.text, "tools.files.delete (running): waiting for approval") || c.took == "" {
		t.Errorf("the waiting call: %+v", c)
	} else {
		checkDuration(t, "tools.files.delete waiting", c.took)
	}
	do(t, bctx, chromedp.Navigate(link))
	args, tool := pageText(t, bctx, "pre.args"), pageText(t, bctx, "code.tool")
	if tool != "tools.files.delete" || !strings.Contains(args, `"path": "/approved & <kept>"`) {
		t.Fatalf("page shows tool %q, args %q", tool, args)
	}
	if len(rec.list()) != 0 {
		t.Fatal("the tool ran before the decision")
	}
	csrf := get(t, bctx, chromedp.Evaluate[string](`document.querySelector("input[name=csrf]").value`))
	msg := decide(t, bctx, "#approve")
	if !strings.Contains(msg, "Approved once") {
		t.Errorf("after approve: %q", msg)
	}
	o := recv(t, done, "the run's result")
	wantResult(t, o, `"/approved \u0026 \u003ckept\u003e"`) // compactJSON escapes & < >
	if id := recv(t, completed, "elicitation/complete"); !strings.HasSuffix(link, "/approve/"+id) {
		t.Errorf("elicitation complete for %q, link %q", id, link)
	}

	// The used link says so.
	do(t, bctx, chromedp.Navigate(link))
	if msg = pageText(t, bctx, "#message"); !strings.Contains(msg, "already used") {
		t.Errorf("reused link: %q", msg)
	}
	// Replaying the decision with the page's own token and cookie.
	replay, _ := http.NewRequest(http.MethodPost, link, strings.NewReader(url.Values{"decision": {"deny"}, "csrf": {csrf}}.Encode()))
	replay.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	replay.AddCookie(&http.Cookie{Name: csrfCookie, Value: csrf})
	res, err := http.DefaultClient.Do(replay)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusGone || !strings.Contains(string(body), "already used") {
		t.Errorf("replayed decision: %d %s", res.StatusCode, body)
	}

	// Approve for the rest of the run: the second call of the tool is
	// not asked about.
	done = runAsync(t, cs, `const a = await files.delete({path: "/t1"}); const b = await files.delete({path: "/t2"}); return [a.deleted, b.deleted]`)
	link = recv(t, links, "the approval link")
	do(t, bctx, chromedp.Navigate(link))
	if msg := decide(t, bctx, "#approve_tool"); !strings.Contains(msg, "rest of the run") {
		t.Errorf("after approve_tool: %q", msg)
	}
	wantResult(t, recv(t, done, "the run's result"), `["/t1","/t2"]`)
	recv(t, completed, "elicitation/complete")
	select {
	case l := <-links:
		t.Errorf("asked again after approve for the run: %s", l)
	default:
	}

	// Deny: the program gets APPROVAL_DENIED.
	done = runAsync(t, cs, `try { await files.delete({path: "/denied"}); return "ran" } catch (e) { return e.code }`)
	link = recv(t, links, "the approval link")
	do(t, bctx, chromedp.Navigate(link))
	decide(t, bctx, "#deny")
	wantResult(t, recv(t, done, "the run's result"), `"APPROVAL_DENIED"`)
	recv(t, completed, "elicitation/complete")
	if got := rec.list(); len(got) != 3 {
		t.Errorf("deleted %v", got)
	}

	// The runs page, signed in with the token link, lists the runs with
	// their tool calls, who or what let each go on, and how long each
	// took (and waited for the person).
	do(t, bctx, chromedp.Navigate(base+"/runs?token=tok"))
	runs := pageText(t, bctx, "body")
	mustContain(t, "runs page", runs, "tools.add: allowed by policy", "tools.files.delete: approved once by a person on the approval page",
		"tools.files.delete (failed or not run): denied by a person on the approval page",
		"tools.files.delete: approved for the run by a person on the approval page",
		"tools.files.delete: covered by the approval for the run by a person on the approval page", "Runs per minute", "p50")
	type shownCall struct{ Text, Took, Waited string }
	calls := get(t, bctx, chromedp.Evaluate[[]shownCall](`[...document.querySelectorAll("tr.run div.call")].map(c => ({
		Text: c.textContent,
		Took: c.querySelector(".took")?.textContent ?? "",
		Waited: (c.querySelector(".waited")?.textContent ?? "").replace(/^ \((.*) waiting for approval\)$/, "$1")}))`))
	if len(calls) != 5 { // add, delete; delete, delete; delete
		t.Fatalf("the runs page lists %d calls: %+v", len(calls), calls)
	}
	asked := 0
	for _, c := range calls {
		if c.Took == "" {
			t.Errorf("no duration: %+v", c)
			continue
		}
		took := checkDuration(t, c.Text, c.Took)
		if c.Waited == "" {
			continue
		}
		asked++
		if waited := checkDuration(t, c.Text, c.Waited); waited > took {
			t.Errorf("waited longer than the call took: %+v", c)
		}
	}
	if asked != 3 { // approved once, approved for the run, denied
		t.Errorf("%d calls show a wait for approval, want 3: %+v", asked, calls)
	}
	if location := get(t, bctx, chromedp.Location()); strings.Contains(location, "token") {
		t.Errorf("the token stayed in the address bar: %s", location)
	}
	artifact(t, "runs-page.png", get(t, bctx, chromedp.FullScreenshot(100))) // 100: PNG
}

// Hostile arguments render inert and complete.
func TestBrowserHostileArguments(t *testing.T) {
	bctx := browser(t)
	eng, _ := newEngine(t)
	_, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	links, completed := make(chan string, 4), make(chan string, 4)
	cs := urlClient(t, endpoint, links, completed)

	big := strings.Repeat("0123456789abcdef", 100<<10/16) // 100 KiB
	path := "<script>window.pwned=1</script>\"><img src=x onerror=\"window.pwned=2\">\u202etxt.exe\u2066\x00\x1b[31m|" + big + "|END"
	b, _ := json.Marshal(map[string]string{"path": path})
	done := runAsync(t, cs, `return (await files.delete(`+string(b)+`)).deleted`)
	link := recv(t, links, "the approval link")

	do(t, bctx, chromedp.Navigate(link))
	args := pageText(t, bctx, "pre.args")
	pwned := get(t, bctx, chromedp.Evaluate[int](`window.pwned === undefined ? 0 : window.pwned`))
	imgs := get(t, bctx, chromedp.Evaluate[int](`document.querySelectorAll("img").length`))
	scripts := get(t, bctx, chromedp.Evaluate[int](`document.querySelectorAll("script").length`))
	escs := get(t, bctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("pre.args .esc")).map(e => e.textContent).join(" ")`))
	if pwned != 0 || imgs != 0 || scripts != 0 {
		t.Errorf("markup in the arguments came alive: pwned %d, %d img, %d script", pwned, imgs, scripts)
	}
	mustContain(t, "shown arguments", args, `<script>window.pwned=1</script>`, `"><img src=x onerror=`, "|"+big+"|END")
	mustContain(t, "escapes", escs, `\u{202e}`, `\u{2066}`)
	mustContain(t, "shown arguments", args, `\u0000\u001b[31m`) // controls stay JSON escapes
	if strings.ContainsAny(args, "\u202e\u2066\x00\x1b") {
		t.Error("a bidi or control character reached the page as itself")
	}
	artifact(t, "hostile-arguments.png", get(t, bctx, chromedp.CaptureScreenshot()))
	do(t, bctx)
	decide(t, bctx, "#deny")
	if o := recv(t, done, "the run's result"); o.Status != "error" && o.Status != "ok" {
		t.Errorf("%+v", o)
	}
	recv(t, completed, "elicitation/complete")
}

// A cross-origin form post, a post without the page's token, an expired
// link and a link from another server are refused; the call never runs.
func TestApprovalPageRefusals(t *testing.T) {
	bctx := browser(t)
	eng, rec := newEngine(t)
	srv := New(eng, Options{})
	_, endpoint := serveHTTP(t, srv, HTTPOptions{Bearer: "tok"})
	_, otherEndpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	links, completed := make(chan string, 4), make(chan string, 4)
	cs := urlClient(t, endpoint, links, completed)

	done := runAsync(t, cs, `try { await files.delete({path: "/refused"}); return "ran" } catch (e) { return e.code }`)
	link := recv(t, links, "the approval link")
	u, _ := url.Parse(link)
	id := strings.TrimPrefix(u.Path, "/approve/")

	// The person signs in to the runs page with the printed link, which
	// lists the pending approval. Then the browser visits a service on
	// another port of 127.0.0.1, which receives the runs page's cookie
	// (cookies are not isolated by port) and replays it without the
	// bearer: that opens nothing.
	base := strings.TrimSuffix(endpoint, DefaultPath)
	do(t, bctx, chromedp.Navigate(base+"/runs?token=tok"))
	waitFor(t, bctx, `document.readyState === "complete" && document.querySelector("#pending a") !== null`)
	if href := get(t, bctx, chromedp.Evaluate[string](`document.querySelector("#pending a").href`)); href != link {
		t.Errorf("the runs page lists %q, want %q", href, link)
	}
	thief := newCookieThief(t)
	do(t, bctx, chromedp.Navigate(thief.url+"/"))
	waitFor(t, bctx, `document.readyState === "complete" && document.title === "a local dev server"`)
	stolen := thief.cookies()
	if !slices.ContainsFunc(stolen, func(c string) bool { return strings.Contains(c, runsCookie+"=") }) {
		t.Errorf("Chromium sent the other port %q, not the runs page's cookie (the test no longer shows the attack)", stolen)
	}
	for _, c := range stolen {
		status, body := getPage(t, http.DefaultClient, base+"/runs", http.Header{"Cookie": {c}})
		if status != http.StatusUnauthorized || strings.Contains(body, "/approve/") {
			t.Errorf("the runs page with the cookie %q alone: %d %.300s", c, status, body)
		}
	}

	// An attacker's page on another origin (another loopback port)
	// auto-submits a form to the link; the browser sends its own cookies
	// (none: SameSite=Strict) and its Origin.
	evil := httptestPage(t, `<form id="f" method="post" action="`+link+`"><input name="decision" value="approve"><input name="csrf" value="guess"></form><script>document.getElementById("f").submit()</script>`)
	do(t, bctx, chromedp.Navigate(link), chromedp.Navigate(evil))
	waitFor(t, bctx, `document.readyState === "complete" && document.body.innerText.includes("modebox:")`)
	body := pageText(t, bctx, "body")
	if !strings.Contains(body, "FORBIDDEN_ORIGIN") && !strings.Contains(body, "CROSS_SITE") {
		t.Errorf("cross-origin post: page says %q", body)
	}
	// Without a browser: no Origin, no cookie, right decision.
	res, err := http.PostForm(link, url.Values{"decision": {"approve"}, "csrf": {"x"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("post without the page's token: %d", res.StatusCode)
	}
	// The same link id on another server.
	other := strings.TrimSuffix(otherEndpoint, DefaultPath) + "/approve/" + id
	do(t, bctx, chromedp.Navigate(other))
	if body = pageText(t, bctx, "#message"); !strings.Contains(body, "not an approval link of this server") {
		t.Errorf("foreign link: %q", body)
	}
	if got := rec.list(); len(got) != 0 {
		t.Fatalf("the call ran: %v", got)
	}

	// Expired: move the store's clock past the wait.
	srv.pages.mu.Lock()
	srv.pages.now = func() time.Time { return time.Now().Add(2 * time.Hour) }
	srv.pages.mu.Unlock()
	do(t, bctx, chromedp.Navigate(link))
	if body = pageText(t, bctx, "#message"); !strings.Contains(body, "expired") {
		t.Errorf("expired link: %q", body)
	}
	srv.pages.mu.Lock()
	srv.pages.now = time.Now
	srv.pages.mu.Unlock()
	do(t, bctx, chromedp.Navigate(link))
	decide(t, bctx, "#deny")
	wantResult(t, recv(t, done, "the run's result"), `"APPROVAL_DENIED"`)
	recv(t, completed, "elicitation/complete")
	if got := rec.list(); len(got) != 0 {
		t.Fatalf("the call ran: %v", got)
	}
}

// httptestPage serves html at / of a loopback server of its own (another
// origin).
func httptestPage(t *testing.T, html string) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(html))
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/"
}

// A 2026-07-28 client that shows links but not forms: the input request
// carries the approval page; the person decides in the browser and the
// retry resumes the run with that decision.
func TestBrowserInputRequestLink(t *testing.T) {
	bctx := browser(t)
	eng, rec := newEngine(t)
	_, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	for _, c := range []struct {
		name  string
		caps  *mcp.ElicitationCapabilities
		forms bool
	}{
		{"url only", &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}, false},
		{"form and url", &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}, Form: &mcp.FormElicitationCapabilities{}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{Elicitation: c.caps}, MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}
			opts.ElicitationHandler = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
			cs := connectHTTP(t, endpoint, "tok", opts, newVersion)
			ctx := context.Background()
			path := "/mrtr-" + strings.ReplaceAll(c.name, " ", "-")
			args := map[string]any{"code": `return (await files.delete({path: "` + path + `"})).deleted`}
			first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args})
			if err != nil || !first.NeedsInput() {
				t.Fatalf("first call: %v %+v", err, first)
			}
			page, ok := first.InputRequests[pageInputKey].(*mcp.ElicitParams)
			if !ok || page.Mode != "url" || page.URL == "" || page.ElicitationID == "" {
				t.Fatalf("input requests %+v", first.InputRequests)
			}
			form, hasForm := first.InputRequests["call-1"].(*mcp.ElicitParams)
			if hasForm != c.forms {
				t.Fatalf("form request present %v, want %v", hasForm, c.forms)
			}
			if hasForm && !strings.Contains(form.Message, page.URL) {
				t.Errorf("the form does not give the link: %q", form.Message)
			}
			do(t, bctx, chromedp.Navigate(page.URL))
			if args := pageText(t, bctx, "pre.args"); !strings.Contains(args, path) {
				t.Fatalf("page shows %q", args)
			}
			if msg := decide(t, bctx, "#approve"); !strings.Contains(msg, "Approved once") {
				t.Errorf("after approve: %q", msg)
			}
			if contains(rec.list(), path) {
				t.Fatal("the tool ran before the retry")
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState,
				InputResponses: mcp.InputResponseMap{pageInputKey: &mcp.ElicitResult{Action: "accept"}}})
			if err != nil {
				t.Fatal(err)
			}
			wantResult(t, structured(t, res), `"`+path+`"`)
			if !contains(rec.list(), path) {
				t.Errorf("deleted %v", rec.list())
			}
		})
	}
}

// Answering the form of a 2026-07-28 input request closes the pause's
// approval page, and its link says so.
func TestInputRequestFormClosesPage(t *testing.T) {
	eng, rec := newEngine(t)
	_, endpoint := serveHTTP(t, New(eng, Options{}), HTTPOptions{Bearer: "tok"})
	opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
		URL: &mcp.URLElicitationCapabilities{}, Form: &mcp.FormElicitationCapabilities{}}}, MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}
	opts.ElicitationHandler = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	cs := connectHTTP(t, endpoint, "tok", opts, newVersion)
	args := map[string]any{"code": `return (await files.delete({path: "/form"})).deleted`}
	first, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: args})
	if err != nil || !first.NeedsInput() {
		t.Fatalf("first call: %v %+v", err, first)
	}
	link := first.InputRequests[pageInputKey].(*mcp.ElicitParams).URL
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: args, RequestState: first.RequestState,
		InputResponses: mcp.InputResponseMap{"call-1": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": "approve"}}}})
	if err != nil {
		t.Fatal(err)
	}
	wantResult(t, structured(t, res), `"/form"`)
	if got := rec.list(); len(got) != 1 {
		t.Errorf("deleted %v", got)
	}
	page, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(page.Body)
	page.Body.Close()
	if page.StatusCode != http.StatusGone || !strings.Contains(string(body), "answered in the MCP client") {
		t.Errorf("the link after a form answer: %d %s", page.StatusCode, body)
	}
}
