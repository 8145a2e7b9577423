//go:build !linux

package engine

// cowImage is a copy-on-write snapshot image; only Linux has one (memfd).
type cowImage struct{}

func newCowImage([]byte) (*cowImage, error) { return nil, errNotResettable }

func (*cowImage) mapOver([]byte) error { return errNotResettable }

func (*cowImage) close() {}

func (*cowImage) view() []byte { return nil }

func writtenPages([]byte, func(int)) error { return errNotResettable }
