//go:build linux

package mountfs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// testHookBeforeRename, when set (by tests only), runs after a commit's
// temporary file is written and fsynced and the target checked again,
// just before the rename.
var testHookBeforeRename func(guestPath string)

// lockTimeout bounds the wait for another commit's lock on a directory.
const lockTimeout = 10 * time.Second

// Commit applies the staged changes, each on its own, in path order, and
// ends the session. A change is applied only if its file is still as its
// [Base] says (same existence, size and SHA-256); otherwise it is
// reported as a conflict and the file is left alone, while the other
// changes still commit.
//
// A write goes to a new temporary file ([TempPrefix]) created with
// O_EXCL|O_NOFOLLOW in the target's directory, which is opened with the
// symlink-proof resolver (missing directories are created with mkdirat,
// also without following symlinks). The file is written and fsynced, the
// target is checked against the base again, and the temporary file is
// renamed over the target (with RENAME_NOREPLACE when the base says there
// was no file), then the directory is fsynced. A rename replaces a hard
// link instead of writing through it, so a write never reaches a file
// outside the mount. A replaced file's permission bits (and owner, when
// running as root) are carried over. A removal is checked the same way
// and done with unlinkat. Either way nothing half-written is ever at the
// target.
//
// Cooperating commits (of this package, in any process) on the same
// directory are serialised with flock on the directory, so of two runs
// that read the same file and both write it, exactly one commits and the
// other gets a conflict. Writers that do not take the lock are caught by
// the checks, up to the short window between the second check and the
// rename. While it holds the lock, a commit also deletes temporary files
// a crashed commit left in that directory; until then they stay, hidden
// from guests.
func (s *Session) Commit() Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	rep := Report{Committed: []string{}, Conflicts: []Conflict{}}
	if s.done {
		return rep
	}
	s.done = true
	staged := s.staged
	// The commit creates only directories the writes were charged for
	// when they were staged (see Session.Write).
	newDirs := s.newDirs
	s.staged, s.reads, s.newDirs, s.stagedBytes = nil, nil, nil, 0
	paths := make([]string, 0, len(staged))
	for p := range staged {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	s.fs.mu.RLock()
	defer s.fs.mu.RUnlock()
	cleaned := map[string]bool{}
	for _, p := range paths {
		reason := "the file system is closed"
		if !s.fs.closed {
			reason = s.fs.commitOne(p, staged[p], cleaned, newDirs)
		}
		if reason == "" {
			rep.Committed = append(rep.Committed, p)
		} else {
			rep.Conflicts = append(rep.Conflicts, Conflict{Path: p, Reason: reason})
		}
	}
	return rep
}

