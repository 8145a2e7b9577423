//go:build linux

package prompt

import "golang.org/x/sys/unix"

// flushInput discards input the terminal fd has received but nobody has
// read yet (tcflush with TCIFLUSH). Errors are ignored: it is a precaution.
func flushInput(fd uintptr) {
	_ = unix.IoctlSetInt(int(fd), unix.TCFLSH, unix.TCIFLUSH)
}
