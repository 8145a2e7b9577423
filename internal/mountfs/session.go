//go:build linux

package mountfs

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/modebox/modebox/internal/codes"
)

// change is a staged write or removal.
type change struct {
	m      *mount
	rel    []string
	remove bool
	data   []byte
	base   Base
	at     time.Time
}

// Session stages the writes and removals of one run. Its reads see its
// own staged changes. [Session.Commit] applies them at the end of a
// successful run; [Session.Discard] drops them. After either, every
// other method fails with [codes.FSClosed] (a second Commit returns an empty
// report). A Session is safe for concurrent use.
type Session struct {
	fs          *FS
	mu          sync.Mutex
	done        bool
	reads       map[string]Base    // first-read base, by clean guest path
	staged      map[string]*change // by clean guest path
	stagedBytes int64
	// newDirs are the directories the staged writes need that did not
	// exist when the writes were staged: the most the commit may create.
	newDirs map[string]bool
}

// NewSession starts a session: one per run.
func (f *FS) NewSession() *Session {
	return &Session{fs: f, reads: map[string]Base{}, staged: map[string]*change{}, newDirs: map[string]bool{}}
}

// target is a parsed guest path.
type target struct {
	path    string   // clean guest path
	comps   []string // its components
	m       *mount   // nil for a virtual directory
	rel     []string // components beneath m's root
	virtual bool     // a proper ancestor of mounts
	hidden  bool     // a component beneath the root matches a deny pattern
}

// begin locks the session and the FS for one operation.
func (s *Session) begin(op, p string) (func(), error) {
	s.mu.Lock()
	if s.done {
		s.mu.Unlock()
		return nil, newErr(codes.FSClosed, op, p, "the session is finished (committed or discarded)", nil)
	}
	s.fs.mu.RLock()
	if s.fs.closed {
		s.fs.mu.RUnlock()
		s.mu.Unlock()
		return nil, newErr(codes.FSClosed, op, p, "the file system is closed", nil)
	}
	return func() { s.fs.mu.RUnlock(); s.mu.Unlock() }, nil
}

// enter begins op on path (see begin) and parses path; with write it also
// checks that the target may be written. When err is nil the caller must
// call end; otherwise the session is already unlocked.
func (s *Session) enter(op, path string, write bool) (t *target, end func(), err error) {
	end, err = s.begin(op, path)
	if err != nil {
		return nil, nil, err
	}
	if t, err = s.fs.parse(op, path); err == nil && write {
		err = s.writable(op, t)
	}
	if err != nil {
		end()
		return nil, nil, err
	}
	return t, end, nil
}

// parse checks a guest path and finds its mount.
func (f *FS) parse(op, p string) (*target, error) {
	comps, perr := splitGuest(p)
	if perr != "" {
		return nil, newErr(codes.FSInvalidPath, op, p, perr, nil)
	}
	t := &target{path: "/" + strings.Join(comps, "/"), comps: comps}
	t.m, t.rel = f.mountFor(comps)
	if t.m == nil {
		if f.virtualDir(comps) {
			t.virtual = true
			return t, nil
		}
		return nil, newErr(codes.FSNotFound, op, t.path, "not inside any mount (mounts: "+f.mountList()+")", nil)
	}
	t.hidden = t.m.hide.hiddenAny(t.rel)
	return t, nil
}

// child returns the target of name in directory t.
func (t *target) child(name string) *target {
	c := &target{m: t.m, hidden: t.hidden}
	c.comps = append(slices.Clip(t.comps), name)
	c.path = "/" + strings.Join(c.comps, "/")
	if t.m != nil {
		c.rel = c.comps[len(t.m.comps):]
	}
	return c
}