// commitOne applies one change; it returns "" or the reason it did not.
// It creates only the missing directories newDirs names (guest paths).
func (f *FS) commitOne(guestPath string, c *change, cleaned map[string]bool, newDirs map[string]bool) string {
	dir, name := c.rel[:len(c.rel)-1], c.rel[len(c.rel)-1]
	var dfd int
	var err error
	if c.remove {
		dfd, err = f.openBeneath(c.m.fd, dir, unix.O_RDONLY|unix.O_DIRECTORY)
	} else {
		var guest string // the guest path of dir, made when needed
		mayCreate := func(n int) bool {
			if guest == "" {
				guest = dirPrefix(c.m.guest) + strings.Join(dir, "/")
			}
			// The guest path of dir[:n] is a prefix of guest.
			end := len(dirPrefix(c.m.guest)) - 1
			for _, d := range dir[:n] {
				end += 1 + len(d)
			}
			return newDirs[guest[:end]]
		}
		dfd, err = f.openDirCreate(c.m.fd, dir, mayCreate)
	}
	if err != nil {
		switch {
		case errors.Is(err, unix.ENOENT):
			return "deleted by someone else since the run saw it (its directory is gone)"
		case errors.Is(err, errSymlink):
			return "a parent directory is now a symbolic link"
		case errors.Is(err, unix.ENOTDIR):
			return "a parent is not a directory"
		case errors.Is(err, errNotCounted):
			return "a parent directory was removed by someone else since the run wrote the file"
		}
		return "cannot open the directory: " + errText(err)
	}
	defer unix.Close(dfd)
	if err := lockDir(dfd); err != nil {
		return "cannot lock the directory: " + errText(err)
	}
	defer unix.Flock(dfd, unix.LOCK_UN)
	if key := c.m.guest + "\x00" + strings.Join(dir, "/"); !cleaned[key] {
		cleaned[key] = true
		cleanTemps(dfd)
	}
	// A removal is checked in full now; a write cheaply now (existence,
	// type, size) and in full after its temporary file is written.
	st, reason := f.checkBase(dfd, name, c.base, c.remove)
	if reason != "" {
		return reason
	}
	if c.remove {
		if err := unix.Unlinkat(dfd, name, 0); err != nil {
			return "removing failed: " + errText(err)
		}
		unix.Fsync(dfd)
		return ""
	}
	tmp, err := f.writeTemp(dfd, c.data, st)
	if err != nil {
		return "writing failed: " + errText(err)
	}
	renamed := false
	defer func() {
		if !renamed {
			unix.Unlinkat(dfd, tmp, 0)
		}
	}()
	if _, reason := f.checkBase(dfd, name, c.base, true); reason != "" {
		return reason
	}
	if testHookBeforeRename != nil {
		testHookBeforeRename(guestPath)
	}
	if c.base.Exists {
		err = unix.Renameat(dfd, tmp, dfd, name)
	} else {
		err = renameNoReplace(dfd, tmp, name)
	}
	if errors.Is(err, unix.EEXIST) {
		return "created by someone else since the run saw it"
	}
	if err != nil {
		return "renaming failed: " + errText(err)
	}
	renamed = true
	unix.Fsync(dfd) // the rename happened; a failed directory sync cannot undo it
	return ""
}

// errText renders a system error without any path.
func errText(err error) string {
	var errno unix.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	if errors.Is(err, errSymlink) {
		return "symbolic link"
	}
	return "system error"
}

// checkBase compares the file name in directory dfd with base: its
// existence, type and size, and with hash also its SHA-256. It returns
// the file's stat when it exists and matches, or a conflict reason.
func (f *FS) checkBase(dfd int, name string, base Base, hash bool) (*unix.Stat_t, string) {
	const changed = "changed by someone else since the run saw it"
	fd, st, err := f.openFile(dfd, []string{name})
	if err != nil {
		switch {
		case errors.Is(err, unix.ENOENT):
			if base.Exists {
				return nil, "deleted by someone else since the run saw it"
			}
			return nil, ""
		case errors.Is(err, errSymlink), errors.Is(err, errNotRegular) && st.Mode&unix.S_IFMT == unix.S_IFLNK:
			return nil, "replaced by a symbolic link"
		case errors.Is(err, errNotRegular):
			return nil, "is now " + describe(st.Mode)
		}
		return nil, "cannot check the file: " + errText(err)
	}
	defer unix.Close(fd)
	if !base.Exists {
		return nil, "created by someone else since the run saw it"
	}
	if st.Size != base.Size {
		return nil, changed
	}
	if !hash {
		return &st, ""
	}
	data, ok, err := readRegular(fd, st.Size, f.maxFile)
	if err != nil {
		return nil, "cannot check the file: " + errText(err)
	}
	if !ok || hashHex(data) != base.SHA256 {
		return nil, changed
	}
	return &st, ""
}

// errNotCounted is openDirCreate's error for a missing directory it may
// not create.
var errNotCounted = errors.New("directory not counted")

