//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// setuidPy plants set-user-ID and set-group-ID bits every way a program
// can: chmod, fchmod, fchmodat, fchmodat2, open/openat/creat with O_CREAT
// or O_TMPFILE, mknod and openat2, and prints what each call returned.
// Each target starts as a copy of /bin/dash, so that a bit that stuck
// would make a working set-ID shell on the host.
const setuidPy = `import ctypes, os, shutil, stat, sys
libc = ctypes.CDLL(None, use_errno=True)
x86 = os.uname().machine == "x86_64"
def res(name, fn):
    try:
        r = fn()
        if isinstance(r, int) and r < 0:
            print(name, "errno", ctypes.get_errno())
        else:
            print(name, "ok")
    except OSError as e:
        print(name, "errno", e.errno)
def dash(p):
    shutil.copyfile("/bin/dash", p)
    os.chmod(p, 0o755)
    return p
def sys_(nr, *args):
    return libc.syscall(ctypes.c_long(nr), *args)
res("chmod-6755", lambda: os.chmod(dash("chmod"), 0o6755))
res("chmod-4755", lambda: os.chmod(dash("chmod-u"), 0o4755))
res("chmod-2755", lambda: os.chmod(dash("chmod-g"), 0o2755))
# a mode with high bits set, which the kernel ignores (umode_t)
res("chmod-high", lambda: (dash("chmod-high"), sys_(90, b"chmod-high", ctypes.c_ulong(0x100000000 | 0o4755)) if x86 else sys_(53, -100, b"chmod-high", ctypes.c_ulong(0x100000000 | 0o4755)))[1])
def do_fchmod():
    fd = os.open(dash("fchmod"), os.O_RDONLY)
    try:
        os.fchmod(fd, 0o4755)
    finally:
        os.close(fd)
res("fchmod", do_fchmod)
def do_fchmodat():
    d = os.open(".", os.O_RDONLY)
    try:
        dash("fchmodat")
        os.chmod("fchmodat", 0o2755, dir_fd=d)
    finally:
        os.close(d)
res("fchmodat", do_fchmodat)
res("fchmodat2", lambda: (dash("fchmodat2"), sys_(452, -100, b"fchmodat2", 0o6755, 0))[1])
def create(name, flags, mode):
    fd = os.open(name, flags, mode)
    os.close(fd)
res("openat-creat", lambda: create("openat", os.O_CREAT | os.O_WRONLY, 0o6755))
res("open-creat", lambda: sys_(2, b"open", os.O_CREAT | os.O_WRONLY, 0o4755) if x86 else create("open", os.O_CREAT | os.O_WRONLY, 0o4755))
res("creat", lambda: sys_(85, b"creat", 0o2755) if x86 else create("creat", os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o2755))
res("libc-creat", lambda: libc.creat(b"libc-creat", 0o4755))
def tmpfile():
    fd = os.open(".", os.O_TMPFILE | os.O_WRONLY, 0o4755)
    try:
        if libc.linkat(-100, b"/proc/self/fd/%d" % fd, -100, b"tmpfile", 0x400) < 0:
            raise OSError(ctypes.get_errno(), "linkat")
    finally:
        os.close(fd)
res("o_tmpfile", tmpfile)
res("mknod", lambda: os.mknod("mknod", stat.S_IFREG | 0o6755))
res("mknodat", lambda: os.mknod("mknodat", stat.S_IFREG | 0o4755, dir_fd=os.open(".", os.O_RDONLY)))
class OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]
how = OpenHow(os.O_CREAT | os.O_WRONLY, 0o6755, 0)
res("openat2", lambda: sys_(437, -100, b"openat2", ctypes.byref(how), ctypes.c_size_t(ctypes.sizeof(how))))
# ordinary modes still work
res("plain-755", lambda: os.chmod(dash("plain755"), 0o755))
res("plain-644", lambda: os.chmod("plain755", 0o644) or os.chmod("plain755", 0o755))
res("plain-create", lambda: create("plaincreate", os.O_CREAT | os.O_WRONLY, 0o640))
res("sticky-dir", lambda: (os.mkdir("stickydir"), os.chmod("stickydir", 0o1777)))
`

