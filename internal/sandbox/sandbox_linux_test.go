//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/codes"
)

// Writes land only in the workspace and the private /tmp.
func TestWrites(t *testing.T) {
	base := scratch(t)
	ws := mkdir(t, filepath.Join(base, "ws"))
	outside := mkdir(t, filepath.Join(base, "outside")) // writable on the host
	home := mkdir(t, filepath.Join(base, "home"))
	t.Setenv("HOME", home)
	s := newSB(t, Config{Workspace: []string{ws}})
	env := map[string]string{"WS": ws, "OUT": outside}

	res := run(t, s, Command{Script: `echo hi > "$WS/in.txt" && echo tmp > /tmp/t && cat /tmp/t`, Env: env})
	if res.ExitCode != 0 || strings.TrimSpace(res.Stdout) != "tmp" {
		t.Fatalf("workspace or /tmp write failed: %+v", res)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "in.txt")); err != nil || string(b) != "hi\n" {
		t.Fatalf("workspace file on the host: %q %v", b, err)
	}

	denied := map[string]string{
		"outside workspace": filepath.Join(outside, "x"),
		"/etc":              "/etc/mbxtest-" + randHex(4),
		"$HOME":             filepath.Join(home, "x"),
		"/var/tmp":          "/var/tmp/mbxtest-w-" + randHex(4),
		"/usr/local/bin":    "/usr/local/bin/mbxtest-" + randHex(4),
	}
	if os.Geteuid() == 0 {
		denied["/root"] = "/root/mbxtest-" + randHex(4)
		denied["/"] = "/mbxtest-" + randHex(4)
	}
	for what, p := range denied {
		res := run(t, s, Command{Script: `echo pwned > "$P"`, Env: map[string]string{"P": p}})
		if res.ExitCode == 0 {
			t.Errorf("write to %s (%s) succeeded inside the sandbox", what, p)
		}
		if exists(p) {
			os.Remove(p)
			t.Errorf("write to %s created %s on the host", what, p)
		}
	}
}

// Credential files planted in a fake HOME are masked; a control file next
// to them is readable, so the masks (not a missing path) hide them.
func TestCredentialMasks(t *testing.T) {
	base := scratch(t)
	ws := mkdir(t, filepath.Join(base, "ws"))
	home := mkdir(t, filepath.Join(base, "home"))
	t.Setenv("HOME", home)
	secret := "SECRET-" + randHex(6)
	planted := []string{
		".ssh/id_rsa", ".ssh/config", ".aws/credentials", ".netrc", ".config/gh/hosts.yml",
		".bash_history", ".zsh_history", ".python_history", ".docker/config.json", ".kube/config",
		".gnupg/private-keys-v1.d/k.key", ".git-credentials", ".npmrc", ".pypirc",
		".cargo/credentials.toml", ".m2/settings.xml", ".pgpass", ".vault-token",
		".config/gcloud/credentials.db", ".azure/msal_token_cache.json",
		".mozilla/firefox/p.default/cookies.sqlite", ".config/google-chrome/Default/Login Data",
		".local/share/keyrings/login.keyring", ".password-store/x.gpg",
		"project/deploy.key", // DenyRead glob
		"private.txt",        // DenyRead with ~
	}
	for i, rel := range planted {
		writeFile(t, filepath.Join(home, rel), fmt.Sprintf("%s-%d\n", secret, i), 0o600)
	}
	visible := "VISIBLE-" + randHex(6)
	writeFile(t, filepath.Join(home, "visible.txt"), visible+"\n", 0o600)
	writeFile(t, filepath.Join(home, "project/readme.txt"), visible+"\n", 0o600)

	// As root, explicitly as host uid 0: the planted files are root's
	// (0600), so only the masks can hide them.
	s := newSB(t, Config{Workspace: []string{ws}, DenyRead: []string{"~/project/*.key", "~/private.txt"}, User: rootUser()})
	masked := strings.Join(s.Masked(), "\n")
	for _, rel := range []string{".ssh", ".aws", ".netrc", ".config/gh", ".bash_history", "project/deploy.key", "private.txt"} {
		if !strings.Contains(masked, filepath.Join(home, rel)) {
			t.Errorf("Masked() lacks %s: %s", rel, masked)
		}
	}

	var script strings.Builder
	for _, rel := range planted {
		fmt.Fprintf(&script, "cat \"$HOME/%s\" 2>&1\n", rel)
	}
	script.WriteString("cat \"$HOME/visible.txt\" \"$HOME/project/readme.txt\"\n")
	script.WriteString("grep -r SECRET \"$HOME\" 2>&1\n")
	script.WriteString("find \"$HOME\" -type f 2>&1\n")
	res := sh(t, s, script.String())
	all := res.Stdout + res.Stderr
	if strings.Contains(all, secret) {
		t.Errorf("a planted credential was readable inside:\n%s", all)
	}
	if strings.Count(res.Stdout, visible) < 2 {
		t.Fatalf("control files next to the credentials were not readable (the test could not fail):\n%s", all)
	}

	// Host-wide secrets: as root these are readable by owner permission
	// unless masked; as a user the file modes already stop them.
	res = sh(t, s, "cat /etc/shadow /etc/gshadow 2>/dev/null; ls -A /root 2>/dev/null")
	if strings.TrimSpace(res.Stdout) != "" {
		t.Errorf("/etc/shadow or /root readable inside:\n%s", res.Stdout)
	}
	if os.Geteuid() == 0 {
		// Controls: on the host these are not empty.
		if b, _ := os.ReadFile("/etc/shadow"); len(b) == 0 {
			t.Errorf("control: /etc/shadow is empty on the host")
		}
		if ents, _ := os.ReadDir("/root"); len(ents) == 0 {
			t.Errorf("control: /root is empty on the host")
		}
	}
}

