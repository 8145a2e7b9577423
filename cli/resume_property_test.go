package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/jsongen"
)

// printedResume returns the approve command a paused run printed on
// stderr, as arguments after "modebox", and what goes on its standard
// input: nothing when the hint spells the token out, the token when the
// hint reads it from a file ("- <TOKENFILE", for long tokens).
func printedResume(t *testing.T, stdout, stderr string) (string, []string) {
	t.Helper()
	token := strings.TrimSpace(stdout)
	if strings.Contains(stderr, " - <TOKENFILE") {
		args := printedCommand(t, strings.ReplaceAll(stderr, " - <TOKENFILE", " -"), "approve with: ")
		return token, args
	}
	args := printedCommand(t, stderr, "approve with: ")
	if !strings.Contains(strings.Join(args, " "), token) {
		t.Fatalf("the hint does not carry the token: %q", stderr)
	}
	return "", args
}

// Arguments with & < > and the rest of the generated class pause and
// resume through the CLI, each resume run exactly as the paused run
// printed it: a tool of a real MCP server (everything.echo), sh(),
// fetch() and fs.write, all under "ask".
func TestCLIResumeGeneratedArguments(t *testing.T) {
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
	work, out := t.TempDir(), t.TempDir()
	cfg := map[string]any{
		"tools": map[string]any{"sh": map[string]string{"policy": "ask"}, "fetch": map[string]string{"policy": "ask"},
			"fs.write": map[string]string{"policy": "ask"}, "everything.echo": map[string]string{"policy": "ask"}},
		"shell": map[string]any{"enabled": true, "workspace": []string{work}},
		"fetch": map[string]any{"enabled": true, "allow": []string{srv.Listener.Addr().String()}},
		"fs":    map[string]any{"mounts": []any{map[string]any{"host": out, "guest": "/out", "mode": "rw"}}},
	}
	withEcho := false
	if dir := os.Getenv("MODEBOX_MCP_SERVERS_DIR"); dir != "" {
		node, err := exec.LookPath("node")
		if err != nil {
			t.Fatal(err)
		}
		main := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
		cfg["mcpServers"] = map[string]any{"everything": map[string]any{"command": node, "args": []string{main, "stdio"}}}
		withEcho = true
	} else if os.Getenv("CI") != "" {
		t.Fatal("MODEBOX_MCP_SERVERS_DIR is required in CI (.ci/run installs the servers)")
	}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(t.TempDir(), "modebox.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MODEBOX_CONFIG", path)
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	t.Setenv("XDG_STATE_HOME", t.TempDir())

	for seed := range uint64(3) {
		g := jsongen.New(4000 + seed)
		msg, stdin, body, content := g.String(40), g.String(60), g.String(60), g.String(60)
		echo := `null`
		if withEcho {
			echo = fmt.Sprintf(`await everything.echo({message: "a && b <c>" + %s})`, msg.Source)
		}
		prog := fmt.Sprintf(`const echo = %s;
			const sh1 = await sh("cat && echo '&&' '<x>'", {stdin: %s});
			const f = await (await fetch(%q + "/q?a=1&b=<2>", {method: "POST", body: %s})).json();
			await fs.write("/out/f%d & <x>.txt", %s);
			return {echo, sh: sh1.stdout, f};`, echo, stdin.Source, srv.URL, body.Source, seed, content.Source)
		code, stdout, stderr := runCLI(t, prog, "run", "--no-prompt", "-")
		for i := 0; code == ExitPaused; i++ {
			if i > 6 {
				t.Fatalf("seed %d: still paused", seed)
			}
			in, args := printedResume(t, stdout, stderr)
			code, stdout, stderr = runCLI(t, in, args...)
		}
		if code != ExitOK {
			t.Fatalf("seed %d: exit %d %s", seed, code, stderr)
		}
		var res struct {
			Echo any
			Sh   string
			F    map[string]string
		}
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatalf("seed %d: %q: %v", seed, stdout, err)
		}
		if withEcho && !holdsString(res.Echo, "Echo: a && b <c>"+msg.Want.(string)) {
			t.Errorf("seed %d: echo %q", seed, res.Echo)
		}
		if res.Sh != stdin.Want.(string)+"&& <x>\n" {
			t.Errorf("seed %d: sh %q", seed, res.Sh)
		}
		if !reflect.DeepEqual(res.F, map[string]string{"q": "a=1&b=<2>", "body": body.Want.(string)}) {
			t.Errorf("seed %d: fetch %q", seed, res.F)
		}
		disk, err := os.ReadFile(filepath.Join(out, fmt.Sprintf("f%d & <x>.txt", seed)))
		if err != nil || string(disk) != content.Want.(string) {
			t.Errorf("seed %d: file %q %v", seed, disk, err)
		}
	}
	// the paused run prints the whole call it asks about: the approval
	// given by running the printed command covers nothing unseen
	tail := "and-then-the-dangerous-part"
	code, stdout, stderr := runCLI(t, `return await fs.write("/out/long.txt", "`+strings.Repeat("harmless ", 60)+tail+`")`, "run", "--no-prompt", "-")
	if code != ExitPaused || strings.Contains(stderr, "press v") || strings.Contains(stderr, "more bytes") || !strings.Contains(unwrap(stderr), tail) {
		t.Fatalf("exit %d; the paused run does not show the whole call:\n%s", code, stderr)
	}
	in, args := printedResume(t, stdout, stderr)
	if code, _, stderr = runCLI(t, in, args...); code != ExitOK {
		t.Fatalf("exit %d %s", code, stderr)
	}
	// README's order works too: the token first, then the flag
	code, stdout, stderr = runCLI(t, `return await fs.write("/out/readme.txt", "x && y")`, "run", "--no-prompt", "-")
	if code != ExitPaused {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if code, _, stderr = runCLI(t, "", "resume", strings.TrimSpace(stdout), "--approve"); code != ExitOK {
		t.Fatalf("resume TOKEN --approve: exit %d %s", code, stderr)
	}
}

// holdsString reports whether the decoded JSON v holds the string s
// somewhere.
func holdsString(v any, s string) bool {
	switch x := v.(type) {
	case string:
		return x == s
	case []any:
		for _, e := range x {
			if holdsString(e, s) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if holdsString(e, s) {
				return true
			}
		}
	}
	return false
}

// unwrap joins the rows a rendered call wraps long values over.
func unwrap(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		_, after, ok := strings.Cut(line, "│ ")
		if !ok {
			after = line
		}
		b.WriteString(strings.TrimSpace(after))
	}
	return b.String()
}
