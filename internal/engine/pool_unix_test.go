//go:build unix

package engine

import "testing"

func setPool(b *testing.B, on bool) {
	old := poolMemory
	poolMemory = on
	b.Cleanup(func() { poolMemory = old })
}
