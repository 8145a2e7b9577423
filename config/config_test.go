package config_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/config"
)

// full sets every key modebox.json has that maps onto the engine, each to a
// value other than its default.
const full = `{
  "limits": {"timeout": "7s", "memory": "32MiB", "fuel": 123, "maxCalls": 9, "maxConcurrency": 3,
             "maxValue": "1MiB", "maxLog": "2KiB", "maxClockReads": 10, "maxTimers": 11, "maxRuns": 5, "maxQueued": 6,
             "queueTimeout": "8s", "approvalTimeout": "9m"},
  "tools": {"calc.*": {"policy": "allow"}, "*.delete_*": {"policy": "deny"}, "sh": {"policy": "ask"}},
  "flows": {"sources": ["calc.read"], "sinks": ["calc.send"]},
  "mcpServers": {
    "calc": {"command": "calc-server", "args": ["--stdio"], "env": {"K": "V"}, "timeout": "3s"},
    "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer x"}, "disabled": true}
  },
  "shell": {"enabled": true, "workspace": ["work"], "network": {"allow": ["example.com:443"]},
            "denyRead": ["~/secret", "keys/*.pem", "/etc/app"], "env": {"LANG": "C"}, "timeout": "4s", "maxTimeout": "40s",
            "maxOutput": "64KiB", "bwrap": "/usr/bin/bwrap", "allowWrite": {"work": [".git"]},
            "limits": {"processes": 11, "openFiles": 12, "fileSize": "1MiB", "memory": "128MiB", "tmpSize": "2MiB"},
            "user": "nobody"},
  "fetch": {"enabled": true, "allow": ["https://api.example.com"], "headers": {"https://api.example.com": {"X-Key": "k"}},
            "maxBytes": "1MiB", "maxHeaderBytes": "8KiB", "maxRequestBody": "16KiB", "timeout": "5s",
            "maxRequests": 13, "maxRedirects": 2, "source": true},
  "fs": {"mounts": [{"host": "data", "guest": "/data", "mode": "rw", "source": true}], "deny": ["*.key", "app/token"],
         "allowWrite": {"/data": [".vscode"]}, "maxFileSize": "1MiB", "maxEntries": 14},
  "tokenStore": "/var/lib/modebox/tokens",
  "mcp": {"approveTool": true}
}`

