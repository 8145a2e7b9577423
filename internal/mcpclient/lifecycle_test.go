package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/config"
)

func TestFilesystem(t *testing.T) {
	dir := t.TempDir()
	m := startManager(t, map[string]config.Server{
		"fs": npmServer(t, pkgFilesystem, dir),
	}, Options{})
	path := filepath.Join(dir, "note.txt")
	args, _ := json.Marshal(map[string]string{"path": path, "content": "hello from modebox\n"})
	mustCall(t, m, "fs", "write_file", string(args))
	if data, err := os.ReadFile(path); err != nil || string(data) != "hello from modebox\n" {
		t.Fatalf("file = %q, %v", data, err)
	}
	args, _ = json.Marshal(map[string]string{"path": path})
	var read struct{ Content string }
	res := mustCall(t, m, "fs", "read_text_file", string(args))
	if err := json.Unmarshal(res, &read); err != nil || read.Content != "hello from modebox\n" {
		t.Errorf("read_text_file = %s (%v); want structured {content}", res, err)
	}

	// No roots are advertised, so the server keeps the directory it was given.
	if res := string(mustCall(t, m, "fs", "list_allowed_directories", ``)); !strings.Contains(res, filepath.Base(dir)) {
		t.Errorf("allowed directories = %s; want %s", res, dir)
	}

	// A result with isError true.
	_, err := m.Call(context.Background(), "fs", "read_text_file", json.RawMessage(`{"path":"/etc/hostname"}`))
	var te *ToolError
	if !errors.As(err, &te) || !strings.Contains(te.Message, "denied") {
		t.Errorf("outside read: %v (%T); want *ToolError with the server's message", err, err)
	}
}

func TestMemory(t *testing.T) {
	dir := t.TempDir()
	srv := npmServer(t, pkgMemory)
	file := filepath.Join(dir, "memory.jsonl")
	srv.Env = map[string]string{"MEMORY_FILE_PATH": file}
	m := startManager(t, map[string]config.Server{"memory": srv}, Options{})
	mustCall(t, m, "memory", "create_entities",
		`{"entities":[{"name":"modebox","entityType":"project","observations":["runs JS in a sandbox"]}]}`)
	var graph struct {
		Entities []struct {
			Name         string
			Observations []string
		}
	}
	res := mustCall(t, m, "memory", "read_graph", `{}`)
	if err := json.Unmarshal(res, &graph); err != nil || len(graph.Entities) != 1 || graph.Entities[0].Name != "modebox" {
		t.Fatalf("read_graph = %s (%v)", res, err)
	}
	if data, err := os.ReadFile(file); err != nil || !bytes.Contains(data, []byte("modebox")) {
		t.Errorf("memory file = %q, %v", data, err)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestStartFailures(t *testing.T) {
	script := filepath.Join(t.TempDir(), "bad.js")
	err := os.WriteFile(script, []byte(`process.stderr.write("fatal: MODEBOX_TOKEN is not set\n"); process.exit(1);`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
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

// waitFor polls cond for up to d.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cond()
}

func TestCrashRestart(t *testing.T) {
	m := startManager(t, map[string]config.Server{
		"everything": npmServer(t, pkgEverything, "stdio"),
	}, Options{})
	var failedAfter time.Duration
	pid := livePgids(m)["everything"]
	if pid == 0 {
		t.Fatal("no process")
	}

	// The call in flight fails with the exit.
	errc := make(chan error, 1)
	go func() {
		_, err := m.Call(context.Background(), "everything", "trigger-long-running-operation", json.RawMessage(`{"duration":30,"steps":3}`))
		errc <- err
	}()
	time.Sleep(300 * time.Millisecond)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var err error
	killed := time.Now()
	defer func() { t.Logf("in-flight failure after kill: %s", failedAfter) }()
	select {
	case err = <-errc:
		failedAfter = time.Since(killed).Round(time.Millisecond)
	case <-time.After(10 * time.Second):
		t.Fatal("the call in flight did not fail after the server was killed")
	}
	var se *ServerError
	if !errors.As(err, &se) || !strings.HasPrefix(se.Reason, "exited") || !strings.Contains(err.Error(), "signal: killed") {
		t.Fatalf("in-flight call: %v (%T); want *ServerError exited", err, err)
	}
	t1 := time.Now()
	if !waitFor(5*time.Second, func() bool { return !groupAlive(pid) }) {
		t.Error("the killed server's process group is still alive")
	}
	t.Logf("group gone after %s", time.Since(t1))

	// The next call restarts the server.
	start := time.Now()
	if got := string(mustCall(t, m, "everything", "echo", `{"message":"back"}`)); got != `"Echo: back"` {
		t.Errorf("echo after restart = %s", got)
	}
	t.Logf("restart + call took %s", time.Since(start).Round(time.Millisecond))
	pid2 := livePgids(m)["everything"]
	if pid2 == 0 || pid2 == pid {
		t.Fatalf("pid after restart = %d (was %d)", pid2, pid)
	}

	// Killed again: a call whose deadline ends before the backoff fails at once.
	s := m.servers["everything"]
	s.mu.Lock()
	c := s.live
	s.mu.Unlock()
	_ = syscall.Kill(pid2, syscall.SIGKILL)
	t0 := time.Now()
	<-c.done
	t.Logf("session ended %s after the second kill", time.Since(t0).Round(time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = m.Call(ctx, "everything", "echo", json.RawMessage(`{"message":"x"}`))
	if !errors.As(err, &se) || !strings.Contains(se.Reason, "is down") {
		t.Errorf("call during backoff: %v; want *ServerError is down", err)
	}
	if got := string(mustCall(t, m, "everything", "echo", `{"message":"again"}`)); got != `"Echo: again"` {
		t.Errorf("echo after second restart = %s", got)
	}
}

// children returns the pids whose parent is this process.
func children() []string {
	var out []string
	self := strconv.Itoa(os.Getpid())
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the parenthesized command: state ppid pgrp ...
		if i := bytes.LastIndexByte(data, ')'); i >= 0 {
			if f := strings.Fields(string(data[i+1:])); len(f) > 1 && f[1] == self {
				out = append(out, e.Name())
			}
		}
	}
	return out
}

func TestCloseLeavesNoProcesses(t *testing.T) {
	dir := t.TempDir()
	mem := npmServer(t, pkgMemory)
	mem.Env = map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "m.jsonl")}
	m := New(map[string]config.Server{
		"everything": npmServer(t, pkgEverything, "stdio"),
		"fs":         npmServer(t, pkgFilesystem, dir),
		"memory":     mem,
	}, Options{})
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	pgids := livePgids(m)
	if len(pgids) != 3 {
		t.Fatalf("running: %v", pgids)
	}
	start := time.Now()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Close took %s", time.Since(start).Round(time.Millisecond))
	for name, pgid := range pgids {
		if groupAlive(pgid) {
			t.Errorf("%s: process group %d still alive after Close", name, pgid)
		}
	}
	if kids := children(); len(kids) != 0 {
		t.Errorf("child processes left: %v", kids)
	}
	_, err := m.Call(context.Background(), "everything", "echo", json.RawMessage(`{"message":"x"}`))
	if !errors.Is(err, ErrClosed) {
		t.Errorf("call after Close: %v; want ErrClosed", err)
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}
