//go:build !unix

package engine

import "github.com/tetratelabs/wazero/experimental"

func newMemoryAllocator(limit uint64) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		return &sliceMemory{limit: min(limit, max)}
	})
}