// setuidFiles are the files setuidPy may leave; none may keep a set-ID bit.
var setuidFiles = []string{"chmod", "chmod-u", "chmod-g", "chmod-high", "fchmod", "fchmodat", "fchmodat2",
	"openat", "open", "creat", "libc-creat", "tmpfile", "mknod", "mknodat", "openat2",
	"d", "inst", "inst2", "dashcopy", "gdir", "mdir"}

// TestSetuidBitsRefused is the second finding of the security tester: the
// workspace is nosuid inside the sandbox but not on the host, so a command
// could plant a set-user-ID copy of a shell there (`cp /bin/dash d &&
// chmod 6755 d`) for any local user to run later with the owner's ids
// (root's with "user": "root"). Every way of setting S_ISUID or S_ISGID is
// refused, whoever the command runs as; ordinary modes still work.
func TestSetuidBitsRefused(t *testing.T) {
	users := map[string]string{"workspace owner": ""}
	if os.Geteuid() == 0 {
		users["root"] = UserRoot
	}
	for name, u := range users {
		t.Run(name, func(t *testing.T) {
			s := newSB(t, Config{User: u})
			ws := s.workspaces[0]
			res := run(t, s, Command{Script: "/usr/bin/python3 -", Stdin: []byte(setuidPy)})
			got := map[string]string{}
			for _, l := range strings.Split(strings.TrimSpace(res.Stdout), "\n") {
				if k, v, ok := strings.Cut(l, " "); ok {
					got[k] = v
				}
			}
			if got["sticky-dir"] == "" {
				t.Fatalf("the probe did not finish: %+v", res)
			}
			for _, k := range []string{"plain-755", "plain-644", "plain-create", "sticky-dir"} {
				if got[k] != "ok" {
					t.Errorf("%s: %s, want ok", k, got[k])
				}
			}
			for _, k := range []string{"chmod-6755", "chmod-4755", "chmod-2755", "chmod-high", "fchmod", "fchmodat", "fchmodat2",
				"openat-creat", "open-creat", "creat", "libc-creat", "o_tmpfile", "mknod", "mknodat"} {
				if got[k] != "errno 1" {
					t.Errorf("%s: %s, want errno 1 (EPERM)", k, got[k])
				}
			}
			if got["openat2"] != "errno 38" && got["openat2"] != "errno 1" {
				t.Errorf("openat2: %s, want errno 38 (ENOSYS, so libc falls back) or 1", got["openat2"])
			}

			// The shell's own tools.
			sres := sh(t, s, `cp /bin/dash d; chmod 6755 d; echo chmod=$?
chmod u+s d; echo chmod-us=$?
chmod g+s d; echo chmod-gs=$?
install -m 4755 /bin/dash inst; echo install=$?
install -m 2755 /bin/dash inst2; echo install2=$?
cp -p /bin/dash dashcopy; chmod 755 dashcopy; echo plain=$?
mkdir gdir; chmod g+s gdir; echo dir-gs=$?
mkdir -m 2775 mdir; echo mkdir-m=$?`)
			for _, want := range []string{"chmod=1", "chmod-us=1", "chmod-gs=1", "install=1", "install2=1", "plain=0", "dir-gs=1", "mkdir-m=1"} {
				if !strings.Contains(sres.Stdout, want+"\n") {
					t.Errorf("shell: want %s:\n%s%s", want, sres.Stdout, sres.Stderr)
				}
			}

			// What is on the host afterwards decides.
			for _, f := range setuidFiles {
				fi, err := os.Stat(filepath.Join(ws, f))
				if err != nil {
					continue
				}
				if fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0 {
					t.Errorf("%s is %v on the host", f, fi.Mode())
				}
			}
			for f, want := range map[string]os.FileMode{"plain755": 0o755, "dashcopy": 0o755, "plaincreate": 0o640} {
				fi, err := os.Stat(filepath.Join(ws, f))
				if err != nil {
					t.Errorf("%s: %v", f, err)
				} else if fi.Mode().Perm() != want&^0o022 && fi.Mode().Perm() != want {
					t.Errorf("%s is %v, want %v", f, fi.Mode(), want)
				}
			}
			if fi, err := os.Stat(filepath.Join(ws, "stickydir")); err != nil || fi.Mode()&os.ModeSticky == 0 {
				t.Errorf("sticky directory: %v %v", fi, err)
			}
		})
	}
	if runtime.GOARCH != "amd64" {
		t.Log("open(2), creat(2) and chmod(2) are tried through libc on this architecture")
	}
}
