package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/config"
	"github.com/modebox/modebox/internal/syncbuf"
)

func TestStartFailures(t *testing.T) {
	script := filepath.Join(t.TempDir(), "bad.js")
	err := os.WriteFile(script, []byte(`process.stderr.write("fatal: MODEBOX_TOKEN is not set\n"); process.exit(1);`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncbuf.Buffer
	m := startManager(t, map[string]config.Server{
		"everything": npmServer(t, pkgEverything, "stdio"),
		"nope":       {Command: "/nonexistent"},
		"bad":        {Command: "node", Args: []string{script}},
	}, Options{Stderr: &stderr})

	f := m.Failures()
	if len(f) != 2 || f[0].Server != "bad" || f[1].Server != "nope" {
		t.Fatalf("Failures = %+v; want bad and nope", f)
	}
	if !strings.Contains(f[0].Reason, "exit status 1") || !strings.Contains(f[0].StderrTail, "MODEBOX_TOKEN is not set") {
		t.Errorf("bad: %+v", f[0])
	}
	if !strings.Contains(f[0].Error(), "MODEBOX_TOKEN is not set") {
		t.Errorf("bad: error %q lacks the stderr tail", f[0].Error())
	}
	if !strings.Contains(f[1].Error(), "/nonexistent") {
		t.Errorf("nope: %v", f[1].Error())
	}
	if !strings.Contains(stderr.String(), "[bad] fatal: MODEBOX_TOKEN is not set\n") {
		t.Errorf("Options.Stderr got %q", stderr.String())
	}
	if len(toolNames(m, "bad")) != 0 || len(toolNames(m, "nope")) != 0 {
		t.Error("failed servers list tools")
	}
	if got := string(mustCall(t, m, "everything", "echo", `{"message":"ok"}`)); got != `"Echo: ok"` {
		t.Errorf("echo = %s", got)
	}
	_, err = m.Call(context.Background(), "bad", "anything", nil)
	var se *ServerError
	if !errors.As(err, &se) || se.Server != "bad" || !strings.Contains(se.Error(), "MODEBOX_TOKEN") {
		t.Errorf("call to bad: %v; want *ServerError with its stderr", err)
	}
}

func TestEnvironmentAndCwd(t *testing.T) {
	t.Setenv("MODEBOX_TEST_LEAK", "must not reach the server")
	dir := t.TempDir()
	script := filepath.Join(dir, "env.js")
	err := os.WriteFile(script, []byte(`process.stderr.write(JSON.stringify({keys: Object.keys(process.env).sort(), cwd: process.cwd(), foo: process.env.FOO}) + "\n"); process.exit(3);`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node: %v", err)
	}
	m := startManager(t, map[string]config.Server{
		"env": {Command: node, Args: []string{script}, Env: map[string]string{"FOO": "bar"}, Cwd: dir},
	}, Options{})
	f := m.Failures()
	if len(f) != 1 || !strings.Contains(f[0].Reason, "exit status 3") {
		t.Fatalf("Failures = %+v", f)
	}
	var seen struct {
		Keys     []string
		Cwd, Foo string
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(f[0].StderrTail)), &seen); err != nil {
		t.Fatalf("stderr %q: %v", f[0].StderrTail, err)
	}
	if !slices.Contains(seen.Keys, "PATH") || !slices.Contains(seen.Keys, "HOME") || seen.Foo != "bar" ||
		slices.Contains(seen.Keys, "MODEBOX_TEST_LEAK") {
		t.Errorf("server environment: %v, FOO=%q", seen.Keys, seen.Foo)
	}
	if real, _ := filepath.EvalSymlinks(dir); seen.Cwd != dir && seen.Cwd != real {
		t.Errorf("cwd = %q; want %q", seen.Cwd, dir)
	}
}

func TestStartTimeout(t *testing.T) {
	script := filepath.Join(t.TempDir(), "hang.js")
	if err := os.WriteFile(script, []byte(`process.stderr.write("loading...\n"); setInterval(() => {}, 1000);`), 0o644); err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node: %v", err)
	}
	m := startManager(t, map[string]config.Server{"hang": {Command: node, Args: []string{script}}},
		Options{StartTimeout: time.Second})
	f := m.Failures()
	if len(f) != 1 || f[0].Reason != "did not start within 1s" || !strings.Contains(f[0].StderrTail, "loading...") {
		t.Fatalf("Failures = %+v", f)
	}
	if kids := children(); len(kids) != 0 {
		t.Errorf("the server that did not start is still running: %v", kids)
	}
}
