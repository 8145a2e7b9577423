//go:build linux

package engine

import (
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// cowImage is the post-init memory in a sealed memfd. A run's memory maps
// it MAP_PRIVATE over its first bytes: the pages are shared between every
// run until one writes a page, which then gets its own copy.
type cowImage struct {
	fd   int
	size int

	viewOnce sync.Once
	viewBuf  []byte // the image mapped read-only and shared (view)
}

// view returns the image, mapped read-only (its pages are the page cache's
// that every copy-on-write mapping shares), or nil.
func (c *cowImage) view() []byte {
	if c == nil {
		return nil
	}
	c.viewOnce.Do(func() {
		if c.fd < 0 {
			return
		}
		b, err := unix.Mmap(c.fd, 0, c.size, unix.PROT_READ, unix.MAP_SHARED)
		if err == nil {
			c.viewBuf = b
		}
	})
	return c.viewBuf
}

// pagemap is /proc/self/pagemap, opened once; nil where it cannot be.
var pagemap = sync.OnceValue(func() *os.File {
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return nil
	}
	return f
})

// Bits of a /proc/self/pagemap entry (Documentation/admin-guide/mm/pagemap.rst).
const (
	pmPresent = 1 << 63
	pmSwapped = 1 << 62
	pmFile    = 1 << 61 // a file page (the image's, not yet copied) or shared anonymous
)

// writtenPages calls f with the offset of every 4 KiB page of buf, a
// memory that maps the image copy-on-write, that is no longer the
// image's: the run wrote it (or it lies past the image and was touched).
// Pages the kernel still maps from the image, or never mapped, are
// skipped.
func writtenPages(buf []byte, f func(off int)) error {
	pm := pagemap()
	if pm == nil {
		return errNotResettable
	}
	base := uintptr(unsafe.Pointer(&buf[0]))
	if base%osPage != 0 {
		return errNotResettable
	}
	n := (len(buf) + osPage - 1) / osPage
	entries := make([]byte, 8*n)
	if _, err := pm.ReadAt(entries, int64(base/osPage)*8); err != nil {
		return fmt.Errorf("engine: pagemap: %w", err)
	}
	for i := range n {
		e := binary.NativeEndian.Uint64(entries[8*i:])
		if e&(pmPresent|pmSwapped) != 0 && e&pmFile == 0 {
			f(i * osPage)
		}
	}
	return nil
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

// close closes the memfd and unmaps the view; mappings made from it stay
// valid.
func (c *cowImage) close() {
	if c != nil && c.fd >= 0 {
		c.view() // none made after this
		if c.viewBuf != nil {
			_ = unix.Munmap(c.viewBuf)
			c.viewBuf = nil
		}
		unix.Close(c.fd)
		c.fd = -1
	}
}
