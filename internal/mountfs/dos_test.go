//go:build linux

package mountfs

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/modebox/modebox/internal/codes"
)

// countGlobVisits counts the (directory, pattern position) pairs the
// Globs of the test walk. Past limit it cancels the context it returns,
// so that a walk gone exponential stops (at its next visit) instead of
// hanging the test.
func countGlobVisits(t *testing.T, limit int) (context.Context, *int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	visits := new(int)
	testHookGlobVisit = func() {
		*visits++
		if *visits > limit {
			cancel()
		}
	}
	t.Cleanup(func() { testHookGlobVisit = nil; cancel() })
	return ctx, visits
}

// TestGlobRepeatedStarsIsPolynomial is the red-team program
//
//	await fs.write("/out/" + "d/".repeat(14) + "f", "x");
//	await fs.glob("/out/" + "**/".repeat(20) + "[z]z");
//
// which walked every way of splitting 14 directories among 20 "**"
// (billions of walks, for minutes, past the run's timeout), and its
// variant over directories that exist on the host (where the walk
// charged each repeated listing and failed with FS_TOO_MANY_ENTRIES on a
// 15-entry tree). Each (directory, pattern position) pair is now walked
// once.
func TestGlobRepeatedStarsIsPolynomial(t *testing.T) {
	const D, K = 14, 20
	pattern := "/data/" + strings.Repeat("**/", K) + "[z]z"
	for _, staged := range []bool{true, false} {
		t.Run(fmt.Sprintf("staged=%v", staged), func(t *testing.T) {
			resolvers(t, func(t *testing.T, fb bool) {
				f, dir := rwFS(t, fb)
				s := f.NewSession()
				deep := strings.Repeat("d/", D) + "f"
				if staged {
					if _, err := s.Write("/data/"+deep, []byte("x")); err != nil {
						t.Fatal(err)
					}
				} else {
					writeFile(t, filepath.Join(dir, deep), "x")
				}
				// D+1 directories times 2 positions ("**" and "[z]z"
				// once the "**" are merged).
				const limit = 2 * (D + 1)
				ctx, visits := countGlobVisits(t, limit)
				got, err := s.GlobContext(ctx, pattern)
				if err != nil || len(got) != 0 {
					t.Fatalf("Glob = %q, %v after %d visits", got, err, *visits)
				}
				if *visits > limit {
					t.Fatalf("%d visits, want at most %d", *visits, limit)
				}
				// The same with the "**" apart: memoisation alone keeps it
				// to directories times positions.
				spread := "/data/" + strings.Repeat("**/*/", K/2) + "[z]z"
				ctx, visits = countGlobVisits(t, (D+1)*(K+1))
				if got, err := s.GlobContext(ctx, spread); err != nil || len(got) != 0 || *visits > (D+1)*(K+1) {
					t.Fatalf("Glob(spread) = %q, %v after %d visits", got, err, *visits)
				}
				// And a match is still found.
				if got, err := s.Glob("/data/" + strings.Repeat("**/", K) + "f"); err != nil || !slices.Equal(got, []string{"/data/" + deep}) {
					t.Fatalf("Glob(f) = %q, %v", got, err)
				}
			})
		})
	}
}

// TestGlobChargesStagedEntries: directories and files that exist only
// as staged writes cost the walk's budget like host entries.
func TestGlobChargesStagedEntries(t *testing.T) {
	dir := t.TempDir()
	f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/data", Mode: ReadWrite}}, MaxEntries: 100})
	s := f.NewSession()
	for i := range 60 { // 60 implied directories and 60 files: 120 entries
		if _, err := s.Write(fmt.Sprintf("/data/d%d/f", i), nil); err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.Glob("/data/**/nomatch")
	wantCode(t, err, codes.FSTooManyEntries)
	t.Log(err)
	// A listing of one directory is unchanged: 60 entries.
	if list, err := s.List("/data"); err != nil || len(list) != 60 {
		t.Fatalf("List = %d entries, %v", len(list), err)
	}
	// Within the budget the walk works.
	if got, err := s.Glob("/data/d1*/f"); err != nil || len(got) != 11 {
		t.Fatalf("Glob = %q, %v", got, err)
	}
}

// TestGlobStopsWithContext: the walk checks the call's context at every
// directory, so a run's deadline ends it.
func TestGlobStopsWithContext(t *testing.T) {
	f, dir := rwFS(t, false)
	for i := range 20 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("a%d", i), "b", "c.txt"), "x")
	}
	s := f.NewSession()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.GlobContext(ctx, "/data/**")
	wantCode(t, err, codes.Cancelled)
	ctx, cancel = context.WithDeadline(context.Background(), time.Unix(1, 0))
	defer cancel()
	_, err = s.GlobContext(ctx, "/data/**")
	wantCode(t, err, codes.Timeout)
	t.Log(err)
	// Cancelled in the middle: no visit after the one that cancelled.
	ctx, visits := countGlobVisits(t, 5)
	_, err = s.GlobContext(ctx, "/data/**/*.txt")
	wantCode(t, err, codes.Cancelled)
	if *visits != 6 {
		t.Fatalf("%d visits after cancelling at the 6th", *visits)
	}
	// The session is free again.
	if got, err := s.Glob("/data/a1/**"); err != nil || len(got) != 2 {
		t.Fatalf("Glob = %q, %v", got, err)
	}
}

