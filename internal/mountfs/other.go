//go:build !linux

package mountfs

import "github.com/modebox/modebox/internal/codes"

// This file lets the package build on systems other than Linux, where
// [New] always fails: the symlink-proof resolver needs Linux's openat2
// or O_PATH.

// FS is a set of opened mounts; on this system [New] never returns one.
type FS struct{}

// Session stages the writes of one run; unusable on this system.
type Session struct{}

func unsupported(op, p string) error {
	return newErr(codes.FSConfig, op, p, "mounts are only supported on Linux", nil)
}

// New fails: mounts are only supported on Linux.
func New(cfg Config) (*FS, error) { return nil, unsupported("new", "") }

// Close does nothing.
func (f *FS) Close() error { return nil }

// Resolver returns "none".
func (f *FS) Resolver() string { return "none" }

// IsSource returns false.
func (f *FS) IsSource(guestPath string) bool { return false }

// NewSession returns an unusable session.
func (f *FS) NewSession() *Session { return &Session{} }

// Read fails.
func (s *Session) Read(path string) ([]byte, Info, Base, error) {
	return nil, Info{}, Base{}, unsupported("read", path)
}

// ReadText fails.
func (s *Session) ReadText(path string) (string, Info, Base, error) {
	return "", Info{}, Base{}, unsupported("read", path)
}

// NoteRead fails.
func (s *Session) NoteRead(path string, base Base) error { return unsupported("noteread", path) }

// Write fails.
func (s *Session) Write(path string, data []byte) (Base, error) {
	return Base{}, unsupported("write", path)
}

// Restage fails.
func (s *Session) Restage(path string, data []byte, base Base) error {
	return unsupported("restage", path)
}

// Remove fails.
func (s *Session) Remove(path string) (Base, error) { return Base{}, unsupported("remove", path) }

// RestageRemove fails.
func (s *Session) RestageRemove(path string, base Base) error { return unsupported("restage", path) }

// Stat fails.
func (s *Session) Stat(path string) (Info, error) { return Info{}, unsupported("stat", path) }

// Exists fails.
func (s *Session) Exists(path string) (bool, error) { return false, unsupported("exists", path) }

// List fails.
func (s *Session) List(path string) ([]Info, error) { return nil, unsupported("list", path) }

// Glob fails.
func (s *Session) Glob(pattern string) ([]string, error) { return nil, unsupported("glob", pattern) }

// Commit commits nothing.
func (s *Session) Commit() Report { return Report{Committed: []string{}, Conflicts: []Conflict{}} }

// Discard does nothing.
func (s *Session) Discard() {}