// mapErr turns a resolver error into an *Error. notDir is the code for
// ENOTDIR: [codes.FSNotFound] where the guest asked about a file.
func mapErr(op, p string, err error, notDir codes.Code) error {
	var pe *pseudoError
	switch {
	case errors.As(err, &pe):
		return newErr(codes.FSDenied, op, p, "the path is on or passes through "+pe.fs+", the kernel's view of processes and devices, which fs never exposes", nil)
	case errors.Is(err, errSymlink):
		return newErr(codes.FSSymlink, op, p, "the path is or passes through a symbolic link; symlinks are not followed", nil)
	case errors.Is(err, unix.ENOENT):
		return notFound(op, p)
	case errors.Is(err, unix.ENOTDIR):
		if notDir == codes.FSNotFound {
			return notFound(op, p)
		}
		return newErr(notDir, op, p, "a component of the path is not a directory", nil)
	case errors.Is(err, unix.ENAMETOOLONG):
		return newErr(codes.FSInvalidPath, op, p, "path is too long", nil)
	case errors.Is(err, unix.EXDEV):
		return newErr(codes.FSInvalidPath, op, p, "path leaves its mount", nil)
	}
	var errno unix.Errno
	if errors.As(err, &errno) {
		return newErr(codes.FSIO, op, p, "system error", errno)
	}
	return newErr(codes.FSIO, op, p, "system error", err)
}

// statInfo builds an Info from a stat result.
func statInfo(t *target, st *unix.Stat_t) Info {
	return Info{
		Path:     t.path,
		Name:     baseName(t.comps),
		Kind:     kindOf(st.Mode),
		Size:     st.Size,
		ModTime:  time.Unix(st.Mtim.Unix()).UTC(),
		ReadOnly: t.m == nil || !t.m.rw,
	}
}

func baseName(comps []string) string {
	if len(comps) == 0 {
		return "/"
	}
	return comps[len(comps)-1]
}

// dirInfo is the Info of a directory that exists only virtually.
func dirInfo(t *target) Info {
	return Info{Path: t.path, Name: baseName(t.comps), Kind: KindDir, ReadOnly: t.m == nil || !t.m.rw}
}

