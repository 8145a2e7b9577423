//go:build unix

package credpaths

import (
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// ownerHome is the passwd home of dir's owner, or "".
func ownerHome(dir string) string {
	fi, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	u, err := user.LookupId(strconv.FormatUint(uint64(st.Uid), 10))
	if err != nil {
		return ""
	}
	return u.HomeDir
}
