//go:build linux

package mountfs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// runHelper is the body of a helper process. The environment says what
// to do: MOUNTFS_DIR is the host directory (mounted rw at /data),
// MOUNTFS_FILE the guest path, MOUNTFS_CONTENT the byte to write
// MOUNTFS_SIZE times, MOUNTFS_FALLBACK "1" to force the fallback.
func runHelper(mode string) int {
	switch mode {
	case "seccomp":
		return seccompHelper()
	case "pseudo-under":
		return pseudoUnderHelper()
	}
	f, err := New(Config{
		Mounts:   []Mount{{Host: os.Getenv("MOUNTFS_DIR"), Guest: "/data", Mode: ReadWrite}},
		Fallback: os.Getenv("MOUNTFS_FALLBACK") == "1",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer f.Close()
	var size int
	fmt.Sscan(os.Getenv("MOUNTFS_SIZE"), &size)
	data := bytes.Repeat([]byte(os.Getenv("MOUNTFS_CONTENT")), size)
	file := os.Getenv("MOUNTFS_FILE")
	s := f.NewSession()
	switch mode {
	case "commit":
		// Read the file, stage a write, say so, wait for the go signal,
		// commit and print the report.
		if _, _, _, err := s.Read(file); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		if _, err := s.Write(file, data); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		// Widen the window between the last check and the rename, so
		// that without the directory lock both commits would pass their
		// checks and both rename.
		testHookBeforeRename = func(string) { time.Sleep(200 * time.Millisecond) }
		os.WriteFile(os.Getenv("MOUNTFS_READY"), nil, 0o644)
		for {
			if _, err := os.Stat(os.Getenv("MOUNTFS_GO")); err == nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
		json.NewEncoder(os.Stdout).Encode(s.Commit())
		return 0
	case "crash":
		// Stage a write and die between the temporary file's fsync and
		// the rename.
		if _, err := s.Write(file, data); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		testHookBeforeRename = func(string) {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Minute)
		}
		s.Commit()
		fmt.Fprintln(os.Stderr, "survived the hook")
		return 3
	}
	fmt.Fprintln(os.Stderr, "unknown helper", mode)
	return 2
}

// helper starts the test binary as a helper process.
func helper(t *testing.T, mode string, env ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{"MOUNTFS_HELPER=" + mode}, env...)...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

func fbEnv(fb bool) string {
	if fb {
		return "MOUNTFS_FALLBACK=1"
	}
	return "MOUNTFS_FALLBACK=0"
}

func TestTwoProcessesCommitSameFile(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		for round := range 3 {
			dir := t.TempDir()
			sync := t.TempDir()
			writeFile(t, filepath.Join(dir, "shared.txt"), "base")
			const size = 1 << 20
			var cmds []*exec.Cmd
			var outs []*bytes.Buffer
			for i, c := range []string{"A", "B"} {
				cmd, out := helper(t, "commit",
					"MOUNTFS_DIR="+dir, "MOUNTFS_FILE=/data/shared.txt", "MOUNTFS_CONTENT="+c,
					fmt.Sprintf("MOUNTFS_SIZE=%d", size), fbEnv(fb),
					fmt.Sprintf("MOUNTFS_READY=%s/ready%d", sync, i), "MOUNTFS_GO="+sync+"/go")
				cmds = append(cmds, cmd)
				outs = append(outs, out)
			}
			deadline := time.Now().Add(30 * time.Second)
			for _, r := range []string{"ready0", "ready1"} {
				for {
					if _, err := os.Stat(filepath.Join(sync, r)); err == nil {
						break
					}
					if time.Now().After(deadline) {
						t.Fatal("helpers never got ready")
					}
					time.Sleep(time.Millisecond)
				}
			}
			writeFile(t, filepath.Join(sync, "go"), "")
			won, lost := 0, 0
			for i, cmd := range cmds {
				if err := cmd.Wait(); err != nil {
					t.Fatalf("helper %d: %v", i, err)
				}
				var rep Report
				if err := json.Unmarshal(outs[i].Bytes(), &rep); err != nil {
					t.Fatalf("helper %d output %q: %v", i, outs[i], err)
				}
				won += len(rep.Committed)
				lost += len(rep.Conflicts)
				if len(rep.Conflicts) == 1 {
					t.Logf("round %d: helper %d conflict: %s", round, i, rep.Conflicts[0].Reason)
					if !strings.Contains(rep.Conflicts[0].Reason, "changed by someone else") {
						t.Errorf("conflict for the wrong reason: %s", rep.Conflicts[0].Reason)
					}
				}
			}
			if won != 1 || lost != 1 {
				t.Fatalf("committed %d, conflicts %d; want exactly one each", won, lost)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "shared.txt"))
			if len(got) != size || (!bytes.Equal(got, bytes.Repeat([]byte("A"), size)) && !bytes.Equal(got, bytes.Repeat([]byte("B"), size))) {
				t.Fatalf("final content is not one write whole (len %d)", len(got))
			}
			if names, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*")); len(names) != 0 {
				t.Fatalf("temporary files left: %q", names)
			}
		}
	})
}

func TestCrashBeforeRename(t *testing.T) {
	resolvers(t, func(t *testing.T, fb bool) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "t.txt"), "old")
		cmd, _ := helper(t, "crash", "MOUNTFS_DIR="+dir, "MOUNTFS_FILE=/data/t.txt",
			"MOUNTFS_CONTENT=new", "MOUNTFS_SIZE=1000", fbEnv(fb))
		err := cmd.Wait()
		ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if err == nil || !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("helper did not die by SIGKILL: %v", err)
		}
		if got := readHost(t, filepath.Join(dir, "t.txt")); got != "old" {
			t.Fatalf("target is %q after the crash, want old", got)
		}
		temps, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*"))
		if len(temps) != 1 {
			t.Fatalf("want one leftover temporary file, got %q", temps)
		}
		if got := readHost(t, temps[0]); got != strings.Repeat("new", 1000) {
			t.Fatalf("leftover temp file holds %d bytes, want the whole fsynced write", len(got))
		}
		f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/data", Mode: ReadWrite}}, Fallback: fb})
		s := f.NewSession()
		list, err := s.List("/data")
		if err != nil || len(list) != 1 || list[0].Name != "t.txt" {
			t.Fatalf("List = %+v, %v", list, err)
		}
		if g, err := s.Glob("/data/*"); err != nil || len(g) != 1 {
			t.Fatalf("Glob = %q, %v", g, err)
		}
		tempGuest := "/data/" + filepath.Base(temps[0])
		_, _, _, err = s.Read(tempGuest)
		wantCode(t, err, codes.FSNotFound)
		_, err = s.Write(tempGuest, []byte("x"))
		wantCode(t, err, codes.FSDenied)
		// The next commit into the directory removes the leftover.
		if _, err := s.Write("/data/other.txt", []byte("x")); err != nil {
			t.Fatal(err)
		}
		if r := s.Commit(); len(r.Committed) != 1 {
			t.Fatalf("commit: %+v", r)
		}
		if temps, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*")); len(temps) != 0 {
			t.Fatalf("leftover not cleaned: %q", temps)
		}
	})
}
