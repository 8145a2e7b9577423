package seal

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

const testID = "0123456789abcdef0123456789abcdef"

func TestDirStoreClaim(t *testing.T) {
	s := &DirStore{Dir: filepath.Join(t.TempDir(), "state", "used-tokens")}
	exp := t0.Add(time.Hour)
	if err := s.Claim(testID, exp); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.Claim(testID, exp), codes.TokenUsed)
	wantCode(t, (&DirStore{Dir: s.Dir}).Claim(testID, exp.Add(time.Hour)), codes.TokenUsed)
	data, err := os.ReadFile(filepath.Join(s.Dir, testID))
	if err != nil || string(data) != fmt.Sprint(exp.Unix())+"\n" {
		t.Errorf("claim file %q, %v", data, err)
	}
	if runtime.GOOS != "windows" {
		fi, _ := os.Stat(filepath.Join(s.Dir, testID))
		di, _ := os.Stat(s.Dir)
		if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
			t.Errorf("modes: file %v, dir %v", fi.Mode(), di.Mode())
		}
	}
	for _, id := range []string{"", "../" + testID[3:], "/etc/passwd", strings.ToUpper(testID),
		testID + "0", testID[:31], testID[:31] + "g", testID[:30] + "/."} {
		if err := s.Claim(id, exp); err == nil || CodeOf(err) != "" {
			t.Errorf("id %q: %v", id, err)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(s.Dir)); len(entries) != 1 {
		t.Errorf("files outside the store: %v", entries)
	}
}

func TestDirStoreGC(t *testing.T) {
	s := &DirStore{Dir: t.TempDir()}
	if n, err := (&DirStore{Dir: filepath.Join(s.Dir, "missing")}).GC(t0); n != 0 || err != nil {
		t.Fatalf("missing dir: %d, %v", n, err)
	}
	ids := []string{strings.Repeat("1", 32), strings.Repeat("2", 32), strings.Repeat("3", 32)}
	s.Claim(ids[0], t0.Add(-time.Hour))
	s.Claim(ids[1], t0.Add(time.Hour))
	s.Claim(ids[2], t0.Add(-ClockSkew/2)) // expired, but within the skew
	// An interrupted claim (empty file): removed only once it is old.
	crashedOld, crashedNew := strings.Repeat("4", 32), strings.Repeat("5", 32)
	for _, id := range []string{crashedOld, crashedNew} {
		os.WriteFile(filepath.Join(s.Dir, id), nil, 0o600)
	}
	old := t0.Add(-MaxLifetime - 2*ClockSkew)
	os.Chtimes(filepath.Join(s.Dir, crashedOld), old, old)
	os.Chtimes(filepath.Join(s.Dir, crashedNew), t0, t0)
	os.WriteFile(filepath.Join(s.Dir, "README"), []byte("0\n"), 0o600)

	n, err := s.GC(t0)
	if err != nil || n != 2 {
		t.Fatalf("GC removed %d, %v", n, err)
	}
	for id, kept := range map[string]bool{ids[0]: false, ids[1]: true, ids[2]: true, crashedOld: false, crashedNew: true, "README": true} {
		if _, err := os.Stat(filepath.Join(s.Dir, id)); (err == nil) != kept {
			t.Errorf("%s: kept=%v, want %v", id, err == nil, kept)
		}
	}
	if err := s.Claim(ids[0], t0.Add(time.Hour)); err != nil {
		t.Errorf("claim after GC: %v", err)
	}
}

