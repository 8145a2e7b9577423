//go:build !unix

package seal

import (
	"fmt"
	"io/fs"
	"runtime"
)

// checkPrivate refuses a key file that others may read or write. Windows
// file modes do not reflect access control, so nothing is checked there.
func checkPrivate(path string, fi fs.FileInfo) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("seal: key file %s has mode %04o, so other users may read or change it; "+
			"make it private with: chmod 600 %s", path, perm, path)
	}
	return nil
}
