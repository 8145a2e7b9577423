//go:build linux

package mountfs

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/credpaths"
)

// TestProtectedNames plants, through a read-write mount, every file the
// host's tools run or load later (DefaultProtected: .vscode/tasks.json,
// .mcp.json, .bashrc, .husky hooks, modebox.json, ...), in any case, and
// removes and re-stages existing ones: every change fails with FS_DENIED
// naming the path and allowWrite, nothing reaches the disk, the existing
// files stay readable, and the same names deeper in the mount are
// ordinary files.
func TestProtectedNames(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		f, dir := rwFS(t, fb)
		writeFile(t, filepath.Join(dir, ".vscode", "settings.json"), "{}")
		writeFile(t, filepath.Join(dir, ".bashrc"), "# rc")
		s := f.NewSession()
		for _, n := range DefaultProtected {
			for _, p := range []string{n, n + "/x", strings.ToUpper(n) + "/tasks.json", n + "./y"} {
				_, err := s.Write("/data/"+p, []byte("planted"))
				if CodeOf(err) == codes.FSDenied && strings.Contains(err.Error(), "matches a deny pattern") {
					continue // hidden as well (.git, .envrc, .claude)
				}
				wantCode(t, err, codes.FSDenied)
				if !strings.Contains(err.Error(), "/data/"+p) || !strings.Contains(err.Error(), "allowWrite") {
					t.Errorf("message names neither the path nor the opt-out: %v", err)
				}
				wantCode(t, s.Restage("/data/"+p, []byte("planted"), Base{}), codes.FSDenied)
			}
		}
		for _, p := range []string{"/data/.vscode/settings.json", "/data/.bashrc"} {
			_, err := s.Remove(p)
			wantCode(t, err, codes.FSDenied)
			wantCode(t, s.RestageRemove(p, Base{Exists: true}), codes.FSDenied)
		}
		if b, _, _, err := s.Read("/data/.vscode/settings.json"); err != nil || string(b) != "{}" {
			t.Errorf("protected file unreadable: %q %v", b, err)
		}
		for _, p := range []string{"/data/sub/.vscode/tasks.json", "/data/sub/modebox.json", "/data/notes.txt"} {
			if _, err := s.Write(p, []byte("ok")); err != nil {
				t.Errorf("Write(%q): %v", p, err)
			}
		}
		r := s.Commit()
		if len(r.Conflicts) != 0 || len(r.Committed) != 3 {
			t.Fatalf("commit: %+v", r)
		}
		for _, n := range []string{".mcp.json", "modebox.json", ".husky", ".devcontainer", ".cursor", ".modebox", ".VSCODE"} {
			if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
				t.Errorf("%s planted", n)
			}
		}
		if got := readHost(t, filepath.Join(dir, ".bashrc")); got != "# rc" {
			t.Errorf(".bashrc changed: %q", got)
		}
	})
}

// TestAllowWrite checks the opt-out: AllowWrite leaves the names it lists
// for a mount (in any case, under any spelling of its guest path)
// writable there and nowhere else, "*" all of them, a read-only mount
// stays read-only, and malformed entries and keys naming no mount are
// refused.
func TestAllowWrite(t *testing.T) {
	dir := t.TempDir()
	f := mustFS(t, Config{Mounts: []Mount{
		{Host: dir, Guest: "/some", Mode: ReadWrite},
		{Host: t.TempDir(), Guest: "/all", Mode: ReadWrite},
		{Host: t.TempDir(), Guest: "/ro"},
		{Host: t.TempDir(), Guest: "/none", Mode: ReadWrite},
	}, AllowWrite: map[string][]string{"/some": {".VSCode"}, "/some/": {".mcp.json"}, "/all": {"*"}, "/ro": {"*"}}})
	s := f.NewSession()
	for p, want := range map[string]codes.Code{
		"/some/.vscode/tasks.json": "", "/some/.mcp.json": "", "/some/.bashrc": codes.FSDenied,
		"/some/modebox.json": codes.FSDenied, "/all/.bashrc": "", "/all/modebox.json": "", "/all/.husky/pre-commit": "",
		"/all/.envrc": codes.FSDenied, "/all/.git/config": codes.FSDenied, "/ro/.bashrc": codes.FSReadOnly,
		"/none/.vscode/tasks.json": codes.FSDenied, "/none/.mcp.json": codes.FSDenied,
	} {
		_, err := s.Write(p, []byte("x"))
		if CodeOf(err) != want {
			t.Errorf("Write(%q): %v, want %q", p, err, want)
		}
	}
	if r := s.Commit(); len(r.Committed) != 5 {
		t.Fatalf("commit: %+v", r)
	}
	if got := readHost(t, filepath.Join(dir, ".vscode", "tasks.json")); got != "x" {
		t.Fatalf(".vscode/tasks.json: %q", got)
	}
	for _, bad := range []map[string][]string{{"/d": {""}}, {"/d": {"."}}, {"/d": {".."}}, {"/d": {"a/b"}}, {"/d": {"/"}},
		{"/d": {"x\x00"}}, {"/e": {".vscode"}}, {"d": {".vscode"}}, {"/d/..": {".vscode"}}} {
		g, err := New(Config{Mounts: []Mount{{Host: dir, Guest: "/d", Mode: ReadWrite}}, AllowWrite: bad})
		if err == nil {
			g.Close()
			t.Errorf("AllowWrite %q accepted", bad)
			continue
		}
		wantCode(t, err, codes.FSConfig)
	}
}

