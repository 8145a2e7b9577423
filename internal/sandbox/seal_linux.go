//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// SealCommand is the first argument that makes MaybeBridge seal a command:
// add the AF_UNIX filter to this process and exec the command. The network
// bridge starts the command through it, so the command cannot open Unix
// sockets although the bridge can.
const SealCommand = "__modebox-seal"

// sealAndExec loads the AF_UNIX filter on every thread of this process and
// execs argv; it returns only on failure.
func sealAndExec(argv []string) int {
	if len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "modebox seal: usage: __modebox-seal COMMAND [ARG...]")
		return 2
	}
	prog, err := unixFilter()
	if err != nil {
		fmt.Fprintf(os.Stderr, "modebox seal: %v\n", err)
		return 126
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "modebox seal: %v\n", err)
		return 127
	}
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fmt.Fprintf(os.Stderr, "modebox seal: no_new_privs: %v\n", err)
		return 126
	}
	filters := make([]unix.SockFilter, len(prog)/8)
	for i := range filters {
		b := prog[8*i:]
		filters[i] = unix.SockFilter{
			Code: uint16(b[0]) | uint16(b[1])<<8,
			Jt:   b[2], Jf: b[3],
			K: uint32(b[4]) | uint32(b[5])<<8 | uint32(b[6])<<16 | uint32(b[7])<<24,
		}
	}
	fprog := unix.SockFprog{Len: uint16(len(filters)), Filter: &filters[0]}
	// TSYNC: the Go runtime has several threads; the filter goes on all.
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		fmt.Fprintf(os.Stderr, "modebox seal: seccomp: %v\n", errno)
		return 126
	}
	err = syscall.Exec(path, argv, os.Environ())
	fmt.Fprintf(os.Stderr, "modebox seal: exec %s: %v\n", argv[0], err)
	return 127
}

// setNotDumpable clears this process's dumpable flag (see BridgeMain).
func setNotDumpable() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("PR_SET_DUMPABLE: %w", err)
	}
	return nil
}
