//go:build linux

package mountfs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/modebox/modebox/internal/codes"
)

// symlinkSetup builds a mount holding every kind of symlink and an
// outside directory with a secret. It returns the host directories.
func symlinkSetup(t *testing.T) (dir, outside string) {
	t.Helper()
	dir, outside = t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.txt"), "SECRET")
	writeFile(t, filepath.Join(dir, "real", "file.txt"), "inside")
	links := map[string]string{
		"passwd":        "/etc/passwd",
		"secret.txt":    filepath.Join(outside, "secret.txt"),
		"outdir":        outside,
		"inner":         "real",          // relative, pointing inside
		"innerfile":     "real/file.txt", // relative, pointing inside
		"dangling":      "no/such/file",
		"loop1":         "loop2",
		"loop2":         "loop1",
		"self":          "self",
		"procfd":        "/proc/self/fd",
		"procfd3":       "/proc/self/fd/3",
		"environ":       "/proc/self/environ",
		"procroot":      "/proc/self/root",
		"zero":          "/dev/zero",
		"real/up":       "..",
		"real/uproot":   "../..",
		"real/sub/ouch": "../../../" + filepath.Base(outside),
		"real/abs":      "/",
	}
	for name, target := range links {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	return dir, outside
}

func TestSymlinksRefused(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		dir, outside := symlinkSetup(t)
		f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/data", Mode: ReadWrite}}, Fallback: fb})
		s := f.NewSession()
		finals := []string{"passwd", "secret.txt", "outdir", "inner", "innerfile", "dangling", "loop1", "self",
			"procfd", "procfd3", "environ", "procroot", "zero", "real/up", "real/uproot", "real/abs", "real/sub/ouch"}
		middles := []string{"outdir/secret.txt", "inner/file.txt", "procfd/3", "procfd/0", "procroot/etc/passwd",
			"loop1/x", "dangling/x", "real/up/real/file.txt", "real/uproot/etc/passwd", "real/abs/etc/passwd",
			"real/sub/ouch/secret.txt", "procfd3/x"}
		for _, name := range finals {
			p := "/data/" + name
			_, _, _, err := s.Read(p)
			wantCode(t, err, codes.FSSymlink)
			noHostPath(t, err, dir)
			noHostPath(t, err, outside)
			info, err := s.Stat(p)
			if err != nil || info.Kind != KindSymlink {
				t.Errorf("Stat(%s) = %+v, %v; want kind symlink", name, info, err)
			}
			_, err = s.Write(p, []byte("pwned"))
			wantCode(t, err, codes.FSSymlink)
			_, err = s.Remove(p)
			wantCode(t, err, codes.FSSymlink)
			_, err = s.List(p)
			wantCode(t, err, codes.FSSymlink)
		}
		for _, name := range middles {
			p := "/data/" + name
			_, _, _, err := s.Read(p)
			wantCode(t, err, codes.FSSymlink)
			_, err = s.Stat(p)
			wantCode(t, err, codes.FSSymlink)
			_, err = s.Exists(p)
			wantCode(t, err, codes.FSSymlink)
			_, err = s.Write(p, []byte("pwned"))
			wantCode(t, err, codes.FSSymlink)
			_, err = s.List(filepath.Dir(p))
			if name != "real/up/real/file.txt" && name != "real/sub/ouch/secret.txt" {
				wantCode(t, err, codes.FSSymlink)
			}
		}
		// Writes beneath a symlinked directory, to a new name.
		_, err := s.Write("/data/outdir/new.txt", []byte("pwned"))
		wantCode(t, err, codes.FSSymlink)
		_, err = s.Write("/data/inner/new/deeper.txt", []byte("pwned"))
		wantCode(t, err, codes.FSSymlink)
		// Listing shows the links as links; glob neither matches nor
		// follows them.
		list, err := s.List("/data")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range list {
			if e.Name != "real" && e.Kind != KindSymlink {
				t.Errorf("%s listed as %s", e.Name, e.Kind)
			}
		}
		all, err := s.Glob("/data/**")
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"/data/real", "/data/real/file.txt", "/data/real/sub"}; !slices.Equal(all, want) {
			t.Errorf("Glob = %q, want %q", all, want)
		}
		if r := s.Commit(); len(r.Committed)+len(r.Conflicts) != 0 {
			t.Fatalf("something was staged: %+v", r)
		}
		if got := readHost(t, filepath.Join(outside, "secret.txt")); got != "SECRET" {
			t.Fatal("outside changed")
		}
		if ents, _ := os.ReadDir(outside); len(ents) != 1 {
			t.Fatalf("outside has %d entries", len(ents))
		}
	})
}

