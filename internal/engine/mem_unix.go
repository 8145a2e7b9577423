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
//
// A mapping goes back to a small pool instead of being unmapped: it is
// zeroed first (every byte the run could reach: cleared up to poolMaxUsed,
// given back to the kernel past it), so the next run gets memory
// indistinguishable from a fresh mapping, but without the page faults of
// mapping it again.
type mmapMemory struct {
	buf  []byte
	cow  bool   // the snapshot image is mapped over its start: never pooled
	used uint64 // the largest size handed out: the guest reached no further
}

const (
	// poolSize is how many zeroed mappings are kept for reuse.
	poolSize = 8
	// poolMaxUsed is the most of a mapping that is cleared for reuse
	// (clearing more costs more than faulting pages in afresh); what a run
	// used past it is given back to the kernel (Free).
	poolMaxUsed = 4 << 20
)

var memPool = make(chan *mmapMemory, poolSize)

// poolMemory turns the pool on; BenchmarkRunStartNoPool turns it off to
// measure what it saves.
var poolMemory = true

func newMemoryAllocator(limit uint64) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		size := min(limit, max)
		for range poolSize {
			select {
			case m := <-memPool:
				if uint64(len(m.buf)) == size {
					return m
				}
				m.unmap()
				continue
			default:
			}
			break
		}
		buf, err := syscall.Mmap(-1, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE,
			syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
		if err != nil {
			return &sliceMemory{limit: size}
		}
		return &mmapMemory{buf: buf}
	})
}

// newCowAllocator is newMemoryAllocator for a memory whose first bytes map
// img copy-on-write; *mapped tells whether that worked (if not, the memory
// is a plain one, to be restored by copying).
func newCowAllocator(limit uint64, img *cowImage, mapped *bool) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		size := min(limit, max)
		buf, err := syscall.Mmap(-1, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE,
			syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
		if err != nil {
			return &sliceMemory{limit: size}
		}
		m := &mmapMemory{buf: buf}
		if img.mapOver(buf) == nil {
			m.cow, *mapped = true, true
		}
		return m
	})
}

func (m *mmapMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	m.used = max(m.used, size)
	return m.buf[:size]
}

func (m *mmapMemory) Free() {
	if m.buf == nil {
		return
	}
	if poolMemory && !m.cow {
		// Past poolMaxUsed the pages are given back (they read as zero
		// again); below it they are cleared and stay, so that the next
		// run's restore does not fault them in (a fault costs ~12 µs in
		// some VMs: a restore into a new mapping took ~2.7 ms there, ~0.7
		// into a pooled one).
		keep := min(m.used, poolMaxUsed)
		if m.used > keep && syscall.Madvise(m.buf[keep:m.used], syscall.MADV_DONTNEED) != nil {
			m.unmap()
			return
		}
		clear(m.buf[:keep])
		m.used = 0
		select {
		case memPool <- m:
			return
		default:
		}
	}
	m.unmap()
}

func (m *mmapMemory) unmap() {
	if m.buf != nil {
		_ = syscall.Munmap(m.buf)
		m.buf = nil
	}
}
