// Package pgtest starts throwaway PostgreSQL clusters and HAProxy load
// balancers on loopback for tests: real servers, in temporary
// directories, stopped and removed when the test ends.
//
// PostgreSQL refuses to run as root, so when the tests run as root the
// cluster is made and run as the unprivileged user "nobody" (the process
// credentials are set directly; no su or sudo). Without the binaries a
// test is skipped, except under CI (the CI environment variable set),
// where it fails.
package pgtest

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Binaries finds initdb, pg_ctl and postgres: $MODEBOX_PG_BIN, then the
// newest /usr/lib/postgresql/N/bin, then $PATH.
func Binaries() (dir string, err error) {
	if d := os.Getenv("MODEBOX_PG_BIN"); d != "" {
		return d, nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	sort.Slice(matches, func(i, j int) bool { return version(matches[i]) > version(matches[j]) })
	if len(matches) > 0 {
		return filepath.Dir(matches[0]), nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("PostgreSQL's initdb was not found (install Debian's postgresql, or set MODEBOX_PG_BIN)")
}

func version(initdb string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return n
}

// need fails the test under CI and skips it elsewhere.
func need(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI: %v", err)
	}
	t.Skip(err)
}

// Cluster is one running PostgreSQL server on 127.0.0.1.
type Cluster struct {
	t    testing.TB
	bin  string
	root string // temp dir: data/, sock/, log
	Port int
	cred *syscall.Credential
	cmd  *exec.Cmd
	dbs  atomic.Int64
	// exited closes when cmd has exited; started is set after the first
	// start.
	exited  chan struct{}
	started bool
}

// Start makes a new cluster and starts it, on a free port of 127.0.0.1,
// with trust authentication for loopback connections. It is stopped and
// removed at the end of the test.
func Start(t testing.TB) *Cluster {
	t.Helper()
	bin, err := Binaries()
	if err != nil {
		need(t, err)
	}
	root, err := os.MkdirTemp("", "modebox-pg-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{t: t, bin: bin, root: root}
	t.Cleanup(func() {
		c.Stop()
		os.RemoveAll(root)
	})
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			t.Fatalf("PostgreSQL cannot run as root and there is no user nobody: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chmod(root, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"data", "sock"} {
		p := filepath.Join(root, d)
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if c.cred != nil {
			if err := os.Chown(p, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, err := c.command(filepath.Join(bin, "initdb"), "-D", c.dir("data"), "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--locale=C", "--no-sync").CombinedOutput()
	if err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	c.Port = freePort(t)
	c.Restart()
	return c
}

func (c *Cluster) dir(name string) string { return filepath.Join(c.root, name) }

// command is a command run as the cluster's user.
func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = c.root
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C", "LC_ALL=C"}
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	return cmd
}

// Restart starts the server if it is stopped and waits until it accepts
// connections. On its first start a port taken meanwhile by another
// process is replaced by a new one.
func (c *Cluster) Restart() {
	c.t.Helper()
	for attempt := 0; ; attempt++ {
		err := c.start()
		if err == nil {
			c.started = true
			return
		}
		if c.started || attempt == 4 || !strings.Contains(err.Error(), "already in use") {
			c.t.Fatal(err)
		}
		c.Port = freePort(c.t)
	}
}

func (c *Cluster) start() error {
	if c.cmd != nil {
		return nil
	}
	log, err := os.OpenFile(c.dir("postgres.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	logStart, _ := log.Seek(0, io.SeekEnd)
	cmd := c.command(filepath.Join(c.bin, "postgres"), "-D", c.dir("data"),
		"-c", "listen_addresses=127.0.0.1", "-c", "port="+strconv.Itoa(c.Port),
		"-c", "unix_socket_directories="+c.dir("sock"), "-c", "max_connections=200",
		"-c", "shared_buffers=32MB", "-c", "fsync=on", "-c", "synchronous_commit=on")
	cmd.Stdout, cmd.Stderr = log, log
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if err := cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("postgres: %v", err)
	}
	log.Close()
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	c.cmd, c.exited = cmd, exited
	deadline := time.Now().Add(60 * time.Second)
	for {
		if err := c.psqlPing(); err == nil {
			return nil
		}
		select {
		case <-exited:
			c.cmd = nil
			b, _ := os.ReadFile(c.dir("postgres.log"))
			return fmt.Errorf("postgres exited at start:\n%s", b[min(int(logStart), len(b)):])
		default:
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(c.dir("postgres.log"))
			return fmt.Errorf("postgres did not start in 60s:\n%s", b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// psqlPing checks that the server answers a startup packet, by
// connecting and reading its answer to an SSL request.
func (c *Cluster) psqlPing() error {
	conn, err := net.DialTimeout("tcp", c.Addr(), time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(2 * time.Second))
	// SSLRequest: length 8, code 80877103; the server answers 'N' or 'S'.
	if _, err := conn.Write([]byte{0, 0, 0, 8, 4, 0xd2, 0x16, 0x2f}); err != nil {
		return err
	}
	b := make([]byte, 1)
	if _, err := conn.Read(b); err != nil {
		return err
	}
	// Accepting connections is not yet accepting logins; try one.
	return c.exec("postgres", "SELECT 1")
}

// Stop stops the server (fast shutdown) and waits for it to exit.
func (c *Cluster) Stop() {
	if c.cmd == nil {
		return
	}
	_ = c.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-c.exited:
	case <-time.After(30 * time.Second):
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		<-c.exited
	}
	c.cmd = nil
}

// Addr is the server's host:port.
func (c *Cluster) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(c.Port)) }

// URL returns the postgres:// URL of database db.
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@%s/%s?sslmode=disable", c.Addr(), db)
}

// NewDatabase creates an empty database and returns its URL.
func (c *Cluster) NewDatabase() string {
	c.t.Helper()
	name := fmt.Sprintf("t%d_%d", os.Getpid(), c.dbs.Add(1))
	if err := c.exec("postgres", "CREATE DATABASE "+name); err != nil {
		c.t.Fatalf("creating database: %v", err)
	}
	return c.URL(name)
}

// exec runs one SQL statement in database db.
func (c *Cluster) exec(db, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL(db))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

// Exec runs one SQL statement in the database of url and fails the test
// if it fails.
func (c *Cluster) Exec(url, sql string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		c.t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, sql); err != nil {
		c.t.Fatalf("%s: %v", sql, err)
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// FreePort returns a port of 127.0.0.1 that was free a moment ago.
func FreePort(t testing.TB) int { return freePort(t) }

// CPU returns the processor time the cluster's processes have used: the
// postmaster's (with its exited children's) and that of its live
// backends and workers.
func (c *Cluster) CPU() time.Duration {
	if c.cmd == nil {
		return 0
	}
	pid := c.cmd.Process.Pid
	total := ProcessCPU(pid, true)
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil || child == pid {
			continue
		}
		if ppid, ok := parentOf(child); ok && ppid == pid {
			total += ProcessCPU(child, false)
		}
	}
	return total
}

// ProcessCPU returns the user and system time of process pid, with that
// of its waited-for children when children is set; 0 if it is gone.
func ProcessCPU(pid int, children bool) time.Duration {
	f, ok := statFields(pid)
	if !ok || len(f) < 15 {
		return 0
	}
	var ticks int64
	n := 2 // utime, stime: fields 14 and 15 (11 and 12 after the comm)
	if children {
		n = 4
	}
	for i := 11; i < 11+n; i++ {
		v, _ := strconv.ParseInt(f[i], 10, 64)
		ticks += v
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ is 100 on Linux
}

func parentOf(pid int) (int, bool) {
	f, ok := statFields(pid)
	if !ok {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// statFields returns /proc/pid/stat's fields after the command name
// (field 3, the state, first).
func statFields(pid int) ([]string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return nil, false
	}
	return strings.Fields(string(b[i+1:])), true
}