// TestSymlinkAppearsBeforeCommit swaps a directory for a symlink to the
// outside between staging and commit.
func TestSymlinkAppearsBeforeCommit(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		f, dir := rwFS(t, fb)
		outside := t.TempDir()
		writeFile(t, filepath.Join(dir, "d", "f.txt"), "inside")
		writeFile(t, filepath.Join(outside, "f.txt"), "SECRET")
		s := f.NewSession()
		if _, _, _, err := s.Read("/data/d/f.txt"); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/data/d/f.txt", "/data/d/new.txt", "/data/d/sub/new.txt"} {
			if _, err := s.Write(p, []byte("pwned")); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Rename(filepath.Join(dir, "d"), filepath.Join(dir, "moved")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(dir, "d")); err != nil {
			t.Fatal(err)
		}
		r := s.Commit()
		if len(r.Committed) != 0 || len(r.Conflicts) != 3 {
			t.Fatalf("report %+v", r)
		}
		for _, c := range r.Conflicts {
			if !strings.Contains(c.Reason, "symbolic link") {
				t.Errorf("%s: reason %q", c.Path, c.Reason)
			}
		}
		if got := readHost(t, filepath.Join(outside, "f.txt")); got != "SECRET" {
			t.Fatal("wrote through the symlink")
		}
		if ents, _ := os.ReadDir(outside); len(ents) != 1 {
			t.Fatalf("outside has %d entries", len(ents))
		}
	})
}

// TestProcMount: a mount of /proc is refused (TestPseudoFileSystemsUnreachable),
// and through a mount of / the magic links in /proc (/proc/PID/fd/N,
// /proc/PID/root, /proc/PID/cwd, /proc/self) are refused as symlinks or
// as paths on procfs; so is an ordinary file there.
func TestProcMount(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		if _, err := New(Config{Mounts: []Mount{{Host: "/proc", Guest: "/p"}}, Fallback: fb}); err == nil {
			t.Fatal("a mount of /proc was accepted")
		}
		f := mustFS(t, Config{Mounts: []Mount{{Host: "/", Guest: "/h"}}, Fallback: fb})
		s := f.NewSession()
		pid := strconv.Itoa(os.Getpid())
		rootfd := strconv.Itoa(f.mounts[0].fd)
		for _, p := range []string{
			"/h/proc/self/environ", "/h/proc/thread-self/environ",
			"/h/proc/" + pid + "/fd/" + rootfd, "/h/proc/" + pid + "/fd/" + rootfd + "/proc/self/environ",
			"/h/proc/" + pid + "/root/etc/passwd", "/h/proc/" + pid + "/cwd/go.mod", "/h/proc/" + pid + "/exe",
			"/h/proc/" + pid + "/fd/0", "/h/proc/" + pid + "/status",
		} {
			_, _, _, err := s.Read(p)
			var e *Error
			if !errors.As(err, &e) || e.Code != codes.FSSymlink && e.Code != codes.FSDenied {
				t.Errorf("%s: %v, want FS_SYMLINK or FS_DENIED", p, err)
			}
		}
	})
}

func TestSpecialFiles(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		f, dir := rwFS(t, fb)
		if err := unix.Mkfifo(filepath.Join(dir, "pipe"), 0o666); err != nil {
			t.Fatal(err)
		}
		haveDev := unix.Mknod(filepath.Join(dir, "zero"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 5))) == nil
		haveNull := unix.Mknod(filepath.Join(dir, "null"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))) == nil
		sock, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer unix.Close(sock)
		if err := unix.Bind(sock, &unix.SockaddrUnix{Name: filepath.Join(dir, "sock")}); err != nil {
			t.Fatal(err)
		}
		// A hard link to /dev/zero fails across file systems; try anyway.
		if err := os.Link("/dev/zero", filepath.Join(dir, "zerolink")); err == nil {
			t.Log("hard-linked /dev/zero into the mount")
		}
		names := []string{"pipe", "sock"}
		if haveDev {
			names = append(names, "zero")
		}
		if haveNull {
			names = append(names, "null")
		}
		t.Logf("device nodes: zero=%v null=%v", haveDev, haveNull)
		done := make(chan struct{})
		go func() {
			defer close(done)
			s := f.NewSession()
			for _, n := range names {
				p := "/data/" + n
				_, _, _, err := s.Read(p)
				wantCode(t, err, codes.FSNotAFile)
				t.Log(err)
				_, err = s.Write(p, []byte("x"))
				wantCode(t, err, codes.FSNotAFile)
				_, err = s.Remove(p)
				wantCode(t, err, codes.FSNotAFile)
				info, err := s.Stat(p)
				if err != nil || info.Kind != KindOther {
					t.Errorf("Stat(%s) = %+v, %v", n, info, err)
				}
			}
			if g, err := s.Glob("/data/*"); err != nil || len(g) != 0 {
				t.Errorf("Glob = %q, %v", g, err)
			}
			if _, _, _, err := s.Read("/data/zerolink"); CodeOf(err) != codes.FSNotFound && CodeOf(err) != codes.FSNotAFile {
				t.Errorf("zerolink: %v", err)
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("hung on a special file")
		}
	})
}

