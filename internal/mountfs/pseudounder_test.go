//go:build linux

package mountfs

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
	"golang.org/x/sys/unix"
)

// pseudoUnderDir is a directory of sysfs that every Linux system has; the
// helper mounts a tmpfs over it in its own mount namespace.
const pseudoUnderDir = "/sys/fs/cgroup"

// The pseudo file system check looked only at the file opened, so a
// tmpfs mounted under sysfs (/sys/fs/cgroup on cgroup v1 systems, this
// machine among them) was listable and readable through a mount of "/".
// Every directory a path passes through is now checked. The helper runs
// in a private mount namespace (unshare -m) with a tmpfs over
// /sys/fs/cgroup holding a planted file, and reads, stats, lists and
// globs it through a mount of "/" with both resolvers.
func TestPseudoFileSystemAncestorsChecked(t *testing.T) {
	if os.Geteuid() != 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("CI runs as root: this test needs a mount namespace")
		}
		t.Skip("needs root for a mount namespace")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Fatalf("unshare (util-linux): %v", err)
	}
	cmd := exec.Command(unshare, "--mount", "--propagation", "private", os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MOUNTFS_HELPER=pseudo-under")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "checked 2 resolvers") {
		t.Fatalf("helper did not run its checks:\n%s", out)
	}
}

// pseudoUnderHelper is the helper of TestPseudoFileSystemAncestorsChecked;
// it prints what got through and returns 1 if anything did.
func pseudoUnderHelper() int {
	if err := unix.Mount("modebox-test", pseudoUnderDir, "tmpfs", 0, "size=1m"); err != nil {
		fmt.Println("mount tmpfs:", err)
		return 2
	}
	if err := os.WriteFile(pseudoUnderDir+"/planted.txt", []byte("secret"), 0o644); err != nil {
		fmt.Println("plant:", err)
		return 2
	}
	if err := os.Mkdir(pseudoUnderDir+"/sub", 0o755); err != nil {
		fmt.Println("mkdir:", err)
		return 2
	}
	var st unix.Statfs_t
	if err := unix.Statfs(pseudoUnderDir, &st); err != nil || pseudoFSTypes[int64(st.Type)] != "" {
		fmt.Println("the planted directory is not on tmpfs:", err)
		return 2
	}
	bad := 0
	fail := func(format string, args ...any) {
		fmt.Printf(format+"\n", args...)
		bad++
	}
	denied := func(what string, err error) {
		var e *Error
		if err == nil {
			fail("%s: allowed", what)
		} else if !errors.As(err, &e) || e.Code != codes.FSDenied {
			fail("%s: %v, want %s", what, err, codes.FSDenied)
		}
	}
	for _, fallback := range []bool{false, true} {
		f, err := New(Config{Mounts: []Mount{{Host: "/", Guest: "/host"}}, Fallback: fallback})
		if err != nil {
			fmt.Println("New:", err)
			return 2
		}
		s := f.NewSession()
		_, _, _, err = s.Read("/host" + pseudoUnderDir + "/planted.txt")
		denied("read", err)
		_, err = s.List("/host" + pseudoUnderDir)
		denied("list", err)
		_, err = s.List("/host" + pseudoUnderDir + "/sub")
		denied("list sub", err)
		_, err = s.Stat("/host" + pseudoUnderDir + "/planted.txt")
		denied("stat", err)
		if found, err := s.Glob("/host" + pseudoUnderDir + "/*"); len(found) > 0 {
			fail("glob: %v (%v)", found, err)
		}
		if found, err := s.Glob("/host/sys/fs/*/planted.txt"); len(found) > 0 {
			fail("glob: %v (%v)", found, err)
		}
		f.Close()
	}
	if _, err := New(Config{Mounts: []Mount{{Host: pseudoUnderDir, Guest: "/p"}}}); err == nil {
		fail("a mount of %s (tmpfs under sysfs) was accepted", pseudoUnderDir)
	} else {
		var e *Error
		if !errors.As(err, &e) || e.Code != codes.FSConfig {
			fail("mount of %s: %v, want %s", pseudoUnderDir, err, codes.FSConfig)
		}
	}
	link := fmt.Sprintf("%s/modebox-pseudo-link-%d", os.TempDir(), os.Getpid())
	if err := os.Symlink(pseudoUnderDir+"/sub", link); err != nil {
		fmt.Println("symlink:", err)
		return 2
	}
	defer os.Remove(link)
	if _, err := New(Config{Mounts: []Mount{{Host: link, Guest: "/p"}}}); err == nil {
		fail("a mount of a symlink to %s/sub was accepted", pseudoUnderDir)
	}
	fmt.Println("checked 2 resolvers")
	if bad > 0 {
		return 1
	}
	return 0
}
