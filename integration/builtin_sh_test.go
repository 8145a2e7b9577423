package integration_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/modebox/modebox/internal/shtest"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modebox/modebox"
)

// needBwrap fails in CI and skips elsewhere when bubblewrap is missing.
func needBwrap(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bubblewrap is required in CI (apt-get install bubblewrap)")
		}
		t.Skip("bubblewrap not installed")
	}
}

// shWorkspace is a fresh workspace that commands can write. As root it
// belongs to nobody, so commands run as nobody (the default when the
// workspace's owner is not root), never as host uid 0.
func shWorkspace(t testing.TB) string { t.Helper(); return shtest.Workspace(t) }

func shEngine(t *testing.T, sc *modebox.ShellConfig, pol modebox.Policy) *modebox.Engine {
	t.Helper()
	e, err := modebox.New(modebox.EngineConfig{Shell: sc, Policies: map[string]modebox.Policy{"sh": pol}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

func TestShFromTheGuest(t *testing.T) {
	needBwrap(t)
	ws := shWorkspace(t)
	t.Setenv("MODEBOX_TEST_SECRET", "s3cret")
	e := shEngine(t, &modebox.ShellConfig{Workspace: []string{ws}, Env: map[string]string{"GREETING": "hi"}}, modebox.PolicyAllow)
	r := run(t, e, `
		const a = await sh("echo $GREETING > out.txt && cat out.txt && echo err >&2; exit 3");
		const b = await sh("cat", {stdin: "piped"});
		const c = await sh("env");
		const d = await sh("echo x > /etc/mbx-test; echo x > $HOME/mbx-test", {});
		const t = await sh("sleep 5", {timeout: 300});
		return {a, b: b.stdout, leaked: c.stdout.includes("s3cret"), dcode: d.exitCode, t: t.timedOut};
	`, modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusOK {
		t.Fatalf("%+v", r.Error)
	}
	var v struct {
		A struct {
			ExitCode       int
			Stdout, Stderr string
		}
		B      string
		Leaked bool
		Dcode  int
		T      bool
	}
	must(t, json.Unmarshal(r.Value, &v))
	if v.A.ExitCode != 3 || v.A.Stdout != "hi\n" || v.A.Stderr != "err\n" || v.B != "piped" || v.Leaked || v.Dcode == 0 || !v.T {
		t.Fatalf("%s", r.Value)
	}
	if got, _ := os.ReadFile(filepath.Join(ws, "out.txt")); string(got) != "hi\n" {
		t.Fatalf("workspace write: %q", got)
	}
	if _, err := os.Stat("/etc/mbx-test"); err == nil {
		t.Fatal("wrote /etc")
	}
}

// sh() defaults to ask: without an approver or a way to pause it is
// refused, and with one the person sees the command.
func TestShIsAskByDefault(t *testing.T) {
	needBwrap(t)
	e, err := modebox.New(modebox.EngineConfig{Shell: &modebox.ShellConfig{Workspace: []string{shWorkspace(t)}}})
	must(t, err)
	defer e.Close()
	r := run(t, e, `try { await sh("true") } catch (e) { return e.code }`, modebox.RunOptions{Lang: "js"})
	if string(r.Value) != `"APPROVAL_UNAVAILABLE"` {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
	rec := &recorder{answers: map[string]modebox.Decision{"sh": modebox.Approve}}
	r = run(t, e, `return (await sh("echo ok")).stdout`, modebox.RunOptions{Lang: "js", Approver: rec})
	if string(r.Value) != `"ok\n"` || len(rec.requests()) != 1 || !strings.Contains(string(rec.requests()[0].Args), "echo ok") {
		t.Fatalf("%s %+v", r.Value, rec.requests())
	}
}

// Fail closed: a sandbox that cannot start refuses every command with a
// reason and a fix, and runs nothing.
func TestShFailsClosed(t *testing.T) {
	ws := shWorkspace(t)
	e := shEngine(t, &modebox.ShellConfig{Workspace: []string{ws}, Bwrap: "/nonexistent/bwrap"}, modebox.PolicyAllow)
	r := run(t, e, `try { await sh("touch ran") } catch (e) { return [e.code, e.message] }`, modebox.RunOptions{Lang: "js"})
	var v []string
	must(t, json.Unmarshal(r.Value, &v))
	if len(v) != 2 || v[0] != string(modebox.CodeSandboxUnavailable) || !strings.Contains(v[1], "bwrap") {
		t.Fatalf("%s %+v", r.Value, r.Error)
	}
	if _, err := os.Stat(filepath.Join(ws, "ran")); err == nil {
		t.Fatal("the command ran unconfined")
	}
}

// With a network allowlist, commands reach listed hosts only through the
// proxy; unlisted ports and raw sockets get nothing.
func TestShNetworkThroughProxy(t *testing.T) {
	needBwrap(t)
	if _, err := exec.LookPath("curl"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("curl is required in CI (apt-get install curl)")
		}
		t.Skip("curl not installed")
	}
	listed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "listed-ok") }))
	defer listed.Close()
	unlistedHits := 0
	unlisted := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { unlistedHits++ }))
	defer unlisted.Close()
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer raw.Close()
	rawHits := make(chan struct{}, 10)
	go func() {
		for {
			c, err := raw.Accept()
			if err != nil {
				return
			}
			rawHits <- struct{}{}
			c.Close()
		}
	}()
	lport := listed.Listener.Addr().(*net.TCPAddr).Port
	e := shEngine(t, &modebox.ShellConfig{Workspace: []string{shWorkspace(t)}, Network: &modebox.ShellNetwork{Allow: []string{fmt.Sprintf("127.0.0.1:%d", lport)}}}, modebox.PolicyAllow)
	r := run(t, e, fmt.Sprintf(`
		const ok = await sh("curl -s --max-time 5 %s/");
		const socks = await sh("curl -s --max-time 5 --proxy socks5h://127.0.0.1:3128 %s/");
		const no = await sh("curl -s -o /dev/null -w '%%{http_code}' --max-time 5 %s/");
		const rawTCP = await sh("curl -s --noproxy '*' --max-time 3 http://%s/ || echo refused");
		return {ok: ok.stdout, socks: socks.stdout, no: no.stdout, raw: rawTCP.stdout};
	`, listed.URL, listed.URL, unlisted.URL, raw.Addr()), modebox.RunOptions{Lang: "js"})
	if r.Status != modebox.StatusOK {
		t.Fatalf("%+v", r.Error)
	}
	var v struct{ Ok, Socks, No, Raw string }
	must(t, json.Unmarshal(r.Value, &v))
	if v.Ok != "listed-ok" || v.Socks != "listed-ok" || v.No != "403" || !strings.Contains(v.Raw, "refused") || unlistedHits != 0 || len(rawHits) != 0 {
		t.Fatalf("%s (unlisted hits %d, raw hits %d)", r.Value, unlistedHits, len(rawHits))
	}
	// a network shell is a data-flow sink: after a source it needs
	// approval even though its policy is allow; without network it is not
	secret := modebox.Tool{Name: "secret", Source: true, Handler: func(context.Context, json.RawMessage) (any, error) { return "s", nil }}
	for _, tc := range []struct {
		network *modebox.ShellNetwork
		want    string
	}{
		{&modebox.ShellNetwork{Allow: []string{fmt.Sprintf("127.0.0.1:%d", lport)}}, `"APPROVAL_UNAVAILABLE"`},
		{nil, `"ran"`},
	} {
		se, err := modebox.New(modebox.EngineConfig{
			Tools:    []modebox.Tool{secret},
			Shell:    &modebox.ShellConfig{Workspace: []string{shWorkspace(t)}, Network: tc.network},
			Policies: map[string]modebox.Policy{"sh": modebox.PolicyAllow, "secret": modebox.PolicyAllow},
		})
		must(t, err)
		r := run(t, se, `await tools.secret(); try { await sh("true"); return "ran" } catch (e) { return e.code }`, modebox.RunOptions{Lang: "js"})
		_ = se.Close()
		if string(r.Value) != tc.want {
			t.Errorf("network %v: after a source sh gave %s %+v, want %s", tc.network != nil, r.Value, r.Error, tc.want)
		}
	}
}

