package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/config"
)

// The tests run the npm reference servers. They are found in
// $MODEBOX_MCP_SERVERS_DIR/node_modules (as installed by
// `npm install --prefix DIR @modelcontextprotocol/server-everything
// @modelcontextprotocol/server-filesystem @modelcontextprotocol/server-memory`),
// else run with `npx -y PKG`. When neither works the tests fail if $CI is
// set and are skipped otherwise.

const (
	pkgEverything = "@modelcontextprotocol/server-everything"
	pkgFilesystem = "@modelcontextprotocol/server-filesystem"
	pkgMemory     = "@modelcontextprotocol/server-memory"
)

// unavailable fails the test under CI and skips it elsewhere.
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") != "" {
		t.Fatal("MCP test servers unavailable: " + msg)
	}
	t.Skip("MCP test servers unavailable (set MODEBOX_MCP_SERVERS_DIR): " + msg)
}

// npmServer returns the config that runs the npm package pkg with args.
func npmServer(t *testing.T, pkg string, args ...string) config.Server {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable(t, "node: %v", err)
	}
	if dir := os.Getenv("MODEBOX_MCP_SERVERS_DIR"); dir != "" {
		main, err := packageBin(filepath.Join(dir, "node_modules", pkg))
		if err != nil {
			unavailable(t, "%v", err)
		}
		return config.Server{Command: node, Args: append([]string{main}, args...)}
	}
	if err := probeNpx(pkg); err != nil {
		unavailable(t, "npx -y %s: %v", pkg, err)
	}
	return config.Server{Command: "npx", Args: append([]string{"-y", pkg}, args...)}
}

// packageBin returns the path of the (only or first) bin of the package
// installed in dir.
func packageBin(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", err
	}
	var pj struct {
		Bin json.RawMessage `json:"bin"`
	}
	if err := json.Unmarshal(data, &pj); err != nil {
		return "", fmt.Errorf("%s/package.json: %v", dir, err)
	}
	var one string
	var many map[string]string
	if json.Unmarshal(pj.Bin, &one) != nil {
		if err := json.Unmarshal(pj.Bin, &many); err != nil || len(many) == 0 {
			return "", fmt.Errorf("%s/package.json: no bin", dir)
		}
		keys := make([]string, 0, len(many))
		for k := range many {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		one = many[keys[0]]
	}
	return filepath.Join(dir, one), nil
}

var npxProbes sync.Map // pkg → *npxProbe

type npxProbe struct {
	once sync.Once
	err  error
}

// probeNpx checks once per package that npx can fetch it, so that a
// machine without the package or the registry skips rather than fails.
func probeNpx(pkg string) error {
	v, _ := npxProbes.LoadOrStore(pkg, &npxProbe{})
	p := v.(*npxProbe)
	p.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, "npx", "-y", "-p", pkg, "node", "-e", "0").CombinedOutput()
		if err != nil {
			p.err = fmt.Errorf("%v: %s", err, bytes.TrimSpace(out))
		}
	})
	return p.err
}

// startManager starts a Manager for servers and closes it at the end of
// the test.
func startManager(t *testing.T, servers map[string]config.Server, opts Options) *Manager {
	t.Helper()
	m := New(servers, opts)
	t.Cleanup(func() {
		start := time.Now()
		_ = m.Close()
		t.Logf("Close took %s", time.Since(start).Round(time.Millisecond))
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	if err := m.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Logf("started %d server(s) in %s", len(servers), time.Since(start).Round(time.Millisecond))
	return m
}

// mustCall calls a tool and fails the test on error.
func mustCall(t *testing.T, m *Manager, server, tool, args string) json.RawMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := m.Call(ctx, server, tool, json.RawMessage(args))
	if err != nil {
		t.Fatalf("Call %s.%s(%s): %v", server, tool, args, err)
	}
	return res
}

// toolNames returns the names of server's tools.
func toolNames(m *Manager, server string) []string {
	var names []string
	for _, tool := range m.Tools() {
		if tool.Server == server {
			names = append(names, tool.Name)
		}
	}
	return names
}

// hasTool reports whether server lists tool.
func hasTool(m *Manager, server, tool string) bool {
	for _, n := range toolNames(m, server) {
		if n == tool {
			return true
		}
	}
	return false
}

// groupAlive reports whether a process of the process group pgid is alive.
func groupAlive(pgid int) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the parenthesized command: state ppid pgrp ...
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		// A zombie is dead already; orphans are reaped by init, which
		// here may take a second.
		if len(f) > 2 && f[2] == fmt.Sprint(pgid) && f[0] != "Z" {
			return true
		}
	}
	return false
}

// livePgids returns the process group ids of the manager's running stdio
// servers.
func livePgids(m *Manager) map[string]int {
	out := map[string]int{}
	for name, s := range m.servers {
		s.mu.Lock()
		if c := s.live; c != nil && c.proc != nil {
			out[name] = c.proc.cmd.Process.Pid
		}
		s.mu.Unlock()
	}
	return out
}
