//go:build linux

package mountfs

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modebox/modebox/internal/codes"
	"golang.org/x/sys/unix"
)

func names(list []Info) []string {
	var out []string
	for _, e := range list {
		out = append(out, e.Name+":"+e.Kind)
	}
	return out
}

func TestReadYourWrites(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		f, dir := rwFS(t, fb)
		writeFile(t, filepath.Join(dir, "keep.txt"), "keep")
		writeFile(t, filepath.Join(dir, "gone.txt"), "gone")
		writeFile(t, filepath.Join(dir, "sub", "old.txt"), "old")
		s := f.NewSession()
		mustWrite := func(p, data string) Base {
			t.Helper()
			b, err := s.Write(p, []byte(data))
			if err != nil {
				t.Fatalf("Write(%s): %v", p, err)
			}
			return b
		}
		if b := mustWrite("/data/new.txt", "fresh"); b.Exists {
			t.Fatalf("base of a new file: %+v", b)
		}
		if b := mustWrite("/data/keep.txt", "changed"); !b.Exists || b.SHA256 != hashHex([]byte("keep")) || b.Size != 4 {
			t.Fatalf("base of keep.txt: %+v", b)
		}
		mustWrite("/data/deep/er/file.txt", "deep")
		if b, err := s.Remove("/data/gone.txt"); err != nil || !b.Exists {
			t.Fatalf("Remove: %+v, %v", b, err)
		}
		// Reads see the staged state.
		for p, want := range map[string]string{"/data/new.txt": "fresh", "/data/keep.txt": "changed", "/data/deep/er/file.txt": "deep", "/data/sub/old.txt": "old"} {
			data, info, _, err := s.Read(p)
			if err != nil || string(data) != want || info.Size != int64(len(want)) || info.Kind != KindFile {
				t.Errorf("Read(%s) = %q, %+v, %v", p, data, info, err)
			}
		}
		_, _, _, err := s.Read("/data/gone.txt")
		wantCode(t, err, codes.FSNotFound)
		if ok, _ := s.Exists("/data/gone.txt"); ok {
			t.Error("removed file exists")
		}
		if ok, _ := s.Exists("/data/deep/er"); !ok {
			t.Error("implied directory does not exist")
		}
		if info, err := s.Stat("/data/deep"); err != nil || info.Kind != KindDir {
			t.Errorf("Stat(deep) = %+v, %v", info, err)
		}
		_, _, _, err = s.Read("/data/deep")
		wantCode(t, err, codes.FSNotAFile)
		list, err := s.List("/data")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := names(list), []string{"deep:dir", "keep.txt:file", "new.txt:file", "sub:dir"}; !slices.Equal(got, want) {
			t.Fatalf("List = %q, want %q", got, want)
		}
		if list, err := s.List("/data/deep/er"); err != nil || len(list) != 1 || list[0].Path != "/data/deep/er/file.txt" {
			t.Fatalf("List(deep/er) = %+v, %v", list, err)
		}
		if g, err := s.Glob("/data/**/*.txt"); err != nil || !slices.Equal(g, []string{"/data/deep/er/file.txt", "/data/keep.txt", "/data/new.txt", "/data/sub/old.txt"}) {
			t.Fatalf("Glob = %q, %v", g, err)
		}
		// Write over an implied directory, or beneath a staged file.
		_, err = s.Write("/data/deep", []byte("x"))
		wantCode(t, err, codes.FSNotAFile)
		_, err = s.Write("/data/new.txt/x", []byte("x"))
		wantCode(t, err, codes.FSNotADirectory)
		_, err = s.Write("/data/keep.txt/x", []byte("x"))
		wantCode(t, err, codes.FSNotADirectory)
		_, err = s.Write("/data/sub", []byte("x"))
		wantCode(t, err, codes.FSNotAFile)
		_, err = s.Remove("/data/sub")
		wantCode(t, err, codes.FSNotAFile)
		_, err = s.List("/data/keep.txt")
		wantCode(t, err, codes.FSNotADirectory)
		// Nothing on the host yet.
		if got := readHost(t, filepath.Join(dir, "keep.txt")); got != "keep" {
			t.Fatal("write reached the host before commit")
		}
		if _, err := os.Stat(filepath.Join(dir, "deep")); err == nil {
			t.Fatal("directory created before commit")
		}
		r := s.Commit()
		if len(r.Conflicts) != 0 || !slices.Equal(r.Committed, []string{"/data/deep/er/file.txt", "/data/gone.txt", "/data/keep.txt", "/data/new.txt"}) {
			t.Fatalf("Commit = %+v", r)
		}
		for name, want := range map[string]string{"keep.txt": "changed", "new.txt": "fresh", "deep/er/file.txt": "deep", "sub/old.txt": "old"} {
			if got := readHost(t, filepath.Join(dir, name)); got != want {
				t.Errorf("%s = %q", name, got)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "gone.txt")); !os.IsNotExist(err) {
			t.Error("gone.txt not removed")
		}
		// The session is over.
		_, _, _, err = s.Read("/data/new.txt")
		wantCode(t, err, codes.FSClosed)
		if r := s.Commit(); len(r.Committed) != 0 {
			t.Fatal("second commit did something")
		}
	})
}

