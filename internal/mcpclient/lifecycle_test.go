package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	select {
	case err = <-errc:
		t.Logf("the call in flight failed %s after the kill", time.Since(killed).Round(time.Millisecond))
	case <-time.After(10 * time.Second):
		t.Fatal("the call in flight did not fail after the server was killed")
	}
	var se *ServerError
	if !errors.As(err, &se) || !strings.HasPrefix(se.Reason, "exited") || !strings.Contains(err.Error(), "signal: killed") {
		t.Fatalf("in-flight call: %v (%T); want *ServerError exited", err, err)
	}
	if !waitFor(5*time.Second, func() bool { return !groupAlive(pid) }) {
		t.Error("the killed server's process group is still alive")
	}

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
	<-c.done
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = m.Call(ctx, "everything", "echo", json.RawMessage(`{"message":"x"}`))
	if !errors.As(err, &se) || !strings.Contains(se.Reason, "is down") {
		t.Errorf("call during backoff: %v; want *ServerError is down", err)
	}

	// Concurrent calls share one restart.
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			msg := fmt.Sprintf(`{"message":"again %d"}`, i)
			if got := string(mustCall(t, m, "everything", "echo", msg)); got != fmt.Sprintf(`"Echo: again %d"`, i) {
				t.Errorf("echo after second restart = %s", got)
			}
		})
	}
	wg.Wait()
	if kids := children(); len(kids) != 1 {
		t.Errorf("children after concurrent restart: %v; want 1", kids)
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
	inflight := make(chan error, 1)
	go func() {
		_, err := m.Call(context.Background(), "everything", "trigger-long-running-operation", json.RawMessage(`{"duration":30,"steps":3}`))
		inflight <- err
	}()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Close took %s", time.Since(start).Round(time.Millisecond))
	select {
	case err := <-inflight:
		if !errors.Is(err, ErrClosed) {
			t.Errorf("call in flight during Close: %v; want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("the call in flight did not end with Close")
	}
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
