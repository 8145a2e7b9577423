// Package mountfs is the host side of the guest's fs API: it exposes
// host directories ("mounts") at guest paths, read-only or read-write,
// and stages the guest's writes until the run ends.
//
// # Guest paths
//
// The guest sees only the mounts. Guest paths are absolute ("/data/a.txt")
// and map to the mount whose guest path is their prefix; mounts may not
// nest, so there is never more than one. Relative paths are refused
// (there is no working directory to resolve them against), as are ".."
// components (even ones that would stay inside the mount), NUL bytes,
// backslashes (so a Windows-style path fails loudly instead of naming an
// odd file), invalid UTF-8, components over 255 bytes and paths over 4096
// bytes; all with [codes.FSInvalidPath]. Empty and "." components are
// dropped. Directories above the mounts ("/" when the mounts are "/data"
// and "/out") exist virtually: they can be listed (showing the mounts)
// and stat-ed, and are read-only. Anything else outside the mounts is
// [codes.FSNotFound]. Host entries whose names no guest path can spell
// (invalid UTF-8, a backslash) are not listed.
//
// # Hidden files
//
// [DefaultDeny] plus [Config.Deny] hide secrets. Every path component
// beneath the mount root is matched, case-insensitively, after removing
// zero-width and other default-ignorable characters, NFKC normalisation
// and removing trailing dots and spaces: ".ENV", ".Git/config",
// ".e\u200bnv", ".env." and "server.PEM" are all hidden. A pattern of
// several components (".config/gh", ".cargo/credentials*") is matched,
// component by component and normalised the same way, against every run
// of components at any depth, so a mount of a home directory, of its
// parent or of / hides ".config/gh" and all beneath it, and the pattern
// goes on across a mount's root (a mount of ~/.config hides its "gh");
// a mount of a hidden directory, or of one inside it, is refused. One
// starting with "/" matches only at the mount root. [Config.Private] paths (modebox's own
// state and configuration file) inside a mount are hidden the same way,
// at the path that reaches them beneath its root; a mount of one, or
// inside one, is refused. Names starting with [TempPrefix] are hidden
// too. A hidden path is absent to reads:
// not listed, not globbed, and Read, Stat, Exists and List answer
// exactly as for a missing path. Writes and removals of a hidden path
// fail with [codes.FSDenied] instead: that answer depends only on the name
// (the same whether or not the file exists), so it reveals nothing, and
// it tells the guest why its write went nowhere.
//
// Known limit: hiding is by name. A hard link with an innocent name to a
// hidden file (or any file) can be read through that name; detecting
// this (st_nlink > 1) would also refuse every ordinary hard-linked file,
// so it is not done. Whoever can create links inside a mount can also
// copy the file there.
//
// # Protected names
//
// In a read-write mount, [DefaultProtected] names at the top of the mount
// (.git, .bashrc, .vscode, .mcp.json, .husky, modebox.json, ...: files the
// host's tools run or load later) stay read-only: writing or removing
// anything at or beneath one fails with [codes.FSDenied], naming the path
// and [Config.AllowWrite], which lifts it per mount and name ("*" for
// all). Reading
// them works. Deeper in the mount (sub/.vscode) they are ordinary names.
//
// # Opening files
//
// [New] opens each mount root once (O_PATH|O_DIRECTORY). Every path is
// resolved from that descriptor with openat2 and RESOLVE_BENEATH,
// RESOLVE_NO_SYMLINKS and RESOLVE_NO_MAGICLINKS (retried on EAGAIN), or,
// where openat2 is not available (detected by calling it once; seccomp
// filters may refuse it with ENOSYS or EPERM) or [Config.Fallback] is
// set, by walking one component at a time with openat and O_NOFOLLOW.
// Both refuse every symlink, in any position, with [codes.FSSymlink] (a
// final symlink can still be listed and stat-ed as [KindSymlink]). Every
// open adds O_NOFOLLOW, O_CLOEXEC, O_NONBLOCK and O_NOCTTY and is
// followed by fstat: only regular files are read or written, only
// directories listed; pipes, sockets and devices are [codes.FSNotAFile].
// A file is first opened with O_PATH, which opens nothing, and only a
// regular file is then opened for reading (through /proc/self/fd, the
// same inode), so a named pipe is never opened: a process blocked
// opening it for writing stays blocked, and no device's open routine
// runs. Directories are opened with O_DIRECTORY, which fails on
// anything else before opening it. Mount points inside a mount are crossed
// (RESOLVE_NO_XDEV is not used). Reading a file hard-linked from outside
// the mount is allowed; writing it replaces the link (see
// [Session.Commit]), never the outside file.
//
// # Sessions
//
// A [Session] per run stages writes and removals; its reads, listings,
// stats and globs see them. [Session.Commit] applies them at the end of
// a successful run, each only if its file has not changed since the run
// first read it or, for a file it did not read, since the change was
// staged (its [Base]); the rest are reported as conflicts.
// [Session.Discard] drops them. Commits into one directory, from any
// process using this package, are serialised with flock on the directory,
// so of two runs that read and write the same file exactly one commits.
// A crash mid-commit can leave a temporary file ([TempPrefix]) next to
// its target, never a half-written target; such files are hidden from
// guests and deleted by the next commit into that directory (New does
// not sweep the mounts). Missing parent directories of a written
// file are created at commit time (mkdirat, symlink-proof, permissions
// 0777 less the umask); only those counted when the write was staged
// (see Limits): a directory that existed then and was removed since is
// a conflict, not created again. Directories cannot be removed, and
// neither symlinks nor hard links can be created.
//
// For a run that pauses and resumes by replaying its program, the host
// records the [Base] that Read, Write and Remove return with each call's
// result, and rebuilds the session with [Session.NoteRead],
// [Session.Restage] and [Session.RestageRemove] without touching the
// files; the commit then checks the files against the original bases, so
// a change made while the run was paused is a conflict.
//
// # Limits
//
// [Config.MaxFileSize] bounds files read and data written (and existing
// files a write or removal would replace, since their content must be
// hashed);
// [Config.MaxEntries] bounds List and Glob results, the entries a Glob
// walks (staged files and the directories they imply cost like host
// entries), the number of files a session may stage changes to, and the
// number of new directories a session's writes may create: a write
// whose missing parent directories, with those counted for earlier
// writes, would exceed it fails with [codes.FSTooManyEntries] when it is
// staged, so the commit's work is bounded too (paths of 4096 bytes allow
// some 2000 nested directories per file, and empty files cost no staged
// bytes). [Config.MaxStaged] bounds the bytes a session stages.
//
// A Glob lists each directory at most once and walks each pair of a
// directory and a pattern position at most once (consecutive "**" count
// as one), so its work is at most the entries walked times the pattern's
// components; [Session.GlobContext] also stops it when the call's
// context ends, as the fs built-in's calls do at the run's deadline.
//
// # Errors
//
// Every error is an [*Error] with a stable code and messages that name
// guest paths only.
package mountfs