func TestRemoveStagedNewFile(t *testing.T) {
	f, dir := rwFS(t, false)
	s := f.NewSession()
	s.Write("/data/tmp.txt", []byte("x"))
	if b, err := s.Remove("/data/tmp.txt"); err != nil || b.Exists {
		t.Fatalf("Remove = %+v, %v", b, err)
	}
	_, err := s.Remove("/data/tmp.txt")
	wantCode(t, err, codes.FSNotFound)
	if r := s.Commit(); len(r.Committed)+len(r.Conflicts) != 0 {
		t.Fatalf("Commit = %+v", r)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatal("something was written")
	}
}

func TestDiscard(t *testing.T) {
	f, dir := rwFS(t, false)
	writeFile(t, filepath.Join(dir, "a.txt"), "a")
	s := f.NewSession()
	s.Write("/data/a.txt", []byte("changed"))
	s.Write("/data/b/c.txt", []byte("new"))
	s.Remove("/data/a.txt")
	s.Discard()
	if r := s.Commit(); len(r.Committed)+len(r.Conflicts) != 0 {
		t.Fatalf("commit after discard: %+v", r)
	}
	_, err := s.Write("/data/x", nil)
	wantCode(t, err, codes.FSClosed)
	if got := readHost(t, filepath.Join(dir, "a.txt")); got != "a" {
		t.Fatal("discarded write happened")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatal("discarded create happened")
	}
}

