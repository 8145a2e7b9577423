//go:build linux

package mountfs

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/credpaths"
)

// mount is an opened [Mount].
type mount struct {
	guest  string   // clean guest path, "/data"
	comps  []string // guest path components, ["data"]
	fd     int      // O_PATH|O_DIRECTORY descriptor of the host directory
	rw     bool
	source bool
	// hide is the FS's deny list plus the rules hiding the private paths
	// inside this mount.
	hide *denyList
	// protected holds the normalised names read-only at the top of this
	// mount (nil when none: a read-only mount, or allowWrite "*").
	protected map[string]bool
}

// FS is a set of opened mounts. It is safe for concurrent use; create a
// [Session] per run with [FS.NewSession].
type FS struct {
	mounts     []*mount // sorted by guest path
	deny       *denyList
	maxFile    int64
	maxEntries int
	maxStaged  int64
	openat2    bool

	mu     sync.RWMutex // held (read) while root descriptors are in use
	closed bool
}

// New checks cfg and opens every mount's host directory once (O_PATH,
// O_DIRECTORY). It probes openat2 with one call on the first root: when
// the call fails (an old kernel, or a seccomp filter returning ENOSYS or
// EPERM) the fallback resolver is used. Errors have [codes.FSConfig] and may
// name host paths.
func New(cfg Config) (*FS, error) {
	cfgErr := func(format string, a ...any) error {
		return &Error{Code: codes.FSConfig, Op: "new", Message: fmt.Sprintf(format, a...)}
	}
	deny, err := newDenyList(cfg.Deny)
	if err != nil {
		return nil, cfgErr("%v", err)
	}
	if len(cfg.Mounts) == 0 {
		return nil, cfgErr("no mounts")
	}
	f := &FS{
		deny:       deny,
		maxFile:    cfg.MaxFileSize,
		maxEntries: cfg.MaxEntries,
		maxStaged:  cfg.MaxStaged,
	}
	if f.maxFile <= 0 {
		f.maxFile = DefaultMaxFileSize
	}
	f.maxFile = min(f.maxFile, MaxFileSizeLimit)
	if f.maxEntries <= 0 {
		f.maxEntries = DefaultMaxEntries
	}
	if f.maxStaged <= 0 {
		f.maxStaged = DefaultMaxStaged
	}
	fail := func(err error) (*FS, error) {
		for _, m := range f.mounts {
			unix.Close(m.fd)
		}
		return nil, err
	}
	for _, mc := range cfg.Mounts {
		comps, perr := splitGuest(mc.Guest)
		if perr != "" {
			return fail(cfgErr("mount %q: guest path: %s", mc.Guest, perr))
		}
		if deny.hiddenAny(comps) {
			return fail(cfgErr("mount %q: guest path matches a deny pattern", mc.Guest))
		}
		g := "/" + strings.Join(comps, "/")
		for _, o := range f.mounts {
			if hasPrefix(comps, o.comps) || hasPrefix(o.comps, comps) {
				return fail(cfgErr("mounts %q and %q overlap", o.guest, g))
			}
		}
		var rw bool
		switch mc.Mode {
		case ReadOnly, "":
		case ReadWrite:
			rw = true
		default:
			return fail(cfgErr("mount %q: mode %q is neither %q nor %q", g, mc.Mode, ReadOnly, ReadWrite))
		}
		if mc.Host == "" {
			return fail(cfgErr("mount %q: no host directory", g))
		}
		host, err := filepath.Abs(mc.Host)
		if err != nil {
			return fail(cfgErr("mount %q: host directory %q: %v", g, mc.Host, err))
		}
		priv, err := privateRules(host, cfg.Private)
		if err != nil {
			return fail(cfgErr("mount %q: %v", g, err))
		}
		// as written and with symlinks resolved, as for the private paths
		hosts := []string{host}
		if real, err := filepath.EvalSymlinks(host); err == nil && real != host {
			hosts = append(hosts, real)
		}
		for _, h := range hosts {
			if home := credpaths.HomeWithin(h); rw && home != "" {
				return fail(cfgErr("mount %q: host directory %q is or holds the home directory %q, and the mount is read-write: a program could create the files there that run at login and in every git command (.bash_profile, .config/autostart, .local/bin); mount a project directory, or this one read-only", g, h, home))
			}
			across, refused := deny.hostRules(h)
			if refused != "" {
				return fail(cfgErr("mount %q: host directory %q is in what the deny pattern %q hides; mount a directory outside it", g, h, refused))
			}
			priv = append(priv, across...)
		}
		system, err := systemPathRules(hosts)
		if err != nil {
			return fail(cfgErr("mount %q: %v", g, err))
		}
		priv = append(priv, system...)
		fd, err := unix.Open(host, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return fail(&Error{Code: codes.FSConfig, Op: "new", Message: fmt.Sprintf("mount %q: host directory %q", g, host), Err: err})
		}
		fs := pseudoFS(fd)
		for _, h := range hosts { // the path as given and with its symlinks resolved
			if fs != "" {
				break
			}
			fs = pseudoAlong(h)
		}
		if fs != "" {
			unix.Close(fd)
			return fail(cfgErr("mount %q: host directory %q is on or under %s, the kernel's view of processes and devices (every process's environment and arguments); fs never exposes it", g, host, fs))
		}
		f.mounts = append(f.mounts, &mount{guest: g, comps: comps, fd: fd, rw: rw, source: mc.Source,
			hide: deny.with(priv)})
	}
	if err := f.setProtected(cfg.AllowWrite); err != nil {
		return fail(cfgErr("%v", err))
	}
	slices.SortFunc(f.mounts, func(a, b *mount) int { return strings.Compare(a.guest, b.guest) })
	if !cfg.Fallback {
		f.openat2 = probeOpenat2(f.mounts[0].fd)
	}
	return f, nil
}

