//go:build !linux

package prompt

// flushInput would discard unread terminal input; on this system it does
// nothing, and typeahead is answered by the stale-line check alone.
func flushInput(fd uintptr) {}
