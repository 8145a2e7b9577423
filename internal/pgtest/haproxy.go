package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// HAProxyConfig is the load balancer configuration docs/scaling.md shows,
// with the listening address and the replicas filled in: round robin for
// every request, except that a request carrying an Mcp-Session-Id header
// (a client of protocol 2025-11-25 or older, which keeps a session) goes
// to the replica that issued the session.
func HAProxyConfig(listen string, replicas []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `global
    maxconn 4096

defaults
    mode http
    timeout connect 5s
    timeout client 120s
    timeout server 120s
    # Retry a request elsewhere only when no replica got it (the default,
    # conn-failure): never resend a request a replica may have run.
    retries 2
    option redispatch

frontend mcp
    bind %s
    default_backend modebox

backend modebox
    balance roundrobin
    # Sessions (protocol 2025-11-25 and older) stay on their replica;
    # 2026-07-28 requests carry no session and go round robin.
    stick-table type string len 128 size 1m expire 1h
    stick match req.hdr(Mcp-Session-Id)
    stick store-response res.hdr(Mcp-Session-Id)
`, listen)
	for i, r := range replicas {
		fmt.Fprintf(&b, "    server replica%d %s check inter 1s fall 2 rise 1\n", i+1, r)
	}
	return b.String()
}

// HAProxy is a running load balancer.
type HAProxy struct {
	// Addr is its host:port on loopback.
	Addr string
	cmd  *exec.Cmd
}

// StartHAProxy runs Debian's haproxy in the foreground with
// HAProxyConfig in front of replicas (host:port each), on a free port of
// 127.0.0.1, until the end of the test. Without haproxy the test is
// skipped, or fails under CI.
func StartHAProxy(t testing.TB, replicas []string) *HAProxy {
	t.Helper()
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/haproxy"); serr == nil {
			bin = "/usr/sbin/haproxy"
		} else {
			need(t, fmt.Errorf("haproxy was not found (install Debian's haproxy)"))
		}
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
	dir := t.TempDir()
	cfg := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(HAProxyConfig(addr, replicas)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-c", "-f", cfg).CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c: %v\n%s", err, out)
	}
	log, err := os.Create(filepath.Join(dir, "haproxy.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-db", "-f", cfg)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("haproxy: %v", err)
	}
	log.Close()
	h := &HAProxy{Addr: addr, cmd: cmd}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	WaitListening(t, addr, 30*time.Second)
	return h
}

// WaitListening waits until addr accepts TCP connections.
func WaitListening(t testing.TB, addr string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not accept connections after %v: %v", addr, limit, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// CPU returns the processor time the load balancer has used.
func (h *HAProxy) CPU() time.Duration { return ProcessCPU(h.cmd.Process.Pid, true) }
