//go:build linux

package engine

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// cowImage is the post-init memory in a sealed memfd. A run's memory maps
// it MAP_PRIVATE over its first bytes: the pages are shared between every
// run until one writes a page, which then gets its own copy.
type cowImage struct {
	fd   int
	size int
}

func newCowImage(b []byte) (*cowImage, error) {
	fd, err := unix.MemfdCreate("modebox-snapshot", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, fmt.Errorf("engine: memfd: %w", err)
	}
	for w := b; len(w) > 0; {
		n, err := unix.Write(fd, w)
		if err != nil {
			unix.Close(fd)
			return nil, fmt.Errorf("engine: memfd: %w", err)
		}
		w = w[n:]
	}
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS,
		unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE|unix.F_SEAL_SEAL); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("engine: memfd seals: %w", err)
	}
	return &cowImage{fd: fd, size: len(b)}, nil
}

// mapOver maps the image over buf's first bytes, dropping whatever pages
// the range had (a private copy of a page is discarded, not written back).
func (c *cowImage) mapOver(buf []byte) error {
	if c == nil || len(buf) < c.size {
		return errNotResettable
	}
	_, err := unix.MmapPtr(c.fd, 0, unsafe.Pointer(&buf[0]), uintptr(c.size),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_FIXED)
	return err
}

// close closes the memfd; mappings made from it stay valid.
func (c *cowImage) close() {
	if c != nil && c.fd >= 0 {
		unix.Close(c.fd)
		c.fd = -1
	}
}