// probeOpenat2 reports whether openat2 with the resolve flags this
// package uses works, by calling it once.
func probeOpenat2(root int) bool {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: resolveFlags}
	for range maxRetries {
		fd, err := unix.Openat2(root, ".", &how)
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return false // ENOSYS, EPERM (seccomp), EINVAL, E2BIG...
		}
		unix.Close(fd)
		return true
	}
	return false
}

// Close closes the mount roots. It waits for running operations; later
// ones fail with [codes.FSClosed].
func (f *FS) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil
	}
	f.closed = true
	var first error
	for _, m := range f.mounts {
		if err := unix.Close(m.fd); err != nil && first == nil {
			first = &Error{Code: codes.FSIO, Op: "close", Message: "closing mount " + m.guest, Err: err}
		}
	}
	return first
}

// Resolver returns "openat2" or "fallback": how paths are resolved.
func (f *FS) Resolver() string {
	if f.openat2 {
		return "openat2"
	}
	return "fallback"
}

// IsSource reports whether guestPath lies in a mount marked
// [Mount.Source]. Malformed paths and paths outside every mount are not
// sources.
func (f *FS) IsSource(guestPath string) bool {
	comps, perr := splitGuest(guestPath)
	if perr != "" {
		return false
	}
	m, _ := f.mountFor(comps)
	return m != nil && m.source
}

// Path limits, as on Linux.
const (
	maxNameLen = 255
	maxPathLen = 4096
)

// splitGuest checks an absolute guest path and returns its components,
// without "." and empty ones. The second result is a message when the
// path is malformed.
func splitGuest(p string) ([]string, string) {
	switch {
	case len(p) > maxPathLen:
		return nil, fmt.Sprintf("path is longer than %d bytes", maxPathLen)
	case strings.IndexByte(p, 0) >= 0:
		return nil, "path contains a NUL byte"
	case strings.IndexByte(p, '\\') >= 0:
		return nil, `path contains a backslash; separate components with "/"`
	case !utf8.ValidString(p):
		return nil, "path is not valid UTF-8"
	case !strings.HasPrefix(p, "/"):
		return nil, `path is relative; guest paths are absolute, like "/data/file.txt"`
	}
	var comps []string
	for c := range strings.SplitSeq(p, "/") {
		switch {
		case c == "" || c == ".":
			continue
		case c == "..":
			return nil, `".." is not allowed in paths`
		case len(c) > maxNameLen:
			return nil, fmt.Sprintf("a path component is longer than %d bytes", maxNameLen)
		}
		comps = append(comps, c)
	}
	return comps, ""
}

// hasPrefix reports whether comps starts with prefix.
func hasPrefix(comps, prefix []string) bool {
	return len(comps) >= len(prefix) && slices.Equal(comps[:len(prefix)], prefix)
}

// mountFor returns the mount holding comps and the components beneath
// its root, or nil.
func (f *FS) mountFor(comps []string) (*mount, []string) {
	var best *mount
	for _, m := range f.mounts {
		if hasPrefix(comps, m.comps) && (best == nil || len(m.comps) > len(best.comps)) {
			best = m
		}
	}
	if best == nil {
		return nil, nil
	}
	return best, comps[len(best.comps):]
}

// virtualDir reports whether comps is a proper ancestor of a mount (such
// as "/" when the mounts are "/data" and "/out"): a read-only directory
// that lists the mounts beneath it.
func (f *FS) virtualDir(comps []string) bool {
	for _, m := range f.mounts {
		if len(m.comps) > len(comps) && hasPrefix(m.comps, comps) {
			return true
		}
	}
	return false
}

// mountList names the mounts, for messages.
func (f *FS) mountList() string {
	names := make([]string, len(f.mounts))
	for i, m := range f.mounts {
		names[i] = m.guest
	}
	return strings.Join(names, ", ")
}
