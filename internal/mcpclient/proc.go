package mcpclient

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modebox/modebox/internal/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// How long a stopping server gets at each step: after its stdin is closed,
// then after SIGTERM to its process group; then the group is killed.
const (
	stopGrace = 1 * time.Second
	termGrace = 2 * time.Second
)

// process is one stdio server's child process, the leader of its own
// process group.
type process struct {
	cmd        *exec.Cmd
	tail       *tailBuffer
	stderr     *os.File      // read end of the child's stderr
	stderrDone chan struct{} // closed when stderr reached EOF or was closed
	exited     chan struct{} // closed once the child was reaped
	err        error         // cmd.Wait's error; read only after exited
	pidNS      bool          // the child is the first process of a PID namespace
}

// catchesTerm reports whether process pid has a handler for SIGTERM (the
// SigCgt mask of /proc/PID/status); true when that cannot be read.
func catchesTerm(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return true
	}
	for _, line := range strings.Split(string(data), "\n") {
		if hex, ok := strings.CutPrefix(line, "SigCgt:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(hex), 16, 64)
			return err != nil || mask&(1<<(uint(syscall.SIGTERM)-1)) != 0
		}
	}
	return true
}

// stdioTransport is an mcp.Transport that starts a stdio server. Unlike the
// SDK's CommandTransport it puts the server in its own process group, so
// that stopping it also stops what it started (npx → node), keeps the
// tail of its stderr, and speaks to it over modebox's own connection
// (stdioconn.go).
type stdioTransport struct {
	cfg    config.Server
	out    *lockedWriter // nil: stderr only goes to the tail
	prefix string

	proc     *process // set by Connect once the child runs
	startErr error    // set by Connect when the child could not be started
	conn     *stdioConn
}

// minimalEnv returns PATH and HOME from modebox's environment, then the
// configured variables (which win).
func minimalEnv(extra map[string]string) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME"} {
		if v, ok := os.LookupEnv(k); ok {
			if _, set := extra[k]; !set {
				env = append(env, k+"="+v)
			}
		}
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+extra[k])
	}
	return env
}

// noNamespaces is set once starting a server in a PID namespace failed:
// later servers get a process group only.
var noNamespaces atomic.Bool

// namespaceAttr starts a server as the first process of its own PID
// namespace (and process group). When that process ends, the kernel kills
// everything else in the namespace, so children that left the process
// group (setsid, a double fork) die with the server. As root the namespace
// is made directly; otherwise inside a user namespace that maps the user's
// own uid and gid (the server keeps them; supplementary groups show as
// nogroup). Where neither is allowed, a process group only.
func namespaceAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	if noNamespaces.Load() {
		return a
	}
	a.Cloneflags = syscall.CLONE_NEWPID
	if uid, gid := os.Geteuid(), os.Getegid(); uid != 0 {
		a.Cloneflags |= syscall.CLONE_NEWUSER
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		a.GidMappingsEnableSetgroups = false
	}
	return a
}

// Connect starts the server and connects to its stdin and stdout. ctx is
// not tied to the child's life.
func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.startErr = err
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		t.startErr = err
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		t.startErr = err
		return nil, err
	}
	cmd := exec.Command(t.cfg.Command, t.cfg.Args...)
	cmd.Env = minimalEnv(t.cfg.Env)
	cmd.Dir = t.cfg.Cwd
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = namespaceAttr()
	err = cmd.Start()
	if err != nil && cmd.SysProcAttr.Cloneflags != 0 && (errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EACCES)) {
		// no PID namespace here: a process group only (see namespaceAttr)
		noNamespaces.Store(true)
		cmd = exec.Command(t.cfg.Command, t.cfg.Args...)
		cmd.Env = minimalEnv(t.cfg.Env)
		cmd.Dir = t.cfg.Cwd
		cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		err = cmd.Start()
	}
	closeAll(inR, outW, errW) // the child has its copies
	if err != nil {
		closeAll(inW, outR, errR)
		t.startErr = err
		return nil, err
	}
	p := &process{
		cmd:        cmd,
		tail:       &tailBuffer{},
		stderr:     errR,
		stderrDone: make(chan struct{}),
		exited:     make(chan struct{}),
		pidNS:      cmd.SysProcAttr.Cloneflags&syscall.CLONE_NEWPID != 0,
	}
	t.proc = p
	go p.readStderr(t.out, t.prefix)
	go p.wait()
	t.conn = newStdioConn(outR, inW)
	return t.conn, nil
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// readStderr copies the child's stderr to the tail and to out.
func (p *process) readStderr(out *lockedWriter, prefix string) {
	defer close(p.stderrDone)
	var w io.Writer = p.tail
	var pw *prefixWriter
	if out != nil {
		pw = &prefixWriter{out: out, prefix: prefix}
		w = io.MultiWriter(p.tail, pw)
	}
	_, _ = io.Copy(w, p.stderr)
	if pw != nil {
		pw.flush()
	}
}

// wait reaps the child, then kills what is left of its process group so
// that no descendant keeps the pipes open.
func (p *process) wait() {
	err := p.cmd.Wait()
	p.err = err
	p.killGroup(syscall.SIGKILL)
	close(p.exited)
}

// killGroup sends sig to the child's process group.
func (p *process) killGroup(sig syscall.Signal) {
	if p.cmd.Process != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, sig)
	}
}

// hasExited waits up to d for the child to exit and reports whether it did.
func (p *process) hasExited(d time.Duration) bool {
	select {
	case <-p.exited:
		return true
	default:
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// exitStatus describes how the child ended ("exit status 1", "signal:
// killed"); call it after exited is closed.
func (p *process) exitStatus() string {
	if p.err == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.String()
	}
	return p.err.Error()
}

// stderrTail waits briefly for stderr to be drained and returns its tail.
func (p *process) stderrTail() string {
	t := time.NewTimer(500 * time.Millisecond)
	defer t.Stop()
	select {
	case <-p.stderrDone:
	case <-t.C:
	}
	return p.tail.String()
}

// stop ends the child: it is expected to exit within grace once its stdin
// is closed (the caller closes the session first); then its group gets
// SIGTERM, then SIGKILL. stop returns once the child is reaped and stderr
// is closed.
func (p *process) stop(grace time.Duration) {
	if !p.hasExited(grace) {
		p.killGroup(syscall.SIGTERM)
		wait := termGrace
		if p.pidNS && !catchesTerm(p.cmd.Process.Pid) {
			// the first process of a PID namespace ignores a signal it has
			// no handler for: SIGTERM cannot end it, so do not wait
			wait = 0
		}
		if !p.hasExited(wait) {
			p.killGroup(syscall.SIGKILL)
			<-p.exited
		}
	}
	select {
	case <-p.stderrDone:
	case <-time.After(200 * time.Millisecond):
	}
	_ = p.stderr.Close() // unblocks readStderr if a stray process still holds the pipe
	<-p.stderrDone
}
