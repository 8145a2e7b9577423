package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, Streams{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func TestRunExample(t *testing.T) {
	code, out, errs := runCLI(t, "", "run", filepath.Join("..", "examples", "hello.ts"))
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil || v["total"] != "4.55" {
		t.Fatalf("stdout %q", out)
	}
	if !strings.Contains(errs, "pricing 3 items") {
		t.Fatalf("logs should go to stderr: %q", errs)
	}
}

func TestExitCodesAndEnvelope(t *testing.T) {
	code, out, _ := runCLI(t, `console.warn("w"); return [1, "two"]`, "run", "--output", "json", "-")
	var env struct {
		Status string
		Result json.RawMessage
		Logs   []struct{ Level, Message string }
		Error  *struct{ Code, Message string }
		Stats  struct{ HostCalls int }
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != ExitOK {
		t.Fatalf("exit %d %q", code, out)
	}
	if env.Status != "ok" || string(env.Result) != `[1,"two"]` || env.Error != nil || len(env.Logs) != 1 || env.Logs[0].Level != "warn" {
		t.Fatalf("%+v", env)
	}
	code, out, _ = runCLI(t, `while(true){}`, "run", "--timeout", "100ms", "--output", "json", "-")
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != ExitFailed || env.Status != "error" || env.Error.Code != "TIMEOUT" {
		t.Fatalf("exit %d %q", code, out)
	}
	code, _, errs := runCLI(t, `throw new Error("boom")`, "run", "-")
	if code != ExitFailed || !strings.Contains(errs, "UNCAUGHT_EXCEPTION: Error: boom") {
		t.Fatalf("exit %d %q", code, errs)
	}
	for _, args := range [][]string{
		{"run"}, {"run", "--memory", "lots", "-"}, {"run", "--output", "yaml", "-"}, {"nope"},
		{"run", "--lang", "cobol", "-"},
	} {
		if code, _, _ := runCLI(t, "return 1", args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, ExitUsage)
		}
	}
	// a program file that cannot be read fails the command
	if code, _, _ := runCLI(t, "return 1", "run", "/does/not/exist.ts"); code != ExitFailed {
		t.Errorf("a missing file: exit %d, want %d", code, ExitFailed)
	}
}

func TestCapFlags(t *testing.T) {
	cases := []struct {
		prog string
		args []string
		want string
	}{
		{`return "x".repeat(1<<24).length`, []string{"--memory", "8MiB"}, "MEMORY_LIMIT"},
		{`let i = 0; while (true) i++`, []string{"--fuel", "10"}, "FUEL_EXHAUSTED"},
		{`return "x".repeat(2000)`, []string{"--max-value", "1KiB"}, "VALUE_TOO_LARGE"},
		{`await new Promise(r => setTimeout(r, 5000))`, []string{"--timeout", "50ms"}, "TIMEOUT"},
	}
	for _, c := range cases {
		args := append(append([]string{"run", "--output", "json"}, c.args...), "-")
		code, out, _ := runCLI(t, c.prog, args...)
		if code != ExitFailed || !strings.Contains(out, `"code":"`+c.want+`"`) {
			t.Errorf("%v: exit %d %s", c.args, code, out)
		}
	}
	code, out, _ := runCLI(t, `for (let i = 0; i < 100; i++) console.log("line " + i); return 1`, "run", "--max-log", "100", "--output", "json", "-")
	if code != ExitOK || !strings.Contains(out, `"logsDropped"`) {
		t.Errorf("max-log: exit %d %s", code, out)
	}
	if code, _, _ := runCLI(t, "", "run", "--max-calls", "1", "--max-concurrency", "1", "-"); code != ExitOK {
		t.Errorf("max-calls flags: exit %d", code)
	}
}

func TestLangFromExtension(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "p.js")
	// valid JS that is not valid TS: a generic-looking comparison
	if err := os.WriteFile(js, []byte("const a = 1, b = 2, c = 3; return a < b > c"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, "", "run", js); code != ExitOK || strings.TrimSpace(out) != "false" {
		t.Fatalf("exit %d %q %q", code, out, errs)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "", "version", "--json")
	var v versionInfo
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != ExitOK {
		t.Fatalf("exit %d %q", code, out)
	}
	if len(v.ImageHash) != 64 || len(v.Imports) != 2 || v.QuickJS != "2021-03-27" {
		t.Fatalf("%+v", v)
	}
	if code, out, _ := runCLI(t, "", "version"); code != ExitOK || !strings.Contains(out, v.ImageHash) {
		t.Fatalf("text version: %q", out)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"64MiB": 64 << 20, "512KiB": 512 << 10, "1048576": 1 << 20, "1GiB": 1 << 30, "10MB": 10e6, "2k": 2048} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("%s: %d %v", in, got, err)
		}
	}
	for _, in := range []string{"", "x", "-1", "MiB", "1.5.2KiB"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// TestErrorText checks the text form of a failed run: the code, the JS
// error's name and message, the program's line, and only the program's
// frames (none from inside the engine).
func TestErrorText(t *testing.T) {
	for prog, want := range map[string]string{
		"class A { constructor() { null.x } }\nnew A()": "UNCAUGHT_EXCEPTION: TypeError: Cannot read properties of null (reading 'x')\n" +
			"  at line 1: class A { constructor() { null.x } }\n    at A (main.ts:1)\n    at main.ts:2\n",
		`throw new RangeError("r")`: "UNCAUGHT_EXCEPTION: RangeError: r\n  at line 1: throw new RangeError(\"r\")\n    at main.ts:1\n",
		`JSON.parse("{")`:           "UNCAUGHT_EXCEPTION: SyntaxError: expecting property name\n  at line 1: JSON.parse(\"{\")\n    at main.ts:1\n",
		`await tools.getSum()`:      "TOOL_NOT_FOUND: ToolError: tools.getSum is not a tool: the toolbox has no tools\n  at line 1: await tools.getSum()\n    at main.ts:1\n",
		`throw 5`:                   "UNCAUGHT_EXCEPTION: uncaught number: 5\n",
	} {
		code, _, errs := runCLI(t, prog, "run", "-")
		if code != ExitFailed || errs != want {
			t.Errorf("%s: exit %d\n got %q\nwant %q", prog, code, errs, want)
		}
	}
}
