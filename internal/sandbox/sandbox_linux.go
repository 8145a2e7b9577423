//go:build linux

package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/modebox/modebox/internal/codes"
)

// Paths inside the sandbox used by the network bridge.
const (
	insideDir    = "/run/modebox"
	insideSocket = "/run/modebox/proxy.sock"
	insideBridge = "/run/modebox/bridge"
)

// Sandbox runs commands under bubblewrap. It is safe for concurrent use.
type Sandbox struct {
	cfg        Config
	bwrap      string
	filter     []byte
	workspaces []string // resolved, in order
	home       string
	userName   string
	root       bool
	proxySock  string
	bridge     string
	private    []string // Config.Private, cleaned and "~"-expanded
	limits     string   // the ulimit prelude
	as         *identity
	runDir     string
}

// New validates cfg, finds bubblewrap, builds the seccomp filter and runs
// /bin/true through the exact sandbox flags. Any failure to sandbox is an
// *Error with code SANDBOX_UNAVAILABLE; an invalid cfg is SANDBOX_CONFIG.
func New(cfg Config) (*Sandbox, error) {
	s, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	if err := checkLimits(&s.cfg); err != nil {
		return nil, err
	}
	cfg = s.cfg
	if err := s.preparePrivate(); err != nil {
		return nil, err
	}
	if err := s.resolveUser(); err != nil {
		return nil, err
	}
	if _, err := s.masks(); err != nil {
		return nil, err
	}
	if err := s.prepareRunDir(); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			s.Close()
		}
	}()

	bw, err := findBwrap(cfg.Bwrap)
	if err != nil {
		return nil, err
	}
	s.bwrap = bw
	s.limits = limitPrelude(s.cfg.Limits)
	if s.filter, err = buildFilter(true, s.proxySock != ""); err != nil {
		return nil, &Error{Code: codes.SandboxUnavailable, Reason: "cannot build the seccomp filter: " + err.Error(), Err: err}
	}
	if err := s.preflight(); err != nil {
		return nil, err
	}
	ok = true
	return s, nil
}

// findBwrap returns the bubblewrap path or a SANDBOX_UNAVAILABLE error.
func findBwrap(p string) (string, error) {
	if p == "" {
		lp, err := exec.LookPath("bwrap")
		if err != nil {
			return "", &Error{Code: codes.SandboxUnavailable, Reason: "bubblewrap (bwrap) is not installed or not in PATH",
				Fix: "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap) or set the bwrap path in the configuration", Err: err}
		}
		p = lp
	}
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return "", &Error{Code: codes.SandboxUnavailable, Reason: fmt.Sprintf("bubblewrap not found at %s", p),
			Fix: "install bubblewrap (apt-get install bubblewrap) or correct the configured bwrap path", Err: err}
	}
	return p, nil
}

// homes lists the home directories whose credentials are masked: $HOME,
// the passwd home of our uid, the sudo caller's home and, as root, every
// home directory in /etc/passwd.
func (s *Sandbox) homes() []string {
	set := map[string]bool{}
	add := func(h string) {
		if !filepath.IsAbs(h) || h == "/" {
			return
		}
		if fi, err := os.Stat(h); err == nil && fi.IsDir() {
			set[filepath.Clean(h)] = true
		}
	}
	add(s.home)
	if u, err := user.LookupId(strconv.Itoa(os.Getuid())); err == nil {
		add(u.HomeDir)
	}
	if su := os.Getenv("SUDO_USER"); su != "" {
		if u, err := user.Lookup(su); err == nil {
			add(u.HomeDir)
		}
	}
	if s.root {
		if data, err := os.ReadFile("/etc/passwd"); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if f := strings.Split(line, ":"); len(f) >= 7 {
					add(f[5])
				}
			}
		}
	}
	out := make([]string, 0, len(set))
	for h := range set {
		out = append(out, h)
	}
	sort.Strings(out)
	return out
}