// TestGlobStarStarEquivalence: repeated "**" match what one does.
func TestGlobStarStarEquivalence(t *testing.T) {
	f, dir := rwFS(t, false)
	for _, n := range []string{"x", "a/x", "a/b/x", "a/b/c/x", "a/y", "z/x/x", "b/a/x"} {
		writeFile(t, filepath.Join(dir, n), n)
	}
	s := f.NewSession()
	s.Write("/data/s/t/x", []byte("staged"))
	pairs := [][2]string{
		{"/data/**/**/x", "/data/**/x"},
		{"/data/**/**/**/x", "/data/**/x"},
		{"/data/**/**", "/data/**"},
		{"/**/**/x", "/**/x"},
		{"/data/a/**/**/b/**/**/x", "/data/a/**/b/**/x"},
		{"/data/**/**/a/*", "/data/**/a/*"},
		{"/data/**/**/*/x", "/data/**/*/x"},
	}
	for _, p := range pairs {
		got, err := s.Glob(p[0])
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.Glob(p[1])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) || len(want) == 0 {
			t.Errorf("Glob(%q) = %q, Glob(%q) = %q", p[0], got, p[1], want)
		}
	}
	got, _ := s.Glob("/data/**/**/x")
	want := []string{"/data/a/b/c/x", "/data/a/b/x", "/data/a/x", "/data/b/a/x", "/data/s/t/x", "/data/x", "/data/z/x", "/data/z/x/x"}
	if !slices.Equal(got, want) {
		t.Errorf("Glob = %q, want %q", got, want)
	}
}

// countDirs counts the directories beneath root, root excluded.
func countDirs(t *testing.T, root string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestWriteCountsNewDirectories is the red-team program
//
//	for (let i = 0; i < 100; i++) await fs.write(`/out/${i}/${"d/".repeat(2040)}f`, "")
//
// which had the commit create 204,100 nested directories (empty files
// cost no staged bytes and the directories counted nowhere). The
// directories a write needs are now counted against MaxEntries when it
// is staged, and the commit creates no more.
func TestWriteCountsNewDirectories(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		f, dir := rwFS(t, fb) // MaxEntries: the default, 10000
		s := f.NewSession()
		deep := strings.Repeat("d/", 2040)
		wrote := 0
		var err error
		for i := range 100 {
			if _, err = s.Write(fmt.Sprintf("/data/%d/%sf", i, deep), nil); err != nil {
				break
			}
			wrote++
		}
		wantCode(t, err, codes.FSTooManyEntries)
		t.Log(err)
		if wrote != DefaultMaxEntries/2041 {
			t.Fatalf("%d writes staged, want %d", wrote, DefaultMaxEntries/2041)
		}
		// Writes into counted directories still work.
		if _, err := s.Write("/data/0/"+deep+"g", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Write("/data/top", nil); err != nil {
			t.Fatal(err)
		}
		s.Discard()
		if n := countDirs(t, dir); n != 0 {
			t.Fatalf("%d directories before any commit", n)
		}
	})
}