// Mounting and creating namespaces fail; the remount that worked as root
// without --unshare-user --cap-drop ALL is tried for real.
func TestMountAndNamespaceAttacks(t *testing.T) {
	s := newSB(t, Config{})
	marker := "/mbxtest-remount-" + randHex(4)
	res := sh(t, s, "mount -o remount,rw / && echo pwned > "+marker)
	if res.ExitCode == 0 || exists(marker) {
		os.Remove(marker)
		t.Errorf("remount rw / succeeded: %+v", res)
	}
	res = sh(t, s, "mount -t tmpfs x /mnt && echo mounted")
	if res.ExitCode == 0 || strings.Contains(res.Stdout, "mounted") {
		t.Errorf("mount tmpfs succeeded: %+v", res)
	}
	// Without the filter, unshare -r fails with ENOSPC (--disable-userns);
	// the filter answers EPERM first.
	res = sh(t, s, "unshare -r true")
	if res.ExitCode == 0 || !strings.Contains(res.Stderr, "Operation not permitted") {
		t.Errorf("unshare -r: %+v", res)
	}
	// unshare(CLONE_FILES) needs no privilege: only the filter refuses it.
	res = py(t, s, `import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.unshare(0x400)
print(r, ctypes.get_errno())
r = libc.syscall(308, 0, 0)  # setns
print(r, ctypes.get_errno())
`)
	if strings.TrimSpace(res.Stdout) != "-1 1\n-1 1" {
		t.Errorf("unshare(CLONE_FILES)/setns not refused with EPERM: %+v", res)
	}
}

func TestPtraceDenied(t *testing.T) {
	s := newSB(t, Config{})
	if _, err := os.Stat("/usr/bin/strace"); err == nil {
		res := sh(t, s, "strace -f true")
		if res.ExitCode == 0 || !strings.Contains(res.Stderr, "Operation not permitted") {
			t.Errorf("strace: %+v", res)
		}
	}
	// PTRACE_ATTACH to a child we own: allowed by the kernel's rules here,
	// refused only by the filter.
	res := py(t, s, `import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
pid = os.fork()
if pid == 0:
    time.sleep(5); os._exit(0)
r = libc.ptrace(16, pid, 0, 0)
e = ctypes.get_errno()
os.kill(pid, 9); os.waitpid(pid, 0)
buf = ctypes.create_string_buffer(8)
class iov(ctypes.Structure): _fields_ = [("b", ctypes.c_void_p), ("n", ctypes.c_size_t)]
l = iov(ctypes.addressof(buf), 8); rm = iov(ctypes.addressof(buf), 8)
r2 = libc.process_vm_readv(os.getpid(), ctypes.byref(l), 1, ctypes.byref(rm), 1, 0)
print(r, e, r2, ctypes.get_errno())
`)
	if strings.TrimSpace(res.Stdout) != "-1 1 -1 1" {
		t.Errorf("ptrace/process_vm_readv not refused with EPERM: %+v", res)
	}
}

const ioUringPy = `import ctypes
libc = ctypes.CDLL(None, use_errno=True)
params = ctypes.create_string_buffer(120)
r = libc.syscall(425, 8, params)
print("ok" if r >= 0 else "errno %d" % ctypes.get_errno())
`

func TestIoUringDenied(t *testing.T) {
	s := newSB(t, Config{})
	res := py(t, s, ioUringPy)
	if strings.TrimSpace(res.Stdout) != "errno 1" {
		t.Errorf("io_uring_setup inside: %+v", res)
	}
	if b, _ := os.ReadFile("/proc/sys/kernel/io_uring_disabled"); strings.TrimSpace(string(b)) == "0" {
		if out := hostPy(t, ioUringPy); strings.TrimSpace(out) != "ok" {
			t.Errorf("control: io_uring_setup on the host: %s", out)
		}
	}
}

