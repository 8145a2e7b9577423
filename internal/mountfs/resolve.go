//go:build linux

package mountfs

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// resolveFlags confine openat2 to the directory it starts from, refuse
// every symlink, magic links (/proc/self/fd/N) included, and refuse to
// cross a mount point (EXDEV: openBeneath then walks the path).
const resolveFlags = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV

// maxRetries bounds the retries of a system call that fails with EAGAIN
// (openat2 does when a rename races the lookup) or EINTR.
const maxRetries = 64

// errSymlink is returned by the resolver when the path is, or passes
// through, a symbolic link.
var errSymlink = errors.New("symbolic link")

// fullFlags adds the flags every open gets. O_NONBLOCK keeps an open of
// a named pipe from blocking; O_NOCTTY keeps a terminal from becoming
// the controlling one. openat2 refuses them with O_PATH (which has no
// such side effects).
func fullFlags(flags int) int {
	flags |= unix.O_NOFOLLOW | unix.O_CLOEXEC
	if flags&unix.O_PATH == 0 {
		flags |= unix.O_NONBLOCK | unix.O_NOCTTY
	}
	return flags
}

// openBeneath opens comps beneath the directory dirfd without following
// any symlink, with openat2 or, failing that, component by component.
// An empty comps opens dirfd's directory itself. With O_PATH, a final
// component that is a symlink is opened as the link (the caller's fstat
// sees S_IFLNK); otherwise a symlink anywhere gives errSymlink. A path
// that is on a pseudo file system, or passes through one (a tmpfs mounted
// under /sys), gives a *pseudoError. Other errors are errnos. The caller
// must fstat the result and check its type.
//
// dirfd is never on a pseudo file system (mount roots are checked when
// the FS is made, and every other dirfd came from here). openat2 is asked
// not to cross a mount point (RESOLVE_NO_XDEV): a path that stays on
// dirfd's file system needs no other check, and one that crosses a mount
// point is walked component by component, each checked.
func (f *FS) openBeneath(dirfd int, comps []string, flags int) (int, error) {
	flags = fullFlags(flags)
	var fd int
	var err error
	if f.openat2 {
		fd, err = openat2(dirfd, comps, flags)
		if errors.Is(err, unix.EXDEV) {
			fd, err = walkOpen(dirfd, comps, flags)
		}
	} else {
		fd, err = walkOpen(dirfd, comps, flags)
	}
	if errors.Is(err, unix.ENOTDIR) {
		// Either a component is a file, or (with O_DIRECTORY) a symlink
		// was refused as "not a directory". Tell which.
		if classifyNotDir(dirfd, comps) {
			err = errSymlink
		}
	}
	if errors.Is(err, unix.ELOOP) {
		err = errSymlink
	}
	if err == nil {
		if fs := pseudoFS(fd); fs != "" {
			unix.Close(fd)
			return -1, &pseudoError{fs: fs}
		}
	}
	return fd, err
}

