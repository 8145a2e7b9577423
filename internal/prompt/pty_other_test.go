//go:build !linux

package prompt

import "testing"

// runPTY is not reached: TestPTY skips on systems other than Linux.
func runPTY(t *testing.T, typeahead, input string, want Answer) {
	t.Skip("the pty test runs on Linux only")
}