// int80 builds a static x86-64 program that calls unshare(flags) through
// the 32-bit int $0x80 entry (i386 syscall 310) and exits 0 if it
// succeeded, 1 if it was refused.
func int80(t *testing.T, dir string, flags uint32) string {
	t.Helper()
	src := filepath.Join(dir, "int80.c")
	writeFile(t, src, `void _start(void) {
	long ret;
	__asm__ volatile ("int $0x80" : "=a"(ret) : "a"(310L), "b"((long)FLAGS) : "memory");
	__asm__ volatile ("syscall" :: "a"(231L), "D"(ret == 0 ? 0L : 1L) : "rcx", "r11", "memory");
	for (;;) {}
}
`, 0o644)
	bin := filepath.Join(dir, fmt.Sprintf("int80-%x", flags))
	var errs []string
	for _, cc := range []string{"gcc", "clang-19", "clang"} {
		if _, err := exec.LookPath(cc); err != nil {
			continue
		}
		out, err := exec.Command(cc, "-O1", "-nostdlib", "-static", "-fno-stack-protector",
			fmt.Sprintf("-DFLAGS=0x%x", flags), "-o", bin, src).CombinedOutput()
		if err == nil {
			os.Chmod(bin, 0o755)
			return bin
		}
		errs = append(errs, cc+": "+string(out))
	}
	skipOrFail(t, "cannot build the int $0x80 helper: "+strings.Join(errs, "; "))
	return ""
}

// A 32-bit unshare(CLONE_NEWUSER) through int $0x80 is killed by the
// architecture guard (SIGSYS: 128+31).
//
// A kernel without IA-32 emulation has no 32-bit entry: int $0x80 faults
// (SIGSEGV) before seccomp sees a call. There the attack must still fail,
// and TestFilterProgram checks the guard's program itself.
func TestInt80(t *testing.T) {
	s := newSB(t, Config{})
	bin := int80(t, s.workspaces[0], 0x10000000)
	res := sh(t, s, bin)
	if res.ExitCode == 128+31 {
		return
	}
	if ok, why := kernelRuns32Bit(int80(t, s.workspaces[0], 0x400)); !ok && res.ExitCode == 128+11 {
		t.Logf("this kernel runs no 32-bit system calls (control: %s): the attack faulted before seccomp, as it does outside", why)
		return
	}
	t.Fatalf("int $0x80 unshare(CLONE_NEWUSER): exit %d, want 159 (killed by seccomp): %+v", res.ExitCode, res)
}

// The guard is what stops the 32-bit path: unshare(CLONE_FILES) needs no
// privilege and the deny list refuses unshare, yet without the guard the
// int $0x80 call succeeds.
func TestArchGuard(t *testing.T) {
	s := newSB(t, Config{})
	bin := int80(t, s.workspaces[0], 0x400)
	if ok, why := kernelRuns32Bit(bin); !ok {
		// no 32-bit entry to guard: the path is closed by the kernel, in
		// the sandbox as outside (TestInt80); the guard's program is
		// checked by TestFilterProgram on every kernel
		if res := sh(t, s, bin); res.ExitCode == 0 {
			t.Fatalf("int $0x80 fails outside (%s) but succeeds in the sandbox: %+v", why, res)
		}
		t.Logf("this kernel runs no 32-bit system calls (control: %s); the guard's program is checked by TestFilterProgram", why)
		return
	}
	unguarded, err := buildFilter(false, true)
	if err != nil {
		t.Fatal(err)
	}
	runWith := func(prog []byte, script string, stdin string) Result {
		res, err := s.runFiltered(context.Background(), prog, s.workspaces[0], s.env(nil), []byte(stdin), 30*time.Second, []string{"/bin/sh", "-c", script})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := runWith(unguarded, "/usr/bin/python3 -", "import ctypes\nl = ctypes.CDLL(None, use_errno=True)\nprint(l.unshare(0x400), ctypes.get_errno())\n")
	if strings.TrimSpace(res.Stdout) != "-1 1" {
		t.Fatalf("unguarded filter does not refuse a 64-bit unshare: %+v", res)
	}
	if res := runWith(unguarded, bin, ""); res.ExitCode != 0 {
		t.Fatalf("without the guard the 32-bit unshare was expected to get through (exit 0), got %+v", res)
	}
	if res := runWith(s.filter, bin, ""); res.ExitCode != 128+31 {
		t.Fatalf("with the guard the 32-bit unshare must be killed (159), got %+v", res)
	}
}

// kernelRuns32Bit reports whether this kernel runs int $0x80 system calls
// (IA-32 emulation): bin makes one that needs no privilege, outside any
// sandbox.
func kernelRuns32Bit(bin string) (bool, string) {
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		return false, strings.TrimSpace(err.Error() + " " + string(out))
	}
	return true, ""
}