func TestConflicts(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		f, dir := rwFS(t, fb)
		for _, n := range []string{"read.txt", "staged.txt", "removed.txt", "deleted.txt", "fine.txt", "samesize.txt"} {
			writeFile(t, filepath.Join(dir, n), "original")
		}
		s := f.NewSession()
		// Changed between read and commit.
		if _, _, _, err := s.Read("/data/read.txt"); err != nil {
			t.Fatal(err)
		}
		s.Write("/data/read.txt", []byte("mine"))
		writeFile(t, filepath.Join(dir, "read.txt"), "theirs")
		// Read before write, change, read again: new content, first base.
		writeFile(t, filepath.Join(dir, "reread.txt"), "first")
		_, _, b1, _ := s.Read("/data/reread.txt")
		writeFile(t, filepath.Join(dir, "reread.txt"), "second")
		if data, _, b2, err := s.Read("/data/reread.txt"); err != nil || string(data) != "second" || b2 != b1 {
			t.Fatalf("reread = %q, %+v (first %+v), %v", data, b2, b1, err)
		}
		// Read, then changed before the write was even staged: still a
		// conflict, the run saw the old content.
		s.Read("/data/samesize.txt")
		writeFile(t, filepath.Join(dir, "samesize.txt"), "ORIGINAL") // same size, other hash
		s.Write("/data/samesize.txt", []byte("mine"))
		// Not read; changed between staging and commit.
		s.Write("/data/staged.txt", []byte("mine"))
		writeFile(t, filepath.Join(dir, "staged.txt"), "theirs")
		// A new file someone else creates before the commit.
		s.Write("/data/created.txt", []byte("mine"))
		writeFile(t, filepath.Join(dir, "created.txt"), "theirs")
		// Removal of a file someone else changes.
		s.Remove("/data/removed.txt")
		writeFile(t, filepath.Join(dir, "removed.txt"), "theirs")
		// Write to a file someone else deletes.
		s.Write("/data/deleted.txt", []byte("mine"))
		os.Remove(filepath.Join(dir, "deleted.txt"))
		// A write to a file replaced by a directory.
		s.Write("/data/newdir", []byte("mine"))
		os.Mkdir(filepath.Join(dir, "newdir"), 0o755)
		// And one that commits.
		s.Write("/data/fine.txt", []byte("mine"))
		r := s.Commit()
		if !slices.Equal(r.Committed, []string{"/data/fine.txt"}) {
			t.Fatalf("committed %q", r.Committed)
		}
		reasons := map[string]string{}
		for _, c := range r.Conflicts {
			reasons[c.Path] = c.Reason
		}
		want := map[string]string{
			"/data/read.txt":     "changed",
			"/data/samesize.txt": "changed",
			"/data/staged.txt":   "changed",
			"/data/created.txt":  "created",
			"/data/removed.txt":  "changed",
			"/data/deleted.txt":  "deleted",
			"/data/newdir":       "directory",
		}
		if len(reasons) != len(want) {
			t.Fatalf("conflicts %+v", r.Conflicts)
		}
		for p, w := range want {
			if !strings.Contains(reasons[p], w) {
				t.Errorf("%s: reason %q, want it to mention %q", p, reasons[p], w)
			}
		}
		for n, want := range map[string]string{"read.txt": "theirs", "samesize.txt": "ORIGINAL", "staged.txt": "theirs", "created.txt": "theirs", "removed.txt": "theirs", "fine.txt": "mine"} {
			if got := readHost(t, filepath.Join(dir, n)); got != want {
				t.Errorf("%s = %q, want %q", n, got, want)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "deleted.txt")); !os.IsNotExist(err) {
			t.Error("deleted.txt came back")
		}
		if temps, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*")); len(temps) != 0 {
			t.Errorf("temporary files left: %q", temps)
		}
	})
}