func TestDefaultStore(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	s, err := DefaultStore()
	if err != nil || s.Dir != filepath.Join(dir, "modebox", "used-tokens") {
		t.Fatalf("%v, %v", s, err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", "relative/ignored")
	if runtime.GOOS == "linux" {
		s, err = DefaultStore()
		if err != nil || s.Dir != filepath.Join(home, ".local", "state", "modebox", "used-tokens") {
			t.Fatalf("%v, %v", s, err)
		}
	}
}

func TestMemoryStoreRace(t *testing.T) {
	var s MemoryStore
	var won, lost atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 64 {
		wg.Go(func() {
			<-start
			switch err := s.Claim(testID, t0); CodeOf(err) {
			case "":
				won.Add(1)
			case codes.TokenUsed:
				lost.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	close(start)
	wg.Wait()
	if won.Load() != 1 || lost.Load() != 63 {
		t.Fatalf("won %d, lost %d", won.Load(), lost.Load())
	}
	if n := s.GC(t0); n != 0 {
		t.Errorf("GC at expiry removed %d", n)
	}
	if n := s.GC(t0.Add(time.Hour)); n != 1 {
		t.Errorf("GC after expiry removed %d", n)
	}
	if err := s.Claim(testID, t0); err != nil {
		t.Error(err)
	}
}

func TestOpenOnce(t *testing.T) {
	kr := newKeyring(t)
	tok := sealBody(t, kr, []byte("{}"))
	stores := map[string]Store{"memory": &MemoryStore{}, "dir": &DirStore{Dir: t.TempDir()}}
	for name, s := range stores {
		// A token that does not open is not claimed.
		if _, err := kr.OpenOnce(tok, Binding{Engine: "x", Tools: "y"}, now1, s); CodeOf(err) != codes.TokenBinding {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := kr.OpenOnce(tok, testBinding, now1, s); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, err := kr.OpenOnce(tok, testBinding, now1, s)
		wantCode(t, err, codes.TokenUsed)
	}
}

// Environment of TestHelperClaim, the child process of
// TestClaimAcrossProcesses.
const (
	envClaimDir  = "SEAL_TEST_CLAIM_DIR"
	envClaimSync = "SEAL_TEST_CLAIM_SYNC"
)

// TestClaimAcrossProcesses races processes to claim one id: exactly one
// must win.
func TestClaimAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	const n = 8
	dir, gate := filepath.Join(t.TempDir(), "used"), t.TempDir()
	cmds := make([]*exec.Cmd, n)
	outs := make([]strings.Builder, n)
	for i := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperClaim$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), envClaimDir+"="+dir, envClaimSync+"="+gate, fmt.Sprintf("SEAL_TEST_CLAIM_N=%d", i))
		cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = cmd
	}
	// Wait until every child is ready, then let them all go at once.
	deadline := time.Now().Add(60 * time.Second)
	for {
		ready, _ := filepath.Glob(filepath.Join(gate, "ready-*"))
		if len(ready) == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d children ready", len(ready), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := os.WriteFile(filepath.Join(gate, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	won, used := 0, 0
	for i, cmd := range cmds {
		err := cmd.Wait()
		out := outs[i].String()
		switch {
		case err != nil:
			t.Errorf("child %d: %v\n%s", i, err, out)
		case strings.Contains(out, "CLAIM: won"):
			won++
		case strings.Contains(out, "CLAIM: "+string(codes.TokenUsed)):
			used++
		default:
			t.Errorf("child %d said:\n%s", i, out)
		}
	}
	if won != 1 || used != n-1 {
		t.Fatalf("%d processes won and %d were refused; want 1 and %d", won, used, n-1)
	}
}

// TestHelperClaim is the child process of TestClaimAcrossProcesses; run
// on its own it does nothing.
func TestHelperClaim(t *testing.T) {
	dir, gate := os.Getenv(envClaimDir), os.Getenv(envClaimSync)
	if dir == "" || gate == "" {
		t.Skip("child process of TestClaimAcrossProcesses")
	}
	me := os.Getenv("SEAL_TEST_CLAIM_N")
	if err := os.WriteFile(filepath.Join(gate, "ready-"+me), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(gate, "go")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("never told to go")
		}
		time.Sleep(100 * time.Microsecond)
	}
	err := (&DirStore{Dir: dir}).Claim(testID, time.Now().Add(time.Hour))
	switch CodeOf(err) {
	case "":
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("CLAIM: won")
	case codes.TokenUsed:
		fmt.Println("CLAIM: " + codes.TokenUsed)
	default:
		t.Fatal(err)
	}
}
