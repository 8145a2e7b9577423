package integration_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/jsongen"

	"github.com/modebox/modebox"
)

// resumeAll resumes r, approving every pending call, until the run ends;
// it fails the test on a token that does not resume or a replay that
// diverges (REPLAY_MISMATCH is the bug this file hunts).
func resumeAll(t *testing.T, e *modebox.Engine, r *modebox.Result, what string) *modebox.Result {
	t.Helper()
	for i := 0; r.Status == modebox.StatusPaused; i++ {
		if i > 8 {
			t.Fatalf("%s: still paused after %d resumes", what, i)
		}
		next, err := e.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
		if err != nil {
			t.Fatalf("%s: resume: %v", what, err)
		}
		r = next
	}
	if r.Status != modebox.StatusOK {
		t.Fatalf("%s: %+v", what, r.Error)
	}
	return r
}

// The attacker's case: sh("echo a && echo b") paused for approval could
// never resume, because the token kept the arguments HTML-escaped. Then
// the whole class: generated arguments of every JSON type, every plane,
// escapes, deep nesting and large strings pause and resume through a tool
// (twice in a row, with a journaled result feeding the pending call),
// and the value the tool finally gets is the value the program sent.
func TestResumeGeneratedToolArguments(t *testing.T) {
	var got []json.RawMessage
	echo := func(_ context.Context, args json.RawMessage) (any, error) {
		got = append(got, append(json.RawMessage(nil), args...))
		return map[string]any{"args": args}, nil
	}
	e, err := modebox.New(modebox.EngineConfig{
		Tools: []modebox.Tool{
			{Namespace: "t", Name: "free", Handler: echo},
			{Namespace: "t", Name: "guarded", Policy: modebox.PolicyAsk, Handler: echo},
		},
		Continuations: &modebox.Continuations{Keys: [][]byte{newKey(t)}},
	})
	must(t, err)
	r := run(t, e, `return await t.guarded({s: "a && b < c > d \u2028 \u2029"})`, modebox.RunOptions{})
	if r.Status != modebox.StatusPaused {
		t.Fatalf("%+v", r)
	}
	resumeAll(t, e, r, "a && b")

	cases := 150
	if testing.Short() {
		cases = 30
	}
	for seed := range uint64(cases) {
		g := jsongen.New(seed)
		a, b, c := g.Any(), g.Any(), g.Any()
		prog := fmt.Sprintf(`const a = %s, b = %s, c = %s;
			const f = await t.free({v: a});
			const g1 = await t.guarded({v: b, prev: f.args.v});
			const g2 = await t.guarded({v: c, prev: g1.args.v});
			return [f.args.v, g1.args.prev, g1.args.v, g2.args.prev, g2.args.v];`, a.Source, b.Source, c.Source)
		got = nil
		r := run(t, e, prog, modebox.RunOptions{Lang: "js"})
		if r.Status != modebox.StatusPaused {
			t.Fatalf("seed %d: status %s %+v", seed, r.Status, r.Error)
		}
		r = resumeAll(t, e, r, fmt.Sprintf("seed %d", seed))
		var out []any
		must(t, json.Unmarshal(r.Value, &out))
		want := []any{a.Want, a.Want, b.Want, b.Want, c.Want}
		if !reflect.DeepEqual(out, want) {
			t.Fatalf("seed %d: the program saw other values after resuming", seed)
		}
		// each tool ran once: free, then each guarded call after its approval
		if len(got) != 3 {
			t.Fatalf("seed %d: %d tool runs, want 3", seed, len(got))
		}
		var last struct{ V any }
		must(t, json.Unmarshal(got[2], &last))
		if !reflect.DeepEqual(last.V, c.Want) {
			t.Fatalf("seed %d: the tool got other arguments than the program sent", seed)
		}
	}
}

// sh(): the attacker's command, then generated commands, stdin and env
// paused and resumed; the sandbox gets what the program sent.
func TestResumeGeneratedShArguments(t *testing.T) {
	needBwrap(t)
	e, err := modebox.New(modebox.EngineConfig{
		Shell:         &modebox.ShellConfig{Workspace: []string{shWorkspace(t)}},
		Continuations: &modebox.Continuations{Keys: [][]byte{newKey(t)}},
	})
	must(t, err)
	t.Cleanup(func() { _ = e.Close() })
	r := run(t, e, `return (await sh("echo a && echo b")).stdout`, modebox.RunOptions{})
	if r.Status != modebox.StatusPaused {
		t.Fatalf("sh is ask by default: %+v", r)
	}
	r = resumeAll(t, e, r, "echo a && echo b")
	if string(r.Value) != `"a\nb\n"` {
		t.Fatalf("stdout %s", r.Value)
	}
	for seed := range uint64(12) {
		g := jsongen.New(1000 + seed)
		g.Large = 16 << 10
		word := g.String(30)  // in the command, single-quoted
		stdin := g.String(60) // any text
		env := g.String(20)
		w := strings.ReplaceAll(word.Want.(string), "\x00", "")
		if strings.ContainsRune(word.Want.(string), 0) {
			word = jsongen.Value{Source: fmt.Sprintf("%s.replaceAll('\\0', '')", word.Source), Want: w}
		}
		ev := strings.ReplaceAll(env.Want.(string), "\x00", "")
		envSrc := fmt.Sprintf("%s.replaceAll('\\0', '')", env.Source)
		prog := fmt.Sprintf(`const w = %s, q = "'" + w.replaceAll("'", "'\\''") + "'";
			const r = await sh("cat && printf '%%s|' " + q + " > /dev/stderr && printf '%%s' \"$V\" >&2", {stdin: %s, env: {V: %s}});
			return [r.exitCode, r.stdout, r.stderr];`, word.Source, stdin.Source, envSrc)
		r := run(t, e, prog, modebox.RunOptions{Lang: "js"})
		if r.Status != modebox.StatusPaused {
			t.Fatalf("seed %d: status %s %+v", seed, r.Status, r.Error)
		}
		r = resumeAll(t, e, r, fmt.Sprintf("seed %d", seed))
		var out []any
		must(t, json.Unmarshal(r.Value, &out))
		want := []any{float64(0), stdin.Want, w + "|" + ev}
		if !reflect.DeepEqual(out, want) {
			t.Fatalf("seed %d: got %q want %q", seed, out, want)
		}
	}
}

