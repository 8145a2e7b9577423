package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigErrorShowsCode checks a configuration error's stable code is
// on the CLI's stderr (in front of the message, after the command) and in
// `config check --json`, for each kind: a file that is not there, one that
// is not JSON, a refused value, and a refused EngineConfig (ConfigError).
func TestConfigErrorShowsCode(t *testing.T) {
	t.Setenv("MODEBOX_CONFIG", "")
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	syntax := write("syntax.json", `{"limits": {`)
	invalid := write("invalid.json", `{"limts": {}}`)
	// an fs source mount that overlaps a plain one: refused by New
	// (a ConfigError), not by the parser
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o700); err != nil {
		t.Fatal(err)
	}
	overlap := write("overlap.json", `{"fs": {"mounts": [{"guest": "/a", "host": "data", "source": true}, {"guest": "/b", "host": "data"}]}}`)
	for _, tc := range []struct {
		path, code, msg string
	}{
		{filepath.Join(dir, "missing.json"), "CONFIG_NOT_FOUND", "config file not found"},
		{syntax, "CONFIG_SYNTAX", "invalid JSON"},
		{invalid, "CONFIG_INVALID", `/limts: unknown key (did you mean "limits"?)`},
		{overlap, "CONFIG_INVALID", "overlaps the source mount"},
	} {
		code, _, errs := runCLI(t, "", "config", "check", tc.path)
		if code != ExitConfig || !strings.HasPrefix(errs, "modebox config check: "+tc.code+": ") || !strings.Contains(errs, tc.msg) {
			t.Errorf("%s: exit %d, stderr %q, want modebox config check: %s: …%s…", tc.path, code, errs, tc.code, tc.msg)
		}
		code, _, errs = runCLI(t, "return 1", "run", "--config", tc.path, "-")
		if code != ExitConfig || !strings.HasPrefix(errs, "modebox run: "+tc.code+": ") {
			t.Errorf("run --config %s: exit %d, stderr %q, want the code %s", tc.path, code, errs, tc.code)
		}
		if tc.code == "CONFIG_NOT_FOUND" {
			continue // config check --output json reports a file it found
		}
		code, out, _ := runCLI(t, "", "config", "check", tc.path, "--output", "json")
		var rep checkReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil || code != ExitConfig || rep.Code != tc.code || rep.OK {
			t.Errorf("config check --output json %s: exit %d, %q (%v), want code %s", tc.path, code, out, err, tc.code)
		}
	}
	// the line docs/configuration.md prints
	write("modebox.json", `{"limts": {}}`)
	if code, _, errs := runCLI(t, "", "config", "check"); code != ExitConfig || errs != "modebox config check: CONFIG_INVALID: modebox.json: /limts: unknown key (did you mean \"limits\"?)\n" {
		t.Errorf("config check of ./modebox.json: exit %d, stderr %q", code, errs)
	}
	if err := os.Remove(filepath.Join(dir, "modebox.json")); err != nil {
		t.Fatal(err)
	}
	// no configuration at all: config check needs one
	if code, _, errs := runCLI(t, "", "config", "check"); code != ExitConfig || !strings.HasPrefix(errs, "modebox config check: CONFIG_NOT_FOUND: no configuration found") {
		t.Errorf("config check without a file: exit %d, stderr %q", code, errs)
	}
}
