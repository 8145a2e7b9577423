package mountfs

import "time"

// Mode is the access a mount grants: [ReadOnly] or [ReadWrite].
type Mode string

// Mount modes.
const (
	// ReadOnly ("ro") mounts can be read, listed and globbed; writes and
	// removals are refused with [codes.FSReadOnly].
	ReadOnly Mode = "ro"
	// ReadWrite ("rw") mounts can also be written and removed from
	// (staged, then committed by [Session.Commit]).
	ReadWrite Mode = "rw"
)

// Defaults of the [Config] limits.
const (
	// DefaultMaxFileSize is the default [Config.MaxFileSize]: 16 MiB.
	DefaultMaxFileSize = 16 << 20
	// MaxFileSizeLimit is the largest [Config.MaxFileSize] in force,
	// 2 GiB: a run's memory is at most that, so no larger file could reach
	// one, and a read holds the file in the host's memory.
	MaxFileSizeLimit = 2 << 30
	// DefaultMaxEntries is the default [Config.MaxEntries]: 10000
	// entries, staged files or new directories.
	DefaultMaxEntries = 10000
	// DefaultMaxStaged is the default [Config.MaxStaged]: 64 MiB.
	DefaultMaxStaged = 64 << 20
)

// Mount exposes one host directory at a guest path.
type Mount struct {
	// Host is the host directory. A relative path is made absolute
	// against the working directory. Symlinks in Host itself are
	// followed once, when [New] opens it: Host is the operator's choice.
	// Nothing beneath it is ever reached through a symlink.
	Host string
	// Guest is the absolute guest path the directory appears at, such as
	// "/data". "/" is allowed when it is the only mount.
	Guest string
	// Mode is [ReadOnly] or [ReadWrite]; empty means [ReadOnly].
	Mode Mode
	// Source marks the mount as a data-flow source: files read from it
	// carry data the host treats as untrusted (see [FS.IsSource]). The
	// package only carries the flag.
	Source bool
}

// Config configures [New].
type Config struct {
	// Mounts are the directories the guest sees. Guest paths must be
	// distinct and must not nest (no mount inside another).
	Mounts []Mount
	// Deny adds patterns to [DefaultDeny]. A pattern is one or more
	// components separated by "/", each in path.Match syntax; empty and
	// "." components are dropped (so a trailing "/" is allowed), ".." and
	// "**" are refused. A pattern of one component matches any component
	// of a path beneath the mount root: "secrets" hides every directory
	// named secrets and all beneath it. A pattern of several matches any
	// run of components, at any depth: "app/token" hides /data/app/token
	// and /data/x/app/token. A leading "/" anchors a pattern at each
	// mount's root: "/build/key" hides /data/build/key only. Matching is
	// component by component, case-insensitive, and done on names with
	// default-ignorable characters removed, NFKC-normalised and with
	// trailing dots and spaces removed, on both sides.
	Deny []string
	// AllowWrite maps a mount's guest path (as in [Mount.Guest]) to the
	// [DefaultProtected] names left writable at the top of that
	// read-write mount; "*" leaves all of them writable there. Each name
	// is one path component (like ".vscode") or "*"; a key that names no
	// mount is an error. Private paths ([Config.Private]) stay hidden
	// whatever it says.
	AllowWrite map[string][]string
	// Private lists host paths (files or directories) no guest may reach,
	// even inside a mount: modebox's own state (its key directory, the
	// used-token store, the engine cache) and the configuration file in
	// use. One inside a mount is hidden there like a denied path (at the
	// guest path that reaches it without symlinks); a mount whose host
	// directory is a private path or inside one is refused by [New].
	// Paths are made absolute against the working directory and compared
	// both as written and with symlinks resolved.
	Private []string
	// MaxFileSize bounds the size of a file read and of data written;
	// 0 means [DefaultMaxFileSize]; a value above [MaxFileSizeLimit] is
	// taken as that limit.
	MaxFileSize int64
	// MaxEntries bounds the entries a List or Glob returns, the entries
	// a Glob walks (staged files and the directories they imply
	// included), the files a session may stage changes to, and the new
	// directories a session's writes may have the commit create; 0 means
	// [DefaultMaxEntries].
	MaxEntries int
	// MaxStaged bounds the bytes one session may stage; 0 means
	// [DefaultMaxStaged].
	MaxStaged int64
	// Fallback forces the portable resolver (component-by-component
	// openat with O_NOFOLLOW) even when openat2 works. It exists so that
	// tests can run every attack against both resolvers; production code
	// leaves it false and lets [New] detect openat2.
	Fallback bool
}

// Kinds of [Info.Kind].
const (
	// KindFile is a regular file.
	KindFile = "file"
	// KindDir is a directory (a mount root, a directory in a mount, a
	// directory only implied by staged writes, or an ancestor of mounts).
	KindDir = "dir"
	// KindSymlink is a symbolic link: listed and stat-able, never
	// followed.
	KindSymlink = "symlink"
	// KindOther is a named pipe, socket or device: listed and stat-able,
	// never opened for reading or writing.
	KindOther = "other"
)

// Info describes a file or directory as the guest sees it, including the
// session's staged changes.
type Info struct {
	// Path is the clean guest path.
	Path string `json:"path"`
	// Name is the last component of Path ("/" for the root).
	Name string `json:"name"`
	// Kind is [KindFile], [KindDir], [KindSymlink] or [KindOther].
	Kind string `json:"kind"`
	// Size is the size in bytes (of the staged data for a staged file).
	Size int64 `json:"size"`
	// ModTime is the modification time; the staging time for a staged
	// file; zero for directories that exist only virtually.
	ModTime time.Time `json:"modTime"`
	// ReadOnly is true in read-only mounts and for directories above the
	// mounts.
	ReadOnly bool `json:"readOnly,omitempty"`
}

// Base is the state of a file a staged change is committed against: the
// file as the session first read it, or, for a file the session did not
// read, as it was when the change was staged. [Session.Read],
// [Session.Write] and [Session.Remove] return it; the host records it in
// the call's result so that a replayed run can rebuild the session with
// [Session.NoteRead], [Session.Restage] and [Session.RestageRemove]. It
// is JSON-serialisable.
type Base struct {
	// Exists is false when there was no file.
	Exists bool `json:"exists"`
	// Size is the file's size in bytes.
	Size int64 `json:"size,omitempty"`
	// SHA256 is the lower-case hex SHA-256 of the file's content.
	SHA256 string `json:"sha256,omitempty"`
}

// Conflict is a staged change [Session.Commit] did not apply.
type Conflict struct {
	// Path is the guest path.
	Path string `json:"path"`
	// Reason says why, such as "changed by someone else since the run
	// saw it".
	Reason string `json:"reason"`
}

// Report is the outcome of [Session.Commit].
type Report struct {
	// Committed are the guest paths written or removed, sorted.
	Committed []string `json:"committed"`
	// Conflicts are the changes not applied, sorted by path. The files
	// they name were left as they were.
	Conflicts []Conflict `json:"conflicts"`
}