// TestPrivatePaths puts modebox's state (a configuration file, a key
// directory, a token directory that does not exist yet) inside a mount,
// naming some through a symlinked path, and checks nothing can see or
// change them; a mount inside a private path, or equal to one, is
// refused.
func TestPrivatePaths(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		base := t.TempDir()
		proj := filepath.Join(base, "proj")
		writeFile(t, filepath.Join(proj, "agent.json"), "CONFIG")
		writeFile(t, filepath.Join(proj, "keys", "modebox", "secret"), "KEY")
		writeFile(t, filepath.Join(proj, "notes.txt"), "ok")
		link := filepath.Join(base, "link")
		if err := os.Symlink(proj, link); err != nil {
			t.Fatal(err)
		}
		private := []string{filepath.Join(link, "agent.json"), filepath.Join(proj, "keys", "modebox"), filepath.Join(link, "tokens", "used")}
		f := mustFS(t, Config{Mounts: []Mount{{Host: link, Guest: "/p", Mode: ReadWrite}}, AllowWrite: map[string][]string{"/p": {"*"}}, Private: private, Fallback: fb})
		s := f.NewSession()
		for _, p := range []string{"/p/agent.json", "/p/AGENT.json", "/p//agent.json", "/p/keys/modebox", "/p/keys/modebox/secret", "/p/keys/./modebox/secret/"} {
			_, _, _, err := s.Read(p)
			if CodeOf(err) != codes.FSNotFound && CodeOf(err) != codes.FSNotAFile {
				t.Errorf("Read(%q): %v", p, err)
			}
			if _, err := s.Stat(p); CodeOf(err) != codes.FSNotFound {
				t.Errorf("Stat(%q): %v", p, err)
			}
			if ok, err := s.Exists(p); ok || err != nil {
				t.Errorf("Exists(%q): %v %v", p, ok, err)
			}
		}
		for _, p := range []string{"/p/agent.json", "/p/keys/modebox/secret", "/p/tokens/used/0123", "/p/keys/modebox"} {
			_, err := s.Write(p, []byte("x"))
			wantCode(t, err, codes.FSDenied)
		}
		_, err := s.Remove("/p/agent.json")
		wantCode(t, err, codes.FSDenied)
		if l, err := s.List("/p/keys"); err != nil || len(l) != 0 {
			t.Errorf("List(/p/keys) = %v, %v", names(l), err)
		}
		_, err = s.List("/p/keys/modebox")
		wantCode(t, err, codes.FSNotFound)
		all, err := s.Glob("/p/**")
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []string{"/p/keys/modebox", "/p/keys/modebox/secret", "/p/agent.json"} {
			if got, err := s.Glob(g); err != nil || len(got) != 0 {
				t.Errorf("Glob(%q) = %q, %v", g, got, err)
			}
		}
		if !slices.Equal(all, []string{"/p/keys", "/p/notes.txt"}) {
			t.Errorf("Glob(/p/**) = %q", all)
		}
		if _, err := s.Write("/p/tokens/other", []byte("x")); err != nil {
			t.Errorf("a neighbour of a private path: %v", err)
		}
		for _, host := range []string{filepath.Join(proj, "keys", "modebox"), filepath.Join(link, "keys", "modebox", "sub")} {
			if err := os.MkdirAll(host, 0o755); err != nil {
				t.Fatal(err)
			}
			g, err := New(Config{Mounts: []Mount{{Host: host, Guest: "/k"}}, Private: private, Fallback: fb})
			if err == nil {
				g.Close()
				t.Fatalf("a mount of %s, inside modebox's state, was accepted", host)
			}
			wantCode(t, err, codes.FSConfig)
			if !strings.Contains(err.Error(), "modebox's own state") {
				t.Errorf("message: %v", err)
			}
		}
	})
}

