package cli

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInitAndConfigCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "modebox.json")
	if code, out, errs := runCLI(t, "", "init", path); code != ExitOK || !strings.Contains(out, path) {
		t.Fatalf("init: %d %q %q", code, out, errs)
	}
	if code, _, _ := runCLI(t, "", "init", path); code != ExitFailed {
		t.Fatalf("init over an existing file: %d", code)
	}
	if code, out, errs := runCLI(t, "", "config", "check", path); code != ExitOK || !strings.Contains(out, "ok") {
		t.Fatalf("check: %d %q %q", code, out, errs)
	}
	// the starter starts no server: a console-only run sees an empty
	// toolbox (the example server is disabled) and says nothing about servers
	if code, out, errs := runCLI(t, `console.log("hi"); return Object.keys(tools)`, "run", "--config", path, "-"); code != ExitOK || strings.TrimSpace(out) != "[]" || errs != "hi\n" {
		t.Fatalf("run with the starter: %d %q %q", code, out, errs)
	}
	bad := filepath.Join(dir, "bad.json")
	for content, want := range map[string]string{
		`{"limts": {}}`: `did you mean "limits"`,
		`{"tools": {"gh.*": {"policy": "maybe"}}}`:             "/tools/gh.*/policy",
		"{\n  \"limits\": {\n    \"timeout\": \"5s\",\n  }\n}": "bad.json:4:",
		`{"limits": {"memory": []}}`:                           "/limits/memory",
	} {
		if err := os.WriteFile(bad, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		code, _, errs := runCLI(t, "", "config", "check", bad)
		if code != ExitConfig || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stderr %q, want it to contain %q", content, code, errs, want)
		}
	}
	if code, _, errs := runCLI(t, "", "config", "check", filepath.Join(dir, "missing.json")); code != ExitConfig || errs == "" {
		t.Errorf("missing file: %d %q", code, errs)
	}
}

