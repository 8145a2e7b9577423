//go:build unix

package seal

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkPrivate refuses a key file that others may read or write, or that
// belongs to another user.
func checkPrivate(path string, fi fs.FileInfo) error {
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("seal: key file %s has mode %04o, so other users may read or change it; "+
			"make it private with: chmod 600 %s", path, perm, path)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("seal: key file %s belongs to uid %d, not to you (uid %d); "+
			"use your own key file or set $%s", path, st.Uid, os.Geteuid(), EnvSecret)
	}
	return nil
}