func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadMapsEverySection(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "modebox.json", full)
	f, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	ec := f.Engine
	if f.Path != path || f.TokenStore != "/var/lib/modebox/tokens" || string(f.MCP) != `{"approveTool": true}` {
		t.Errorf("Path %q TokenStore %q MCP %s", f.Path, f.TokenStore, f.MCP)
	}
	want := modebox.Limits{Timeout: 7 * time.Second, Memory: 32 << 20, Fuel: 123, MaxCalls: 9, MaxConcurrency: 3, MaxValue: 1 << 20, MaxLog: 2 << 10,
		MaxClockReads: 10, MaxTimers: 11}
	if ec.Limits != want {
		t.Errorf("Limits = %+v, want %+v", ec.Limits, want)
	}
	if ec.MaxRuns != 5 || ec.MaxQueued != 6 || ec.QueueTimeout != 8*time.Second || ec.ApprovalTimeout != 9*time.Minute {
		t.Errorf("run limits: %d %d %s %s", ec.MaxRuns, ec.MaxQueued, ec.QueueTimeout, ec.ApprovalTimeout)
	}
	if !reflect.DeepEqual(ec.Policies, map[string]modebox.Policy{"calc.*": modebox.PolicyAllow, "*.delete_*": modebox.PolicyDeny, "sh": modebox.PolicyAsk}) {
		t.Errorf("Policies = %v", ec.Policies)
	}
	if !reflect.DeepEqual(ec.Flows, modebox.Flows{Sources: []string{"calc.read"}, Sinks: []string{"calc.send"}}) {
		t.Errorf("Flows = %+v", ec.Flows)
	}
	// relative paths are against the file's directory; the file is
	// private to sh() and fs
	work, data := filepath.Join(dir, "work"), filepath.Join(dir, "data")
	sh := ec.Shell
	if sh == nil || !reflect.DeepEqual(sh.Workspace, []string{work}) || !reflect.DeepEqual(sh.Private, []string{path}) ||
		!reflect.DeepEqual(sh.AllowWrite, map[string][]string{work: {".git"}}) {
		t.Fatalf("Shell = %+v", sh)
	}
	if sh.Network == nil || !reflect.DeepEqual(sh.Network.Allow, []string{"example.com:443"}) || sh.Timeout != 4*time.Second ||
		sh.MaxTimeout != 40*time.Second || sh.MaxOutput != 64<<10 || sh.Bwrap != "/usr/bin/bwrap" || sh.User != "nobody" ||
		sh.Env["LANG"] != "C" || !reflect.DeepEqual(sh.DenyRead, []string{"~/secret", filepath.Join(dir, "keys", "*.pem"), "/etc/app"}) {
		t.Errorf("Shell = %+v", sh)
	}
	if (sh.Limits != modebox.ShellLimits{Processes: 11, OpenFiles: 12, FileSize: 1 << 20, Memory: 128 << 20, TmpSize: 2 << 20}) {
		t.Errorf("Shell.Limits = %+v", sh.Limits)
	}
	fe := ec.Fetch
	if fe == nil || !reflect.DeepEqual(fe.Allow, []string{"https://api.example.com"}) || fe.Headers["https://api.example.com"]["X-Key"] != "k" ||
		fe.MaxBytes != 1<<20 || fe.MaxHeaderBytes != 8<<10 || fe.MaxRequestBody != 16<<10 || fe.Timeout != 5*time.Second ||
		fe.MaxRequests != 13 || fe.MaxRedirects != 2 || !fe.Source {
		t.Errorf("Fetch = %+v", fe)
	}
	fsc := ec.FS
	if fsc == nil || len(fsc.Mounts) != 1 || fsc.Mounts[0] != (modebox.Mount{Host: data, Guest: "/data", Mode: "rw", Source: true}) ||
		!reflect.DeepEqual(fsc.Deny, []string{"*.key", "app/token"}) || fsc.MaxFileSize != 1<<20 || fsc.MaxEntries != 14 ||
		!reflect.DeepEqual(fsc.AllowWrite, map[string][]string{"/data": {".vscode"}}) || !reflect.DeepEqual(fsc.Private, []string{path}) {
		t.Errorf("FS = %+v", fsc)
	}
	calc, remote := f.MCPServers["calc"], f.MCPServers["remote"]
	if calc.Command != "calc-server" || !reflect.DeepEqual(calc.Args, []string{"--stdio"}) || calc.Env["K"] != "V" || calc.Timeout != 3*time.Second ||
		remote.URL != "https://mcp.example.com/mcp" || remote.Headers["Authorization"] != "Bearer x" || !remote.Disabled || len(f.MCPServers) != 2 {
		t.Errorf("MCPServers = %+v", f.MCPServers)
	}
}

// Every field of the engine's configuration that a file can set is set by
// the full file: a field added to EngineConfig (or to its sections) and
// not mapped here fails this test, instead of being silently left at its
// default for every user of a config file.
func TestEveryEngineFieldIsMapped(t *testing.T) {
	f, err := config.Load(writeFile(t, t.TempDir(), "modebox.json", full))
	if err != nil {
		t.Fatal(err)
	}
	// set by the caller, not by a file: Go values (tools, keys, a
	// certificate pool, a resolver, an environment, an engine image), the
	// bridge executable, fs's staging cap (the default, 64 MiB, is not in
	// modebox.json) and its test-only choice of path resolver
	notFromFile := map[string]bool{"Tools": true, "Continuations": true, "Shell.Bridge": true, "Fetch.RootCAs": true,
		"Fetch.Resolver": true, "Fetch.Getenv": true, "Image": true, "FS.MaxStaged": true, "FS.Fallback": true}
	var walk func(prefix string, v reflect.Value)
	walk = func(prefix string, v reflect.Value) {
		for i := range v.NumField() {
			sf := v.Type().Field(i)
			name := prefix + sf.Name
			if !sf.IsExported() || notFromFile[name] {
				continue
			}
			fv := v.Field(i)
			if fv.Kind() == reflect.Pointer && !fv.IsNil() && fv.Elem().Kind() == reflect.Struct {
				walk(name+".", fv.Elem())
				continue
			}
			if fv.Kind() == reflect.Struct && fv.Type().NumField() > 0 && fv.Type() != reflect.TypeFor[time.Time]() {
				walk(name+".", fv)
				continue
			}
			if fv.IsZero() {
				t.Errorf("EngineConfig.%s is not set from modebox.json", name)
			}
		}
	}
	walk("", reflect.ValueOf(f.Engine))
}

