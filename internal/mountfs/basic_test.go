//go:build linux

package mountfs

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

func TestResolverProbe(t *testing.T) {
	dir := t.TempDir()
	f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/d"}}})
	t.Logf("resolver: %s", f.Resolver())
	g := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/d"}}, Fallback: true})
	if g.Resolver() != "fallback" {
		t.Fatalf("Fallback: resolver %q", g.Resolver())
	}
}

func TestNewValidation(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	writeFile(t, file, "x")
	other := t.TempDir()
	cases := []struct {
		name string
		cfg  Config
	}{
		{"no mounts", Config{}},
		{"relative guest", Config{Mounts: []Mount{{Host: dir, Guest: "data"}}}},
		{"dotdot guest", Config{Mounts: []Mount{{Host: dir, Guest: "/a/../b"}}}},
		{"duplicate", Config{Mounts: []Mount{{Host: dir, Guest: "/a"}, {Host: other, Guest: "/a/"}}}},
		{"nested", Config{Mounts: []Mount{{Host: dir, Guest: "/a"}, {Host: other, Guest: "/a/b"}}}},
		{"root and other", Config{Mounts: []Mount{{Host: dir, Guest: "/"}, {Host: other, Guest: "/b"}}}},
		{"bad mode", Config{Mounts: []Mount{{Host: dir, Guest: "/a", Mode: "wr"}}}},
		{"missing host", Config{Mounts: []Mount{{Host: filepath.Join(dir, "nope"), Guest: "/a"}}}},
		{"host is file", Config{Mounts: []Mount{{Host: file, Guest: "/a"}}}},
		{"no host", Config{Mounts: []Mount{{Guest: "/a"}}}},
		{"denied guest", Config{Mounts: []Mount{{Host: dir, Guest: "/.git"}}}},
		{"deny with dotdot", Config{Mounts: []Mount{{Host: dir, Guest: "/a"}}, Deny: []string{"a/../b"}}},
		{"allowWrite with slash", Config{Mounts: []Mount{{Host: dir, Guest: "/a", Mode: ReadWrite}}, AllowWrite: map[string][]string{"/a": {".vscode/tasks.json"}}}},
		{"allowWrite for no mount", Config{Mounts: []Mount{{Host: dir, Guest: "/a", Mode: ReadWrite}}, AllowWrite: map[string][]string{"/b": {".vscode"}}}},
		{"mount of a private path", Config{Mounts: []Mount{{Host: dir, Guest: "/a"}}, Private: []string{dir}}},
		{"mount inside a private path", Config{Mounts: []Mount{{Host: dir, Guest: "/a"}}, Private: []string{filepath.Dir(dir)}}},
		{"bad deny pattern", Config{Mounts: []Mount{{Host: dir, Guest: "/a"}}, Deny: []string{"[x"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := New(c.cfg)
			if err == nil {
				f.Close()
				t.Fatal("New accepted it")
			}
			wantCode(t, err, codes.FSConfig)
			t.Log(err)
		})
	}
	f, err := New(Config{Mounts: []Mount{{Host: dir, Guest: "/"}}})
	if err != nil {
		t.Fatalf("root mount alone: %v", err)
	}
	f.Close()
	if err := f.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	_, _, _, err = f.NewSession().Read("/file")
	wantCode(t, err, codes.FSClosed)
}

func TestGuestPaths(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		dir := t.TempDir()
		outside := t.TempDir()
		writeFile(t, filepath.Join(outside, "secret"), "SECRET")
		writeFile(t, filepath.Join(dir, "a", "b.txt"), "b")
		long255 := strings.Repeat("n", 255)
		writeFile(t, filepath.Join(dir, long255), "long")
		f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/mnt/data", Mode: ReadWrite}}, Fallback: fb})
		s := f.NewSession()
		rel, _ := filepath.Rel(dir, filepath.Join(outside, "secret"))
		invalid := []string{
			"/mnt/data/../data/a/b.txt",
			"/mnt/data/a/../../../../etc/passwd",
			"/mnt/data/" + rel,
			"mnt/data/a/b.txt",
			"a/b.txt",
			"",
			"/mnt/data/a\x00/b.txt",
			`\mnt\data\a\b.txt`,
			"/mnt/data/a\\b.txt",
			"/mnt/data/" + strings.Repeat("n", 256),
			"/mnt/data/" + strings.Repeat("a/", 2044),
			"/mnt/data/\xff",
		}
		for _, p := range invalid {
			_, _, _, err := s.Read(p)
			wantCode(t, err, codes.FSInvalidPath)
			noHostPath(t, err, dir)
			_, err = s.Write(p, []byte("x"))
			wantCode(t, err, codes.FSInvalidPath)
			_, err = s.Stat(p)
			wantCode(t, err, codes.FSInvalidPath)
		}
		notFound := []string{
			"/etc/passwd",
			filepath.Join(outside, "secret"),
			filepath.Join(dir, "a", "b.txt"), // a host path is no guest path
			"/mnt/other",
			"/proc/self/environ",
			"/proc/self/fd/3",
			"/mnt/data/a/missing",
			"/mnt/data/a/b.txt/c",
		}
		for _, p := range notFound {
			_, _, _, err := s.Read(p)
			wantCode(t, err, codes.FSNotFound)
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: not fs.ErrNotExist", p)
			}
			if !strings.Contains(p, dir) { // else the guest's own text is echoed
				noHostPath(t, err, dir)
			}
			if ok, err := s.Exists(p); ok || err != nil {
				t.Errorf("Exists(%s) = %v, %v", p, ok, err)
			}
		}
		// Clean paths work: doubled slashes, ".", trailing slash.
		for _, p := range []string{"/mnt/data/a/b.txt", "//mnt/./data//a/b.txt", "/mnt/data/a/./b.txt"} {
			data, info, _, err := s.Read(p)
			if err != nil || string(data) != "b" || info.Path != "/mnt/data/a/b.txt" {
				t.Fatalf("Read(%q) = %q, %+v, %v", p, data, info, err)
			}
		}
		if data, _, _, err := s.Read("/mnt/data/" + long255); err != nil || string(data) != "long" {
			t.Fatalf("255-byte name: %q, %v", data, err)
		}
		// Directories above the mounts are virtual and read-only.
		list, err := s.List("/")
		if err != nil || len(list) != 1 || list[0].Name != "mnt" || list[0].Kind != KindDir {
			t.Fatalf("List(/) = %+v, %v", list, err)
		}
		list, err = s.List("/mnt")
		if err != nil || len(list) != 1 || list[0].Path != "/mnt/data" || list[0].ReadOnly {
			t.Fatalf("List(/mnt) = %+v, %v", list, err)
		}
		if info, err := s.Stat("/"); err != nil || info.Kind != KindDir {
			t.Fatalf("Stat(/) = %+v, %v", info, err)
		}
		_, err = s.Write("/mnt/x.txt", []byte("x"))
		wantCode(t, err, codes.FSNotFound)
		_, err = s.Write("/mnt", []byte("x"))
		wantCode(t, err, codes.FSReadOnly)
		_, err = s.Write("/elsewhere.txt", []byte("x"))
		wantCode(t, err, codes.FSNotFound)
		_, err = s.Write("/mnt/data", []byte("x"))
		wantCode(t, err, codes.FSNotAFile)
		_, _, _, err = s.Read("/mnt")
		wantCode(t, err, codes.FSNotAFile)
		if r := s.Commit(); len(r.Committed)+len(r.Conflicts) != 0 {
			t.Fatalf("commit of nothing: %+v", r)
		}
		if got := readHost(t, filepath.Join(outside, "secret")); got != "SECRET" {
			t.Fatal("outside file changed")
		}
	})
}

