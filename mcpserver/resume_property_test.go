package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/modebox/modebox/internal/shtest"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/jsongen"
)

// Generated arguments (every JSON type, every plane, & < > and the other
// escapes, deep nesting, large strings) pause and resume through the MCP
// server, on both routes that pause: the approve tool (a client without
// elicitation) and input_required with the token as requestState (a
// 2026-07-28 client, whose SDK answers and retries). A Go tool, sh(),
// fetch() and fs.write are all under "ask".
func TestMCPResumeGeneratedArguments(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bubblewrap is required in CI")
		}
		t.Skip("bubblewrap not installed")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		_ = json.NewEncoder(w).Encode(map[string]string{"q": r.URL.RawQuery, "body": string(b)})
	}))
	t.Cleanup(srv.Close)
	out := t.TempDir()
	guarded := modebox.Tool{Namespace: "t", Name: "guarded", Policy: modebox.PolicyAsk,
		Handler: func(_ context.Context, args json.RawMessage) (any, error) { return args, nil }}
	eng, err := modebox.New(modebox.EngineConfig{
		Tools:    []modebox.Tool{guarded},
		Shell:    &modebox.ShellConfig{Workspace: []string{shWorkspace(t)}},
		Fetch:    &modebox.FetchConfig{Allow: []string{srv.Listener.Addr().String()}},
		FS:       &modebox.FSConfig{Mounts: []modebox.Mount{{Host: out, Guest: "/out", Mode: "rw"}}},
		Policies: map[string]modebox.Policy{"fetch": modebox.PolicyAsk, "fs.write": modebox.PolicyAsk},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	routes := []struct {
		name string
		run  func(t *testing.T, code string) output
	}{
		{"approve tool", func(t *testing.T, code string) output {
			cs := connect(t, New(eng, Options{ApproveTool: true}), clientOptions(nil), legacyVersion)
			_, o := runCode(t, cs, code)
			for i := 0; o.Status == "paused"; i++ {
				if i > 6 {
					t.Fatal("still paused")
				}
				o = structured(t, call(t, cs, "approve", map[string]any{"token": o.Token, "decisions": "approve"}))
			}
			return o
		}},
		{"input_required", func(t *testing.T, code string) output {
			cs := connect(t, New(eng, Options{}), clientOptions(&elicitor{decision: "approve"}), newVersion)
			_, o := runCode(t, cs, code)
			return o
		}},
	}
	for _, rt := range routes {
		t.Run(rt.name, func(t *testing.T) {
			for seed := range uint64(6) {
				g := jsongen.New(5000 + seed)
				v, stdin, body, content := g.Any(), g.String(50), g.String(50), g.String(50)
				file := fmt.Sprintf("%s-%d & <x>.txt", rt.name, seed)
				code := fmt.Sprintf(`const v = %s;
					const a = await t.guarded({v, s: "a && b <c>"});
					const s = await sh("cat && echo '&&' '<x>'", {stdin: %s});
					const f = await (await fetch(%q + "/q?a=1&b=<2>", {method: "POST", body: %s})).json();
					await fs.write(%q, %s);
					return {v: a.v, s: s.stdout, f};`, v.Source, stdin.Source, srv.URL, body.Source, "/out/"+file, content.Source)
				o := rt.run(t, code)
				if o.Status != "ok" {
					t.Fatalf("seed %d: %s %+v", seed, o.Status, o.Error)
				}
				var res struct {
					V any
					S string
					F map[string]string
				}
				if err := json.Unmarshal(o.Result, &res); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(res.V, v.Want) {
					t.Errorf("seed %d: the tool got another value", seed)
				}
				if res.S != stdin.Want.(string)+"&& <x>\n" {
					t.Errorf("seed %d: sh %q", seed, res.S)
				}
				if !reflect.DeepEqual(res.F, map[string]string{"q": "a=1&b=<2>", "body": body.Want.(string)}) {
					t.Errorf("seed %d: fetch %q", seed, res.F)
				}
				disk, err := os.ReadFile(filepath.Join(out, file))
				if err != nil || string(disk) != content.Want.(string) {
					t.Errorf("seed %d: file %q %v", seed, disk, err)
				}
			}
		})
	}
}

// shWorkspace returns a directory sh() may write (shtest.Workspace).
func shWorkspace(t testing.TB) string { t.Helper(); return shtest.Workspace(t) }