func TestHardLinks(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		f, dir := rwFS(t, fb)
		outside := t.TempDir()
		writeFile(t, filepath.Join(outside, "secret.txt"), "SECRET")
		if err := os.Link(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt")); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("cannot hard-link on this CI machine: %v", err)
			}
			t.Skipf("cannot hard-link: %v", err)
		}
		writeFile(t, filepath.Join(dir, ".env"), "TOKEN=1")
		if err := os.Link(filepath.Join(dir, ".env"), filepath.Join(dir, "innocent.txt")); err != nil {
			t.Fatal(err)
		}
		s := f.NewSession()
		// Reading through a hard link is allowed.
		data, _, _, err := s.Read("/data/link.txt")
		if err != nil || string(data) != "SECRET" {
			t.Fatalf("Read link = %q, %v", data, err)
		}
		// Known, documented limit: an innocent name for a denied file.
		data, _, _, err = s.Read("/data/innocent.txt")
		if err != nil || string(data) != "TOKEN=1" {
			t.Fatalf("Read innocent = %q, %v", data, err)
		}
		_, _, _, err = s.Read("/data/.env")
		wantCode(t, err, codes.FSNotFound)
		// Writing replaces the link, never the outside file.
		if _, err := s.Write("/data/link.txt", []byte("new")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Write("/data/innocent.txt", []byte("new")); err != nil {
			t.Fatal(err)
		}
		if r := s.Commit(); len(r.Committed) != 2 {
			t.Fatalf("commit %+v", r)
		}
		if got := readHost(t, filepath.Join(outside, "secret.txt")); got != "SECRET" {
			t.Fatalf("outside file is now %q", got)
		}
		if got := readHost(t, filepath.Join(dir, ".env")); got != "TOKEN=1" {
			t.Fatalf(".env is now %q", got)
		}
		if got := readHost(t, filepath.Join(dir, "link.txt")); got != "new" {
			t.Fatalf("link.txt is %q", got)
		}
		var st unix.Stat_t
		unix.Stat(filepath.Join(outside, "secret.txt"), &st)
		if st.Nlink != 1 {
			t.Fatalf("outside file still has %d links", st.Nlink)
		}
	})
}

// TestSwapRace swaps a directory and a symlink to an outside directory
// back and forth for two seconds while reads, stats, lists and commits
// go through it. Nothing may ever come from or go to the outside.
func TestSwapRace(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		t.Run("exchange", func(t *testing.T) { swapRace(t, fb, true, 2*time.Second) })
		t.Run("rename", func(t *testing.T) { swapRace(t, fb, false, time.Second) })
	})
}

