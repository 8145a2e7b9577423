//go:build unix

package engine

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// mmapMemory backs a run's linear memory with one private anonymous
// mapping of the run's hard cap. Growing never copies, untouched pages cost
// nothing, the Go heap never holds guest memory, and a grow past the cap
// fails inside the guest (malloc returns NULL, QuickJS throws "out of
// memory").
type mmapMemory struct {
	buf []byte
}

func newMemoryAllocator(limit uint64) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		size := min(limit, max)
		buf, err := syscall.Mmap(-1, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE,
			syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
		if err != nil {
			return &sliceMemory{limit: size}
		}
		return &mmapMemory{buf: buf}
	})
}

func (m *mmapMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size]
}

func (m *mmapMemory) Free() {
	if m.buf != nil {
		_ = syscall.Munmap(m.buf)
		m.buf = nil
	}
}
