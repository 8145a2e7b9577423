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

// HAProxy is a running load balancer.
type HAProxy struct {
	// Addr is its host:port on loopback.
	Addr string
	cmd  *exec.Cmd
}

// StartHAProxy runs Debian's haproxy in the foreground with the
// configuration config(addr) makes, whose frontend binds addr, a free port
// of 127.0.0.1 (another one if that is taken meanwhile), until the end of
// the test, and waits until it listens. Without haproxy the test is
// skipped, or fails under CI.
func StartHAProxy(t testing.TB, config func(addr string) string) *HAProxy {
	t.Helper()
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/haproxy"); serr == nil {
			bin = "/usr/sbin/haproxy"
		} else {
			need(t, fmt.Errorf("haproxy was not found (install Debian's haproxy)"))
		}
	}
	for attempt := 0; ; attempt++ {
		h, err := startHAProxy(t, bin, net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t))), config)
		if err == nil {
			return h
		}
		if attempt == 4 || !strings.Contains(err.Error(), "cannot bind") {
			t.Fatal(err)
		}
	}
}

func startHAProxy(t testing.TB, bin, addr string, config func(string) string) (*HAProxy, error) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(config(addr)), 0o644); err != nil {
		return nil, err
	}
	if out, err := exec.Command(bin, "-c", "-f", cfg).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("haproxy -c: %v\n%s", err, out)
	}
	logPath := filepath.Join(dir, "haproxy.log")
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-db", "-f", cfg)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("haproxy: %v", err)
	}
	log.Close()
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	h := &HAProxy{Addr: addr, cmd: cmd}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return h, nil
		}
		select {
		case <-done:
			b, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("haproxy exited: %s", b)
		default:
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("haproxy does not listen on %s after 30s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// CPU returns the processor time the load balancer has used.
func (h *HAProxy) CPU() time.Duration { return ProcessCPU(h.cmd.Process.Pid, true) }