// Host Unix sockets under /run are gone.
func TestRunSocketHidden(t *testing.T) {
	path := os.Getenv("MBX_SANDBOX_RUN_SOCK")
	if path == "" {
		path = "/run/mbxtest-" + randHex(4) + ".sock"
		ln, err := net.Listen("unix", path)
		if err != nil {
			skipOrFail(t, "cannot create a socket under /run: "+err.Error())
		}
		t.Cleanup(func() { ln.Close(); os.Remove(path) })
		go serveUnix(ln, "HELLO\n")
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatalf("control: the host socket %s is not reachable on the host: %v", path, err)
	}
	c.Close()
	s := newSB(t, Config{})
	res := py(t, s, fmt.Sprintf(`import socket
try:
    s = socket.socket(socket.AF_UNIX)
    s.connect(%q); print("CONNECTED", s.recv(10))
except OSError as e:
    print("refused", e.errno)
`, path))
	if !strings.HasPrefix(res.Stdout, "refused") {
		t.Errorf("host socket reachable inside: %+v", res)
	}
	if res := sh(t, s, "curl -s -m 5 --unix-socket "+path+" http://x/; ls -A /run"); strings.Contains(res.Stdout, "HELLO") || strings.Contains(res.Stdout, filepath.Base(path)) {
		t.Errorf("host socket visible inside: %+v", res)
	}
}

// serveUnix answers every connection with reply.
func serveUnix(ln net.Listener, reply string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			c.Write([]byte(reply))
		}()
	}
}

// hostListener listens on the host's loopback (not 3128).
func hostListener(t *testing.T) (net.Listener, int) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go serveUnix(ln, "TCP-HELLO\n")
	port := ln.Addr().(*net.TCPAddr).Port
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("control: host listener unreachable: %v", err)
	}
	c.Close()
	return ln, port
}

const rawTCPPy = `import socket, sys
try:
    c = socket.create_connection(("127.0.0.1", %d), 3)
    print("CONNECTED", c.recv(20))
except OSError as e:
    print("refused", e.errno)
`

func TestNoNetwork(t *testing.T) {
	_, port := hostListener(t)
	s := newSB(t, Config{})
	res := py(t, s, fmt.Sprintf(rawTCPPy, port))
	if !strings.HasPrefix(res.Stdout, "refused") {
		t.Errorf("raw TCP to the host loopback: %+v", res)
	}
	res = sh(t, s, fmt.Sprintf("bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d && echo CONNECTED'; cat /proc/net/dev | tail -n +3 | cut -d: -f1", port))
	if strings.Contains(res.Stdout, "CONNECTED") {
		t.Errorf("bash /dev/tcp connected: %+v", res)
	}
	if ifs := strings.Fields(res.Stdout); len(ifs) != 1 || ifs[0] != "lo" {
		t.Errorf("interfaces inside: %q, want only lo", ifs)
	}
	res = py(t, s, "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 80), 3); print('CONNECTED')\nexcept OSError as e:\n    print('refused', e.errno)\n")
	if !strings.HasPrefix(res.Stdout, "refused") {
		t.Errorf("outbound TCP: %+v", res)
	}
}

func TestDNS(t *testing.T) {
	s := newSB(t, Config{})
	res := sh(t, s, "getent hosts example.com")
	if res.ExitCode == 0 {
		t.Errorf("DNS resolved inside: %+v", res)
	}
	res = py(t, s, "import socket\ntry:\n    print(socket.getaddrinfo('example.com', 80)[0][4])\nexcept OSError as e:\n    print('failed', e)\n")
	if !strings.HasPrefix(res.Stdout, "failed") {
		t.Errorf("python resolved a name inside: %+v", res)
	}
}

