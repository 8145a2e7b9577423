//go:build !linux

package prompt

import (
	"os"
	"testing"
)

// runPTY is not reached: TestPTY skips on systems other than Linux.
func runPTY(t *testing.T, typeahead, input string, want Answer) {
	t.Skip("the pty test runs on Linux only")
}

// waitTypeahead is not reached either.
func waitTypeahead(f *os.File, n int) {}