// masks computes the paths hidden from the command on this machine now,
// and refuses a workspace that lies inside one (except /root as root).
func (s *Sandbox) masks() ([]mask, error) {
	var pats []string
	for _, h := range s.homes() {
		// Entries under a top-level directory the home lacks (.config,
		// .local, .m2, ...) cannot exist: one Lstat for the group.
		missing := map[string]bool{}
		for _, rel := range homeCredentialPaths {
			if top, _, nested := strings.Cut(rel, "/"); nested && !strings.ContainsAny(top, "*?[") {
				m, seen := missing[top]
				if !seen {
					_, err := os.Lstat(filepath.Join(h, top))
					m = err != nil
					missing[top] = m
				}
				if m {
					continue
				}
			}
			pats = append(pats, filepath.Join(h, rel))
		}
	}
	if s.root {
		pats = append(pats, rootOnlyPaths...)
	}
	for _, p := range s.cfg.DenyRead {
		pats = append(pats, expandUserPath(p, s.home))
	}
	pats = append(pats, s.private...)
	all := collectMasks(pats, s.workspaces)
	out := all[:0]
	for _, m := range all {
		// Paths under /tmp and /run are already replaced by empty tmpfs,
		// unless a workspace brings them back.
		if (within(m.path, "/tmp") || within(m.path, "/run")) && !s.inWorkspace(m.path) {
			continue
		}
		// A path the run-as user cannot reach on the host it cannot reach
		// inside either (the same uid, the same permissions), and bwrap,
		// running as that user, could not mount over it.
		if s.as != nil && !s.as.may(m.path, 0) {
			continue
		}
		for _, w := range s.workspaces {
			if within(w, m.path) && !(s.root && m.path == "/root") {
				if s.isPrivate(m.path) {
					return nil, configError("workspace %s is inside %s, which holds modebox's own state or configuration and is hidden from every command; choose another workspace", w, m.path)
				}
				return nil, configError("workspace %s is inside the masked path %s; move the workspace or drop the path from deny_read", w, m.path)
			}
		}
		out = append(out, m)
	}
	return out, nil
}

func (s *Sandbox) inWorkspace(p string) bool {
	for _, w := range s.workspaces {
		if within(p, w) {
			return true
		}
	}
	return false
}

// env builds the command's environment: the allowlist, Config.Env,
// Command.Env, and the proxy variables when the network is on.
func (s *Sandbox) env(extra map[string]string) map[string]string {
	env := map[string]string{
		"PATH":   "/usr/local/bin:/usr/bin:/bin",
		"HOME":   s.home,
		"LANG":   "C.UTF-8",
		"TMPDIR": "/tmp",
		"TERM":   "dumb",
	}
	if s.userName != "" {
		env["USER"] = s.userName
		env["LOGNAME"] = s.userName
	}
	for k, v := range s.cfg.Env {
		env[k] = v
	}
	for k, v := range extra {
		env[k] = v
	}
	if s.proxySock != "" {
		httpProxy := "http://" + BridgeAddr
		for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"} {
			env[k] = httpProxy
		}
		env["ALL_PROXY"] = "socks5h://" + BridgeAddr
		env["all_proxy"] = "socks5h://" + BridgeAddr
		env["NO_PROXY"] = ""
		env["no_proxy"] = ""
		env["NODE_USE_ENV_PROXY"] = "1"
	}
	return env
}