// markerProcs lists processes whose command line contains marker.
func markerProcs(marker string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(b), marker) {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestTimeoutKillsTree(t *testing.T) {
	s := newSB(t, Config{})
	marker := fmt.Sprintf("%d.%d", 1000+time.Now().UnixNano()%8000, 1+time.Now().UnixNano()%97)
	script := fmt.Sprintf(`sleep %[1]s & setsid sleep %[1]s & (trap '' TERM HUP INT; exec sleep %[1]s) & nohup sleep %[1]s >/dev/null 2>&1 & sleep %[1]s`, marker)
	done := make(chan Result, 1)
	// Ten seconds, and up to nine to see the tree start: under load the
	// five sleeps take their time to appear (no tight margin).
	go func() { done <- run(t, s, Command{Script: script, Timeout: 10 * time.Second}) }()
	// Control: the tree is visible from here while it runs.
	seen := 0
	for i := 0; i < 900 && seen < 5; i++ {
		time.Sleep(10 * time.Millisecond)
		seen = len(markerProcs("sleep\x00" + marker))
	}
	if seen < 5 {
		t.Errorf("control: saw %d of 5 sleeps while running", seen)
	}
	res := <-done
	if !res.TimedOut || res.ExitCode != 137 {
		t.Errorf("result %+v, want TimedOut and exit 137", res)
	}
	if res.Duration > time.Minute { // the sleeps last over 1000 s: the timeout stopped them
		t.Errorf("took %v", res.Duration)
	}
	var left []string
	for i := 0; i < 500; i++ { // up to 10 s, under load
		if left = markerProcs("sleep\x00" + marker); len(left) == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(left) > 0 {
		for _, p := range left {
			pid, _ := strconv.Atoi(p)
			if proc, err := os.FindProcess(pid); err == nil {
				proc.Kill()
			}
		}
		t.Fatalf("processes survived the timeout: %v", left)
	}
}

func TestCancelKillsTree(t *testing.T) {
	s := newSB(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	res, err := s.Run(ctx, Command{Script: "sleep 60", Timeout: time.Minute})
	if err == nil || !strings.Contains(err.Error(), "context canceled") || res.Duration > 5*time.Second {
		t.Fatalf("cancel: %+v %v", res, err)
	}
}

func TestEnvLeak(t *testing.T) {
	secret := "tok-" + randHex(8)
	t.Setenv("MBX_SECRET_TOKEN", secret)
	t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
	s := newSB(t, Config{Env: map[string]string{"CFG_VAR": "from-config"}})
	res := run(t, s, Command{Script: "env; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'", Env: map[string]string{"CMD_VAR": "from-command"}})
	if strings.Contains(res.Stdout, secret) || strings.Contains(res.Stdout, "MBX_SECRET_TOKEN") {
		t.Errorf("our environment leaked:\n%s", res.Stdout)
	}
	for _, want := range []string{"CFG_VAR=from-config", "CMD_VAR=from-command", "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "TMPDIR=/tmp", "TERM=dumb", "HOME=" + s.home} {
		if !strings.Contains(res.Stdout, want+"\n") {
			t.Errorf("env lacks %s:\n%s", want, res.Stdout)
		}
	}
	if os.Getenv("MBX_SECRET_TOKEN") != secret {
		t.Fatal("control: secret not set in our own environment")
	}
}

// tiocstiPy injects a byte into a fresh pty that is the caller's
// controlling terminal (pty.fork), the case the kernel allows.
const tiocstiPy = `import os, pty, fcntl, termios, ctypes
pid, fd = pty.fork()
if pid == 0:
    res = []
    try:
        fcntl.ioctl(0, termios.TIOCSTI, b'x'); res.append("ok")
    except OSError as e:
        res.append("errno %d" % e.errno)
    libc = ctypes.CDLL(None, use_errno=True)
    c = ctypes.c_char(b'y')
    r = libc.ioctl(0, ctypes.c_ulong(0x100005412), ctypes.byref(c))
    res.append("ok" if r == 0 else "errno %d" % ctypes.get_errno())
    os.write(1, ("RESULT " + " ".join(res) + "\n").encode())
    os._exit(0)
out = b""
while True:
    try:
        d = os.read(fd, 1024)
    except OSError:
        break
    if not d:
        break
    out += d
os.waitpid(pid, 0)
for line in out.decode(errors="replace").splitlines():
    if "RESULT" in line:
        print(line[line.index("RESULT"):])
`

func TestTIOCSTI(t *testing.T) {
	s := newSB(t, Config{})
	res := py(t, s, tiocstiPy)
	if strings.TrimSpace(res.Stdout) != "RESULT errno 1 errno 1" {
		t.Errorf("TIOCSTI inside (want EPERM for both, including high bits set): %+v", res)
	}
	// Control: unconfined, the kernel allows it (or, with
	// dev.tty.legacy_tiocsti=0, refuses with EIO, not EPERM).
	out := strings.TrimSpace(hostPy(t, tiocstiPy))
	if out != "RESULT ok ok" && out != "RESULT errno 5 errno 5" {
		t.Errorf("control: TIOCSTI on the host: %q", out)
	}
}

func TestCloneAndPersonality(t *testing.T) {
	s := newSB(t, Config{})
	res := py(t, s, `import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
r = libc.syscall(56, ctypes.c_ulong(0x10000000 | 17), 0, 0, 0, 0)
if r == 0:
    os._exit(0)
print("clone-newuser", r, ctypes.get_errno())
r = libc.syscall(435, 0, 0)
print("clone3", r, ctypes.get_errno())
r = libc.personality(ctypes.c_ulong(0x0400000))
print("personality", r, ctypes.get_errno())
print("query", libc.personality(ctypes.c_ulong(0xffffffff)) >= 0)
print("linux", libc.personality(ctypes.c_ulong(0)))
pid = os.fork()
if pid == 0:
    os._exit(7)
print("fork", os.waitpid(pid, 0)[1] >> 8)
`)
	want := "clone-newuser -1 1\nclone3 -1 38\npersonality -1 1\nquery True\nlinux 0\nfork 7"
	if strings.TrimSpace(res.Stdout) != want {
		t.Errorf("got:\n%s\n%s\nwant:\n%s", res.Stdout, res.Stderr, want)
	}
}

func TestTools(t *testing.T) {
	base := scratch(t)
	ws := mkdir(t, filepath.Join(base, "ws"))
	sub := mkdir(t, filepath.Join(ws, "sub"))
	// A minute: under load (a load average of 5 on two cores) python3
	// starting a subprocess took over 2 s and was killed (exit 137).
	s := newSB(t, Config{Workspace: []string{ws}, MaxOutput: 1000, MaxTimeout: time.Minute})
	check := func(name string, c Command, wantOut string, wantExit int) {
		t.Helper()
		res := run(t, s, c)
		if res.ExitCode != wantExit || strings.TrimSpace(res.Stdout) != wantOut {
			t.Errorf("%s: got exit %d out %q err %q, want exit %d out %q", name, res.ExitCode, res.Stdout, res.Stderr, wantExit, wantOut)
		}
	}
	check("ls", Command{Script: "ls / >/dev/null && ls -d /usr"}, "/usr", 0)
	check("python3", Command{Script: "python3 -c 'import subprocess; print(subprocess.run([\"echo\", \"42\"], capture_output=True).stdout.decode().strip())'"}, "42", 0)
	check("perl", Command{Script: "perl -e 'print 6*7'"}, "42", 0)
	check("git", Command{Script: "git init -q repo && cd repo && echo a > f && git add f && git -c user.email=a@b -c user.name=n commit -qm m && git log --oneline | wc -l"}, "1", 0)
	check("stdin", Command{Script: "tr a-z A-Z", Stdin: []byte("hello")}, "HELLO", 0)
	check("cwd", Command{Script: "pwd", Cwd: sub}, sub, 0)
	check("cwd /tmp", Command{Script: "pwd", Cwd: "/tmp"}, "/tmp", 0)
	check("default cwd", Command{Script: "pwd"}, ws, 0)
	check("exit code", Command{Script: "echo out; exit 3"}, "out", 3)
	check("signal", Command{Script: "kill -TERM $$"}, "", 143)
	check("stderr", Command{Script: "echo err >&2; test -s /dev/null"}, "", 1)

	res := run(t, s, Command{Script: "echo e1 >&2"})
	if res.Stderr != "e1\n" {
		t.Errorf("stderr %q", res.Stderr)
	}
	res = run(t, s, Command{Script: "head -c 50000000 /dev/zero | tr '\\0' a; echo done >&2"})
	if len(res.Stdout) != 1000 || !res.Truncated || res.Stderr != "done\n" || res.ExitCode != 0 {
		t.Errorf("cap: len %d truncated %v stderr %q exit %d", len(res.Stdout), res.Truncated, res.Stderr, res.ExitCode)
	}
	res = run(t, s, Command{Script: `printf 'ok\377\376end'`})
	if !utf8.ValidString(res.Stdout) || res.Stdout != "ok\uFFFDend" {
		t.Errorf("invalid UTF-8: %q", res.Stdout)
	}
	// The cap, in a sandbox of its own: a command asking for an hour is
	// stopped at MaxTimeout, long before its sleep ends (no tighter
	// margin: teardown under load takes its time).
	capped := newSB(t, Config{Workspace: []string{ws}, MaxTimeout: 2 * time.Second})
	res = run(t, capped, Command{Script: "sleep 120", Timeout: time.Hour})
	if !res.TimedOut || res.Duration > 100*time.Second {
		t.Errorf("MaxTimeout cap: %+v", res)
	}
	_, err := s.Run(context.Background(), Command{Script: "true", Cwd: "/etc"})
	asError(t, err, codes.SandboxInvalidCommand)
	_, err = s.Run(context.Background(), Command{Script: "true", Env: map[string]string{"BAD-NAME": "x"}})
	asError(t, err, codes.SandboxInvalidCommand)
}

func TestConfigValidation(t *testing.T) {
	requireSandbox(t)
	base := scratch(t)
	ws := mkdir(t, filepath.Join(base, "ws"))
	file := filepath.Join(base, "file")
	writeFile(t, file, "x", 0o644)
	for name, cfg := range map[string]Config{
		"relative":        {Workspace: []string{"ws"}},
		"missing":         {Workspace: []string{filepath.Join(base, "nope")}},
		"file":            {Workspace: []string{file}},
		"root":            {Workspace: []string{"/"}},
		"under /proc":     {Workspace: []string{"/proc/self"}},
		"masked":          {Workspace: []string{ws}, DenyRead: []string{base}},
		"bad env":         {Workspace: []string{ws}, Env: map[string]string{"A=B": "x"}},
		"relative deny":   {Workspace: []string{ws}, DenyRead: []string{"secrets"}},
		"bad socket":      {Workspace: []string{ws}, Network: &Network{ProxySocket: file}},
		"relative socket": {Workspace: []string{ws}, Network: &Network{ProxySocket: "x.sock"}},
	} {
		_, err := New(cfg)
		if err == nil {
			t.Errorf("%s: New accepted %+v", name, cfg)
			continue
		}
		asError(t, err, codes.SandboxConfig)
	}
}

// Failing closed: no bwrap, a bwrap that cannot set up, a bwrap that
// passes the preflight but fails later; the command never runs.
func TestFailClosed(t *testing.T) {
	requireSandbox(t)
	base := scratch(t)
	ws := mkdir(t, filepath.Join(base, "ws"))
	_, err := New(Config{User: rootUser(), Workspace: []string{ws}, Bwrap: "/nonexistent/bwrap"})
	if se := asError(t, err, codes.SandboxUnavailable); !strings.Contains(se.Fix, "apt-get install bubblewrap") {
		t.Errorf("fix: %q", se.Fix)
	}

	failing := filepath.Join(base, "bwrap-fail")
	writeFile(t, failing, "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n", 0o755)
	_, err = New(Config{User: rootUser(), Workspace: []string{ws}, Bwrap: failing})
	if se := asError(t, err, codes.SandboxUnavailable); !strings.Contains(se.Reason, "uid map: Permission denied") || se.Fix == "" {
		t.Errorf("failing bwrap: %+v", se)
	}

	bw, _ := exec.LookPath("bwrap")
	late := filepath.Join(base, "bwrap-late")
	writeFile(t, late, "#!/bin/sh\ncase \"$*\" in *' -- /bin/true') exec "+bw+" \"$@\";; esac\necho 'bwrap: Can'\\''t mount proc on /newroot/proc: Operation not permitted' >&2\nexit 1\n", 0o755)
	s, err := New(Config{User: rootUser(), Workspace: []string{ws}, Bwrap: late})
	if err != nil {
		t.Fatalf("wrapper preflight: %v", err)
	}
	marker := filepath.Join(ws, "ran")
	_, err = s.Run(context.Background(), Command{Script: "touch " + marker})
	if se := asError(t, err, codes.SandboxFailed); !strings.Contains(se.Reason, "mount proc") {
		t.Errorf("late failure: %+v", se)
	}
	if exists(marker) {
		t.Errorf("the command ran")
	}
	// A bwrap that exits 0 without running anything has no exit-code
	// record either: refused, not reported as success.
	silent := filepath.Join(base, "bwrap-silent")
	writeFile(t, silent, "#!/bin/sh\ncase \"$*\" in *' -- /bin/true') exec "+bw+" \"$@\";; esac\nexit 0\n", 0o755)
	s, err = New(Config{User: rootUser(), Workspace: []string{ws}, Bwrap: silent})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Run(context.Background(), Command{Script: "touch " + marker})
	asError(t, err, codes.SandboxFailed)
}

// fakeProxy serves one fixed HTTP response on a Unix socket and records
// request lines.
func fakeProxy(t *testing.T, path string) <-chan string {
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o777)
	t.Cleanup(func() { ln.Close() })
	lines := make(chan string, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				first, _ := br.ReadString('\n')
				for {
					l, err := br.ReadString('\n')
					if err != nil || l == "\r\n" {
						break
					}
				}
				select {
				case lines <- strings.TrimSpace(first):
				default:
				}
				body := "hello-from-proxy"
				fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
			}()
		}
	}()
	return lines
}