func TestRestageAcrossPause(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		for _, outsideChange := range []bool{false, true} {
			f, dir := rwFS(t, fb)
			writeFile(t, filepath.Join(dir, "doc.txt"), "v1")
			writeFile(t, filepath.Join(dir, "old.txt"), "old")
			// The first process: read, write, remove, then pause. The
			// journal keeps the calls' results as JSON.
			type entry struct {
				Op   string `json:"op"`
				Path string `json:"path"`
				Data []byte `json:"data,omitempty"`
				Base Base   `json:"base"`
			}
			var journal []entry
			s1 := f.NewSession()
			_, _, b, err := s1.Read("/data/doc.txt")
			if err != nil {
				t.Fatal(err)
			}
			journal = append(journal, entry{"read", "/data/doc.txt", nil, b})
			b, _ = s1.Write("/data/doc.txt", []byte("v2"))
			journal = append(journal, entry{"write", "/data/doc.txt", []byte("v2"), b})
			b, _ = s1.Write("/data/new/file.txt", []byte("n"))
			journal = append(journal, entry{"write", "/data/new/file.txt", []byte("n"), b})
			b, _ = s1.Remove("/data/old.txt")
			journal = append(journal, entry{"remove", "/data/old.txt", nil, b})
			b, _ = s1.Write("/data/scratch.txt", []byte("s"))
			journal = append(journal, entry{"write", "/data/scratch.txt", []byte("s"), b})
			b, _ = s1.Remove("/data/scratch.txt")
			journal = append(journal, entry{"remove", "/data/scratch.txt", nil, b})
			s1.Discard() // the pause
			raw, _ := json.Marshal(journal)
			if outsideChange {
				writeFile(t, filepath.Join(dir, "doc.txt"), "edited while paused")
			}
			// The resumed process rebuilds the session from the journal.
			var replay []entry
			json.Unmarshal(raw, &replay)
			s2 := f.NewSession()
			for _, e := range replay {
				var err error
				switch e.Op {
				case "read":
					err = s2.NoteRead(e.Path, e.Base)
				case "write":
					err = s2.Restage(e.Path, e.Data, e.Base)
				case "remove":
					err = s2.RestageRemove(e.Path, e.Base)
				}
				if err != nil {
					t.Fatalf("replay %s %s: %v", e.Op, e.Path, err)
				}
			}
			if data, _, _, err := s2.Read("/data/doc.txt"); err != nil || string(data) != "v2" {
				t.Fatalf("resumed read = %q, %v", data, err)
			}
			if ok, _ := s2.Exists("/data/scratch.txt"); ok {
				t.Fatal("scratch.txt exists after replay")
			}
			r := s2.Commit()
			if !outsideChange {
				if len(r.Conflicts) != 0 || !slices.Equal(r.Committed, []string{"/data/doc.txt", "/data/new/file.txt", "/data/old.txt"}) {
					t.Fatalf("commit %+v", r)
				}
				if got := readHost(t, filepath.Join(dir, "doc.txt")); got != "v2" {
					t.Fatalf("doc.txt = %q", got)
				}
			} else {
				if len(r.Conflicts) != 1 || r.Conflicts[0].Path != "/data/doc.txt" || len(r.Committed) != 2 {
					t.Fatalf("commit %+v", r)
				}
				if got := readHost(t, filepath.Join(dir, "doc.txt")); got != "edited while paused" {
					t.Fatalf("doc.txt = %q", got)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "scratch.txt")); err == nil {
				t.Fatal("scratch.txt written")
			}
		}
	})
}

// TestRestageUsesRecordedBase checks that a restaged write of a file the
// run did not read is committed against the recorded base, not against
// the file as it is when the session is rebuilt.
func TestRestageUsesRecordedBase(t *testing.T) {
	f, dir := rwFS(t, false)
	s1 := f.NewSession()
	b, err := s1.Write("/data/made.txt", []byte("mine"))
	if err != nil || b.Exists {
		t.Fatalf("%+v %v", b, err)
	}
	s1.Discard()
	writeFile(t, filepath.Join(dir, "made.txt"), "theirs") // while paused
	s2 := f.NewSession()
	if err := s2.Restage("/data/made.txt", []byte("mine"), b); err != nil {
		t.Fatal(err)
	}
	r := s2.Commit()
	if len(r.Conflicts) != 1 || !strings.Contains(r.Conflicts[0].Reason, "created") {
		t.Fatalf("commit %+v", r)
	}
	if got := readHost(t, filepath.Join(dir, "made.txt")); got != "theirs" {
		t.Fatalf("made.txt = %q", got)
	}
}

func TestReadOnlyMount(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "a.txt"), "a")
		f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/ro", Mode: ReadOnly}}, Fallback: fb})
		s := f.NewSession()
		_, err := s.Write("/ro/a.txt", []byte("x"))
		wantCode(t, err, codes.FSReadOnly)
		_, err = s.Write("/ro/new.txt", []byte("x"))
		wantCode(t, err, codes.FSReadOnly)
		_, err = s.Remove("/ro/a.txt")
		wantCode(t, err, codes.FSReadOnly)
		wantCode(t, s.Restage("/ro/a.txt", nil, Base{}), codes.FSReadOnly)
		wantCode(t, s.RestageRemove("/ro/a.txt", Base{Exists: true}), codes.FSReadOnly)
		if info, err := s.Stat("/ro/a.txt"); err != nil || !info.ReadOnly {
			t.Fatalf("Stat = %+v, %v", info, err)
		}
		if data, _, _, err := s.Read("/ro/a.txt"); err != nil || string(data) != "a" {
			t.Fatal(err)
		}
	})
}