// homeCreds are credential files whose path has several components,
// with the hidden path (the run of components a pattern names) they lie
// in.
var homeCreds = map[string]string{
	".config/gh/hosts.yml":                                   ".config/gh",
	".config/gcloud/application_default_credentials.json":    ".config/gcloud",
	".cargo/credentials.toml":                                ".cargo/credentials.toml",
	".cache/huggingface/token":                               ".cache/huggingface/token",
	".gradle/gradle.properties":                              ".gradle/gradle.properties",
	".config/containers/auth.json":                           ".config/containers/auth.json",
	".m2/settings.xml":                                       ".m2/settings.xml",
	".m2/settings-security.xml":                              ".m2/settings-security.xml",
	".local/share/keyrings/login.keyring":                    ".local/share/keyrings",
	".config/google-chrome/Default/Cookies":                  ".config/google-chrome",
	".config/BraveSoftware/Brave-Browser/Default/Login Data": ".config/BraveSoftware",
	".config/modebox/secret":                                 ".config/modebox",
	".local/state/modebox/used-tokens/x":                     ".local/state/modebox",
	".config/git/credentials":                                ".config/git",
}

// TestMultiComponentDeny mounts a fake home read-only, and the parent of
// two fake homes, and checks every credential path of several components
// is hidden from read, stat, exists, list and glob exactly like a
// one-component one, at any depth; ordinary neighbours stay visible.
func TestMultiComponentDeny(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		users := t.TempDir()
		for _, home := range []string{"alice", "bob"} {
			for p := range homeCreds {
				writeFile(t, filepath.Join(users, home, p), "SECRET")
			}
			for _, p := range []string{".config/other/x", ".cargo/config.toml", ".cache/pip/y", ".local/share/z", ".m2/repository/a"} {
				writeFile(t, filepath.Join(users, home, p), "ok")
			}
		}
		f := mustFS(t, Config{Mounts: []Mount{
			{Host: filepath.Join(users, "alice"), Guest: "/home"},
			{Host: users, Guest: "/users"},
		}, Fallback: fb})
		s := f.NewSession()
		_, _, _, missErr := s.Read("/home/no-such-file")
		for _, root := range []string{"/home/", "/users/bob/"} {
			for p, hidden := range homeCreds {
				for _, q := range []string{p, hidden} {
					g := root + q
					_, _, _, err := s.Read(g)
					if q == p && (err == nil || strings.Replace(err.Error(), g, "/home/no-such-file", 1) != missErr.Error()) {
						t.Errorf("Read(%q): %v, want exactly the missing-file error", g, err)
					}
					if _, err := s.Stat(g); CodeOf(err) != codes.FSNotFound {
						t.Errorf("Stat(%q): %v", g, err)
					}
					if ok, err := s.Exists(g); ok || err != nil {
						t.Errorf("Exists(%q): %v %v", g, ok, err)
					}
					if got, err := s.Glob(g); err != nil || len(got) != 0 {
						t.Errorf("Glob(%q) = %q, %v", g, got, err)
					}
				}
				parent := root + filepath.Dir(hidden)
				l, err := s.List(parent)
				if err != nil {
					t.Fatalf("List(%q): %v", parent, err)
				}
				if slices.Contains(names(l), filepath.Base(hidden)) {
					t.Errorf("List(%q) shows %s", parent, filepath.Base(hidden))
				}
			}
		}
		for _, pat := range []string{"/home/**", "/users/**", "/users/*/.config/*", "/home/.config/*/*", "/**/token", "/users/*/.m2/*"} {
			got, err := s.Glob(pat)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range got {
				for _, hidden := range homeCreds {
					if strings.HasSuffix(g, "/"+hidden) || strings.Contains(g, "/"+hidden+"/") {
						t.Errorf("Glob(%q) shows %s", pat, g)
					}
				}
			}
			if pat == "/users/**" && !slices.Contains(got, "/users/bob/.config/other/x") {
				t.Errorf("Glob(%q) misses an ordinary file: %q", pat, got)
			}
		}
		for _, p := range []string{"/home/.config/other/x", "/users/bob/.cargo/config.toml", "/home/.m2/repository/a"} {
			if b, _, _, err := s.Read(p); err != nil || string(b) != "ok" {
				t.Errorf("Read(%q) = %q, %v", p, b, err)
			}
		}
	})
}