// args builds bwrap's argument list (without argv[0]).
func (s *Sandbox) args(cwd string, env map[string]string, masks []mask, tail []string) []string {
	a := []string{
		"--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
		"--die-with-parent", "--new-session", "--clearenv",
		// No bwrap init: the command (or the network bridge) is pid 1, so
		// there is no other process of the sandbox for it to write into
		// through /proc/1/mem or borrow descriptors from.
		"--as-pid-1",
	}
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		a = append(a, "--setenv", k, env[k])
	}
	tmpSize := strconv.FormatInt(s.cfg.Limits.TmpSize, 10)
	a = append(a, "--ro-bind", "/", "/", "--size", tmpSize, "--tmpfs", "/tmp", "--size", "1048576", "--tmpfs", "/run")
	if s.proxySock != "" {
		a = append(a, "--dir", insideDir, "--ro-bind", s.proxySock, insideSocket, "--ro-bind", s.bridge, insideBridge)
	}
	// Masks that contain a workspace go first; the workspace is bound back.
	var later []mask
	for _, m := range masks {
		if m.dir && s.containsWorkspace(m.path) {
			a = append(a, "--tmpfs", m.path)
		} else {
			later = append(later, m)
		}
	}
	for _, w := range s.workspaces {
		a = append(a, "--bind", w, w)
	}
	// Directories between a workspace and a mask inside it become mount
	// points, which cannot be renamed.
	for _, d := range s.pins(later) {
		a = append(a, "--bind", d, d)
	}
	// Files the host runs later stay read-only in the workspace.
	for _, p := range s.protectedPaths() {
		a = append(a, "--ro-bind", p, p)
	}
	for _, m := range later {
		if m.dir {
			a = append(a, "--tmpfs", m.path)
		} else {
			a = append(a, "--ro-bind", "/dev/null", m.path)
		}
	}
	for _, m := range masks {
		if m.dir {
			a = append(a, "--remount-ro", m.path)
		}
	}
	a = append(a, "--proc", "/proc",
		// Host-wide kernel settings: read-only whatever the uid.
		"--ro-bind", "/proc/sys", "/proc/sys",
		"--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger",
		"--dev", "/dev",
		"--size", strconv.FormatInt(max(s.cfg.Limits.TmpSize/8, 1<<20), 10), "--tmpfs", "/dev/shm",
		"--remount-ro", "/dev", "--remount-ro", "/run",
		"--chdir", cwd, "--seccomp", "3", "--json-status-fd", "4", "--")
	if s.proxySock != "" {
		a = append(a, insideBridge, BridgeCommand, insideSocket, BridgeAddr, "--")
	}
	return append(a, tail...)
}

func (s *Sandbox) containsWorkspace(dir string) bool {
	for _, w := range s.workspaces {
		if within(w, dir) && w != dir {
			return true
		}
	}
	return false
}

// Run runs c in the sandbox. A command that ran returns its Result (a
// non-zero exit code is not an error). The error is an *Error when the
// sandbox could not be set up or c is invalid, and wraps ctx.Err() when ctx
// ended first (the partial Result is returned with it).
func (s *Sandbox) Run(ctx context.Context, c Command) (Result, error) {
	if err := checkCommand(c); err != nil {
		return Result{}, err
	}
	cwd, err := s.cwd(c.Cwd)
	if err != nil {
		return Result{}, err
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = s.cfg.Timeout
	}
	if timeout > s.cfg.MaxTimeout {
		timeout = s.cfg.MaxTimeout
	}
	return s.runWith(ctx, s.filter, cwd, pid1Env, s.env(c.Env), c.Stdin, timeout, c.maxOutput(&s.cfg), s.commandTail(c.Script))
}

func (s *Sandbox) cwd(dir string) (string, error) {
	if dir == "" {
		if len(s.workspaces) > 0 {
			return s.workspaces[0], nil
		}
		return "/tmp", nil
	}
	if !filepath.IsAbs(dir) {
		return "", invalidCommand("working directory %q is not an absolute path", dir)
	}
	dir = filepath.Clean(dir)
	if dir == "/tmp" {
		return dir, nil
	}
	for i, w := range s.workspaces {
		if within(dir, w) {
			return dir, nil
		}
		// The configured (unresolved) spelling is accepted too.
		if cw := filepath.Clean(s.cfg.Workspace[i]); within(dir, cw) {
			return filepath.Join(w, strings.TrimPrefix(dir, cw)), nil
		}
	}
	return "", invalidCommand("working directory %s is outside the workspace and /tmp", dir)
}