// TestCommitCreatesCountedDirectories: the commit creates the
// directories counted, deep ones included, and a later run's writes
// into them cost nothing.
func TestCommitCreatesCountedDirectories(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		dir := t.TempDir()
		f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/data", Mode: ReadWrite}}, MaxEntries: 300, Fallback: fb})
		s := f.NewSession()
		deep := strings.Repeat("d/", 249)
		for _, p := range []string{"/data/0/" + deep + "f", "/data/0/" + deep + "g", "/data/0/d/h", "/data/top"} {
			if _, err := s.Write(p, nil); err != nil {
				t.Fatal(err)
			}
		}
		_, err := s.Write("/data/1/"+deep+"f", nil)
		wantCode(t, err, codes.FSTooManyEntries)
		if rep := s.Commit(); len(rep.Conflicts) != 0 || len(rep.Committed) != 4 {
			t.Fatalf("Commit = %+v", rep)
		}
		if n := countDirs(t, dir); n != 250 {
			t.Fatalf("%d directories created, want 250", n)
		}
		s = f.NewSession()
		for _, p := range []string{"/data/0/" + deep + "x", "/data/1/" + deep + "f"} {
			if _, err := s.Write(p, nil); err != nil {
				t.Fatal(err)
			}
		}
		if len(s.newDirs) != 250 {
			t.Fatalf("%d directories counted, want 250", len(s.newDirs))
		}
		s.Discard()
	})
}

// TestNewDirectoryCount checks the count at a small limit: directories
// on the host and directories counted for earlier writes are free,
// replayed writes (Restage) count too, and a dropped write's
// directories stay counted.
func TestNewDirectoryCount(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "e", "f"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "file"), "x")
	f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/data", Mode: ReadWrite}}, MaxEntries: 10})
	s := f.NewSession()
	steps := []struct {
		path string
		code codes.Code
		dirs int // counted after the step
	}{
		{"/data/e/f/x", "", 0},            // exists
		{"/data/e/f/g/h/x", "", 2},        // g, h
		{"/data/e/f/g/h/i/x", "", 3},      // i
		{"/data/e/f/g/y", "", 3},          // counted
		{"/data/a/b/c/d/e/f/g/x", "", 10}, // 7 more: exactly the limit
		{"/data/e/z/x", codes.FSTooManyEntries, 10},
		{"/data/file/x", codes.FSNotADirectory, 10}, // a file in the way
		{"/data/a/b/c/d/e/f/g/y", "", 10},
	}
	for _, st := range steps {
		_, err := s.Write(st.path, nil)
		if st.code == "" && err != nil || st.code != "" && CodeOf(err) != st.code {
			t.Fatalf("Write(%s) = %v, want %q", st.path, err, st.code)
		}
		if len(s.newDirs) != st.dirs {
			t.Fatalf("after %s: %d directories counted, want %d: %v", st.path, len(s.newDirs), st.dirs, s.newDirs)
		}
	}
	if _, err := s.Remove("/data/e/f/g/h/i/x"); err != nil {
		t.Fatal(err)
	}
	if err := s.Restage("/data/q/x", nil, Base{}); CodeOf(err) != codes.FSTooManyEntries {
		t.Fatalf("Restage = %v", err)
	}
	s.Discard()
	// Restage on a fresh session counts the same way.
	s = f.NewSession()
	if err := s.Restage("/data/a/b/c/d/e/f/g/h/i/j/k/x", nil, Base{}); CodeOf(err) != codes.FSTooManyEntries {
		t.Fatalf("Restage = %v", err)
	}
	if err := s.Restage("/data/a/b/c/x", nil, Base{}); err != nil {
		t.Fatal(err)
	}
	if len(s.newDirs) != 3 {
		t.Fatalf("%d counted", len(s.newDirs))
	}
	s.Discard()
}