func TestEngineFromFileBuilds(t *testing.T) {
	f, err := config.Parse([]byte(`{"limits": {"timeout": "5s"}, "tools": {"x.*": {"policy": "deny"}}}`), "modebox.json")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := modebox.New(f.Engine)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Run(t.Context(), `return 1 + 1`, modebox.RunOptions{})
	if err != nil || string(res.Value) != "2" {
		t.Fatalf("%v %+v", err, res)
	}
}

func TestErrorsAreTheCLIs(t *testing.T) {
	for _, tc := range []struct{ data, want, path string }{
		{`{"tools": {"a.*": {"policy": "maybe"}}}`, `modebox.json: /tools/a.*/policy: expected "allow", "ask" or "deny", got "maybe"`, "/tools/a.*/policy"},
		{"{\n  \"limits\": }", "modebox.json:2:13: invalid JSON", ""},
		{`{"mcpServers": {"s": {}}}`, "modebox.json: /mcpServers/s", "/mcpServers/s"},
	} {
		_, err := config.Parse([]byte(tc.data), "modebox.json")
		var ce *config.Error
		if !errors.As(err, &ce) {
			t.Fatalf("%s: error %T %v, want *config.Error", tc.data, err, err)
		}
		if !strings.HasPrefix(err.Error(), tc.want) || ce.Path != tc.path {
			t.Errorf("%s: %q (path %q), want prefix %q (path %q)", tc.data, err, ce.Path, tc.want, tc.path)
		}
	}
	_, err := config.Load(filepath.Join(t.TempDir(), "none.json"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestFindAndOpen(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv(config.EnvVar, "")
	// nothing found: the defaults
	if p, err := config.Find(""); p != "" || err != nil {
		t.Fatalf("Find = %q, %v", p, err)
	}
	f, err := config.Open("")
	if err != nil || f.Path != "" || f.Engine.Shell != nil || f.MCPServers != nil {
		t.Fatalf("Open = %+v, %v", f, err)
	}
	// ./modebox.json
	writeFile(t, dir, config.DefaultFile, `{"limits": {"maxCalls": 3}}`)
	if f, err = config.Open(""); err != nil || f.Path != config.DefaultFile || f.Engine.Limits.MaxCalls != 3 {
		t.Fatalf("Open = %+v, %v", f, err)
	}
	// $MODEBOX_CONFIG beats ./modebox.json, the flag beats both
	env := writeFile(t, dir, "env.json", `{"limits": {"maxCalls": 4}}`)
	flag := writeFile(t, dir, "flag.json", `{"limits": {"maxCalls": 5}}`)
	t.Setenv(config.EnvVar, env)
	if f, err = config.Open(""); err != nil || f.Engine.Limits.MaxCalls != 4 {
		t.Fatalf("Open = %+v, %v", f, err)
	}
	if f, err = config.Open(flag); err != nil || f.Engine.Limits.MaxCalls != 5 {
		t.Fatalf("Open = %+v, %v", f, err)
	}
	// a named file must exist
	_, err = config.Open(filepath.Join(dir, "missing.json"))
	var ce *config.Error
	if !errors.As(err, &ce) || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "given by --config") {
		t.Fatalf("Open(missing) = %v", err)
	}
}

func TestSchemaAndStarter(t *testing.T) {
	if _, err := config.Parse(config.Starter(), "starter.json"); err != nil {
		t.Errorf("the starter file does not parse: %v", err)
	}
	if !strings.Contains(string(config.Schema()), `"mcpServers"`) {
		t.Error("the schema lacks mcpServers")
	}
}
