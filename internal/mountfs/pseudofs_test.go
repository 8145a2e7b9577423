//go:build linux

package mountfs

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

// A mount of "/" (as docs/capabilities.md allows) did not hide the
// kernel's process views: /proc/N/environ gave every process's
// environment (modebox's $MODEBOX_SECRET, fetch's env: secrets, the MCP
// servers' env), /proc/N/cmdline their arguments (an MCP bearer), and
// as root /etc/shadow and the SSH host keys. No path of a mount reaches a
// pseudo file system (procfs, sysfs and the like), a mount of one is
// refused, and the files only root may read that the shell also masks
// are hidden.
func TestPseudoFileSystemsUnreachable(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Fatalf("no /proc here: %v", err)
	}
	resolvers(t, func(t *testing.T, fallback bool) {
		f := mustFS(t, Config{Mounts: []Mount{{Host: "/", Guest: "/host"}}, Fallback: fallback})
		s := f.NewSession()
		for _, p := range []string{
			"/host/proc/self/environ", "/host/proc/1/environ", "/host/proc/" + itoa(os.Getpid()) + "/environ",
			"/host/proc/" + itoa(os.Getpid()) + "/cmdline", "/host/sys/kernel/hostname", "/host/proc/version",
		} {
			if b, _, _, err := s.Read(p); err == nil {
				t.Errorf("read %s: %d bytes, %q", p, len(b), cut(string(b)))
			}
		}
		for _, p := range []string{"/host/proc", "/host/proc/" + itoa(os.Getpid()), "/host/sys/class"} {
			if l, err := s.List(p); err == nil {
				t.Errorf("list %s: %d entries", p, len(l))
			}
		}
		if os.Geteuid() == 0 {
			for _, p := range []string{"/host/etc/shadow", "/host/etc/gshadow"} {
				if _, err := os.Stat(strings.TrimPrefix(p, "/host")); err != nil {
					continue
				}
				if b, _, _, err := s.Read(p); err == nil {
					t.Errorf("read %s as root: %q", p, cut(string(b)))
				}
			}
		}
		// the rest of the tree still reads
		if _, _, _, err := s.Read("/host/etc/hostname"); err != nil && !os.IsNotExist(err) {
			if _, serr := os.Stat("/etc/hostname"); serr == nil {
				t.Errorf("read /host/etc/hostname: %v", err)
			}
		}
	})
	hosts := []string{"/proc", "/proc/self", "/sys", "/sys/kernel"}
	if fi, err := os.Stat("/etc/ssl/private"); err == nil && fi.IsDir() {
		hosts = append(hosts, "/etc/ssl/private") // root-only credentials
	}
	for _, host := range hosts {
		_, err := New(Config{Mounts: []Mount{{Host: host, Guest: "/p"}}})
		if err == nil {
			t.Errorf("a mount of %s was accepted", host)
			continue
		}
		wantCode(t, err, codes.FSConfig)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
func cut(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// A mount of "/" read other processes' shared memory (/dev/shm, where
// PostgreSQL and browsers keep live data) and /run (Docker's
// /run/secrets, the user's runtime directory); the shell gives commands
// empty ones of their own. Both are hidden in every mount that covers
// them, and a mount inside one is refused.
func TestRuntimeStateHidden(t *testing.T) {
	var planted []string
	for _, dir := range []string{"/dev/shm", "/run"} {
		name := dir + "/modebox-test-" + itoa(os.Getpid())
		if err := os.WriteFile(name, []byte("live state"), 0o644); err != nil {
			if dir == "/run" && os.Geteuid() != 0 {
				continue // only root may write there
			}
			t.Fatalf("plant %s: %v", name, err)
		}
		t.Cleanup(func() { os.Remove(name) })
		planted = append(planted, name)
	}
	if len(planted) == 0 {
		t.Fatal("nothing planted")
	}
	resolvers(t, func(t *testing.T, fallback bool) {
		f := mustFS(t, Config{Mounts: []Mount{{Host: "/", Guest: "/host"}}, Fallback: fallback})
		s := f.NewSession()
		for _, name := range planted {
			if b, _, _, err := s.Read("/host" + name); err == nil {
				t.Errorf("read /host%s: %q", name, b)
			}
			if found, _ := s.Glob("/host" + filepath.Dir(name) + "/modebox-test-*"); len(found) > 0 {
				t.Errorf("glob found %v", found)
			}
		}
		for _, p := range []string{"/host/run", "/host/dev/shm"} {
			if l, err := s.List(p); err == nil {
				t.Errorf("list %s: %d entries", p, len(l))
			}
		}
		// a mount of /dev hides shm in it too
		fd := mustFS(t, Config{Mounts: []Mount{{Host: "/dev", Guest: "/d"}}, Fallback: fallback})
		if b, _, _, err := fd.NewSession().Read("/d/shm/modebox-test-" + itoa(os.Getpid())); err == nil {
			t.Errorf("read through a mount of /dev: %q", b)
		}
	})
	for _, host := range []string{"/dev/shm", "/run"} {
		_, err := New(Config{Mounts: []Mount{{Host: host, Guest: "/p"}}})
		if err == nil {
			t.Errorf("a mount of %s was accepted", host)
			continue
		}
		wantCode(t, err, codes.FSConfig)
	}
}