func TestLimits(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "big.txt"), strings.Repeat("x", 1001))
		writeFile(t, filepath.Join(dir, "ok.txt"), strings.Repeat("x", 1000))
		for i := range 6 {
			writeFile(t, filepath.Join(dir, "many", string(rune('a'+i))), "")
		}
		for i := range 3 {
			writeFile(t, filepath.Join(dir, "few", string(rune('a'+i))), "")
		}
		f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/d", Mode: ReadWrite}}, MaxFileSize: 1000, MaxEntries: 5, MaxStaged: 1500, Fallback: fb})
		s := f.NewSession()
		_, _, _, err := s.Read("/d/big.txt")
		wantCode(t, err, codes.FSTooLarge)
		if _, _, _, err := s.Read("/d/ok.txt"); err != nil {
			t.Fatal(err)
		}
		_, err = s.Write("/d/new.txt", make([]byte, 1001))
		wantCode(t, err, codes.FSTooLarge)
		_, err = s.Write("/d/big.txt", []byte("small")) // cannot hash what it replaces
		wantCode(t, err, codes.FSTooLarge)
		if _, err := s.Write("/d/one.txt", make([]byte, 1000)); err != nil {
			t.Fatal(err)
		}
		_, err = s.Write("/d/two.txt", make([]byte, 600))
		wantCode(t, err, codes.FSTooLarge)
		if _, err := s.Write("/d/one.txt", make([]byte, 900)); err != nil { // replaces, fits
			t.Fatalf("rewrite: %v", err)
		}
		if _, err := s.Write("/d/two.txt", make([]byte, 600)); err != nil {
			t.Fatalf("now fits: %v", err)
		}
		_, err = s.List("/d/many")
		wantCode(t, err, codes.FSTooManyEntries)
		if l, err := s.List("/d/few"); err != nil || len(l) != 3 {
			t.Fatalf("List(few) = %v, %v", l, err)
		}
		_, err = s.Glob("/d/many/*")
		wantCode(t, err, codes.FSTooManyEntries)
		_, err = s.Glob("/d/**/nothing-matches")
		wantCode(t, err, codes.FSTooManyEntries) // walks too many
		// The number of staged files is bounded too.
		s2 := f.NewSession()
		for i := range 5 {
			if _, err := s2.Write("/d/s/"+string(rune('a'+i)), nil); err != nil {
				t.Fatal(err)
			}
		}
		_, err = s2.Write("/d/s/z", nil)
		wantCode(t, err, codes.FSTooManyEntries)
	})
}

func TestCommitDetails(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		f, dir := rwFS(t, fb)
		writeFile(t, filepath.Join(dir, "private.txt"), "p")
		os.Chmod(filepath.Join(dir, "private.txt"), 0o600)
		writeFile(t, filepath.Join(dir, "file"), "f")
		s := f.NewSession()
		s.Write("/data/private.txt", []byte("still private"))
		s.Write("/data/a/b/c/d.txt", []byte("deep"))
		s.Write("/data/empty.txt", nil)
		r := s.Commit()
		if len(r.Conflicts) != 0 || len(r.Committed) != 3 {
			t.Fatalf("%+v", r)
		}
		st, _ := os.Stat(filepath.Join(dir, "private.txt"))
		if st.Mode().Perm() != 0o600 {
			t.Errorf("mode %v not kept", st.Mode())
		}
		if st, err := os.Stat(filepath.Join(dir, "empty.txt")); err != nil || st.Size() != 0 {
			t.Errorf("empty.txt: %v", err)
		}
		if got := readHost(t, filepath.Join(dir, "a/b/c/d.txt")); got != "deep" {
			t.Errorf("d.txt = %q", got)
		}
		// A parent replaced by a file between staging and commit.
		s = f.NewSession()
		s.Write("/data/x/y.txt", []byte("y"))
		writeFile(t, filepath.Join(dir, "x"), "now a file")
		r = s.Commit()
		if len(r.Conflicts) != 1 || !strings.Contains(r.Conflicts[0].Reason, "not a directory") {
			t.Fatalf("%+v", r)
		}
	})
}