// TestDenyPatternsWithSlash checks deny patterns of several components
// (matched at any depth, normalised like names) and anchored ones
// (leading "/": at each mount root only), and the patterns refused.
func TestDenyPatternsWithSlash(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"app/state/token", "x/App/State/TOKEN", "app/state/other", "build/key.txt", "x/build/key.txt", "a/b/c/d", "c/d"} {
		writeFile(t, filepath.Join(dir, p), p)
	}
	f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/d", Mode: ReadWrite}},
		Deny: []string{"app/state/token", "/build/key.txt", "b/c/", "./x//build/./key.txt"}})
	s := f.NewSession()
	for p, visible := range map[string]bool{
		"app/state/token": false, "x/App/State/TOKEN": false, "x/app/state/token": false, "app/state/other": true,
		"build/key.txt": false, "x/build/key.txt": false, "a/b/c/d": false, "a/b/c": false, "c/d": true,
	} {
		_, _, _, err := s.Read("/d/" + p)
		if visible != (err == nil) {
			t.Errorf("Read(%q): %v, want visible %v", p, err, visible)
		}
	}
	if l, err := s.List("/d/a/b"); err != nil || len(l) != 0 {
		t.Errorf("List(/d/a/b) = %v, %v", names(l), err)
	}
	_, err := s.Write("/d/y/app/state/token", []byte("x"))
	wantCode(t, err, codes.FSDenied)
	for _, bad := range []string{"", "/", "./", "a/../b", "a/**/b", "[x/y", "a\x00b"} {
		g, err := New(Config{Mounts: []Mount{{Host: dir, Guest: "/d"}}, Deny: []string{bad}})
		if err == nil {
			g.Close()
			t.Errorf("deny %q accepted", bad)
			continue
		}
		wantCode(t, err, codes.FSConfig)
	}
	// anchored: /build/key.txt hides only the mount root's
	g := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/d"}}, Deny: []string{"/build/key.txt"}})
	if _, _, _, err := g.NewSession().Read("/d/x/build/key.txt"); err != nil {
		t.Errorf("an anchored pattern hid a deeper path: %v", err)
	}
}

// TestDenyBypassProperty writes credential files under spellings that
// normalise to a credential path (case, zero-width characters, trailing
// dots and spaces, full-width letters) and asks for each through guest
// path variants ("//", "/./", a trailing "/", other case) chosen by a
// seeded generator, under both resolvers. No answer holds the secret;
// read, stat and exists say not found; no listing or glob shows it.
func TestDenyBypassProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	var onDisk []string
	for _, hidden := range []string{".config/gh", ".cargo/credentials.toml", ".cache/huggingface/token", ".local/share/keyrings", ".ssh"} {
		for range 6 {
			comps := strings.Split(hidden, "/")
			for i := range comps {
				comps[i] = respell(rng, comps[i])
			}
			p := strings.Join(comps, "/") + "/f"
			if hidden == ".cargo/credentials.toml" || hidden == ".cache/huggingface/token" {
				p = strings.Join(comps, "/")
			}
			if slices.Contains(onDisk, p) {
				continue
			}
			onDisk = append(onDisk, p)
		}
	}
	for _, p := range onDisk {
		writeFile(t, filepath.Join(dir, p), "SECRET")
	}
	writeFile(t, filepath.Join(dir, ".config", "ok"), "ok")
	resolvers(t, func(t *testing.T, fb bool) {
		s := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/h"}}, Fallback: fb}).NewSession()
		tries := 0
		for _, p := range onDisk {
			for range 20 {
				g := guestVariant(rng, "/h/"+p)
				tries++
				if b, _, _, err := s.Read(g); err == nil || strings.Contains(string(b), "SECRET") {
					t.Errorf("Read(%q) = %q, %v", g, b, err)
				}
				if info, err := s.Stat(g); CodeOf(err) != codes.FSNotFound {
					t.Errorf("Stat(%q) = %+v, %v", g, info, err)
				}
				if ok, err := s.Exists(g); ok || err != nil {
					t.Errorf("Exists(%q) = %v, %v", g, ok, err)
				}
				if got, _ := s.Glob(g); len(got) != 0 {
					t.Errorf("Glob(%q) = %q", g, got)
				}
			}
		}
		var walk func(d string)
		walk = func(d string) {
			l, err := s.List(d)
			if err != nil {
				t.Fatalf("List(%q): %v", d, err)
			}
			for _, e := range l {
				if e.Kind == KindDir {
					walk(e.Path)
				} else if b, _, _, _ := s.Read(e.Path); strings.Contains(string(b), "SECRET") {
					t.Errorf("List shows %s", e.Path)
				}
			}
		}
		walk("/h")
		all, err := s.Glob("/h/**")
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range all {
			if b, _, _, _ := s.Read(g); strings.Contains(string(b), "SECRET") {
				t.Errorf("Glob shows %s", g)
			}
		}
		if !slices.Contains(all, "/h/.config/ok") {
			t.Errorf("Glob(/h/**) misses the ordinary file (the test could not fail): %q", all)
		}
		t.Logf("%d files, %d path variants", len(onDisk), tries)
	})
}