// sealedFile returns a sealed memfd (or, failing that, a pipe) holding
// data, positioned at its start: how the seccomp program and the command's
// environment reach the sandbox, where no other user can read them.
func sealedFile(name string, data []byte) (*os.File, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err == nil {
		f := os.NewFile(uintptr(fd), name)
		if _, err := f.Write(data); err != nil {
			f.Close()
			return nil, err
		}
		_, _ = unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, unix.F_SEAL_SEAL|unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE)
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer w.Close()
	// Written before bwrap starts: the pipe must hold it all.
	if n, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0); err == nil && n < len(data) {
		if _, err := unix.FcntlInt(w.Fd(), unix.F_SETPIPE_SZ, len(data)); err != nil {
			r.Close()
			return nil, fmt.Errorf("%d bytes do not fit in a pipe: %w", len(data), err)
		}
	}
	if _, err := w.Write(data); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// closeInherited makes the child close, between fork and exec, every
// descriptor of this process that lacks close-on-exec and is not one of
// cmd's: those modebox inherited from its parent (`modebox run prog.js
// 7</some/dir`), which exec would otherwise pass on to bwrap and the
// command (a directory descriptor reaches the host's whole tree through
// /proc/self/fd/7/..). Go's exec closes descriptor 3+i in the child for
// each nil entry i of ExtraFiles, so the list is padded with nil up to the
// highest such descriptor. The flags of this process's descriptors are not
// touched: the embedding program's other children still get them.
//
// A descriptor inherited without close-on-exec at the very top of the
// open-file limit makes the start fail (exec needs one number above the
// list): modebox fails closed rather than pass it on. One created without
// close-on-exec by another goroutine after the listing (Go itself creates
// none) would escape; programs that do that must hold syscall.ForkLock.
func closeInherited(cmd *exec.Cmd) error {
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		return err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return err
	}
	top := -1
	for _, n := range names {
		fd, err := strconv.Atoi(n)
		if err != nil || fd <= top {
			continue
		}
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		if err == nil && flags&unix.FD_CLOEXEC == 0 {
			top = fd
		}
	}
	for len(cmd.ExtraFiles)+3 <= top {
		cmd.ExtraFiles = append(cmd.ExtraFiles, nil)
	}
	return nil
}

// status is one line bwrap writes to --json-status-fd.
type status struct {
	ChildPid *int `json:"child-pid"`
	ExitCode *int `json:"exit-code"`
}

// run runs tail in the sandbox with the sandbox's seccomp program.
func (s *Sandbox) run(ctx context.Context, cwd string, env map[string]string, stdin []byte, timeout time.Duration, tail []string) (Result, error) {
	return s.runFiltered(ctx, s.filter, cwd, env, stdin, timeout, tail)
}

// runFiltered is run with a given seccomp program (a test uses it to show
// what happens without the architecture guard).
func (s *Sandbox) runFiltered(ctx context.Context, prog []byte, cwd string, env map[string]string, stdin []byte, timeout time.Duration, tail []string) (Result, error) {
	return s.runWith(ctx, prog, cwd, env, nil, stdin, timeout, s.cfg.MaxOutput, tail)
}

