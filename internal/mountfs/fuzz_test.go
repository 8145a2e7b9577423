package mountfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzGuestPath feeds arbitrary guest paths and glob patterns to a session
// over a mount whose neighbourhood holds secrets: a file outside the
// mount, a symlink to it, a directory symlink out, a hidden .env and a
// .git directory. Whatever the path, nothing returns a secret's bytes,
// every error has a stable code and names no host path, and every path a
// success reports lies inside the mount.
func FuzzGuestPath(f *testing.F) {
	base := f.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{root, outside, filepath.Join(root, "sub"), filepath.Join(root, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	const secret = "OUTSIDE-SECRET"
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	write(filepath.Join(outside, "secret.txt"), secret)
	write(filepath.Join(root, ".env"), secret)
	write(filepath.Join(root, ".git", "config"), secret)
	write(filepath.Join(root, "sub", "ok.txt"), "fine")
	must := func(err error) {
		if err != nil {
			f.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link")))
	must(os.Symlink(outside, filepath.Join(root, "dirlink")))
	must(os.Symlink("/proc/self/root"+outside, filepath.Join(root, "proclink")))
	var sessions []*Session
	for _, fb := range []bool{false, true} {
		fs, err := New(Config{Mounts: []Mount{{Host: root, Guest: "/m", Mode: ReadWrite}}, Fallback: fb})
		must(err)
		f.Cleanup(func() { fs.Close() })
		sessions = append(sessions, fs.NewSession())
	}
	for _, s := range []string{"/m/sub/ok.txt", "/m/link", "/m/dirlink/secret.txt", "/m/../outside/secret.txt", "/m/.env",
		"/m/.ENV", "/m/.e\u200bnv", "/m/.git/config", "/m/.Git/config", "/m/proclink", "m/sub", "/m/sub/../link", "/m//sub/./ok.txt",
		"/m/**", "/m/*/*", "/m/.env.", "/m/sub/ok.txt\x00", "/m/" + strings.Repeat("a", 300), "\\m\\sub"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, s := range sessions {
			check := func(op string, err error) {
				if err == nil {
					return
				}
				if CodeOf(err) == "" {
					t.Fatalf("%s(%q): error without a code: %v", op, p, err)
				}
				if strings.Contains(err.Error(), base) {
					t.Fatalf("%s(%q): error names a host path: %v", op, p, err)
				}
			}
			data, info, _, err := s.Read(p)
			check("Read", err)
			if err == nil {
				if strings.Contains(string(data), secret) {
					t.Fatalf("Read(%q) returned a secret", p)
				}
				if !strings.HasPrefix(info.Path, "/m/") {
					t.Fatalf("Read(%q) reported %q", p, info.Path)
				}
			}
			st, err := s.Stat(p)
			check("Stat", err)
			if err == nil && st.Path != "/" && st.Path != "/m" && !strings.HasPrefix(st.Path, "/m/") {
				t.Fatalf("Stat(%q) reported %q", p, st.Path)
			}
			_, err = s.Exists(p)
			check("Exists", err)
			list, err := s.List(p)
			check("List", err)
			for _, e := range list {
				if n := strings.ToLower(e.Name); n == ".env" || n == ".git" {
					t.Fatalf("List(%q) shows %q", p, e.Name)
				}
			}
			matches, err := s.Glob(p)
			check("Glob", err)
			for _, m := range matches {
				if m != "/" && m != "/m" && !strings.HasPrefix(m, "/m/") || strings.Contains(strings.ToLower(m), ".env") || strings.Contains(strings.ToLower(m), ".git") {
					t.Fatalf("Glob(%q) matched %q", p, m)
				}
			}
		}
	})
}