func TestRunUsesConfigLimits(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "modebox.json")
	if err := os.WriteFile(path, []byte(`{"limits": {"timeout": "5s", "fuel": 20}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "let i = 0; while (true) i++", "run", "--config", path, "--output", "json", "-")
	if code != ExitFailed || !strings.Contains(out, "FUEL_EXHAUSTED") {
		t.Fatalf("config fuel: %d %s", code, out)
	}
	// a flag can narrow the configured limits, never widen them
	code, _, errs := runCLI(t, "return 1", "run", "--config", path, "--timeout", "50s", "-")
	if code != ExitUsage || !strings.Contains(errs, "flags can lower the configured limits, not raise them") {
		t.Fatalf("widening: %d %q", code, errs)
	}
	t.Setenv("MODEBOX_CONFIG", path)
	code, out, _ = runCLI(t, "let i = 0; while (true) i++", "run", "--output", "json", "-")
	if code != ExitFailed || !strings.Contains(out, "FUEL_EXHAUSTED") {
		t.Fatalf("$MODEBOX_CONFIG: %d %s", code, out)
	}
	t.Setenv("MODEBOX_CONFIG", filepath.Join(dir, "nope.json"))
	if code, _, _ := runCLI(t, "return 1", "run", "-"); code != ExitConfig {
		t.Fatalf("a missing $MODEBOX_CONFIG must be a configuration error: %d", code)
	}
}

func TestTypesAndSearch(t *testing.T) {
	t.Setenv("MODEBOX_CONFIG", "")
	t.Chdir(t.TempDir())
	code, out, errs := runCLI(t, "", "types")
	if code != ExitOK || !strings.Contains(out, "declare const tools: {") || !strings.Contains(out, "search(query: string") {
		t.Fatalf("types: %d %q %q", code, out, errs)
	}
	if code, _, _ := runCLI(t, "", "search"); code != ExitUsage {
		t.Fatalf("search without a query: %d", code)
	}
	if code, out, _ := runCLI(t, "", "search", "--json", "anything"); code != ExitOK || strings.TrimSpace(out) != "null" && strings.TrimSpace(out) != "[]" {
		t.Fatalf("search on an empty toolbox: %d %q", code, out)
	}
}

func TestResumeRefusesBadTokens(t *testing.T) {
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_CONFIG", "")
	t.Chdir(t.TempDir())
	code, _, errs := runCLI(t, "", "resume", "--approve", "mbx1.not-a-token")
	if code != ExitToken || !strings.Contains(errs, "TOKEN_MALFORMED") {
		t.Fatalf("garbage token: %d %q", code, errs)
	}
	if code, _, _ := runCLI(t, "", "resume", "sometoken"); code != ExitUsage {
		t.Fatalf("no decision: %d", code)
	}
	if code, _, _ := runCLI(t, "", "resume", "--approve", "--deny", "x"); code != ExitUsage {
		t.Fatalf("both: %d", code)
	}
}

// TestValuesThatCannotWork checks that limits the engine cannot run with
// are configuration errors, from `config check` as from a run, and that a
// bare-number timeout below 1000 (milliseconds) warns.
func TestValuesThatCannotWork(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "modebox.json")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"limits": {"memory": 5}}`)
	for _, args := range [][]string{{"config", "check", path}, {"run", "--config", path, "-"}} {
		code, _, errs := runCLI(t, "return 1", args...)
		if code != ExitConfig || !strings.Contains(errs, "/limits/memory: must be at least 512KiB") {
			t.Errorf("%v: exit %d %q", args, code, errs)
		}
	}
	code, _, errs := runCLI(t, "return 1", "run", "--memory", "100KiB", "-")
	if code != ExitUsage || !strings.Contains(errs, "modebox run: --memory must be at least 512KiB") {
		t.Errorf("--memory 100KiB: exit %d %q", code, errs)
	}
	// A size below one byte is not 0 (the default): it is refused.
	code, _, errs = runCLI(t, "return 1", "run", "--memory", "0.5", "-")
	if code != ExitUsage || !strings.Contains(errs, `size "0.5" is less than one byte`) {
		t.Errorf("--memory 0.5: exit %d %q", code, errs)
	}
	// Negative serving flags are refused, not read as the defaults.
	for _, args := range [][]string{{"--max-sessions", "-1"}, {"--session-idle", "-1s"}} {
		code, _, errs := runCLI(t, "", append([]string{"mcp", "--http", "127.0.0.1:0"}, args...)...)
		if code != ExitUsage || !strings.Contains(errs, "must not be negative") {
			t.Errorf("%v: exit %d %q", args, code, errs)
		}
	}
	if code, out, _ := runCLI(t, `return "x".repeat(10)`, "run", "--memory", "512KiB", "-"); code != ExitOK || strings.TrimSpace(out) != `"xxxxxxxxxx"` {
		t.Errorf("the documented minimum works: exit %d %q", code, out)
	}
	write(`{"limits": {"timeout": 5}}`)
	code, out, errs := runCLI(t, "", "config", "check", path)
	if code != ExitOK || !strings.Contains(out, "ok") || !strings.Contains(errs, `warning: /limits/timeout: the number 5 is milliseconds (5ms); write "5s" for seconds`) {
		t.Errorf("bare timeout: exit %d %q %q", code, out, errs)
	}
	code, _, errs = runCLI(t, "return 1", "run", "--config", path, "-")
	if code != ExitOK || !strings.Contains(errs, "warning: /limits/timeout") {
		t.Errorf("run warns too: exit %d %q", code, errs)
	}
	write(`{"limits": {"timeout": "5s", "queueTimeout": 2000}}`)
	if code, _, errs := runCLI(t, "", "config", "check", path); code != ExitOK || strings.Contains(errs, "warning") {
		t.Errorf("duration strings and large numbers do not warn: %d %q", code, errs)
	}
}