// runWith runs tail in the sandbox with the seccomp program prog. env is
// the environment bwrap gives tail; cmdEnv, when not nil, is the command's
// environment, passed on descriptor envFd for the limit prelude (see
// commandTail), never on a command line.
func (s *Sandbox) runWith(ctx context.Context, prog []byte, cwd string, env, cmdEnv map[string]string, stdin []byte, timeout time.Duration, maxOutput int, tail []string) (Result, error) {
	masks, err := s.masks()
	if err != nil {
		return Result{}, err
	}
	filt, err := sealedFile("modebox-seccomp", prog)
	if err != nil {
		return Result{}, &Error{Code: codes.SandboxFailed, Reason: "cannot pass the seccomp filter to bubblewrap: " + err.Error(), Err: err}
	}
	defer filt.Close()
	extra := []*os.File{filt, nil}
	if cmdEnv != nil {
		// The names become shell assignments: never one that is not a name.
		if err := checkEnv(cmdEnv, "command env", invalidCommand); err != nil {
			return Result{}, err
		}
		envFile, err := sealedFile("modebox-env", envScript(cmdEnv))
		if err != nil {
			return Result{}, &Error{Code: codes.SandboxFailed, Reason: "cannot pass the command's environment to the sandbox: " + err.Error(), Err: err}
		}
		defer envFile.Close()
		extra = append(extra, envFile)
	}
	statusR, statusW, err := os.Pipe()
	if err != nil {
		return Result{}, &Error{Code: codes.SandboxFailed, Reason: "cannot create the status pipe: " + err.Error(), Err: err}
	}
	defer statusR.Close()

	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, s.bwrap, s.args(cwd, env, masks, tail)...)
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	cmd.Dir = "/"
	stdout := &capture{max: maxOutput}
	stderr := &capture{max: maxOutput}
	var pipes *ownedPipes
	if s.as != nil {
		pipes = &ownedPipes{}
		if err := pipes.connect(cmd, s.as.uid, s.as.gid, stdin, stdout, stderr); err != nil {
			statusW.Close()
			return Result{}, &Error{Code: codes.SandboxFailed, Reason: "cannot create the command's pipes: " + err.Error(), Err: err}
		}
	} else {
		if len(stdin) > 0 {
			cmd.Stdin = bytes.NewReader(stdin)
		}
		cmd.Stdout, cmd.Stderr = stdout, stderr
	}
	extra[1] = statusW // descriptor 4, --json-status-fd
	cmd.ExtraFiles = extra
	if err := closeInherited(cmd); err != nil {
		statusW.Close()
		if pipes != nil {
			pipes.close()
		}
		return Result{}, &Error{Code: codes.SandboxFailed, Reason: "cannot list modebox's open descriptors to keep them from the sandbox: " + err.Error(), Err: err}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Credential: s.credential()}
	cmd.Cancel = func() error {
		// bwrap leads its own process group; the pid namespace takes the
		// rest of the tree down with bwrap's init.
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 2 * time.Second

	start := time.Now()
	err = cmd.Start()
	if pipes != nil {
		pipes.started()
	}
	if err != nil {
		statusW.Close()
		if pipes != nil {
			pipes.close()
		}
		if runCtx.Err() != nil {
			// The time limit (or the caller) ended before bwrap started.
			res := Result{ExitCode: 128 + int(syscall.SIGKILL), Duration: time.Since(start)}
			if ctx.Err() != nil {
				return res, fmt.Errorf("sandbox: command stopped: %w", ctx.Err())
			}
			res.TimedOut = true
			return res, nil
		}
		return Result{}, &Error{Code: codes.SandboxUnavailable, Reason: fmt.Sprintf("cannot start %s: %v", s.bwrap, err), Fix: "check that bubblewrap is installed and executable", Err: err}
	}
	statusW.Close()
	statusDone := make(chan *int, 1)
	go func() {
		var exit *int
		sc := bufio.NewScanner(statusR)
		for sc.Scan() {
			var st status
			if json.Unmarshal(sc.Bytes(), &st) == nil && st.ExitCode != nil {
				exit = st.ExitCode
			}
		}
		statusDone <- exit
	}()
	waitErr := cmd.Wait()
	if pipes != nil {
		// the pid namespace ended with the command: what is left in the
		// pipes drains at once
		pipes.wait(2 * time.Second)
	}
	dur := time.Since(start)
	// bwrap is gone; anything still holding the status pipe is killed with
	// the pid namespace, so the reader finishes promptly.
	var exit *int
	select {
	case exit = <-statusDone:
	case <-time.After(2 * time.Second):
	}

	res, stopped, err := outcome(ctx, runCtx, stdout, stderr, dur)
	if stopped {
		return res, err
	}
	if exit == nil {
		reason := "bubblewrap could not set up the sandbox"
		if msg := strings.TrimSpace(res.Stderr); msg != "" {
			reason += ": " + msg
		} else if waitErr != nil {
			reason += ": " + waitErr.Error()
		}
		return Result{}, &Error{Code: codes.SandboxFailed, Reason: reason, Fix: "run `modebox doctor` to check the sandbox on this machine", Err: waitErr}
	}
	res.ExitCode = *exit
	return res, nil
}