// TestCommitCreatesOnlyCountedDirectories: a directory that existed when
// the write was staged and was removed before the commit is not created
// again; the write is a conflict.
func TestCommitCreatesOnlyCountedDirectories(t *testing.T) {
	f, dir := rwFS(t, false)
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := f.NewSession()
	for _, p := range []string{"/data/a/b/x", "/data/n/m/x", "/data/n/y"} {
		if _, err := s.Write(p, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	rep := s.Commit()
	if !slices.Equal(rep.Committed, []string{"/data/n/m/x", "/data/n/y"}) || len(rep.Conflicts) != 1 || rep.Conflicts[0].Path != "/data/a/b/x" {
		t.Fatalf("Commit = %+v", rep)
	}
	t.Log(rep.Conflicts[0].Reason)
	if _, err := os.Stat(filepath.Join(dir, "a")); !os.IsNotExist(err) {
		t.Fatalf("a was created again: %v", err)
	}
	if n := countDirs(t, dir); n != 2 {
		t.Fatalf("%d directories", n)
	}
}

// blockedWriter opens the named pipe p for writing in a goroutine of its
// own thread, which blocks until some process opens the pipe for
// reading, and waits until the thread is in that open. It returns a
// channel closed when the open returns, and a release func that
// unblocks the writer and waits for it.
func blockedWriter(t *testing.T, p string) (opened <-chan struct{}, release func()) {
	t.Helper()
	tids, done := make(chan int, 1), make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread() // the thread ends with the goroutine
		tids <- unix.Gettid()
		if fd, err := unix.Open(p, unix.O_WRONLY|unix.O_CLOEXEC, 0); err == nil {
			unix.Close(fd)
		}
	}()
	tid := <-tids
	// /proc/self/task/TID/syscall starts with the number of the system
	// call the thread is blocked in ("running" while it runs).
	sys := fmt.Sprintf("/proc/self/task/%d/syscall", tid)
	prefix := strconv.Itoa(unix.SYS_OPENAT) + " "
	for i := 0; ; i++ {
		b, err := os.ReadFile(sys)
		if err != nil {
			t.Fatalf("cannot tell whether the writer is blocked: %v", err)
		}
		if strings.HasPrefix(string(b), prefix) {
			break
		}
		select {
		case <-done:
			t.Fatal("the writer's open returned before anything read the pipe")
		default:
		}
		if i == 6000 { // a hang guard: a minute
			t.Fatal("the writer never blocked in open")
		}
		time.Sleep(10 * time.Millisecond)
	}
	release = func() {
		fd, err := unix.Open(p, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Errorf("releasing the writer: %v", err)
			return
		}
		defer unix.Close(fd)
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Error("the writer stayed blocked after a reader opened the pipe")
		}
	}
	return done, release
}

// TestFIFONotOpened is the red-team setup of a named pipe in a mount
// with a host process blocked opening it for writing: fs.read opened the
// pipe for reading (O_NONBLOCK, then checked its type), which released
// the writer. Nothing but a regular file is opened for reading now: the
// writer stays blocked through every operation, whose errors stay
// FS_NOT_A_FILE.
func TestFIFONotOpened(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		f, dir := rwFS(t, fb)
		fifo := filepath.Join(dir, "pipe")
		if err := unix.Mkfifo(fifo, 0o666); err != nil {
			t.Fatal(err)
		}
		opened, release := blockedWriter(t, fifo)
		defer release()
		s := f.NewSession()
		_, _, _, err := s.Read("/data/pipe")
		wantCode(t, err, codes.FSNotAFile)
		_, err = s.Write("/data/pipe", []byte("x"))
		wantCode(t, err, codes.FSNotAFile)
		_, err = s.Remove("/data/pipe")
		wantCode(t, err, codes.FSNotAFile)
		_, err = s.List("/data/pipe")
		wantCode(t, err, codes.FSNotADirectory)
		if info, err := s.Stat("/data/pipe"); err != nil || info.Kind != KindOther {
			t.Fatalf("Stat = %+v, %v", info, err)
		}
		if ok, err := s.Exists("/data/pipe"); !ok || err != nil {
			t.Fatalf("Exists = %v, %v", ok, err)
		}
		if g, err := s.Glob("/data/*"); err != nil || len(g) != 0 {
			t.Fatalf("Glob = %q, %v", g, err)
		}
		s.Discard()
		// The commit's checks: a replayed write and removal of the path
		// (Restage does not look at the file) meet the pipe at commit.
		for _, remove := range []bool{false, true} {
			s = f.NewSession()
			if remove {
				err = s.RestageRemove("/data/pipe", Base{Exists: true, Size: 1, SHA256: hashHex([]byte("x"))})
			} else {
				err = s.Restage("/data/pipe", []byte("x"), Base{Exists: true, Size: 1, SHA256: hashHex([]byte("x"))})
			}
			if err != nil {
				t.Fatal(err)
			}
			rep := s.Commit()
			if len(rep.Conflicts) != 1 || rep.Conflicts[0].Reason != "is now a named pipe" {
				t.Fatalf("Commit = %+v", rep)
			}
		}
		// A bounded wait: still blocked is the pass.
		select {
		case <-opened:
			t.Fatal("the writer blocked on the pipe was released: something opened the pipe for reading")
		case <-time.After(2 * time.Second):
		}
		// A regular file next to it reads as before.
		writeFile(t, filepath.Join(dir, "file"), "content")
		if data, _, _, err := f.NewSession().Read("/data/file"); err != nil || string(data) != "content" {
			t.Fatalf("Read = %q, %v", data, err)
		}
	})
}