// swapRace is TestSwapRace with atomic exchanges (and commits through
// the swapping directory) or with plain renames (and no commits: a
// commit would create a missing "d", derailing the renames).
func swapRace(t *testing.T, fb, exchange bool, length time.Duration) {
	{
		f, dir := rwFS(t, fb)
		outside := t.TempDir()
		writeFile(t, filepath.Join(dir, "d", "f.txt"), "inside")
		writeFile(t, filepath.Join(outside, "f.txt"), "SECRET")
		if err := os.Symlink(outside, filepath.Join(dir, "sym")); err != nil {
			t.Fatal(err)
		}
		stop := make(chan struct{})
		var swaps atomic.Int64
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, sym, tmp := filepath.Join(dir, "d"), filepath.Join(dir, "sym"), filepath.Join(dir, "tmp")
			for {
				select {
				case <-stop:
					return
				default:
				}
				if exchange {
					// "d" is the real directory or the symlink.
					if err := unix.Renameat2(unix.AT_FDCWD, d, unix.AT_FDCWD, sym, unix.RENAME_EXCHANGE); err != nil {
						t.Errorf("exchange: %v", err)
						return
					}
				} else {
					// "d" is the real directory, missing, the symlink,
					// missing, the real directory.
					os.Rename(d, tmp)
					os.Rename(sym, d)
					os.Rename(d, sym)
					os.Rename(tmp, d)
				}
				swaps.Add(1)
			}
		}()
		var ok, refused, commits, conflicts atomic.Int64
		seenCodes := sync.Map{}
		deadline := time.Now().Add(length)
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; time.Now().Before(deadline); i++ {
					s := f.NewSession()
					data, _, _, err := s.Read("/data/d/f.txt")
					if err == nil {
						if string(data) != "inside" {
							t.Errorf("read %q through the swap", data)
							return
						}
						ok.Add(1)
					} else {
						refused.Add(1)
						seenCodes.Store(CodeOf(err), true)
					}
					if list, err := s.List("/data/d"); err == nil {
						for _, e := range list {
							if e.Name != "f.txt" && !strings.HasPrefix(e.Name, "w") {
								t.Errorf("listed %q through the swap", e.Name)
							}
						}
					}
					if !exchange || i%64 != 0 {
						s.Discard()
						continue
					}
					// Now and then, a commit through the swapping directory.
					if _, err := s.Write(fmt.Sprintf("/data/d/w%d.txt", w), []byte("written")); err == nil {
						r := s.Commit()
						commits.Add(int64(len(r.Committed)))
						conflicts.Add(int64(len(r.Conflicts)))
					} else {
						s.Discard()
					}
				}
			}()
		}
		time.Sleep(time.Until(deadline))
		for time.Now().Before(deadline.Add(time.Second)) && ok.Load()+refused.Load() == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		close(stop)
		wg.Wait()
		var seen []codes.Code
		seenCodes.Range(func(k, _ any) bool { seen = append(seen, k.(codes.Code)); return true })
		t.Logf("%d swaps; reads: %d succeeded, %d refused (codes %v); commits: %d, conflicts %d",
			swaps.Load(), ok.Load(), refused.Load(), seen, commits.Load(), conflicts.Load())
		if got := readHost(t, filepath.Join(outside, "f.txt")); got != "SECRET" {
			t.Fatal("outside file changed")
		}
		if ents, _ := os.ReadDir(outside); len(ents) != 1 {
			names := []string{}
			for _, e := range ents {
				names = append(names, e.Name())
			}
			t.Fatalf("a write reached the outside: %q", names)
		}
		for _, c := range seen {
			if c != codes.FSSymlink && c != codes.FSNotFound {
				t.Errorf("unexpected error code %s", c)
			}
		}
		if ok.Load() == 0 {
			t.Error("no read succeeded; the race did not run")
		}
	}
}

// TestRenameDuringGlob renames directories (within the mount and out of
// it) while globs walk them.
func TestRenameDuringGlob(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		f, dir := rwFS(t, fb)
		outside := t.TempDir()
		writeFile(t, filepath.Join(outside, "outsider.txt"), "SECRET")
		for i := range 20 {
			writeFile(t, filepath.Join(dir, "a", "sub", fmt.Sprintf("f%d.txt", i)), "x")
			writeFile(t, filepath.Join(dir, "a", "sub", "deep", fmt.Sprintf("g%d.txt", i)), "x")
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "b"))
				os.Rename(filepath.Join(dir, "b", "sub"), filepath.Join(outside, "sub"))
				os.Rename(filepath.Join(outside, "sub"), filepath.Join(dir, "b", "sub"))
				os.Rename(filepath.Join(dir, "b"), filepath.Join(dir, "a"))
			}
		}()
		s := f.NewSession()
		globs, matches := 0, 0
		for end := time.Now().Add(time.Second); time.Now().Before(end); {
			got, err := s.Glob("/data/**/*.txt")
			if err != nil {
				t.Fatalf("Glob: %v", err)
			}
			globs++
			matches += len(got)
			for _, p := range got {
				if strings.Contains(p, "outsider") || !strings.HasPrefix(p, "/data/a/sub/") && !strings.HasPrefix(p, "/data/b/sub/") {
					t.Fatalf("glob gave %q", p)
				}
			}
		}
		close(stop)
		wg.Wait()
		t.Logf("%d globs, %d matches in all", globs, matches)
	})
}

func TestErrorsNameNoHostPaths(t *testing.T) {
	f, dir := rwFS(t, false)
	writeFile(t, filepath.Join(dir, "f.txt"), "x")
	s := f.NewSession()
	var errs []error
	_, _, _, err := s.Read("/data/missing")
	errs = append(errs, err)
	_, err = s.List("/data/f.txt")
	errs = append(errs, err)
	_, err = s.Write("/data/f.txt/x", nil)
	errs = append(errs, err)
	for _, err := range errs {
		if err == nil {
			t.Fatal("no error")
		}
		noHostPath(t, err, dir)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%T", err)
		}
		t.Log(err)
	}
}
