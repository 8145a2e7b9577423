package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// HAProxy is a running load balancer.
type HAProxy struct {
	// Addr is its host:port on loopback.
	Addr string
	cmd  *exec.Cmd
}

// StartHAProxy runs Debian's haproxy in the foreground with the
// configuration config, whose frontend binds addr, until the end of the
// test, and waits until it listens. Without haproxy the test is skipped,
// or fails under CI.
func StartHAProxy(t testing.TB, addr, config string) *HAProxy {
	t.Helper()
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/haproxy"); serr == nil {
			bin = "/usr/sbin/haproxy"
		} else {
			need(t, fmt.Errorf("haproxy was not found (install Debian's haproxy)"))
		}
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
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