func TestDenyHidesSecrets(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		dir := t.TempDir()
		hidden := []string{
			".env", ".ENV", ".Env.local", ".env.production", ".e\u200bnv", ".env.", ".env. .",
			"\uff0eenv", ".en\u200dv", "\ufeff.env", ".env\u2060",
			".Git/config", ".git/HEAD", "sub/.git/objects/x",
			"ID_RSA", "ID_RSA.pub", "id_ed25519", "keys/id_ed25519.pub",
			"server.PEM", "tls.key", "tls.KEY ", "tls.key.", "secrets/token.txt", "Secrets/x",
			TempPrefix + "123",
		}
		visible := []string{"env", "notes.env.txt", "git/readme", "sub/file.txt", "keys/readme.md", "pem", "keyfile"}
		for _, h := range hidden {
			writeFile(t, filepath.Join(dir, h), "SECRET")
		}
		for _, v := range visible {
			writeFile(t, filepath.Join(dir, v), "ok")
		}
		f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/data", Mode: ReadWrite}}, Deny: []string{"secrets/"}, Fallback: fb})
		s := f.NewSession()
		_, _, _, missErr := s.Read("/data/no-such-file")
		for _, h := range hidden {
			p := "/data/" + h
			_, _, _, err := s.Read(p)
			wantCode(t, err, codes.FSNotFound)
			// Exactly the error of a missing file.
			if strings.Replace(err.Error(), p, "/data/no-such-file", 1) != missErr.Error() {
				t.Errorf("hidden %q: %v differs from missing %v", h, err, missErr)
			}
			if _, err := s.Stat(p); CodeOf(err) != codes.FSNotFound {
				t.Errorf("Stat(%q): %v", h, err)
			}
			if ok, err := s.Exists(p); ok || err != nil {
				t.Errorf("Exists(%q) = %v, %v", h, ok, err)
			}
			_, err = s.Write(p, []byte("x"))
			wantCode(t, err, codes.FSDenied)
			_, err = s.Remove(p)
			wantCode(t, err, codes.FSDenied)
		}
		for _, d := range []string{"/data/.git", "/data/.GIT", "/data/secrets"} {
			_, err := s.List(d)
			wantCode(t, err, codes.FSNotFound)
		}
		all, err := s.Glob("/data/**")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range all {
			low := strings.ToLower(p)
			if strings.Contains(low, "env") && !strings.HasSuffix(p, "/env") && !strings.HasSuffix(p, "notes.env.txt") ||
				strings.Contains(low, ".git") || strings.Contains(low, "id_") || strings.Contains(low, "secret") ||
				strings.HasSuffix(low, ".pem") || strings.Contains(low, ".key") || strings.Contains(p, TempPrefix) {
				t.Errorf("glob shows hidden %q", p)
			}
		}
		for _, v := range visible {
			if !slices.Contains(all, "/data/"+v) {
				t.Errorf("glob misses visible %q (got %q)", v, all)
			}
			if data, _, _, err := s.Read("/data/" + v); err != nil || string(data) != "ok" {
				t.Errorf("Read(%q) = %q, %v", v, data, err)
			}
		}
		for _, g := range []string{"/data/.env*", "/data/*.pem", "/data/.git/*", "/data/**/config", "/data/.env"} {
			if got, err := s.Glob(g); err != nil || len(got) != 0 {
				t.Errorf("Glob(%q) = %q, %v", g, got, err)
			}
		}
	})
}