// openDirCreate opens the directory comps beneath root for reading,
// creating missing directories with mkdirat, one component at a time and
// without following symlinks. It creates comps[:n] only if mayCreate(n);
// otherwise a missing directory is errNotCounted.
func (f *FS) openDirCreate(root int, comps []string, mayCreate func(n int) bool) (int, error) {
	fd, err := f.openBeneath(root, comps, unix.O_RDONLY|unix.O_DIRECTORY)
	if err == nil || !errors.Is(err, unix.ENOENT) {
		return fd, err
	}
	cur := root
	for i, c := range comps {
		fd, err := f.openBeneath(cur, []string{c}, unix.O_RDONLY|unix.O_DIRECTORY)
		if errors.Is(err, unix.ENOENT) && !mayCreate(i+1) {
			err = errNotCounted
		} else if errors.Is(err, unix.ENOENT) {
			if merr := unix.Mkdirat(cur, c, 0o777); merr != nil && !errors.Is(merr, unix.EEXIST) {
				err = merr
			} else {
				if merr == nil {
					syncDir(cur)
				}
				fd, err = f.openBeneath(cur, []string{c}, unix.O_RDONLY|unix.O_DIRECTORY)
			}
		}
		if cur != root {
			unix.Close(cur)
		}
		if err != nil {
			return -1, err
		}
		cur = fd
	}
	if cur == root {
		return -1, unix.ENOENT
	}
	return cur, nil
}

// writeTemp writes data to a new temporary file in dfd, fsyncs it and
// returns its name. When st is not nil (the file being replaced), the
// new file gets its permission bits and, when running as root, its
// owner.
func (f *FS) writeTemp(dfd int, data []byte, st *unix.Stat_t) (string, error) {
	var name string
	var fd int
	var err error
	for range maxRetries {
		var rnd [8]byte
		rand.Read(rnd[:])
		name = TempPrefix + hex.EncodeToString(rnd[:])
		fd, err = f.openBeneath(dfd, []string{name}, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL)
		if !errors.Is(err, unix.EEXIST) {
			break
		}
	}
	if err != nil {
		return "", err
	}
	ok := false
	defer func() {
		unix.Close(fd)
		if !ok {
			unix.Unlinkat(dfd, name, 0)
		}
	}()
	if st != nil {
		if unix.Geteuid() == 0 {
			unix.Fchown(fd, int(st.Uid), int(st.Gid))
		}
		if err := unix.Fchmod(fd, st.Mode&0o777); err != nil {
			return "", err
		}
	}
	for len(data) > 0 {
		n, err := unix.Write(fd, data)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return "", err
		}
		data = data[n:]
	}
	if err := unix.Fsync(fd); err != nil {
		return "", err
	}
	ok = true
	return name, nil
}

// renameNoReplace renames tmp to name in dfd unless name exists (EEXIST).
// Where renameat2 flags are unsupported it links and unlinks instead,
// which also fails when name exists.
func renameNoReplace(dfd int, tmp, name string) error {
	err := unix.Renameat2(dfd, tmp, dfd, name, unix.RENAME_NOREPLACE)
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) {
		return err
	}
	if err := unix.Linkat(dfd, tmp, dfd, name, 0); err != nil {
		return err
	}
	unix.Unlinkat(dfd, tmp, 0)
	return nil
}

// lockDir takes an exclusive flock on the directory dfd, waiting up to
// lockTimeout.
func lockDir(dfd int) error {
	deadline := time.Now().Add(lockTimeout)
	wait := time.Millisecond
	for {
		err := unix.Flock(dfd, unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.EINTR):
			continue
		case !errors.Is(err, unix.EWOULDBLOCK):
			return err
		case time.Now().After(deadline):
			return errors.New("held by another commit")
		}
		time.Sleep(wait)
		wait = min(2*wait, 50*time.Millisecond)
	}
}

// cleanTemps deletes the temporary files a crashed commit left in the
// directory dfd. The caller holds the directory's lock, so no running
// commit owns one.
func cleanTemps(dfd int) {
	buf := make([]byte, 32<<10)
	for {
		n, err := unix.ReadDirent(dfd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		var names []string
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
		for _, name := range names {
			if !strings.HasPrefix(name, TempPrefix) {
				continue
			}
			var st unix.Stat_t
			if unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
				unix.Unlinkat(dfd, name, 0)
			}
		}
	}
}

// syncDir fsyncs the directory dfd, which may be an O_PATH descriptor
// (a mount root), best effort.
func syncDir(dfd int) {
	if unix.Fsync(dfd) == nil {
		return
	}
	fd, err := openat(dfd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	unix.Fsync(fd)
	unix.Close(fd)
}