// impliedDir reports whether a staged write lies beneath path.
func (s *Session) impliedDir(path string) bool {
	prefix := dirPrefix(path)
	for p, c := range s.staged {
		if !c.remove && strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// dirPrefix is path with a trailing slash.
func dirPrefix(path string) string {
	if path == "/" {
		return "/"
	}
	return path + "/"
}

// hashHex is the hex SHA-256 of b.
func hashHex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// readRegular reads the regular file fd (of size size) up to limit
// bytes; ok is false when the file is larger than limit.
func readRegular(fd int, size, limit int64) (data []byte, ok bool, err error) {
	// The first buffer holds the size the file had, but no more than
	// readAhead: a sparse or growing file must not make the host reserve
	// memory for bytes it has not read. Later growth is append's doubling.
	buf := make([]byte, 0, min(max(size, 0), limit, readAhead)+1)
	for {
		if int64(len(buf)) > limit {
			return nil, false, nil
		}
		if len(buf) == cap(buf) {
			// limit-len(buf) is at least 0 here; adding 1 after the min
			// keeps a limit near MaxInt64 from wrapping around.
			buf = slices.Grow(buf, int(min(limit-int64(len(buf)), 64<<10-1)+1))
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		if n == 0 {
			return buf, true, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// readDisk reads the file at t from its mount. The error is a raw
// resolver error (errSymlink or an errno), errNotRegular (with st set)
// or errTooLarge.
func (f *FS) readDisk(t *target) ([]byte, unix.Stat_t, error) {
	return f.readDiskLimit(t, f.maxFile)
}

// readDiskLimit is readDisk of a file of at most limit bytes.
func (f *FS) readDiskLimit(t *target, limit int64) ([]byte, unix.Stat_t, error) {
	fd, st, err := f.openFile(t.m.fd, t.rel)
	if err != nil {
		return nil, st, err
	}
	defer unix.Close(fd)
	if st.Size > limit {
		return nil, st, errTooLarge
	}
	data, ok, err := readRegular(fd, st.Size, limit)
	if err != nil {
		return nil, st, err
	}
	if !ok {
		return nil, st, errTooLarge
	}
	return data, st, nil
}

var errTooLarge = errors.New("file too large")

// readAhead bounds the buffer readRegular reserves before reading.
const readAhead = 1 << 20

// readErr maps a readDisk error for op on t.
func (f *FS) readErr(op string, t *target, st *unix.Stat_t, err error) error {
	switch {
	case errors.Is(err, errNotRegular):
		if st.Mode&unix.S_IFMT == unix.S_IFLNK {
			return mapErr(op, t.path, errSymlink, codes.FSNotFound)
		}
		return newErr(codes.FSNotAFile, op, t.path, "is "+describe(st.Mode)+", not a regular file", nil)
	case errors.Is(err, errTooLarge):
		return newErr(codes.FSTooLarge, op, t.path, fmt.Sprintf("file is larger than the %d-byte limit", f.maxFile), nil)
	}
	return mapErr(op, t.path, err, codes.FSNotFound)
}

// Read returns the content of the file at path, its Info and the Base a
// change of the file would be committed against, which the host records
// with the call's result (see [Base]). The first read of a file records
// its base (size and SHA-256 of what it returned): a later write or
// removal of the file commits only if the file is still as it was then.
// Later reads return that first base, not a fresh hash, even if the file
// changed meanwhile. A staged write is read back with its base; a file
// whose removal is staged is not found.
func (s *Session) Read(path string) ([]byte, Info, Base, error) {
	return s.read(path, 0)
}

// ReadLimit is [Session.Read] of a file of at most limit bytes (when
// positive and below [Config.MaxFileSize]): a larger file fails with
// [codes.ValueTooLarge] before it is read. A caller that cannot return
// more (a run's value limit) need not hold the rest.
func (s *Session) ReadLimit(path string, limit int64) ([]byte, Info, Base, error) {
	return s.read(path, limit)
}

func (s *Session) read(path string, limit int64) ([]byte, Info, Base, error) {
	const op = "read"
	t, end, err := s.enter(op, path, false)
	if err != nil {
		return nil, Info{}, Base{}, err
	}
	defer end()
	switch {
	case t.virtual:
		return nil, Info{}, Base{}, newErr(codes.FSNotAFile, op, t.path, "is a directory, not a regular file", nil)
	case t.hidden:
		return nil, Info{}, Base{}, notFound(op, t.path)
	}
	if c, ok := s.staged[t.path]; ok {
		if c.remove {
			return nil, Info{}, Base{}, notFound(op, t.path)
		}
		info := Info{Path: t.path, Name: baseName(t.comps), Kind: KindFile, Size: int64(len(c.data)), ModTime: c.at}
		return slices.Clone(c.data), info, c.base, nil
	}
	capped := limit > 0 && limit < s.fs.maxFile
	if !capped {
		limit = s.fs.maxFile
	}
	data, st, err := s.fs.readDiskLimit(t, limit)
	if err != nil {
		if errors.Is(err, unix.ENOENT) && s.impliedDir(t.path) {
			return nil, Info{}, Base{}, newErr(codes.FSNotAFile, op, t.path, "is a directory, not a regular file", nil)
		}
		if capped && errors.Is(err, errTooLarge) {
			return nil, Info{}, Base{}, newErr(codes.ValueTooLarge, op, t.path, fmt.Sprintf("file is larger than the %d bytes a value may hold (Limits.MaxValue)", limit), nil)
		}
		return nil, Info{}, Base{}, s.fs.readErr(op, t, &st, err)
	}
	base, ok := s.reads[t.path]
	if !ok {
		base = Base{Exists: true, Size: int64(len(data)), SHA256: hashHex(data)}
		s.reads[t.path] = base
	}
	info := statInfo(t, &st)
	info.Size = int64(len(data))
	return data, info, base, nil
}

// ReadText is [Session.Read] for text: it fails with [codes.FSNotText] when
// the content is not valid UTF-8 (the file's base is still recorded).
func (s *Session) ReadText(path string) (string, Info, Base, error) {
	data, info, base, err := s.Read(path)
	if err != nil {
		return "", info, base, err
	}
	if !utf8.Valid(data) {
		return "", info, base, newErr(codes.FSNotText, "read", info.Path, "file is not valid UTF-8 text; read it as bytes", nil)
	}
	return string(data), info, base, nil
}

// NoteRead records, when rebuilding a paused session, that the run read
// path and got base (from the journal), without reading the file again.
// Like a first [Session.Read], it sets the base a later write of the
// file commits against; a path already read or staged keeps its base.
func (s *Session) NoteRead(path string, base Base) error {
	const op = "noteread"
	t, end, err := s.enter(op, path, false)
	if err != nil {
		return err
	}
	defer end()
	if t.virtual || t.hidden {
		return notFound(op, t.path)
	}
	if _, ok := s.reads[t.path]; !ok {
		s.reads[t.path] = base
	}
	return nil
}

// writable checks that t may be changed by op.
func (s *Session) writable(op string, t *target) error {
	switch {
	case t.virtual:
		return newErr(codes.FSReadOnly, op, t.path, "is a directory above the mounts", nil)
	case t.hidden:
		return newErr(codes.FSDenied, op, t.path, "the path matches a deny pattern", nil)
	case len(t.rel) == 0:
		return newErr(codes.FSNotAFile, op, t.path, "is a mount's root directory, not a regular file", nil)
	case !t.m.rw:
		return newErr(codes.FSReadOnly, op, t.path, "the mount "+t.m.guest+" is read-only", nil)
	}
	return t.protectedErr(op)
}

// checkStage checks that data can be staged at t, replacing what is
// staged there.
func (s *Session) checkStage(op string, t *target, n int64) error {
	if n > s.fs.maxFile {
		return newErr(codes.FSTooLarge, op, t.path, fmt.Sprintf("data is larger than the %d-byte file size limit", s.fs.maxFile), nil)
	}
	total := s.stagedBytes + n
	c, ok := s.staged[t.path]
	if ok {
		total -= int64(len(c.data))
	} else if len(s.staged) >= s.fs.maxEntries {
		return newErr(codes.FSTooManyEntries, op, t.path, fmt.Sprintf("a run may stage changes to at most %d files", s.fs.maxEntries), nil)
	}
	if total > s.fs.maxStaged {
		return newErr(codes.FSTooLarge, op, t.path, fmt.Sprintf("the run's staged writes would exceed the %d-byte limit", s.fs.maxStaged), nil)
	}
	// No ancestor may be a staged file.
	for i := len(t.m.comps) + 1; i < len(t.comps); i++ {
		anc := "/" + strings.Join(t.comps[:i], "/")
		if c, ok := s.staged[anc]; ok && !c.remove {
			return newErr(codes.FSNotADirectory, op, t.path, anc+" is a file", nil)
		}
	}
	if s.impliedDir(t.path) {
		return newErr(codes.FSNotAFile, op, t.path, "is a directory, not a regular file", nil)
	}
	return nil
}

// stage records a write (data != nil or remove false) or removal.
func (s *Session) stage(t *target, data []byte, remove bool, base Base) {
	if c, ok := s.staged[t.path]; ok {
		s.stagedBytes -= int64(len(c.data))
		base = c.base // a path keeps the base of its first change
	}
	if remove {
		data = nil
	} else {
		data = slices.Clone(data)
		if data == nil {
			data = []byte{}
		}
		s.stagedBytes += int64(len(data))
	}
	s.staged[t.path] = &change{m: t.m, rel: slices.Clone(t.rel), remove: remove, data: data, base: base, at: time.Now().UTC()}
}

// countDirs returns the directories a write at t would have the commit
// create, as guest paths: its parent directories beneath the mount root
// that do not exist on the host and are not already counted. With those
// counted before, they must stay within [Config.MaxEntries]; otherwise
// the write is refused with [codes.FSTooManyEntries]. Paths are at most
// 4096 bytes, so without this bound one run could create millions of
// nested directories (empty files cost no staged bytes).
func (s *Session) countDirs(op string, t *target) ([]string, error) {
	parents := len(t.rel) - 1 // the directories t.rel[:1] ... t.rel[:parents]
	if parents == 0 {
		return nil, nil
	}
	// missing(k) is true when t.rel[:k] is not on the host; it is
	// monotone in k (beneath a missing directory everything is missing),
	// so a binary search finds the first missing one in a few opens. A
	// file or symlink in the way counts as present: the write then
	// fails on it (at once or at commit), creating nothing.
	missing := func(k int) bool {
		fd, err := s.fs.openBeneath(t.m.fd, t.rel[:k], unix.O_PATH)
		if err != nil {
			return errors.Is(err, unix.ENOENT)
		}
		unix.Close(fd)
		return false
	}
	if !missing(parents) {
		return nil, nil // the common case: writing into an existing directory
	}
	first := 1 + sort.Search(parents-1, func(i int) bool { return missing(i + 1) })
	// The guest path of t.rel[:k] is a prefix of t.path, ending just
	// before the separator that follows component len(t.m.comps)+k.
	var dirs []string
	end, comp := 0, 0
	for k := 1; k <= parents; k++ {
		for comp < len(t.m.comps)+k {
			end += 1 + len(t.comps[comp])
			comp++
		}
		if k >= first {
			if d := t.path[:end]; !s.newDirs[d] {
				dirs = append(dirs, d)
			}
		}
	}
	if len(s.newDirs)+len(dirs) > s.fs.maxEntries {
		return nil, newErr(codes.FSTooManyEntries, op, t.path, fmt.Sprintf(
			"the write needs %d new directories and the run has already staged writes needing %d; a run may create at most %d (the fs maxEntries limit): write into fewer, shallower new directories",
			len(dirs), len(s.newDirs), s.fs.maxEntries), nil)
	}
	return dirs, nil
}

// addDirs counts dirs (from countDirs) as created by the session's
// writes. They stay counted for the session even if the write is
// dropped.
func (s *Session) addDirs(dirs []string) {
	for _, d := range dirs {
		s.newDirs[d] = true
	}
}

// currentBase is the base of a change at t: the base of a staged change,
// the first-read base, or the file's state now. It fails when the path
// cannot hold a file.
func (s *Session) currentBase(op string, t *target) (Base, error) {
	if c, ok := s.staged[t.path]; ok {
		return c.base, nil
	}
	if b, ok := s.reads[t.path]; ok {
		return b, nil
	}
	data, st, err := s.fs.readDisk(t)
	switch {
	case err == nil:
		return Base{Exists: true, Size: int64(len(data)), SHA256: hashHex(data)}, nil
	case errors.Is(err, unix.ENOENT):
		return Base{}, nil
	case errors.Is(err, unix.ENOTDIR):
		return Base{}, newErr(codes.FSNotADirectory, op, t.path, "a component of the path is not a directory", nil)
	case errors.Is(err, errTooLarge):
		return Base{}, newErr(codes.FSTooLarge, op, t.path, fmt.Sprintf("the existing file is larger than the %d-byte limit", s.fs.maxFile), nil)
	}
	return Base{}, s.fs.readErr(op, t, &st, err)
}

// Write stages data as the new content of the file at path, creating it
// (and missing parent directories, at commit) if need be. Nothing on the
// host changes before [Session.Commit]. It returns the base the write
// will be committed against, for the host to record (see [Base]).
// Writes to hidden paths fail with [codes.FSDenied], to read-only mounts with
// [codes.FSReadOnly]; writes over symlinks, directories and special files
// are refused. Its missing parent directories count against
// [Config.MaxEntries], with those of the session's earlier writes: a
// write that would need more new directories fails with
// [codes.FSTooManyEntries], and the commit creates no others.
func (s *Session) Write(path string, data []byte) (Base, error) {
	const op = "write"
	t, end, err := s.enter(op, path, true)
	if err != nil {
		return Base{}, err
	}
	defer end()
	if err := s.checkStage(op, t, int64(len(data))); err != nil {
		return Base{}, err
	}
	base, err := s.currentBase(op, t)
	if err != nil {
		return Base{}, err
	}
	dirs, err := s.countDirs(op, t)
	if err != nil {
		return Base{}, err
	}
	s.stage(t, data, false, base)
	s.addDirs(dirs)
	return s.staged[t.path].base, nil
}

// Restage re-stages, when rebuilding a paused session, a write the run
// made before the pause, from the recorded path, data and base, without
// looking at the file: the commit then checks the file against that
// original base, so a change made while the run was paused is a
// conflict.
func (s *Session) Restage(path string, data []byte, base Base) error {
	const op = "restage"
	t, end, err := s.enter(op, path, true)
	if err != nil {
		return err
	}
	defer end()
	if err := s.checkStage(op, t, int64(len(data))); err != nil {
		return err
	}
	dirs, err := s.countDirs(op, t)
	if err != nil {
		return err
	}
	s.stage(t, data, false, base)
	s.addDirs(dirs)
	return nil
}

// Remove stages the removal of the file at path (directories cannot be
// removed). Removing a file the session created drops the staged write.
// It returns the base the removal will be committed against.
func (s *Session) Remove(path string) (Base, error) {
	const op = "remove"
	t, end, err := s.enter(op, path, true)
	if err != nil {
		return Base{}, err
	}
	defer end()
	if c, ok := s.staged[t.path]; ok {
		if c.remove {
			return Base{}, notFound(op, t.path)
		}
		if !c.base.Exists {
			s.stagedBytes -= int64(len(c.data))
			delete(s.staged, t.path)
			return Base{}, nil
		}
		s.stage(t, nil, true, c.base)
		return c.base, nil
	}
	if s.impliedDir(t.path) {
		return Base{}, newErr(codes.FSNotAFile, op, t.path, "is a directory; only files can be removed", nil)
	}
	// The file must exist now, whatever the session read before.
	data, st, err := s.fs.readDisk(t)
	if err != nil && !errors.Is(err, errTooLarge) {
		if errors.Is(err, errNotRegular) && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			return Base{}, newErr(codes.FSNotAFile, op, t.path, "is a directory; only files can be removed", nil)
		}
		return Base{}, s.fs.readErr(op, t, &st, err)
	}
	if errors.Is(err, errTooLarge) {
		return Base{}, newErr(codes.FSTooLarge, op, t.path, fmt.Sprintf("file is larger than the %d-byte limit", s.fs.maxFile), nil)
	}
	if len(s.staged) >= s.fs.maxEntries {
		return Base{}, newErr(codes.FSTooManyEntries, op, t.path, fmt.Sprintf("a run may stage changes to at most %d files", s.fs.maxEntries), nil)
	}
	base, ok := s.reads[t.path]
	if !ok {
		base = Base{Exists: true, Size: int64(len(data)), SHA256: hashHex(data)}
	}
	s.stage(t, nil, true, base)
	return base, nil
}

// RestageRemove re-stages, when rebuilding a paused session, a removal
// from the recorded path and base (see [Session.Restage]). A base that
// says the file did not exist drops a staged write, as the original
// [Session.Remove] did.
func (s *Session) RestageRemove(path string, base Base) error {
	const op = "restage"
	t, end, err := s.enter(op, path, true)
	if err != nil {
		return err
	}
	defer end()
	if !base.Exists {
		if c, ok := s.staged[t.path]; ok {
			s.stagedBytes -= int64(len(c.data))
			delete(s.staged, t.path)
		}
		return nil
	}
	if _, ok := s.staged[t.path]; !ok && len(s.staged) >= s.fs.maxEntries {
		return newErr(codes.FSTooManyEntries, op, t.path, fmt.Sprintf("a run may stage changes to at most %d files", s.fs.maxEntries), nil)
	}
	s.stage(t, nil, true, base)
	return nil
}

// Stat describes the file or directory at path. A final symlink is
// described (Kind [KindSymlink]), not followed; a symlink before the
// final component fails with [codes.FSSymlink].
func (s *Session) Stat(path string) (Info, error) {
	const op = "stat"
	t, end, err := s.enter(op, path, false)
	if err != nil {
		return Info{}, err
	}
	defer end()
	return s.stat(op, t)
}

// stat is Stat with the session locked.
func (s *Session) stat(op string, t *target) (Info, error) {
	switch {
	case t.virtual:
		return dirInfo(t), nil
	case t.concealed():
		return Info{}, notFound(op, t.path)
	}
	if c, ok := s.staged[t.path]; ok {
		if c.remove {
			return Info{}, notFound(op, t.path)
		}
		return Info{Path: t.path, Name: baseName(t.comps), Kind: KindFile, Size: int64(len(c.data)), ModTime: c.at}, nil
	}
	fd, err := s.fs.openBeneath(t.m.fd, t.rel, unix.O_PATH)
	if err != nil {
		if errors.Is(err, unix.ENOENT) && s.impliedDir(t.path) {
			return dirInfo(t), nil
		}
		return Info{}, mapErr(op, t.path, err, codes.FSNotFound)
	}
	defer unix.Close(fd)
	st, err := fstat(fd)
	if err != nil {
		return Info{}, mapErr(op, t.path, err, codes.FSNotFound)
	}
	return statInfo(t, &st), nil
}

// Exists reports whether [Session.Stat] would find something at path.
// Missing and hidden paths give false and no error; malformed paths and
// paths through symlinks give an error.
func (s *Session) Exists(path string) (bool, error) {
	const op = "exists"
	end, err := s.begin(op, path)
	if err != nil {
		return false, err
	}
	defer end()
	t, err := s.fs.parse(op, path)
	if CodeOf(err) == codes.FSNotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	_, err = s.stat(op, t)
	if CodeOf(err) == codes.FSNotFound {
		return false, nil
	}
	return err == nil, err
}

// List returns the entries of the directory at path, sorted by name,
// with the session's staged changes applied. Hidden entries are left
// out, as are names no guest path can spell (invalid UTF-8, or with a
// backslash). Symlinks and special files are listed with their kind.
// More than [Config.MaxEntries] entries fail with [codes.FSTooManyEntries];
// hidden entries do not count, so the limit reveals nothing about them.
func (s *Session) List(path string) ([]Info, error) {
	const op = "list"
	t, end, err := s.enter(op, path, false)
	if err != nil {
		return nil, err
	}
	defer end()
	budget := s.fs.maxEntries
	return s.list(op, t, &budget, true)
}

// list lists directory t. budget counts down the entries read from the
// host and returned; going below zero is [codes.FSTooManyEntries].
func (s *Session) list(op string, t *target, budget *int, full bool) ([]Info, error) {
	tooMany := func() error {
		return newErr(codes.FSTooManyEntries, op, t.path, fmt.Sprintf("more than %d entries", s.fs.maxEntries), nil)
	}
	if t.virtual {
		return s.listVirtual(t), nil
	}
	if t.concealed() {
		return nil, notFound(op, t.path)
	}
	if c, ok := s.staged[t.path]; ok {
		if c.remove {
			return nil, notFound(op, t.path)
		}
		return nil, newErr(codes.FSNotADirectory, op, t.path, "is a file, not a directory", nil)
	}
	entries := map[string]Info{}
	fd, err := s.fs.openBeneath(t.m.fd, t.rel, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		if !errors.Is(err, unix.ENOENT) || !s.impliedDir(t.path) {
			if errors.Is(err, unix.ENOTDIR) {
				// Either the path is a file (or special file), or a
				// component before it is.
				info, serr := s.stat(op, t)
				if serr != nil {
					return nil, serr
				}
				return nil, newErr(codes.FSNotADirectory, op, t.path, "is "+kindWords(info.Kind)+", not a directory", nil)
			}
			return nil, mapErr(op, t.path, err, codes.FSNotADirectory)
		}
	} else {
		err := s.readDir(fd, t, budget, entries, full)
		unix.Close(fd)
		if err != nil {
			if errors.Is(err, errTooMany) {
				return nil, tooMany()
			}
			return nil, mapErr(op, t.path, err, codes.FSNotADirectory)
		}
	}
	// Apply the staged changes. A name the host listing did not have (a
	// staged file, or a directory only a staged write implies) costs the
	// budget like a listed one, so that a walk through staged
	// directories is bounded too.
	prefix := dirPrefix(t.path)
	charge := func(name string) error {
		if _, ok := entries[name]; ok {
			return nil
		}
		*budget--
		if *budget < 0 {
			return tooMany()
		}
		return nil
	}
	for p, c := range s.staged {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		name, deeper, _ := strings.Cut(rest, "/")
		switch {
		case deeper != "":
			if !c.remove {
				if e, ok := entries[name]; !ok || e.Kind != KindDir {
					if err := charge(name); err != nil {
						return nil, err
					}
					entries[name] = dirInfo(t.child(name))
				}
			}
		case c.remove:
			// A directory here is one a staged write beneath the removed
			// file's name implies (the commit removes the file first).
			if e, ok := entries[name]; ok && e.Kind != KindDir {
				delete(entries, name)
			}
		default:
			if err := charge(name); err != nil {
				return nil, err
			}
			ct := t.child(name)
			entries[name] = Info{Path: ct.path, Name: name, Kind: KindFile, Size: int64(len(c.data)), ModTime: c.at}
		}
	}
	if len(entries) > s.fs.maxEntries {
		return nil, tooMany()
	}
	out := make([]Info, 0, len(entries))
	for _, e := range entries {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

var errTooMany = errors.New("too many entries")

// readDir reads the visible entries of the directory fd (which is t)
// into entries. With full false (for Glob), only Name, Path and Kind are
// filled in where the directory entry gives the type, saving an fstatat
// per entry.
func (s *Session) readDir(fd int, t *target, budget *int, entries map[string]Info, full bool) error {
	buf := make([]byte, 32<<10)
	for {
		n, err := unix.ReadDirent(fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 {
			return nil
		}
		for b := buf[:n]; len(b) > 0; {
			name, typ, rest, ok := nextDirent(b)
			if !ok {
				break
			}
			b = rest
			if name == "." || name == ".." {
				continue
			}
			// Only visible entries count, so that the limit cannot reveal
			// how many hidden ones there are.
			if !utf8.ValidString(name) || strings.IndexByte(name, '\\') >= 0 || t.m.hide.hiddenEntry(t.rel, name) {
				continue
			}
			*budget--
			if *budget < 0 {
				return errTooMany
			}
			if !full && typ != unix.DT_UNKNOWN {
				kind := KindOther
				switch typ {
				case unix.DT_REG:
					kind = KindFile
				case unix.DT_DIR:
					kind = KindDir
				case unix.DT_LNK:
					kind = KindSymlink
				}
				entries[name] = Info{Path: dirPrefix(t.path) + name, Name: name, Kind: kind}
				continue
			}
			var st unix.Stat_t
			if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				continue // removed meanwhile
			}
			entries[name] = statInfo(t.child(name), &st)
		}
	}
}

// nextDirent parses the linux_dirent64 at the start of b: d_ino (8
// bytes), d_off (8), d_reclen (2), d_type (1), then the NUL-terminated
// name.
func nextDirent(b []byte) (name string, typ byte, rest []byte, ok bool) {
	const hdr = 19
	if len(b) < hdr {
		return "", 0, nil, false
	}
	reclen := int(binary.NativeEndian.Uint16(b[16:18]))
	if reclen < hdr || reclen > len(b) {
		return "", 0, nil, false
	}
	raw := b[hdr:reclen]
	if i := bytes.IndexByte(raw, 0); i >= 0 {
		raw = raw[:i]
	}
	return string(raw), b[18], b[reclen:], true
}

// listVirtual lists a directory above the mounts.
func (s *Session) listVirtual(t *target) []Info {
	seen := map[string]bool{}
	var out []Info
	for _, m := range s.fs.mounts {
		if len(m.comps) <= len(t.comps) || !hasPrefix(m.comps, t.comps) {
			continue
		}
		name := m.comps[len(t.comps)]
		if seen[name] {
			continue
		}
		seen[name] = true
		ct := t.child(name)
		info := dirInfo(ct)
		if len(m.comps) == len(t.comps)+1 { // the mount root itself
			info.ReadOnly = !m.rw
			if st, err := fstat(m.fd); err == nil {
				info.ModTime = time.Unix(st.Mtim.Unix()).UTC()
			}
		}
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Discard drops every staged change and ends the session: a run that
// failed or was denied commits nothing.
func (s *Session) Discard() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	s.staged = nil
	s.reads = nil
	s.newDirs = nil
	s.stagedBytes = 0
}

// kindWords names a kind in words, for messages.
func kindWords(kind string) string {
	switch kind {
	case KindFile:
		return "a file"
	case KindSymlink:
		return "a symbolic link"
	case KindDir:
		return "a directory"
	}
	return "a special file"
}
