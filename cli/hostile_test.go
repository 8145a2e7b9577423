package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/hostilemcp"
)

// TestMain lets the test binary serve as a hostile MCP server.
func TestMain(m *testing.M) {
	hostilemcp.MaybeRun()
	os.Exit(m.Run())
}

// hostileConfig writes a modebox.json with the test binary as servers in
// the given modes and returns its path.
func hostileConfig(t *testing.T, modes map[string]string) string {
	t.Helper()
	servers := map[string]any{}
	for name, mode := range modes {
		servers[name] = map[string]any{"command": os.Args[0], "env": map[string]string{hostilemcp.ModeEnv: mode}}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "modebox.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHostileServerTextIsSanitised(t *testing.T) {
	cfg := hostileConfig(t, map[string]string{"evil": "escapes", "crash": "stderr-escapes", "names": "names"})
	check := func(what, text string) {
		t.Helper()
		if strings.ContainsAny(text, "\x1b\x07") {
			t.Errorf("%s: raw escape reached the terminal: %q", what, text)
		}
	}
	code, out, errs := runCLI(t, `return await tools.evil.evil({})`, "run", "--config", cfg, "-")
	if code != ExitFailed || !strings.Contains(errs, `\x1b]52`) {
		t.Errorf("run: exit %d, stderr %q", code, errs)
	}
	check("run stdout", out)
	check("run stderr", errs)
	if !strings.Contains(errs, `"crash" did not start`) {
		t.Errorf("the crashing server is not reported: %q", errs)
	}
	// the well-behaved server beside them keeps working, its clashing
	// names renamed with a warning
	code, out, errs = runCLI(t, `return [await tools.names.echo({a: 1}), typeof tools.names.get_data_2]`, "run", "--config", cfg, "-")
	if code != ExitOK || strings.Join(strings.Fields(out), "") != `["{\"a\":1}","function"]` || !strings.Contains(errs, "get_data_2") {
		t.Errorf("names: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, args := range [][]string{{"types", "--config", cfg}, {"search", "--config", cfg, "evil", "description"}} {
		_, out, errs := runCLI(t, "", args...)
		check(args[0]+" stdout", out)
		check(args[0]+" stderr", errs)
		if !strings.Contains(out, "description with escapes") {
			t.Errorf("%s: the description is missing: %q", args[0], out)
		}
	}
}

func TestHostileRuleOnServerNamesFailsClosed(t *testing.T) {
	dir := t.TempDir()
	write := func(tools map[string]any) string {
		b, _ := json.Marshal(map[string]any{
			"mcpServers": map[string]any{"my-srv": map[string]any{"command": os.Args[0], "env": map[string]string{hostilemcp.ModeEnv: "names"}}},
			"tools":      tools,
		})
		p := filepath.Join(dir, "modebox.json")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, pattern := range []string{"my-srv.get-sum", "my-srv.*"} {
		cfg := write(map[string]any{pattern: map[string]any{"policy": "deny"}})
		code, out, errs := runCLI(t, `return await tools.my_srv.get_sum({})`, "run", "--config", cfg, "-")
		if code == ExitOK || !strings.Contains(errs, "TOOL_DENIED") {
			t.Errorf("%s deny: exit %d, stdout %q, stderr %q", pattern, code, out, errs)
		}
	}
	cfg := write(map[string]any{"my-srv.get-sums": map[string]any{"policy": "deny"}})
	code, _, errs := runCLI(t, `return 1`, "run", "--config", cfg, "-")
	if code == ExitOK || !strings.Contains(errs, "matches no tool") {
		t.Errorf("a rule matching nothing: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "config", "check", cfg)
	if code != ExitUsage || !strings.Contains(errs, `matches no tool of \"my-srv\"`) && !strings.Contains(errs, `matches no tool of "my-srv"`) {
		t.Errorf("config check of a rule matching nothing: exit %d, stderr %q", code, errs)
	}
	code, out, errs := runCLI(t, "", "config", "check", write(map[string]any{"my-srv.get-sum": map[string]any{"policy": "deny"}}))
	if code != ExitOK || !strings.Contains(out, ": ok") {
		t.Errorf("config check of a rule by the original name: exit %d, %q %q", code, out, errs)
	}
}