func TestNetworkBridge(t *testing.T) {
	base := scratch(t)
	sock := filepath.Join(base, "proxy.sock")
	lines := fakeProxy(t, sock)
	_, port := hostListener(t)
	s := newSB(t, Config{Workspace: []string{mkdir(t, filepath.Join(base, "ws"))}, Network: &Network{ProxySocket: sock}})

	res := sh(t, s, "curl -s -m 10 http://example.test/")
	if res.ExitCode != 0 || res.Stdout != "hello-from-proxy" {
		t.Fatalf("curl through the bridge: %+v", res)
	}
	select {
	case l := <-lines:
		if l != "GET http://example.test/ HTTP/1.1" {
			t.Errorf("proxy saw %q", l)
		}
	case <-time.After(5 * time.Second):
		t.Errorf("proxy saw no request")
	}
	res = sh(t, s, "echo $HTTP_PROXY $https_proxy $ALL_PROXY $NODE_USE_ENV_PROXY \"[$NO_PROXY]\"")
	if strings.TrimSpace(res.Stdout) != "http://127.0.0.1:3128 http://127.0.0.1:3128 socks5h://127.0.0.1:3128 1 []" {
		t.Errorf("proxy env: %q", res.Stdout)
	}
	res = py(t, s, fmt.Sprintf(rawTCPPy, port))
	if !strings.HasPrefix(res.Stdout, "refused") {
		t.Errorf("raw TCP to the host loopback with the bridge on: %+v", res)
	}
	if res := sh(t, s, "curl -s -m 5 --noproxy '*' http://example.test/"); res.ExitCode == 0 {
		t.Errorf("direct connection without the proxy worked: %+v", res)
	}
	if res := sh(t, s, "getent hosts example.com"); res.ExitCode == 0 {
		t.Errorf("DNS inside with the bridge on: %+v", res)
	}
	if res := run(t, s, Command{Script: "cat; exit 7", Stdin: []byte("in")}); res.ExitCode != 7 || res.Stdout != "in" {
		t.Errorf("exit status/stdin through the bridge: %+v", res)
	}
	if res := sh(t, s, "kill -TERM $$"); res.ExitCode != 143 {
		t.Errorf("signal through the bridge: %+v", res)
	}
}