// pseudoFSTypes are the file systems through which the kernel shows
// processes, devices and its own state, by statfs magic number: procfs's
// /proc/N/environ and cmdline hold every process's environment and
// arguments (modebox's key, fetch's secrets, the MCP servers' env and an
// MCP bearer among them). No path of a mount reaches them or passes
// through them, whatever the mount ("/" mounted, /proc bind-mounted
// elsewhere). devtmpfs cannot be told from tmpfs by its magic number; its
// own entries are device nodes, which fs never opens (regular files only),
// and /dev/shm is hidden (credpaths.RuntimeState). autofs is not listed:
// an automount point shows nothing itself, and what is mounted on it (an
// NFS home directory under /home) is checked for what it is.
var pseudoFSTypes = map[int64]string{
	configfsMagic:             "configfs",
	fusectlMagic:              "fusectl",
	nfsdMagic:                 "nfsd",
	mqueueMagic:               "mqueue",
	unix.SELINUX_MAGIC:        "selinuxfs",
	unix.SMACK_MAGIC:          "smackfs",
	unix.HUGETLBFS_MAGIC:      "hugetlbfs",
	unix.NSFS_MAGIC:           "nsfs",
	unix.RDTGROUP_SUPER_MAGIC: "resctrl",
	unix.XENFS_SUPER_MAGIC:    "xenfs",
	unix.PROC_SUPER_MAGIC:     "procfs",
	unix.SYSFS_MAGIC:          "sysfs",
	unix.DEBUGFS_MAGIC:        "debugfs",
	unix.SECURITYFS_MAGIC:     "securityfs",
	unix.TRACEFS_MAGIC:        "tracefs",
	unix.CGROUP_SUPER_MAGIC:   "cgroupfs",
	unix.CGROUP2_SUPER_MAGIC:  "cgroup2",
	unix.BPF_FS_MAGIC:         "bpffs",
	unix.EFIVARFS_MAGIC:       "efivarfs",
	unix.PSTOREFS_MAGIC:       "pstore",
	unix.BINFMTFS_MAGIC:       "binfmt_misc",
	unix.DEVPTS_SUPER_MAGIC:   "devpts",
}

// Magic numbers of pseudo file systems that x/sys/unix does not name
// (linux/magic.h and the file systems' sources).
const (
	configfsMagic = 0x62656570
	fusectlMagic  = 0x65735543
	nfsdMagic     = 0x6e667364
	mqueueMagic   = 0x19800202
)

// pseudoAlong names the first pseudo file system that the absolute host
// path or one of its ancestors is on, or "" (a prefix that cannot be
// statted ends the check: the open that follows reports the error).
func pseudoAlong(path string) string {
	for p := path; ; p = filepath.Dir(p) {
		var st unix.Statfs_t
		if unix.Statfs(p, &st) == nil {
			if fs := pseudoFSTypes[int64(st.Type)]; fs != "" {
				return fs
			}
		}
		if p == "/" || p == "." {
			return ""
		}
	}
}

// pseudoFS names the pseudo file system fd is on, or "" for any other
// (or when fstatfs fails: the open that follows reports the error).
func pseudoFS(fd int) string {
	var st unix.Statfs_t
	if unix.Fstatfs(fd, &st) != nil {
		return ""
	}
	return pseudoFSTypes[int64(st.Type)]
}

// pseudoError is openBeneath's error for a path on or through a pseudo
// file system.
type pseudoError struct{ fs string }

func (e *pseudoError) Error() string { return "the path is on or passes through " + e.fs }

// errNotRegular is openFile's (and readDisk's) error for anything but a
// regular file.
var errNotRegular = errors.New("not a regular file")

// openFile opens the regular file comps beneath dirfd for reading, and
// nothing else: the path is opened with O_PATH first (which never opens
// the file itself: a named pipe's blocked writer stays blocked, a
// device's open routine does not run) and checked with fstat; only a
// regular file is then opened for reading, through /proc/self/fd (the
// very inode checked) or, without /proc, by opening the path again and
// checking that it is still the same file. Anything else is
// errNotRegular, with st telling what it is (a final symlink is S_IFLNK).
// Other errors are openBeneath's.
func (f *FS) openFile(dirfd int, comps []string) (int, unix.Stat_t, error) {
	for range maxRetries {
		pfd, err := f.openBeneath(dirfd, comps, unix.O_PATH)
		if err != nil {
			return -1, unix.Stat_t{}, err
		}
		st, err := fstat(pfd)
		if err != nil {
			unix.Close(pfd)
			return -1, st, err
		}
		if st.Mode&unix.S_IFMT != unix.S_IFREG {
			unix.Close(pfd)
			return -1, st, errNotRegular
		}
		fd, err := openat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(pfd), fullFlags(unix.O_RDONLY)&^unix.O_NOFOLLOW, 0)
		unix.Close(pfd)
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			fd, err = f.openBeneath(dirfd, comps, unix.O_RDONLY) // no /proc
		}
		if err != nil {
			return -1, st, err
		}
		now, err := fstat(fd)
		if err != nil {
			unix.Close(fd)
			return -1, now, err
		}
		if now.Dev == st.Dev && now.Ino == st.Ino {
			return fd, now, nil
		}
		unix.Close(fd) // replaced between the two opens: look again
	}
	return -1, unix.Stat_t{}, unix.EAGAIN
}

