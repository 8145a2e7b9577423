//go:build darwin

package sandbox

// macOS: sandbox-exec with a generated Seatbelt profile. The policy is the
// Linux one as far as Seatbelt can express it: deny by default, read
// everything except the mask list, write only to the workspaces and a
// per-command temp dir, network only to the bridge's loopback port and the
// proxy socket. Differences from Linux, by nature of the platform: there
// is no pid namespace (a command that escapes its process group with
// setsid can outlive a timeout), no seccomp filter, and the bridge listens
// on a random free port of the host's loopback rather than 127.0.0.1:3128
// in a private one. Paths are passed as -D parameters, never spliced into
// the profile text.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

const sandboxExec = "/usr/bin/sandbox-exec"

// darwinPaths are masked in every covered home on macOS, in addition to
// homeCredentialPaths.
var darwinPaths = []string{
	"Library/Keychains", "Library/Cookies", "Library/Safari", "Library/Mail", "Library/Messages",
	"Library/Application Support/Google/Chrome", "Library/Application Support/Firefox",
	"Library/Application Support/BraveSoftware", "Library/Application Support/Microsoft Edge",
	"Library/Application Support/Chromium", "Library/Application Support/Arc",
	"Library/Containers/com.apple.Safari", "Library/Group Containers/group.com.apple.notes",
	"Library/Application Support/com.apple.TCC",
}

// darwinSystemPaths are masked for everyone; darwinRootPaths as root.
var (
	darwinSystemPaths = []string{"/Library/Keychains", "/private/var/db/dslocal/nodes/Default/users"}
	darwinRootPaths   = []string{"/private/etc/master.passwd", "/private/etc/sudoers", "/private/etc/sudoers.d",
		"/private/etc/ssh/ssh_host_*_key", "/private/var/root", "/private/var/db/sudo"}
)

// Sandbox runs commands under sandbox-exec. It is safe for concurrent use.
type Sandbox struct {
	cfg        Config
	workspaces []string
	home       string
	userName   string
	root       bool
	proxySock  string
	bridge     string
}

