//go:build unix && !linux

package sandbox

import (
	"os"
	"os/exec"
	"syscall"
)

// SealCommand is the first argument that makes MaybeBridge exec a command
// (on Linux it first adds the AF_UNIX filter; elsewhere it only execs).
const SealCommand = "__modebox-seal"

func sealAndExec(argv []string) int {
	if len(argv) == 0 {
		return 2
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return 127
	}
	_ = syscall.Exec(path, argv, os.Environ())
	return 127
}

// setNotDumpable has no equivalent here.
func setNotDumpable() error { return nil }