// openat2 opens comps beneath dirfd in one system call.
func openat2(dirfd int, comps []string, flags int) (int, error) {
	p := "."
	if len(comps) > 0 {
		p = strings.Join(comps, "/")
	}
	how := unix.OpenHow{Flags: uint64(flags), Resolve: resolveFlags}
	if flags&unix.O_CREAT != 0 {
		how.Mode = 0o666
	}
	var err error
	for range maxRetries {
		var fd int
		fd, err = unix.Openat2(dirfd, p, &how)
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
			continue
		}
		return fd, err
	}
	return -1, err
}

// openat is openat(2) retried on EINTR.
func openat(dirfd int, name string, flags int, mode uint32) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, mode)
		if !errors.Is(err, unix.EINTR) {
			return fd, err
		}
	}
}

// walkOpen is the fallback resolver: each directory is opened relative to
// the previous one with O_NOFOLLOW|O_DIRECTORY and checked with fstat and
// fstatfs (a directory on a pseudo file system gives a *pseudoError),
// and the final component is opened with O_NOFOLLOW. ".." never reaches
// here (guest paths refuse it textually), and without symlinks and ".."
// a walk cannot leave dirfd's tree.
func walkOpen(dirfd int, comps []string, flags int) (int, error) {
	if len(comps) == 0 {
		return openat(dirfd, ".", flags, 0)
	}
	cur := dirfd
	closeCur := func() {
		if cur != dirfd {
			unix.Close(cur)
		}
	}
	for _, c := range comps[:len(comps)-1] {
		next, err := openat(cur, c, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		closeCur()
		if err != nil {
			return -1, err
		}
		if fs := pseudoFS(next); fs != "" {
			unix.Close(next)
			return -1, &pseudoError{fs: fs}
		}
		var st unix.Stat_t
		if err := unix.Fstat(next, &st); err != nil {
			unix.Close(next)
			return -1, err
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			unix.Close(next)
			return -1, unix.ENOTDIR
		}
		cur = next
	}
	mode := uint32(0)
	if flags&unix.O_CREAT != 0 {
		mode = 0o666
	}
	fd, err := openat(cur, comps[len(comps)-1], flags, mode)
	closeCur()
	return fd, err
}

// classifyNotDir walks comps beneath dirfd without following symlinks
// and reports whether the first component that is not a directory is a
// symlink. It is only used to word an error.
func classifyNotDir(dirfd int, comps []string) bool {
	cur := dirfd
	defer func() {
		if cur != dirfd {
			unix.Close(cur)
		}
	}()
	for _, c := range comps {
		var st unix.Stat_t
		if err := unix.Fstatat(cur, c, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return false
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFLNK:
			return true
		case unix.S_IFDIR:
		default:
			return false
		}
		next, err := openat(cur, c, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return false
		}
		if cur != dirfd {
			unix.Close(cur)
		}
		cur = next
	}
	return false
}

// fstat is unix.Fstat.
func fstat(fd int) (unix.Stat_t, error) {
	var st unix.Stat_t
	err := unix.Fstat(fd, &st)
	return st, err
}

// kindOf names a file type the way [Info.Kind] does.
func kindOf(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return KindFile
	case unix.S_IFDIR:
		return KindDir
	case unix.S_IFLNK:
		return KindSymlink
	default:
		return KindOther
	}
}

// describe names a file type in words, for messages.
func describe(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return "a regular file"
	case unix.S_IFDIR:
		return "a directory"
	case unix.S_IFLNK:
		return "a symbolic link"
	case unix.S_IFIFO:
		return "a named pipe"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFCHR:
		return "a character device"
	case unix.S_IFBLK:
		return "a block device"
	default:
		return "not a regular file"
	}
}