// New validates cfg and runs /usr/bin/true under the generated profile.
func New(cfg Config) (*Sandbox, error) {
	s, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	if s.proxySock != "" {
		// the profile names the socket's real path (/tmp is /private/tmp)
		if real, err := filepath.EvalSymlinks(s.proxySock); err == nil {
			s.proxySock = real
		}
	}
	if _, err := s.masks(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(sandboxExec); err != nil {
		return nil, &Error{Code: codes.SandboxUnavailable, Reason: sandboxExec + " is missing", Fix: "sandbox-exec ships with macOS; check that /usr/bin is intact", Err: err}
	}
	res, err := s.Run(context.Background(), Command{Script: "/usr/bin/true", Cwd: s.defaultCwd()})
	if err != nil || res.ExitCode != 0 {
		reason := fmt.Sprintf("sandbox preflight failed: exit %d %s", res.ExitCode, strings.TrimSpace(res.Stderr))
		if err != nil {
			reason = "sandbox preflight failed: " + err.Error()
		}
		return nil, &Error{Code: codes.SandboxUnavailable, Reason: reason, Fix: "check that sandbox-exec works: sandbox-exec -p '(version 1)(allow default)' /usr/bin/true", Err: err}
	}
	return s, nil
}

func (s *Sandbox) defaultCwd() string {
	if len(s.workspaces) > 0 {
		return s.workspaces[0]
	}
	return os.TempDir()
}

func (s *Sandbox) masks() ([]mask, error) {
	var pats []string
	for _, h := range []string{s.home} {
		if h == "" || h == "/" {
			continue
		}
		for _, rel := range append(append([]string{}, homeCredentialPaths...), darwinPaths...) {
			pats = append(pats, filepath.Join(h, rel))
		}
	}
	pats = append(pats, darwinSystemPaths...)
	if s.root {
		pats = append(pats, darwinRootPaths...)
	}
	for _, p := range s.cfg.DenyRead {
		pats = append(pats, expandUserPath(p, s.home))
	}
	ms := collectMasks(pats, nil)
	for _, m := range ms {
		for _, w := range s.workspaces {
			if within(w, m.path) {
				return nil, configError("workspace %s is inside the masked path %s; move the workspace or drop the path from deny_read", w, m.path)
			}
		}
	}
	return ms, nil
}

// profile builds the Seatbelt profile; every path is a parameter.
func (s *Sandbox) profile(masks []mask, port int, tmp string) (string, []string) {
	var p strings.Builder
	var params []string
	n := 0
	param := func(v string) string {
		n++
		k := "P" + strconv.Itoa(n)
		params = append(params, "-D", k+"="+v)
		return `(param "` + k + `")`
	}
	p.WriteString("(version 1)\n(deny default)\n")
	p.WriteString("(allow process-fork) (allow process-exec) (allow signal (target same-sandbox))\n")
	p.WriteString("(allow sysctl-read) (allow ipc-posix-shm) (allow ipc-posix-sem) (allow mach-lookup)\n")
	// The keychain, pasteboard and window server stay out of reach.
	p.WriteString(`(deny mach-lookup (global-name "com.apple.SecurityServer") (global-name "com.apple.securityd.xpc")` +
		` (global-name-prefix "com.apple.security") (global-name-prefix "com.apple.pasteboard") (global-name "com.apple.windowserver.active"))` + "\n")
	p.WriteString("(allow file-read*)\n")
	for _, m := range masks {
		if m.dir {
			fmt.Fprintf(&p, "(deny file-read* (subpath %s))\n", param(m.path))
		} else {
			fmt.Fprintf(&p, "(deny file-read* (literal %s))\n", param(m.path))
		}
	}
	p.WriteString("(allow file-write* (literal \"/dev/null\") (literal \"/dev/tty\") (regex #\"^/dev/fd/\"))\n")
	p.WriteString("(allow file-ioctl (literal \"/dev/null\") (literal \"/dev/tty\"))\n")
	for _, w := range s.workspaces {
		fmt.Fprintf(&p, "(allow file-write* (subpath %s))\n", param(w))
	}
	fmt.Fprintf(&p, "(allow file-write* (subpath %s))\n", param(tmp))
	// Later rules win: modebox's own state is neither readable nor
	// writable, and the protected names (existing or not) are read-only
	// inside the workspaces.
	for _, q := range s.cfg.Private {
		q = expandUserPath(q, s.home)
		if r, err := filepath.EvalSymlinks(q); err == nil {
			q = r
		}
		fmt.Fprintf(&p, "(deny file-read* file-write* (subpath %s))\n", param(filepath.Clean(q)))
	}
	names := s.cfg.Protected
	if names == nil {
		names = DefaultProtected
	}
	for i, w := range s.workspaces {
		allow := append(append([]string(nil), s.cfg.AllowWrite[w]...), s.cfg.AllowWrite[s.cfg.Workspace[i]]...)
	names:
		for _, n := range names {
			for _, a := range allow {
				if a == "*" || a == n {
					continue names
				}
			}
			fmt.Fprintf(&p, "(deny file-write* (subpath %s))\n", param(filepath.Join(w, n)))
		}
	}
	if s.proxySock != "" {
		fmt.Fprintf(&p, "(allow network-outbound (remote unix-socket (path-literal %s)))\n", param(s.proxySock))
		fmt.Fprintf(&p, "(allow network-bind network-inbound (local ip \"localhost:%d\"))\n", port)
		fmt.Fprintf(&p, "(allow network-outbound (remote ip \"localhost:%d\"))\n", port)
	}
	return p.String(), params
}

// Run runs c under sandbox-exec; see the Linux documentation for the
// contract. The whole process group is killed on timeout.
func (s *Sandbox) Run(ctx context.Context, c Command) (Result, error) {
	if err := checkCommand(c); err != nil {
		return Result{}, err
	}
	cwd := c.Cwd
	if cwd == "" {
		cwd = s.defaultCwd()
	}
	ok := false
	for _, w := range s.workspaces {
		if within(filepath.Clean(cwd), w) {
			ok = true
		}
	}
	if !ok && cwd != s.defaultCwd() {
		return Result{}, configError("working directory %s is outside the workspace", cwd)
	}
	masks, err := s.masks()
	if err != nil {
		return Result{}, err
	}
	tmp, err := os.MkdirTemp("", "modebox-sh-")
	if err != nil {
		return Result{}, &Error{Code: codes.SandboxFailed, Reason: "cannot create the temp dir: " + err.Error(), Err: err}
	}
	defer os.RemoveAll(tmp)
	if rt, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = rt
	}
	port := 0
	if s.proxySock != "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return Result{}, &Error{Code: codes.SandboxFailed, Reason: "cannot pick a bridge port: " + err.Error(), Err: err}
		}
		port = ln.Addr().(*net.TCPAddr).Port
		ln.Close()
	}
	prof, params := s.profile(masks, port, tmp)

	env := map[string]string{"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": s.home,
		"LANG": "C.UTF-8", "TMPDIR": tmp, "TERM": "dumb"}
	if s.userName != "" {
		env["USER"], env["LOGNAME"] = s.userName, s.userName
	}
	for k, v := range s.cfg.Env {
		env[k] = v
	}
	for k, v := range c.Env {
		env[k] = v
	}
	argv := append([]string{"-p", prof}, params...)
	if s.proxySock != "" {
		addr := "127.0.0.1:" + strconv.Itoa(port)
		for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"} {
			env[k] = "http://" + addr
		}
		env["ALL_PROXY"], env["all_proxy"] = "socks5h://"+addr, "socks5h://"+addr
		env["NO_PROXY"], env["no_proxy"], env["NODE_USE_ENV_PROXY"] = "", "", "1"
		argv = append(argv, s.bridge, BridgeCommand, s.proxySock, addr, "--")
	}
	argv = append(argv, "/bin/sh", "-c", c.Script)

	timeout := c.Timeout
	if timeout <= 0 {
		timeout = s.cfg.Timeout
	}
	if timeout > s.cfg.MaxTimeout {
		timeout = s.cfg.MaxTimeout
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, sandboxExec, argv...)
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cmd.Env = append(cmd.Env, k+"="+env[k])
	}
	cmd.Dir = cwd
	if len(c.Stdin) > 0 {
		cmd.Stdin = bytes.NewReader(c.Stdin)
	}
	stdout := &capture{max: c.maxOutput(&s.cfg)}
	stderr := &capture{max: c.maxOutput(&s.cfg)}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{}, &Error{Code: codes.SandboxUnavailable, Reason: "cannot start sandbox-exec: " + err.Error(), Err: err}
	}
	waitErr := cmd.Wait()
	res, stopped, err := outcome(ctx, runCtx, stdout, stderr, time.Since(start))
	if stopped {
		return res, err
	}
	if cmd.ProcessState != nil {
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = 128 + int(ws.Signal())
		} else {
			res.ExitCode = cmd.ProcessState.ExitCode()
		}
	}
	if res.ExitCode != 0 && strings.HasPrefix(res.Stderr, "sandbox-exec:") {
		return Result{}, &Error{Code: codes.SandboxFailed, Reason: "sandbox-exec could not apply the profile: " + strings.TrimSpace(res.Stderr), Err: waitErr}
	}
	var ee *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &ee) {
		return res, &Error{Code: codes.SandboxFailed, Reason: waitErr.Error(), Err: waitErr}
	}
	return res, nil
}

// Probe reports whether sandbox-exec works here.
func Probe(cfg Config) []Check {
	checks := []Check{{Name: "user", OK: true, Detail: fmt.Sprintf("running as uid %d", os.Geteuid())}}
	if _, err := os.Stat(sandboxExec); err != nil {
		return append(checks, Check{Name: "sandbox-exec", Detail: err.Error()})
	}
	checks = append(checks, Check{Name: "sandbox-exec", OK: true, Detail: sandboxExec})
	if _, err := New(cfg); err != nil {
		return append(checks, Check{Name: "preflight", Detail: err.Error()})
	}
	return append(checks, Check{Name: "preflight", OK: true, Detail: "/usr/bin/true ran under the generated Seatbelt profile"})
}

// Close releases nothing on macOS.
func (s *Sandbox) Close() error { return nil }

// RunsAs describes who commands run as: modebox's own user on macOS.
func (s *Sandbox) RunsAs() string { return fmt.Sprintf("uid %d (modebox's own)", os.Getuid()) }
