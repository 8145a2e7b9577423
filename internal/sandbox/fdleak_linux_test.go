//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestInheritedDescriptors is the attack of the security tester: a
// descriptor modebox inherited from its parent without close-on-exec
// (`modebox run prog.js 7</some/dir`) was open in every command, and a
// directory descriptor reached the host's whole tree through
// /proc/self/fd/N/.., past the masks and the workspace. No descriptor but
// the sandbox's own may reach bwrap or anything below it.
func TestInheritedDescriptors(t *testing.T) {
	base := scratch(t)
	hidden := mkdir(t, filepath.Join(base, "hidden"))
	if err := os.Chmod(hidden, 0o777); err != nil { // writable by whoever runs the command
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(hidden, "secret.txt"), "inherited-secret", 0o644)
	ws := mkdir(t, filepath.Join(base, "ws"))

	// Descriptors without close-on-exec, as a parent shell leaves them: a
	// directory at whatever number open returns, the same directory at a
	// high number, and the secret file itself.
	dirFd, err := syscall.Open(hidden, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(dirFd)
	const highFd = 250
	if err := unix.Dup3(dirFd, highFd, 0); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(highFd)
	fileFd, err := syscall.Open(filepath.Join(hidden, "secret.txt"), syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fileFd)
	for _, fd := range []int{dirFd, highFd, fileFd} {
		if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil || flags&unix.FD_CLOEXEC != 0 {
			t.Fatalf("control: fd %d flags %d %v, want no close-on-exec", fd, flags, err)
		}
	}
	// Control: an ordinary child of this process does get them.
	out, _ := exec.Command("/bin/sh", "-c", fmt.Sprintf("cat /proc/self/fd/%d/secret.txt; cat /proc/self/fd/%d/secret.txt; cat <&%d", dirFd, highFd, fileFd)).CombinedOutput()
	if strings.Count(string(out), "inherited-secret") != 3 {
		t.Fatalf("control: a plain child did not inherit the descriptors: %q", out)
	}

	script := fmt.Sprintf(`for fd in %[1]d %[2]d %[3]d; do
  if [ -e /proc/self/fd/$fd ]; then echo "OPEN $fd $(readlink /proc/self/fd/$fd)"; fi
  ls /proc/self/fd/$fd/ 2>/dev/null && echo "LISTED $fd"
  cat /proc/self/fd/$fd/secret.txt 2>/dev/null
  cat /proc/self/fd/$fd 2>/dev/null
  echo pwned 2>/dev/null >/proc/self/fd/$fd/planted && echo "WROTE $fd"
  ls /proc/self/fd/$fd/../.. >/dev/null 2>&1 && echo "CLIMBED $fd"
done
echo fds $(ls /proc/self/fd)
echo done`, dirFd, highFd, fileFd)

	cfgs := map[string]Config{
		"default user": {Workspace: []string{ws}, DenyRead: []string{hidden}},
	}
	if os.Geteuid() == 0 {
		rws := mkdir(t, filepath.Join(base, "rootws"))
		cfgs["root"] = Config{Workspace: []string{rws}, DenyRead: []string{hidden}, User: UserRoot}
	}
	sock := filepath.Join(base, "proxy.sock")
	fakeProxy(t, sock)
	cfgs["network"] = Config{Workspace: []string{ws}, DenyRead: []string{hidden}, Network: &Network{ProxySocket: sock}}
	for name, cfg := range cfgs {
		t.Run(name, func(t *testing.T) {
			s := newSB(t, cfg)
			res := sh(t, s, script)
			if !strings.Contains(res.Stdout, "done") {
				t.Fatalf("the command did not run: %+v", res)
			}
			for _, bad := range []string{"OPEN", "LISTED", "inherited-secret", "WROTE", "CLIMBED", "secret.txt"} {
				if strings.Contains(res.Stdout, bad) {
					t.Errorf("an inherited descriptor reached the command (%s):\n%s", bad, res.Stdout)
				}
			}
			if exists(filepath.Join(hidden, "planted")) {
				t.Errorf("the command wrote into the host directory through the descriptor")
			}
			// Only the standard streams (and ls's own directory) are open.
			for _, l := range strings.Split(res.Stdout, "\n") {
				if f, ok := strings.CutPrefix(l, "fds "); ok {
					if n := len(strings.Fields(f)); n > 4 {
						t.Errorf("the command has %d descriptors open (%s), want 0, 1, 2 and ls's own", n, f)
					}
				}
			}
		})
	}
}
