//go:build linux

package mountfs

import (
	"os"
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