func TestNormName(t *testing.T) {
	for in, want := range map[string]string{
		".ENV":           ".env",
		".e\u200bnv":     ".env",
		".env. . ":       ".env",
		"\uff0e\uff45nv": ".env",
		"\u212aey":       "key",
		"Se\u00adcret":   "secret",
		"plain":          "plain",
	} {
		if got := normName(in); got != want {
			t.Errorf("normName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBaseJSON(t *testing.T) {
	b := Base{Exists: true, Size: 3, SHA256: hashHex([]byte("abc"))}
	j, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var back Base
	if err := json.Unmarshal(j, &back); err != nil || back != b {
		t.Fatalf("round trip: %s -> %+v, %v", j, back, err)
	}
	j, _ = json.Marshal(Base{})
	if string(j) != `{"exists":false}` {
		t.Fatalf("absent base: %s", j)
	}
}

func TestSource(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	f := mustFS(t, Config{Mounts: []Mount{{Host: a, Guest: "/in", Source: true}, {Host: b, Guest: "/out", Mode: ReadWrite}}})
	for p, want := range map[string]bool{"/in/x": true, "/in": true, "/out/x": false, "/": false, "/inx": false, "in/x": false} {
		if got := f.IsSource(p); got != want {
			t.Errorf("IsSource(%q) = %v", p, got)
		}
	}
	s := f.NewSession()
	_, err := s.Write("/in/x.txt", []byte("x"))
	wantCode(t, err, codes.FSReadOnly)
	writeFile(t, filepath.Join(a, "y.txt"), "y")
	_, err = s.Remove("/in/y.txt")
	wantCode(t, err, codes.FSReadOnly)
	if _, err := os.Stat(filepath.Join(a, "x.txt")); err == nil {
		t.Fatal("ro mount written")
	}
}

// TestLimitHidesHiddenCount checks that hidden entries do not count
// toward MaxEntries, so the limit cannot reveal them.
func TestLimitHidesHiddenCount(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b", "c", ".env", ".git", "k.pem"} {
		writeFile(t, filepath.Join(dir, n), "x")
	}
	f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/d"}}, MaxEntries: 3})
	s := f.NewSession()
	if l, err := s.List("/d"); err != nil || len(l) != 3 {
		t.Fatalf("List = %v, %v", names(l), err)
	}
	if g, err := s.Glob("/d/*"); err != nil || len(g) != 3 {
		t.Fatalf("Glob = %q, %v", g, err)
	}
}