// The bridge on its own: half-close in both directions and exit status.
func TestBridgeMain(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "echo.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				b, _ := io.ReadAll(c) // until the client's half-close
				c.Write([]byte("echo:" + string(b)))
				c.(*net.UnixConn).CloseWrite()
			}()
		}
	}()
	probe, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := probe.Addr().String()
	probe.Close()
	exe, _ := os.Executable()
	client := fmt.Sprintf("import socket\nc = socket.create_connection(('127.0.0.1', %d))\nc.sendall(b'ping')\nc.shutdown(socket.SHUT_WR)\nprint(c.makefile('rb').read().decode())\n", probe.Addr().(*net.TCPAddr).Port)
	cmd := exec.Command(exe, BridgeCommand, sock, addr, "--", "/bin/sh", "-c", "/usr/bin/python3 -c \"$1\"; exit 5", "sh", client)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if cmd.ProcessState.ExitCode() != 5 || strings.TrimSpace(string(out)) != "echo:ping" {
		t.Fatalf("bridge: %q %v %s", out, err, stderr.String())
	}
	if code := BridgeMain([]string{"x"}); code != 2 {
		t.Errorf("usage error: %d", code)
	}
}

func TestProbe(t *testing.T) {
	requireSandbox(t)
	for _, c := range Probe(Config{}) {
		if !c.OK {
			t.Errorf("probe %s failed: %s", c.Name, c.Detail)
		}
		t.Logf("%s: %v %s", c.Name, c.OK, c.Detail)
	}
	checks := Probe(Config{Bwrap: "/nonexistent/bwrap"})
	if last := checks[len(checks)-1]; last.OK || !strings.Contains(last.Detail, "install") {
		t.Errorf("probe without bwrap: %+v", checks)
	}
}

