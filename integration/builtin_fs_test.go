package integration_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox"
)

func fsEngine(t *testing.T, extra func(*modebox.EngineConfig)) (*modebox.Engine, string, string) {
	t.Helper()
	data, out := t.TempDir(), t.TempDir()
	must(t, os.WriteFile(filepath.Join(data, "a.txt"), []byte("hello"), 0o644))
	must(t, os.WriteFile(filepath.Join(data, ".env"), []byte("SECRET=1"), 0o644))
	must(t, os.WriteFile(filepath.Join(data, "bin.dat"), []byte{0xff, 0x00, 0x80}, 0o644))
	must(t, os.MkdirAll(filepath.Join(data, "sub", ".git"), 0o755))
	must(t, os.WriteFile(filepath.Join(data, "sub", "b.json"), []byte(`{"n": 2}`), 0o644))
	must(t, os.WriteFile(filepath.Join(out, "old.txt"), []byte("old"), 0o644))
	cfg := modebox.EngineConfig{FS: &modebox.FSConfig{Mounts: []modebox.Mount{{Host: data, Guest: "/data"}, {Host: out, Guest: "/out", Mode: "rw"}}}}
	if extra != nil {
		extra(&cfg)
	}
	e, err := modebox.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e, data, out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestFSFromTheGuest(t *testing.T) {
	e, _, out := fsEngine(t, nil)
	r := run(t, e, `
		const text = await fs.read("/data/a.txt");
		const bytes = await fs.read("/data/bin.dat", {encoding: "bytes"});
		const list = (await fs.list("/data")).map(f => f.name).sort();
		const hidden = await fs.exists("/data/.env");
		let envErr; try { await fs.read("/data/.ENV") } catch (e) { envErr = e.code }
		let roErr; try { await fs.write("/data/x.txt", "x") } catch (e) { roErr = e.code }
		let binErr; try { await fs.read("/data/bin.dat") } catch (e) { binErr = e.code }
		await fs.write("/out/new.txt", "new " + text);
		await fs.write("/out/raw.bin", new Uint8Array([1, 2, 3]));
		const again = await fs.read("/out/new.txt");
		await fs.remove("/out/old.txt");
		const glob = await fs.glob("/data/**/*.json");
		const st = await fs.stat("/data/a.txt");
		return {text, bytes: Array.from(bytes), list, hidden, envErr, roErr, binErr, again, glob, size: st.size, kind: st.kind,
			onDiskYet: null};
	`, modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusOK {
		t.Fatalf("%+v", r.Error)
	}
	var v struct {
		Text, EnvErr, RoErr, BinErr, Again, Kind string
		Bytes                                    []int
		List, Glob                               []string
		Hidden                                   bool
		Size                                     int
	}
	must(t, json.Unmarshal(r.Value, &v))
	if v.Text != "hello" || len(v.Bytes) != 3 || v.Bytes[0] != 255 || v.Hidden || v.EnvErr != "FS_NOT_FOUND" ||
		v.RoErr != "FS_READ_ONLY" || v.BinErr != string(modebox.CodeFSNotText) || v.Again != "new hello" || v.Size != 5 || v.Kind != "file" {
		t.Fatalf("%s", r.Value)
	}
	if strings.Join(v.List, ",") != "a.txt,bin.dat,sub" || strings.Join(v.Glob, ",") != "/data/sub/b.json" {
		t.Fatalf("list %v glob %v", v.List, v.Glob)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "new.txt")); string(got) != "new hello" {
		t.Fatalf("not committed: %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "raw.bin")); string(got) != "\x01\x02\x03" {
		t.Fatalf("bytes not committed: %q", got)
	}
	if _, err := os.Stat(filepath.Join(out, "old.txt")); !os.IsNotExist(err) {
		t.Fatalf("remove not committed: %v", err)
	}
	if r.Files == nil || len(r.Files.Committed) != 3 || len(r.Files.Conflicts) != 0 {
		t.Fatalf("report %+v", r.Files)
	}
}

func TestFSFailedRunCommitsNothing(t *testing.T) {
	e, _, out := fsEngine(t, nil)
	r := run(t, e, `await fs.write("/out/new.txt", "x"); throw new Error("boom")`, modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusError || r.Files != nil {
		t.Fatalf("%+v", r)
	}
	if _, err := os.Stat(filepath.Join(out, "new.txt")); !os.IsNotExist(err) {
		t.Fatalf("a failed run committed: %v", err)
	}
	// a write denied by policy commits nothing either
	e2, _, out2 := fsEngine(t, func(c *modebox.EngineConfig) { c.Policies = map[string]modebox.Policy{"fs.write": modebox.PolicyDeny} })
	r = run(t, e2, `try { await fs.write("/out/new.txt", "x") } catch (e) { return e.code }`, modebox.RunOptions{Lang: "js"})
	if string(r.Value) != `"TOOL_DENIED"` || r.Files != nil {
		t.Fatalf("%s %+v", r.Value, r.Files)
	}
	if _, err := os.Stat(filepath.Join(out2, "new.txt")); !os.IsNotExist(err) {
		t.Fatal("denied write committed")
	}
}

func TestFSConflictBetweenReadAndCommit(t *testing.T) {
	e, _, out := fsEngine(t, func(c *modebox.EngineConfig) {
		c.Tools = []modebox.Tool{{Name: "meddle", Handler: func(_ context.Context, _ json.RawMessage) (any, error) {
			return nil, os.WriteFile(filepath.Join(c.FS.Mounts[1].Host, "old.txt"), []byte("someone else"), 0o644)
		}}}
	})
	r := run(t, e, `const s = await fs.read("/out/old.txt"); await tools.meddle(); await fs.write("/out/old.txt", s + "!"); await fs.write("/out/other.txt", "ok")`, modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusOK || r.Files == nil || len(r.Files.Conflicts) != 1 || r.Files.Conflicts[0].Path != "/out/old.txt" || len(r.Files.Committed) != 1 {
		t.Fatalf("%+v %+v", r.Error, r.Files)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "old.txt")); string(got) != "someone else" {
		t.Fatalf("conflicting write landed: %q", got)
	}
}

// A write staged before a pause is re-staged by the replay on resume (not
// taken from the record) and commits when the resumed run ends well; it is
// committed against the file as the first run saw it.
func TestFSWriteSurvivesPause(t *testing.T) {
	c := &counter{}
	e, _, out := fsEngine(t, func(cfg *modebox.EngineConfig) {
		cfg.Tools = []modebox.Tool{c.tool("t", "guarded", modebox.PolicyAsk)}
		cfg.Continuations = &modebox.Continuations{Keys: [][]byte{newKey(t)}}
	})
	prog := `const s = await fs.read("/out/old.txt"); await fs.write("/out/old.txt", s + " and new"); await fs.write("/out/made.txt", "made");
		await t.guarded({}); return await fs.read("/out/made.txt")`
	r := run(t, e, prog, modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusPaused {
		t.Fatalf("%s %+v", r.Status, r.Error)
	}
	if _, err := os.Stat(filepath.Join(out, "made.txt")); !os.IsNotExist(err) {
		t.Fatal("a paused run committed")
	}
	res, err := e.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
	if err != nil || res.Status != modebox.StatusOK || string(res.Value) != `"made"` {
		t.Fatalf("%v %+v %s", err, res.Error, res.Value)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "old.txt")); string(got) != "old and new" {
		t.Fatalf("old.txt %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "made.txt")); string(got) != "made" {
		t.Fatalf("made.txt %q", got)
	}

	// the same, but the file changes while the run is paused: conflict
	r = run(t, e, `const s = await fs.read("/out/old.txt"); await fs.write("/out/old.txt", s + "!"); await t.guarded({})`, modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusPaused {
		t.Fatalf("%s %+v", r.Status, r.Error)
	}
	must(t, os.WriteFile(filepath.Join(out, "old.txt"), []byte("changed while paused"), 0o644))
	res, err = e.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
	if err != nil || res.Status != modebox.StatusOK || res.Files == nil || len(res.Files.Conflicts) != 1 {
		t.Fatalf("%v %+v %+v", err, res.Error, res.Files)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "old.txt")); string(got) != "changed while paused" {
		t.Fatalf("old.txt %q", got)
	}
}

func TestFSAbsentWithoutMounts(t *testing.T) {
	e := newEngine(t)
	// off, each is a stand-in that rejects with TOOL_NOT_FOUND (see
	// TestToolNotFound)
	r := run(t, e, `const codes = []; for (const f of [() => fs.read("/x"), () => sh("ls"), () => fetch("http://x/")]) { try { await f() } catch (e) { codes.push(e.code) } } return codes`, modebox.RunOptions{Lang: "js"})
	if string(r.Value) != `["TOOL_NOT_FOUND","TOOL_NOT_FOUND","TOOL_NOT_FOUND"]` {
		t.Fatalf("%s", r.Value)
	}
}

// A mount marked as a source makes later sinks ask: reading it, then
// calling fetch (always a sink) needs approval.
func TestFSSourceMountMakesSinksAsk(t *testing.T) {
	_, addr := fetchServer(t)
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("s"), 0o644))
	e, err := modebox.New(modebox.EngineConfig{
		FS:    &modebox.FSConfig{Mounts: []modebox.Mount{{Host: dir, Guest: "/private", Source: true}, {Host: t.TempDir(), Guest: "/public"}}},
		Fetch: &modebox.FetchConfig{Allow: []string{addr}},
	})
	must(t, err)
	defer e.Close()
	url := "http://" + addr + "/json"
	r := run(t, e, `await fs.list("/public"); return (await fetch("`+url+`")).status`, modebox.RunOptions{Lang: "js"})
	if string(r.Value) != "200" {
		t.Fatalf("a read of a plain mount made fetch ask: %s %+v", r.Value, r.Error)
	}
	r = run(t, e, `await fs.read("/private/secret.txt"); try { await fetch("`+url+`") } catch (e) { return e.code }`, modebox.RunOptions{Lang: "js"})
	if string(r.Value) != `"APPROVAL_UNAVAILABLE"` {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
}

// A paused run resumes only on an engine whose built-ins are configured
// the same way: tokens are bound to the capability configuration.
func TestTokenBoundToCapabilities(t *testing.T) {
	c := &counter{}
	key := newKey(t)
	data := t.TempDir()
	mk := func(mode modebox.MountMode) *modebox.Engine {
		e, err := modebox.New(modebox.EngineConfig{
			Tools:         []modebox.Tool{c.tool("t", "guarded", modebox.PolicyAsk)},
			Continuations: &modebox.Continuations{Keys: [][]byte{key}},
			FS:            &modebox.FSConfig{Mounts: []modebox.Mount{{Host: data, Guest: "/d", Mode: mode}}},
		})
		must(t, err)
		t.Cleanup(func() { e.Close() })
		return e
	}
	ro, rw := mk("ro"), mk("rw")
	r := run(t, ro, `await t.guarded({}); return 1`, modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusPaused {
		t.Fatalf("%+v", r.Error)
	}
	_, err := rw.Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
	var te *modebox.TokenError
	if !errors.As(err, &te) || te.Code != modebox.CodeTokenBinding {
		t.Fatalf("a token resumed under another fs configuration: %v", err)
	}
	res, err := mk("ro").Resume(t.Context(), r.Token, modebox.Decisions{Default: modebox.Approve})
	if err != nil || res.Status != modebox.StatusOK {
		t.Fatalf("same configuration: %v %+v", err, res)
	}
}

// The red-team program that made fs.glob walk for minutes, past the
// run's 5 s timeout, holding the host: 14 directories a staged write
// implies and twenty "**" in a row. It now answers at once, with no
// match. The generous timeout is only a hang guard.
func TestFSGlobRepeatedStars(t *testing.T) {
	e, _, _ := fsEngine(t, nil)
	r := run(t, e, `const D = 14, K = 20;
		await fs.write("/out/" + "d/".repeat(D) + "f", "x");
		const none = await fs.glob("/out/" + "**/".repeat(K) + "[z]z");
		const one = await fs.glob("/out/" + "**/*/".repeat(K / 2) + "f");
		return [none.length, one.length]`, modebox.RunOptions{Lang: "js", Limits: modebox.Limits{Timeout: 30 * time.Second}})
	if r.Error != nil || string(r.Value) != `[0,1]` {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
}

// The red-team program that created 204,100 directories with empty files
// at depth 2040: the directories a write needs now count against the fs
// maxEntries limit (10000 by default) when the write is staged, so the
// fifth write is refused with FS_TOO_MANY_ENTRIES and the run commits
// four of them. The program ends without committing (it throws), so the
// test writes nothing to disk.
func TestFSDeepDirectoriesCounted(t *testing.T) {
	e, _, out := fsEngine(t, nil)
	r := run(t, e, `const deep = "d/".repeat(2040);
		let n = 0, code = "";
		try { for (let i = 0; i < 100; i++) { await fs.write("/out/" + i + "/" + deep + "f", ""); n++ } } catch (e) { code = e.code }
		throw new Error(JSON.stringify([n, code]))`, modebox.RunOptions{Lang: "js"})
	if r.Error == nil || !strings.Contains(r.Error.Message, `[4,"FS_TOO_MANY_ENTRIES"]`) {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
	if entries, err := os.ReadDir(out); err != nil || len(entries) != 1 {
		t.Fatalf("out holds %d entries, %v", len(entries), err)
	}
	t.Log(r.Error.Message)
}