// fetch(): a URL with a query string (the attacker's second case), then
// generated query, header and body values.
func TestResumeGeneratedFetchArguments(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"q": r.URL.Query().Get("q"), "h": r.Header.Get("X-Gen"), "body": string(b)})
	}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	e, err := modebox.New(modebox.EngineConfig{
		Fetch:         &modebox.FetchConfig{Allow: []string{addr}},
		Policies:      map[string]modebox.Policy{"fetch": modebox.PolicyAsk},
		Continuations: &modebox.Continuations{Keys: [][]byte{newKey(t)}},
	})
	must(t, err)
	t.Cleanup(func() { _ = e.Close() })
	for seed := range uint64(20) {
		g := jsongen.New(2000 + seed)
		body := g.String(80)
		q := g.String(30).Want.(string)
		hdr := strings.Map(func(r rune) rune { // header values: visible ASCII and spaces
			if r < 0x20 || r >= 0x7f {
				return -1
			}
			return r
		}, g.String(30).Want.(string))
		hdr = strings.TrimSpace(hdr)
		u := srv.URL + "/e?a=1&b=<x>&q=" + url.QueryEscape(q)
		hj, _ := json.Marshal(hdr)
		uj, _ := json.Marshal(u)
		prog := fmt.Sprintf(`const r = await fetch(%s, {method: "POST", headers: {"X-Gen": %s}, body: %s});
			return await r.json();`, uj, hj, body.Source)
		r := run(t, e, prog, modebox.RunOptions{Lang: "js"})
		if r.Status != modebox.StatusPaused {
			t.Fatalf("seed %d: status %s %+v", seed, r.Status, r.Error)
		}
		r = resumeAll(t, e, r, fmt.Sprintf("seed %d", seed))
		var out map[string]any
		must(t, json.Unmarshal(r.Value, &out))
		want := map[string]any{"q": q, "h": hdr, "body": body.Want}
		if !reflect.DeepEqual(out, want) {
			t.Fatalf("seed %d: got %q want %q", seed, out, want)
		}
	}
}

// fs: writes and reads of generated names and contents pause (policy ask)
// and resume; the files hold what the program wrote.
func TestResumeGeneratedFSArguments(t *testing.T) {
	out := t.TempDir()
	e, err := modebox.New(modebox.EngineConfig{
		FS:            &modebox.FSConfig{Mounts: []modebox.Mount{{Host: out, Guest: "/out", Mode: "rw"}}},
		Policies:      map[string]modebox.Policy{"fs.write": modebox.PolicyAsk, "fs.read": modebox.PolicyAsk},
		Continuations: &modebox.Continuations{Keys: [][]byte{newKey(t)}},
	})
	must(t, err)
	t.Cleanup(func() { _ = e.Close() })
	for seed := range uint64(20) {
		g := jsongen.New(3000 + seed)
		content := g.String(200)
		name := strings.Map(func(r rune) rune {
			if r == '/' || r == 0 || r == '\\' || r == utf8RuneError || r < 0x20 {
				return -1
			}
			return r
		}, g.String(12).Want.(string))
		name = fmt.Sprintf("f%d & <%s>.txt", seed, strings.Trim(name, ". "))
		nj, _ := json.Marshal("/out/" + name)
		prog := fmt.Sprintf(`const p = %s, c = %s;
			await fs.write(p, c);
			return await fs.read(p);`, nj, content.Source)
		r := run(t, e, prog, modebox.RunOptions{Lang: "js"})
		if r.Status != modebox.StatusPaused {
			t.Fatalf("seed %d: status %s %+v", seed, r.Status, r.Error)
		}
		r = resumeAll(t, e, r, fmt.Sprintf("seed %d", seed))
		var back string
		must(t, json.Unmarshal(r.Value, &back))
		disk, err := os.ReadFile(filepath.Join(out, name))
		must(t, err)
		if back != content.Want || string(disk) != content.Want {
			t.Fatalf("seed %d: read back %q, on disk %q, want %q", seed, back, disk, content.Want)
		}
	}
}

const utf8RuneError = '\uFFFD'

// The program text itself rides in the token: bytes that are not UTF-8
// (a truncated sequence, a surrogate encoded as UTF-8, a lone
// continuation byte) must read the same when the resume recompiles it.
func TestResumeProgramWithInvalidUTF8(t *testing.T) {
	c := &counter{}
	e := pausingEngine(t, c, nil)
	code := "const s = \"\xe2\x82|x\xf0\x9f\x98|y\xed\xa0\x80|\xff\"; // \xc0 && <\n return [s, (await t.guarded({s})).args.s]"
	for _, lang := range []modebox.Lang{modebox.LangJS, modebox.LangTS} {
		r := run(t, e, code, modebox.RunOptions{Lang: lang})
		if r.Status != modebox.StatusPaused {
			t.Fatalf("%s: %+v", lang, r.Error)
		}
		r = resumeAll(t, e, r, string(lang))
		var out []string
		must(t, json.Unmarshal(r.Value, &out))
		if len(out) != 2 || out[0] != out[1] || !strings.Contains(out[0], "|x") {
			t.Fatalf("%s: %q", lang, out)
		}
	}
}
