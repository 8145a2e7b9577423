package integration_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

// askLog is an approver that answers every request with one decision and
// keeps the requests.
type askLog struct {
	d    modebox.Decision
	mu   sync.Mutex
	reqs []modebox.ApprovalRequest
}

func (a *askLog) Approve(_ context.Context, r modebox.ApprovalRequest) (modebox.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reqs = append(a.reqs, r)
	return a.d, nil
}

func flowTools(sent *[]string) []modebox.Tool {
	var mu sync.Mutex
	return []modebox.Tool{
		{Namespace: "db", Name: "secret", Source: true, Handler: func(context.Context, json.RawMessage) (any, error) { return "s3cr3t", nil }},
		{Namespace: "net", Name: "post", Sink: true, Policy: modebox.PolicyAsk, Handler: func(_ context.Context, a json.RawMessage) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			*sent = append(*sent, string(a))
			return true, nil
		}},
	}
}

// The attacker's sequence: get "approve for the rest of this run" for a
// harmless sink call, then read a source, then call the sink with the
// data. The earlier approval must not cover it: the person is asked
// again, and told which source.
func TestApprovalBeforeSourceDoesNotCoverSinkAfter(t *testing.T) {
	var sent []string
	e, err := modebox.New(modebox.EngineConfig{Tools: flowTools(&sent)})
	must(t, err)
	prog := `await net.post({m: "hello"});
		const s = await db.secret();
		await net.post({m: s});
		await net.post({m: s + "!"});
		return "done"`
	a := &askLog{d: modebox.ApproveTool}
	r := run(t, e, prog, modebox.RunOptions{Approver: a})
	if r.Status != modebox.StatusOK {
		t.Fatalf("%+v", r.Error)
	}
	if len(a.reqs) != 2 {
		t.Fatalf("asked %d times, want 2 (before the source, and again after it): %+v", len(a.reqs), a.reqs)
	}
	if why := a.reqs[1].Reason; !strings.Contains(why, "tools.db.secret") || !strings.Contains(why, "before tools.db.secret was read") {
		t.Errorf("second reason does not name the source: %q", why)
	}
	// the approval given after the source covers the third post
	if len(sent) != 3 {
		t.Errorf("sent %v", sent)
	}

	// denied the second time: the data does not leave
	sent = nil
	n := 0
	deny := modebox.ApproverFunc(func(_ context.Context, r modebox.ApprovalRequest) (modebox.Decision, error) {
		n++
		if n == 1 {
			return modebox.ApproveTool, nil
		}
		return modebox.Deny, nil
	})
	r = run(t, e, `await net.post({m: "hello"}); const s = await db.secret();
		try { await net.post({m: s}) } catch (e) { return e.code }`, modebox.RunOptions{Approver: deny})
	if string(r.Value) != `"APPROVAL_DENIED"` || len(sent) != 1 {
		t.Fatalf("%s %+v sent %v", r.Value, r.Error, sent)
	}
}

// The same through a pause: "approve for the rest of the run" given on
// resume before the source rides in the token, and still does not cover
// the sink after the source.
func TestApprovalBeforeSourceAcrossResume(t *testing.T) {
	var sent []string
	e, err := modebox.New(modebox.EngineConfig{Tools: flowTools(&sent), Continuations: &modebox.Continuations{Keys: [][]byte{newKey(t)}}})
	must(t, err)
	r := run(t, e, `await net.post({m: "hello"}); const s = await db.secret(); await net.post({m: s}); return "done"`, modebox.RunOptions{})
	if r.Status != modebox.StatusPaused {
		t.Fatalf("%+v", r)
	}
	r, err = e.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.ApproveTool})
	must(t, err)
	if r.Status != modebox.StatusPaused || len(r.Pending) != 1 || !strings.Contains(r.Pending[0].Reason, "tools.db.secret") {
		t.Fatalf("the sink after the source did not pause again: %s %+v", r.Status, r.Pending)
	}
	if len(sent) != 1 {
		t.Fatalf("sent %v", sent)
	}
	r, err = e.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
	must(t, err)
	if r.Status != modebox.StatusOK || len(sent) != 2 {
		t.Fatalf("%+v sent %v", r.Error, sent)
	}
}