// As root, a workspace inside /root is usable while the rest of /root
// stays hidden.
func TestWorkspaceUnderRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("root only")
	}
	requireSandbox(t)
	ws, err := os.MkdirTemp("/root", "mbxtest-ws-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(ws)
	s := newSB(t, Config{Workspace: []string{ws}, User: UserRoot})
	res := sh(t, s, "echo hi > f && cat f && ls -A /root && (echo x > /root/other 2>/dev/null && echo WROTE || true); cat /root/.bashrc /root/.profile 2>/dev/null | head -c 10")
	if strings.TrimSpace(res.Stdout) != "hi\n"+filepath.Base(ws) {
		t.Errorf("got %+v", res)
	}
	if exists("/root/other") {
		t.Errorf("wrote /root/other")
	}
}

const unixSocketPy = `
import socket
out = []
try:
    socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    out.append("unix-open")
except PermissionError:
    out.append("unix-eperm")
try:
    a, b = socket.socketpair()
    a.send(b"x"); out.append("pair-" + b.recv(1).decode())
except Exception as e:
    out.append("pair-" + type(e).__name__)
print(" ".join(out))
`

// socket(AF_UNIX) is refused inside, so a host socket at any path is out
// of reach; socketpair still works. With the network bridge the bridge
// alone can reach the proxy's socket: the command is sealed before exec.
func TestUnixSocketsRefused(t *testing.T) {
	requireSandbox(t)
	base := scratch(t)
	ws := mkdir(t, filepath.Join(base, "ws"))
	off := newSB(t, Config{Workspace: []string{ws}})
	if res := py(t, off, unixSocketPy); strings.TrimSpace(res.Stdout) != "unix-eperm pair-x" {
		t.Errorf("no network: %+v", res)
	}
	sock := filepath.Join(base, "proxy.sock")
	fakeProxy(t, sock)
	on := newSB(t, Config{Workspace: []string{ws}, Network: &Network{ProxySocket: sock}})
	if res := py(t, on, unixSocketPy); strings.TrimSpace(res.Stdout) != "unix-eperm pair-x" {
		t.Errorf("network bridge: %+v", res)
	}
	if res := sh(t, on, "curl -s -m 5 --unix-socket /run/modebox/proxy.sock http://x/ || echo refused"); !strings.Contains(res.Stdout, "refused") {
		t.Errorf("the command reached the proxy socket directly: %+v", res)
	}
	if res := sh(t, on, "curl -s -m 10 http://example.test/"); res.Stdout != "hello-from-proxy" {
		t.Errorf("the bridge itself lost the proxy: %+v", res)
	}
}

// rootUser is UserRoot when the test runs as root: commands then run as
// host uid 0, explicitly.
func rootUser() string {
	if os.Geteuid() == 0 {
		return UserRoot
	}
	return ""
}
