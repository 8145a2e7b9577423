//go:build linux && amd64

package mountfs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/modebox/modebox/internal/codes"
)

// blockOpenat2 installs a seccomp filter on every thread of the process
// that makes openat2 fail with errno, as container runtimes with old
// profiles do.
func blockOpenat2(errno unix.Errno) error {
	prog := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // syscall number
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 0, Jf: 1, K: unix.SYS_OPENAT2},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(errno)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return e
	}
	return nil
}

// seccompHelper runs in a helper process: block openat2, open the FS,
// try a read, a symlink escape and a commit, and print what happened.
func seccompHelper() int {
	errno := unix.ENOSYS
	if os.Getenv("MOUNTFS_ERRNO") == "EPERM" {
		errno = unix.EPERM
	}
	if err := blockOpenat2(errno); err != nil {
		fmt.Fprintln(os.Stderr, "seccomp:", err)
		return 2
	}
	out := map[string]string{}
	f, err := New(Config{Mounts: []Mount{{Host: os.Getenv("MOUNTFS_DIR"), Guest: "/data", Mode: ReadWrite}}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	out["resolver"] = f.Resolver()
	s := f.NewSession()
	data, _, _, err := s.Read("/data/in.txt")
	out["read"] = string(data) + string(CodeOf(err))
	_, _, _, err = s.Read("/data/out/secret.txt")
	out["escape"] = string(CodeOf(err))
	s.Write("/data/new/w.txt", []byte("w"))
	out["commit"] = fmt.Sprint(len(s.Commit().Committed))
	json.NewEncoder(os.Stdout).Encode(out)
	return 0
}

// TestSeccompBlocksOpenat2 checks that New detects an openat2 refused by
// seccomp (ENOSYS or EPERM) and falls back, and that the fallback still
// refuses symlinks.
func TestSeccompBlocksOpenat2(t *testing.T) {
	for _, errno := range []string{"ENOSYS", "EPERM"} {
		t.Run(errno, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			writeFile(t, filepath.Join(dir, "in.txt"), "inside")
			writeFile(t, filepath.Join(outside, "secret.txt"), "SECRET")
			os.Symlink(outside, filepath.Join(dir, "out"))
			cmd, stdout := helper(t, "seccomp", "MOUNTFS_DIR="+dir, "MOUNTFS_ERRNO="+errno)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("helper: %v", err)
			}
			var got map[string]string
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatalf("%q: %v", stdout, err)
			}
			want := map[string]string{"resolver": "fallback", "read": "inside", "escape": string(codes.FSSymlink), "commit": "1"}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			if readHost(t, filepath.Join(dir, "new", "w.txt")) != "w" {
				t.Error("commit did not write")
			}
		})
	}
}