func TestConcurrentSessionUse(t *testing.T) {
	f, dir := rwFS(t, false)
	s := f.NewSession()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := "/data/f" + string(rune('a'+i))
			for j := range 50 {
				data := bytes.Repeat([]byte{byte(j)}, 10)
				if _, err := s.Write(p, data); err != nil {
					t.Error(err)
				}
				if got, _, _, err := s.Read(p); err != nil || !bytes.Equal(got, data) {
					t.Error("read back", err)
				}
				s.List("/data")
				s.Glob("/data/*")
			}
		}()
	}
	wg.Wait()
	if r := s.Commit(); len(r.Committed) != 8 {
		t.Fatalf("%+v", r)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 8 {
		t.Fatal(len(ents))
	}
}

func TestReadText(t *testing.T) {
	f, dir := rwFS(t, false)
	writeFile(t, filepath.Join(dir, "t.txt"), "héllo")
	writeFile(t, filepath.Join(dir, "b.bin"), "\xff\xfe")
	s := f.NewSession()
	if txt, _, _, err := s.ReadText("/data/t.txt"); err != nil || txt != "héllo" {
		t.Fatalf("%q %v", txt, err)
	}
	_, _, _, err := s.ReadText("/data/b.bin")
	wantCode(t, err, codes.FSNotText)
}

// TestHugeMaxFileSize reads with the largest MaxFileSize a configuration
// may give (and math.MaxInt64 from the Go API): a sparse file of 1 TiB is
// refused at once rather than reserved in the host's memory (which ended
// the process: "fatal error: runtime: out of memory"), and an ordinary
// file reads.
func TestHugeMaxFileSize(t *testing.T) {
	dir := t.TempDir()
	sparse := filepath.Join(dir, "sparse.img")
	if err := os.WriteFile(sparse, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 1<<40); err != nil {
		t.Fatalf("a sparse file of 1 TiB: %v", err)
	}
	writeFile(t, filepath.Join(dir, "ok.txt"), strings.Repeat("x", 3<<20))
	for _, max := range []int64{1<<53 - 1, math.MaxInt64} {
		resolvers(t, func(t *testing.T, fb bool) {
			s := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/d"}}, MaxFileSize: max, Fallback: fb}).NewSession()
			_, _, _, err := s.Read("/d/sparse.img")
			wantCode(t, err, codes.FSTooLarge)
			data, _, _, err := s.Read("/d/ok.txt")
			if err != nil || len(data) != 3<<20 {
				t.Fatalf("ok.txt: %d bytes, %v", len(data), err)
			}
		})
	}
}

// TestReadRegularReservesWhatItReads gives readRegular a size far above
// the file's (a file that shrank, or a sparse one under a huge limit):
// it reads the file without reserving the claimed size first.
func TestReadRegularReservesWhatItReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	writeFile(t, path, strings.Repeat("y", 100<<10))
	fd, err := unix.Open(path, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	data, ok, err := readRegular(fd, 1<<40, math.MaxInt64)
	if err != nil || !ok || len(data) != 100<<10 || cap(data) > 4<<20 {
		t.Fatalf("read %d bytes (cap %d), ok %v, %v", len(data), cap(data), ok, err)
	}
}
