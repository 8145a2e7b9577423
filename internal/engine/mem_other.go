//go:build !unix

package engine

import "github.com/tetratelabs/wazero/experimental"

func newMemoryAllocator(limit uint64) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		return &sliceMemory{limit: min(limit, max)}
	})
}

func newCowAllocator(limit uint64, _ *cowImage, _ *bool) experimental.MemoryAllocator {
	return newMemoryAllocator(limit)
}