// TestShBadInput: a timeout of "1ns", a NUL in the command and an absurd
// output cap are the caller's mistakes (INVALID_ARGUMENT, or a config
// error), never "the sandbox is unavailable".
func TestShBadInput(t *testing.T) {
	needBwrap(t)
	e := shEngine(t, &modebox.ShellConfig{Workspace: []string{shWorkspace(t)}}, modebox.PolicyAllow)
	for _, src := range []string{
		`return await sh("true", {timeout: "1ns"})`,
		`return await sh("true", {timeout: 0.5})`,
		`return await sh("echo a\u0000b")`,
		`return await sh("true", {cwd: "/etc"})`,
	} {
		r := run(t, e, src, modebox.RunOptions{Lang: "js"})
		if r.Error == nil || r.Error.Code != modebox.CodeInvalidArgument || strings.Contains(r.Error.Message, "bubblewrap") {
			t.Errorf("%s: %+v", src, r.Error)
		}
	}
	for _, sc := range []*modebox.ShellConfig{{MaxOutput: -1}, {MaxOutput: 1 << 40}} {
		sc.Workspace = []string{t.TempDir()}
		_, err := modebox.New(modebox.EngineConfig{Shell: sc})
		var ce *modebox.ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("MaxOutput %d: %v", sc.MaxOutput, err)
		}
	}
}

// TestShOutputPastValueLimitNotHeld: a command's output past the run's
// value limit is not kept (it could not be returned), and a result over
// the limit is refused before it is JSON-encoded: four commands writing
// 8 MiB of control bytes to each stream, under a shell maxOutput of 64
// MiB, allocated ~450 MB for a 4 MiB value limit (each byte six times its
// size once escaped).
func TestShOutputPastValueLimitNotHeld(t *testing.T) {
	needBwrap(t)
	e := shEngine(t, &modebox.ShellConfig{Workspace: []string{shWorkspace(t)}, MaxOutput: 64 << 20}, modebox.PolicyAllow)
	prog := `const cmd = "head -c 8388608 /dev/zero | tr '\\0' '\\1'; head -c 8388608 /dev/zero | tr '\\0' '\\1' >&2";
		return (await Promise.allSettled([1, 2, 3, 4].map(() => sh(cmd)))).map(r => r.reason?.code)`
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := e.Run(context.Background(), prog, modebox.RunOptions{Lang: modebox.LangJS})
	runtime.ReadMemStats(&after)
	if err != nil || res.Error != nil || string(res.Value) != `["VALUE_TOO_LARGE","VALUE_TOO_LARGE","VALUE_TOO_LARGE","VALUE_TOO_LARGE"]` {
		t.Fatalf("%v %+v %s", err, res.Error, res.Value)
	}
	n := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d MiB allocated", n>>20)
	if n > 250<<20 { // 97 MiB here; without the fix 398
		t.Errorf("the host allocated %d MiB for four commands (at most 250 expected)", n>>20)
	}
}