// Source mounts are hidden from sh(): a command reading the mount's host
// directory straight from disk finds nothing, so a source's data reaches
// the program only through fs, where the flow check sees it. (The mount is
// made outside /tmp: /tmp is a private tmpfs in the sandbox anyway; in
// /var/tmp, which every user can traverse, since as root commands run as
// nobody.)
func TestSourceMountHiddenFromShell(t *testing.T) {
	needBwrap(t)
	dir, err := os.MkdirTemp("/var/tmp", "source-mount-")
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	if os.Geteuid() == 0 {
		must(t, os.Chmod(dir, 0o755))
		must(t, os.Chown(dir, 65534, 65534)) // the second engine's workspace
	}
	plain := filepath.Join(dir, "plain")
	secret := filepath.Join(dir, "secret")
	must(t, os.MkdirAll(plain, 0o755))
	must(t, os.MkdirAll(secret, 0o755))
	must(t, os.WriteFile(filepath.Join(secret, "key.txt"), []byte("TOP-SECRET"), 0o644))
	must(t, os.WriteFile(filepath.Join(plain, "note.txt"), []byte("public"), 0o644))
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.URL.RawQuery }))
	t.Cleanup(srv.Close)
	e, err := modebox.New(modebox.EngineConfig{
		Shell:    &modebox.ShellConfig{Workspace: []string{shWorkspace(t)}},
		FS:       &modebox.FSConfig{Mounts: []modebox.Mount{{Host: secret, Guest: "/secret", Source: true}, {Host: plain, Guest: "/plain"}}},
		Fetch:    &modebox.FetchConfig{Allow: []string{srv.Listener.Addr().String()}},
		Policies: map[string]modebox.Policy{"sh": modebox.PolicyAllow},
	})
	must(t, err)
	t.Cleanup(func() { _ = e.Close() })
	r := run(t, e, `const r = await sh("cat "+`+jsonString(filepath.Join(secret, "key.txt"))+`+"; cat "+`+jsonString(filepath.Join(plain, "note.txt"))+`);
		await fetch(`+jsonString(srv.URL)+` + "/?d=" + encodeURIComponent(r.stdout));
		return r.stdout`, modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusOK {
		t.Fatalf("%+v", r.Error)
	}
	if strings.Contains(string(r.Value), "TOP-SECRET") || strings.Contains(got, "TOP-SECRET") {
		t.Fatalf("sh() read the source mount: %s (sent %q)", r.Value, got)
	}
	if !strings.Contains(string(r.Value), "public") {
		t.Fatalf("sh() should still read other paths: %s", r.Value)
	}
	// a source mount inside the workspace is hidden there too
	e2, err := modebox.New(modebox.EngineConfig{
		Shell:    &modebox.ShellConfig{Workspace: []string{dir}},
		FS:       &modebox.FSConfig{Mounts: []modebox.Mount{{Host: secret, Guest: "/secret", Source: true}}},
		Policies: map[string]modebox.Policy{"sh": modebox.PolicyAllow},
	})
	must(t, err)
	t.Cleanup(func() { _ = e2.Close() })
	r = run(t, e2, `return (await sh("cat secret/key.txt; ls secret; cat plain/note.txt")).stdout`, modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusOK || strings.Contains(string(r.Value), "TOP-SECRET") || strings.Contains(string(r.Value), "key.txt") || !strings.Contains(string(r.Value), "public") {
		t.Fatalf("source mount inside the workspace: %s %+v", r.Value, r.Error)
	}
	// a workspace inside a source mount cannot be hidden: refused
	_, err = modebox.New(modebox.EngineConfig{
		Shell: &modebox.ShellConfig{Workspace: []string{secret}},
		FS:    &modebox.FSConfig{Mounts: []modebox.Mount{{Host: dir, Guest: "/all", Source: true}}},
	})
	if err == nil || !strings.Contains(err.Error(), "source") {
		t.Fatalf("workspace inside a source mount: %v", err)
	}
	// nor may a plain mount show a source mount's files without the mark
	_, err = modebox.New(modebox.EngineConfig{FS: &modebox.FSConfig{Mounts: []modebox.Mount{{Host: secret, Guest: "/s", Source: true}, {Host: dir, Guest: "/all"}}}})
	if err == nil || !strings.Contains(err.Error(), "source") {
		t.Fatalf("plain mount over a source mount: %v", err)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A person who never answers: the wait ends at EngineConfig.ApprovalTimeout
// with its own code, whether the approver honours its context or not, and
// the run goes on.
func TestApprovalTimeout(t *testing.T) {
	var sent []string
	e, err := modebox.New(modebox.EngineConfig{Tools: flowTools(&sent), ApprovalTimeout: 200 * time.Millisecond})
	must(t, err)
	stuck := make(chan struct{})
	defer close(stuck)
	approvers := map[string]modebox.Approver{
		"honours ctx": modebox.ApproverFunc(func(ctx context.Context, _ modebox.ApprovalRequest) (modebox.Decision, error) {
			<-ctx.Done()
			return modebox.Deny, ctx.Err()
		}),
		"ignores ctx": modebox.ApproverFunc(func(context.Context, modebox.ApprovalRequest) (modebox.Decision, error) {
			<-stuck
			return modebox.Approve, nil // too late: ignored
		}),
	}
	for name, a := range approvers {
		r := run(t, e, `try { await net.post({m: 1}) } catch (e) { return [e.code, e.message] }`, modebox.RunOptions{Approver: a})
		var out []string
		if r.Status != modebox.StatusOK || json.Unmarshal(r.Value, &out) != nil || out[0] != string(modebox.CodeApprovalTimeout) || !strings.Contains(out[1], "ApprovalTimeout") {
			t.Fatalf("%s: %s %s %+v", name, r.Status, r.Value, r.Error)
		}
		r = run(t, e, `return await net.post({m: 1})`, modebox.RunOptions{Approver: a})
		if r.Error == nil || r.Error.Code != modebox.CodeApprovalTimeout {
			t.Fatalf("%s uncaught: %+v", name, r.Error)
		}
	}
	if len(sent) != 0 {
		t.Fatalf("sent %v", sent)
	}
	if _, err := modebox.New(modebox.EngineConfig{ApprovalTimeout: -time.Second}); err == nil {
		t.Fatal("a negative approval timeout was accepted")
	}
}

// Calls of one tool in flight together: the first answer "approve for the
// rest of this run" covers the others, which were waiting their turn and
// are not asked.
func TestApproveToolCoversCallsWaitingTheirTurn(t *testing.T) {
	var sent []string
	e, err := modebox.New(modebox.EngineConfig{Tools: flowTools(&sent)})
	must(t, err)
	a := &askLog{d: modebox.ApproveTool}
	r := run(t, e, `await Promise.all([1, 2, 3, 4].map((m) => net.post({m}))); return 1`, modebox.RunOptions{Approver: a})
	if r.Status != modebox.StatusOK || len(a.reqs) != 1 || len(sent) != 4 {
		t.Fatalf("%+v: asked %d times, sent %d", r.Error, len(a.reqs), len(sent))
	}
}