// preflight runs /bin/true with the exact flags of Run.
func (s *Sandbox) preflight() error {
	cwd, _ := s.cwd("")
	res, err := s.run(context.Background(), cwd, pid1Env, nil, 30*time.Second, []string{"/bin/true"})
	if err == nil && res.ExitCode == 0 {
		return nil
	}
	var detail string
	var cause error = err
	if err != nil {
		var se *Error
		if errors.As(err, &se) {
			detail = se.Reason
		} else {
			detail = err.Error()
		}
	} else {
		detail = fmt.Sprintf("/bin/true exited with status %d: %s", res.ExitCode, strings.TrimSpace(res.Stderr))
	}
	return &Error{Code: codes.SandboxUnavailable, Reason: "sandbox preflight failed: " + detail, Fix: diagnoseFix(detail), Err: cause}
}

// diagnoseFix suggests what to change on this machine, from bwrap's message
// and the kernel's user-namespace settings.
func diagnoseFix(msg string) string {
	var fixes []string
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	if read("/proc/sys/kernel/unprivileged_userns_clone") == "0" {
		fixes = append(fixes, "enable unprivileged user namespaces: sysctl -w kernel.unprivileged_userns_clone=1 (persist it in /etc/sysctl.d/)")
	}
	if read("/proc/sys/user/max_user_namespaces") == "0" {
		fixes = append(fixes, "allow user namespaces: sysctl -w user.max_user_namespaces=15000")
	}
	if read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1" {
		fixes = append(fixes, "AppArmor restricts unprivileged user namespaces (Ubuntu 23.10+/24.04): install an AppArmor profile for bwrap that allows userns, or sysctl -w kernel.apparmor_restrict_unprivileged_userns=0")
	}
	if inContainer() {
		fixes = append(fixes, "inside Docker/containers the default seccomp profile blocks unshare: run the container with --privileged or --security-opt seccomp=<a profile allowing unshare, clone and mount in new namespaces> (and apparmor=unconfined on AppArmor hosts)")
	}
	lower := strings.ToLower(msg)
	if len(fixes) == 0 && (strings.Contains(lower, "namespace") || strings.Contains(lower, "permission denied") || strings.Contains(lower, "operation not permitted")) {
		fixes = append(fixes, "make sure unprivileged user namespaces are enabled (sysctl user.max_user_namespaces, kernel.unprivileged_userns_clone) and that no container or security module blocks unshare")
	}
	if len(fixes) == 0 {
		fixes = append(fixes, "run `bwrap --unshare-all --unshare-user --ro-bind / / /bin/true` to see the error, and install a bubblewrap of version 0.8 or later (apt-get install bubblewrap)")
	}
	return strings.Join(fixes, "; ")
}

func inContainer() bool {
	if _, err := os.Stat("/.dockerenv"); err == nil {
		return true
	}
	if _, err := os.Stat("/run/.containerenv"); err == nil {
		return true
	}
	b, _ := os.ReadFile("/proc/1/cgroup")
	return bytes.Contains(b, []byte("docker")) || bytes.Contains(b, []byte("containerd")) || bytes.Contains(b, []byte("kubepods"))
}