// respell returns a spelling of name that normalises to the same form:
// letters in random case, and sometimes a zero-width space, a full-width
// letter or trailing dots and spaces.
func respell(rng *rand.Rand, name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case unicode.IsLetter(r) && rng.IntN(2) == 0:
			b.WriteRune(unicode.ToUpper(r))
		case r >= 'a' && r <= 'z' && rng.IntN(12) == 0:
			b.WriteRune(r - 'a' + '\uff41') // full-width
		default:
			b.WriteRune(r)
		}
		if rng.IntN(15) == 0 {
			b.WriteRune('\u200b')
		}
	}
	switch rng.IntN(4) {
	case 0:
		b.WriteString(".")
	case 1:
		b.WriteString(" .")
	}
	if normName(b.String()) != normName(name) {
		panic(fmt.Sprintf("respell(%q) = %q does not normalise to it", name, b.String()))
	}
	return b.String()
}

// guestVariant spells the guest path p differently: "//" or "/./"
// between components and a trailing "/", at random.
func guestVariant(rng *rand.Rand, p string) string {
	comps := strings.Split(strings.TrimPrefix(p, "/"), "/")
	var b strings.Builder
	for _, c := range comps {
		switch rng.IntN(4) {
		case 0:
			b.WriteString("//")
		case 1:
			b.WriteString("/./")
		default:
			b.WriteString("/")
		}
		b.WriteString(c)
	}
	if rng.IntN(2) == 0 {
		b.WriteString("/")
	}
	return b.String()
}

