//go:build linux && !amd64

package mountfs

// seccompHelper is only implemented on amd64 (its filter matches amd64
// system call numbers).
func seccompHelper() int { return 2 }