// Cap flags lower the configured limits and never raise them, the
// defaults included when the configuration sets none: "--max-calls 5000"
// without a configuration ran 3,000 calls. The refusal names the flag in
// its own units; raising the limit in the configuration lets it through.
func TestCapFlagsOnlyNarrow(t *testing.T) {
	t.Setenv("MODEBOX_CONFIG", "")
	prog := `let n = 0; for (let i = 0; i < 1200; i++) { await Promise.resolve(); n++ } return n`
	for _, c := range []struct{ flag, value, want string }{
		{"--max-calls", "5000", "--max-calls 5000 is above the limit of 1000"},
		{"--timeout", "1m", "--timeout 1m0s is above the limit of 30s"},
		{"--memory", "1GiB", "--memory 1GiB is above the limit of 64MiB"},
	} {
		code, _, errs := runCLI(t, prog, "run", c.flag, c.value, "-")
		if code == ExitOK || !strings.Contains(errs, c.want) {
			t.Errorf("%s %s: exit %d %q", c.flag, c.value, code, errs)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "modebox.json")
	if err := os.WriteFile(path, []byte(`{"limits": {"maxCalls": 5000}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, prog, "run", "--max-calls", "5000", "--config", path, "-"); code != ExitOK || strings.TrimSpace(out) != "1200" {
		t.Errorf("raised in the configuration: exit %d %q %q", code, out, errs)
	}
	if code, out, errs := runCLI(t, prog, "run", "--max-calls", "10", "-"); code != ExitOK || strings.TrimSpace(out) != "1200" {
		t.Errorf("a lower flag: exit %d %q %q", code, out, errs)
	}
}

// "modebox resume --approve-id N" with an N the run does not have is a
// usage error naming the pending calls, and the token stays usable: it
// denied the real call and spent the token.
func TestResumeUnknownCallID(t *testing.T) {
	cfg, token := pausedRead(t)
	code, _, errs := runCLI(t, "", "resume", "--config", cfg, "--approve-id", "7", token)
	if code != ExitUsage || !strings.Contains(errs, "call 7 is not pending") || !strings.Contains(errs, "its pending calls: 1") {
		t.Fatalf("unknown id: exit %d %q", code, errs)
	}
	code, out, errs := runCLI(t, "", "resume", "--config", cfg, "--approve-id", "1", token)
	if code != ExitOK || !strings.Contains(out, "hello") {
		t.Fatalf("the token after the refusal: exit %d %q %q", code, out, errs)
	}
}

// pausedRead pauses a run of the CLI on an "ask" fs.read of data/a.txt
// ("hello") in a new directory, and returns its modebox.json and the
// token (call 1 pending).
func pausedRead(t *testing.T) (cfg, token string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "a.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg = filepath.Join(dir, "modebox.json")
	if err := os.WriteFile(cfg, []byte(`{"fs": {"mounts": [{"host": "data", "guest": "/data"}]}, "tools": {"fs.*": {"policy": "ask"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, `return await fs.read("/data/a.txt")`, "run", "--config", cfg, "--no-prompt", "-")
	token = strings.TrimSpace(out)
	if code != ExitPaused || token == "" {
		t.Fatalf("run: exit %d %q %q", code, out, errs)
	}
	return cfg, token
}

// TestCountFlagsDecimal: the integer flags read decimal digits only. pflag's
// own integer flags took "0x10" as 16, "010" as 8 and "1_000" as 1000.
func TestCountFlagsDecimal(t *testing.T) {
	for _, v := range []string{"0x10", "0o7", "0b1", "1_000", "+5", " 5", "5 ", "1e3", "", "99999999999999999999"} {
		code, _, errs := runCLI(t, "return 1", "run", "--max-calls", v, "-")
		if code != ExitUsage || !strings.Contains(errs, `invalid argument "`+v+`" for "--max-calls" flag: must be`) {
			t.Errorf("--max-calls %q: exit %d %q", v, code, errs)
		}
	}
	code, _, errs := runCLI(t, "return 1", "run", "--fuel", "-1", "-")
	if code != ExitUsage || !strings.Contains(errs, "must not be negative") {
		t.Errorf("--fuel -1: exit %d %q", code, errs)
	}
	// Leading zeros are decimal: "01001" is 1001, above the default limit
	// of 1000 (in octal it was 513, under it).
	t.Setenv("MODEBOX_CONFIG", "")
	code, _, errs = runCLI(t, "return 1", "run", "--max-calls", "01001", "-")
	if code != ExitUsage || !strings.Contains(errs, "--max-calls 1001 is above the limit of 1000") {
		t.Errorf("--max-calls 01001: exit %d %q", code, errs)
	}
	code, out, errs := runCLI(t, "return [1,2,3].length", "run", "--max-calls", "010", "--max-concurrency", "08", "--seed", "0009", "-")
	if code != ExitOK || strings.TrimSpace(out) != "3" {
		t.Errorf("leading zeros: exit %d %q %q", code, out, errs)
	}
}

func TestCountFlagValues(t *testing.T) {
	var n int
	f := intCount(&n)
	for in, want := range map[string]int{"0": 0, "010": 10, "9223372036854775807": math.MaxInt} {
		if err := f.Set(in); err != nil || n != want {
			t.Errorf("Set(%q) = %v, n = %d; want %d", in, err, n, want)
		}
	}
	if err := f.Set("9223372036854775808"); err == nil {
		t.Errorf("MaxInt+1 accepted as %d", n)
	}
	var u uint64
	g := uintCount(&u)
	if err := g.Set("18446744073709551615"); err != nil || u != math.MaxUint64 {
		t.Errorf("MaxUint64: %v %d", err, u)
	}
	if g.String() != "18446744073709551615" || g.Type() != "count" {
		t.Errorf("String %q Type %q", g.String(), g.Type())
	}
}

// TestEngineConfigErrorsNameThePointer: an error found while building the
// engine from modebox.json names the file and the JSON Pointer of the
// section, as Parse's errors do, not the Go field (EngineConfig.Policies,
// Shell, FS, Fetch), and says its code once.
func TestEngineConfigErrorsNameThePointer(t *testing.T) {
	t.Setenv("MODEBOX_CONFIG", "")
	t.Setenv("NOPE_NOT_SET", "")
	os.Unsetenv("NOPE_NOT_SET")
	dir := t.TempDir()
	path := filepath.Join(dir, "modebox.json")
	for doc, want := range map[string]string{
		`{"tools": {"shh": {"policy": "allow"}}}`:                                                                   "CONFIG_INVALID: " + path + ": /tools/shh: matches no tool",
		`{"tools": {"a/b~": {"policy": "allow"}}}`:                                                                  "CONFIG_INVALID: " + path + ": /tools/a~1b~0: ",
		`{"fs": {"mounts": [{"host": "` + dir + `", "guest": "/o"}], "deny": ["*.{db,json}"]}}`:                     "FS_CONFIG: " + path + ": /fs: new deny pattern",
		`{"fetch": {"enabled": true, "allow": ["a.com:443"], "headers": {"a.com:443": {"X": "env:NOPE_NOT_SET"}}}}`: "FETCH_CONFIG: " + path + ": /fetch: headers for",
	} {
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"run", "--config", path, "-"}, {"config", "check", path}} {
			code, _, errs := runCLI(t, "return 1", args...)
			if code != ExitConfig || !strings.Contains(errs, want) || strings.Contains(errs, "EngineConfig.") || strings.Count(errs, "_CONFIG") > 1 {
				t.Errorf("%s %v: exit %d %q, want %q", doc, args[0], code, errs, want)
			}
		}
	}
}

// TestRunProgramUnreadable: a program file that cannot be read fails the
// command (exit 1, an envelope with -o json), without the usage text; an
// unknown --lang is a usage error that names the flag.
func TestRunProgramUnreadable(t *testing.T) {
	t.Setenv("MODEBOX_CONFIG", "")
	missing := filepath.Join(t.TempDir(), "nosuch.ts")
	code, out, errs := runCLI(t, "", "run", missing)
	if code != ExitFailed || !strings.Contains(errs, "cannot read the program") || strings.Contains(errs, "Usage:") || out != "" {
		t.Errorf("missing file: exit %d %q %q", code, out, errs)
	}
	code, out, _ = runCLI(t, "", "run", "-o", "json", missing)
	if code != ExitFailed || !strings.Contains(out, `"status":"error"`) || !strings.Contains(out, "no such file") {
		t.Errorf("missing file, json: exit %d %q", code, out)
	}
	code, _, errs = runCLI(t, "return 1", "run", "--lang", "py", "-")
	if code != ExitUsage || !strings.Contains(errs, `--lang must be js or ts, got "py"`) || strings.Contains(errs, "RunOptions") {
		t.Errorf("--lang py: exit %d %q", code, errs)
	}
}