// FuzzDenyBypass asks for arbitrary guest paths in a mount of a fake
// home full of credentials whose paths have several components: no
// answer holds a secret, and no listing or glob shows one.
func FuzzDenyBypass(f *testing.F) {
	dir := f.TempDir()
	for p := range homeCreds {
		writeFile(f, filepath.Join(dir, p), "SECRET")
	}
	writeFile(f, filepath.Join(dir, ".Config", "GH", "hosts.yml"), "SECRET")
	writeFile(f, filepath.Join(dir, ".config", "gh.", "hosts.yml"), "SECRET")
	writeFile(f, filepath.Join(dir, ".config", "other"), "ok")
	fs, err := New(Config{Mounts: []Mount{{Host: dir, Guest: "/h"}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { fs.Close() })
	s := fs.NewSession()
	for _, p := range []string{"/h/.config/gh/hosts.yml", "/h//.config//gh/hosts.yml", "/h/./.config/./gh/./hosts.yml", "/h/.config/gh/",
		"/h/.CONFIG/GH/hosts.yml", "/h/.Config/GH/hosts.yml", "/h/.config/gh./hosts.yml", "/h/.config/*/hosts.yml", "/h/**/hosts.yml",
		"/h/.config/g?/*", "/h/.cargo/credentials.toml/", "/h/.local/share/keyrings//login.keyring", "/h/*/*/*", "/h/.config"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if b, _, _, err := s.Read(p); err == nil && strings.Contains(string(b), "SECRET") {
			t.Fatalf("Read(%q) returned a secret", p)
		}
		if l, err := s.List(p); err == nil {
			for _, e := range l {
				if b, _, _, _ := s.Read(e.Path); strings.Contains(string(b), "SECRET") {
					t.Fatalf("List(%q) shows %s", p, e.Path)
				}
				for _, h := range homeCreds {
					if strings.HasSuffix(strings.ToLower(e.Path), "/"+strings.ToLower(h)) {
						t.Fatalf("List(%q) shows %s", p, e.Path)
					}
				}
			}
		}
		if got, err := s.Glob(p); err == nil {
			for _, g := range got {
				if b, _, _, _ := s.Read(g); strings.Contains(string(b), "SECRET") {
					t.Fatalf("Glob(%q) shows %s", p, g)
				}
				for _, h := range homeCreds {
					if strings.HasSuffix(strings.ToLower(g), "/"+strings.ToLower(h)) {
						t.Fatalf("Glob(%q) shows %s", p, g)
					}
				}
			}
		}
		if info, err := s.Stat(p); err == nil && info.Kind == KindFile {
			if b, _, _, _ := s.Read(p); strings.Contains(string(b), "SECRET") {
				t.Fatalf("Stat(%q) found a secret", p)
			}
		}
	})
}

// TestEveryCredentialHidden writes a file at every entry of the shared
// credential list (a glob entry by a name it matches) inside a fake home
// and requires each to be hidden.
func TestEveryCredentialHidden(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, h := range slices.Concat(credpaths.Home, credpaths.ModeboxState) {
		p := strings.NewReplacer("*", "x").Replace(h)
		files = append(files, p+"/inner")
	}
	for _, p := range files {
		writeFile(t, filepath.Join(dir, p), "SECRET")
	}
	s := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/h"}}}).NewSession()
	for _, p := range files {
		_, _, _, err := s.Read("/h/" + p)
		if CodeOf(err) != codes.FSNotFound {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestDenyAcrossMountRoot: a pattern of several components hides its
// path when the mount's root is inside it, not only beneath it: a mount
// of ~/.config must hide gh/hosts.yml (".config/gh"), one of
// ~/.local/share keyrings (".local/share/keyrings"). A mount of a hidden
// directory itself (~/.ssh, ~/.config/gh) or of one beneath it is
// refused. Found by review: the patterns matched from the mount root
// down only, and ~/.config mounted read the gh token.
func TestDenyAcrossMountRoot(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		home := t.TempDir()
		writeFile(t, filepath.Join(home, ".config/gh/hosts.yml"), "oauth_token: SECRET")
		writeFile(t, filepath.Join(home, ".config/modebox/secret"), "KEY")
		writeFile(t, filepath.Join(home, ".config/other/x"), "ok")
		writeFile(t, filepath.Join(home, ".local/share/keyrings/login.keyring"), "SECRET")
		writeFile(t, filepath.Join(home, ".local/share/apps/y"), "ok")
		writeFile(t, filepath.Join(home, ".ssh/id_rsa"), "SECRET")
		if err := os.Symlink(filepath.Join(home, ".config"), filepath.Join(home, "cfglink")); err != nil {
			t.Fatal(err)
		}
		f := mustFS(t, Config{Mounts: []Mount{
			{Host: filepath.Join(home, ".config"), Guest: "/cfg"},
			{Host: filepath.Join(home, ".local/share"), Guest: "/share"},
			{Host: filepath.Join(home, "cfglink"), Guest: "/link"},
		}, Fallback: fb})
		s := f.NewSession()
		for _, g := range []string{"/cfg/gh/hosts.yml", "/cfg/gh", "/cfg/GH/hosts.yml", "/cfg/modebox/secret", "/share/keyrings/login.keyring", "/link/gh/hosts.yml"} {
			if _, _, _, err := s.Read(g); CodeOf(err) != codes.FSNotFound {
				t.Errorf("Read(%q): %v, want FS_NOT_FOUND", g, err)
			}
			if ok, err := s.Exists(g); ok || err != nil {
				t.Errorf("Exists(%q): %v %v", g, ok, err)
			}
		}
		for _, g := range []string{"/cfg/other/x", "/share/apps/y", "/link/other/x"} {
			if _, _, _, err := s.Read(g); err != nil {
				t.Errorf("Read(%q): %v", g, err)
			}
		}
		for _, dir := range []string{"/cfg", "/share", "/link"} {
			got, err := s.Glob(dir + "/**")
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range got {
				if strings.Contains(p, "gh") || strings.Contains(p, "keyrings") || strings.Contains(p, "modebox") {
					t.Errorf("Glob(%s/**) shows %s", dir, p)
				}
			}
		}
		for _, host := range []string{".ssh", ".config/gh", ".local/share/keyrings"} {
			_, err := New(Config{Mounts: []Mount{{Host: filepath.Join(home, host), Guest: "/x"}}, Fallback: fb})
			if CodeOf(err) != codes.FSConfig || !strings.Contains(err.Error(), "deny pattern") {
				t.Errorf("a mount of ~/%s: %v, want FS_CONFIG naming the deny pattern", host, err)
			}
		}
	})
}
