//go:build linux

package sandbox

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/modebox/modebox/internal/codes"
)

// checkLimits fills in the default resource limits and refuses impossible
// ones.
func checkLimits(cfg *Config) error {
	l := &cfg.Limits
	def := func(v *int64, d int64, name string) error {
		if *v == 0 {
			*v = d
		}
		if *v < 0 {
			return configError("limit %s is negative (%d)", name, *v)
		}
		return nil
	}
	p, f := int64(l.Processes), int64(l.OpenFiles)
	for _, e := range []error{
		def(&p, DefaultProcesses, "processes"), def(&f, DefaultOpenFiles, "open files"),
		def(&l.FileSize, DefaultFileSize, "file size"), def(&l.Memory, DefaultMemory, "memory"),
		def(&l.TmpSize, DefaultTmpSize, "tmp size"),
	} {
		if e != nil {
			return e
		}
	}
	if p < 16 || f < 64 || l.FileSize < 1<<20 || l.Memory < 64<<20 || l.TmpSize < 1<<20 {
		return configError("limits too small to run a shell: at least 16 processes, 64 open files, 1 MiB file size, 64 MiB memory and 1 MiB tmp size")
	}
	if p > 1<<22 || f > 1<<20 {
		return configError("limits too large: at most %d processes and %d open files", 1<<22, 1<<20)
	}
	// A hard limit above modebox's own cannot be set inside.
	var cur unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &cur) == nil && cur.Max != unix.RLIM_INFINITY && uint64(f) > cur.Max {
		f = int64(cur.Max)
	}
	if unix.Getrlimit(unix.RLIMIT_NPROC, &cur) == nil && cur.Max != unix.RLIM_INFINITY && uint64(p) > cur.Max {
		p = int64(cur.Max)
	}
	l.Processes, l.OpenFiles = int(p), int(f)
	return nil
}

// envFd is the descriptor on which the limit prelude reads the command's
// environment (after the seccomp program, 3, and bwrap's status, 4).
const envFd = 5

// limitPrelude is the shell text that applies the limits (hard and soft)
// before the command's script runs: dash calls the process limit -p,
// bash -u. ulimit's -f counts 512-byte blocks, -v KiB. A limit that
// cannot be set stops the command (exit 126) rather than run it unbounded.
//
// This shell is the sandbox's pid 1 (bwrap runs with --as-pid-1) and
// carries the seccomp filter like every process inside; it runs the
// script as its child rather than exec it, so that the script is not pid
// 1 (which the kernel shields from its own signals) and exits with the
// script's status.
//
// Its argument is the script. The command's environment is not on any
// command line, where every user on the host can read it in
// /proc/PID/cmdline: it comes on descriptor envFd as shell assignments
// (see envScript). After the limits are set, the prelude starts a shell
// with an empty environment (env -i) that reads them, exports them, closes
// the descriptor and execs the script's shell: the script gets exactly
// that environment. This shell, and the network bridge and the seal before
// it, run with pid1Env only, so that nothing a program puts in the
// environment (LD_PRELOAD, say) runs in them before the limits or the
// seal; the reading shell is already running when the variables are set,
// so they take effect only in the script's shell.
func limitPrelude(l Limits) string {
	n := strconv.Itoa(l.Processes)
	return fmt.Sprintf("{ ulimit -u %s 2>/dev/null || ulimit -p %s; } && ulimit -n %d && ulimit -f %d && ulimit -v %d && ulimit -c 0 || "+
		"{ echo 'modebox: cannot set the resource limits' >&2; exit 126; }; /usr/bin/env -i /bin/sh -c '"+
		"set -a; . /dev/fd/%[6]d || { echo \"modebox: cannot read the environment\" >&2; exit 126; }; "+
		"set +a; exec /bin/sh -c \"$1\" sh %[6]d<&-' sh \"$1\"",
		n, n, l.OpenFiles, l.FileSize/512, l.Memory/1024, envFd)
}

// pid1Env is the whole environment of the sandbox's first processes (the
// network bridge, the seal, the limit prelude): fixed, so that nothing of
// a program's choosing runs in them.
var pid1Env = map[string]string{"PATH": "/usr/local/bin:/usr/bin:/bin"}

// commandTail is what bwrap runs for script: the limit prelude, given the
// script; the environment goes on descriptor envFd (see runWith).
func (s *Sandbox) commandTail(script string) []string {
	return []string{"/bin/sh", "-c", s.limits, "sh", script}
}

// envScript renders env as shell exports, one a line in a fixed order,
// each value in single quotes (a quote inside closes them, is escaped with
// a backslash and reopens them): the limit prelude sources them. Names are
// checked (envName) and values hold no NUL, so any other byte, newlines
// included, comes through unchanged. Each is "command export", not a bare
// assignment: where /bin/sh is bash, a variable bash keeps read-only (UID,
// EUID, PPID, SHELLOPTS) would make a bare assignment end the shell;
// through "command" the export of that one variable fails with a message
// and the rest go on. The script ends with ":", so that "." returns 0
// even when the last export failed so (names are sorted: UID is often
// last).
func envScript(env map[string]string) []byte {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(env)) {
		b.WriteString("command export ")
		b.WriteString(k)
		b.WriteString("='")
		b.WriteString(strings.ReplaceAll(env[k], "'", `'\''`))
		b.WriteString("'\n")
	}
	b.WriteString(":\n")
	return []byte(b.String())
}

// preparePrivate resolves Config.Private, creates missing private
// directories inside a workspace (so they can be hidden) and refuses what
// cannot be guaranteed: a private path inside a workspace reached through
// a symbolic link, which a command could replace.
func (s *Sandbox) preparePrivate() error {
	for _, p := range s.cfg.Private {
		p = expandUserPath(p, s.home)
		if !filepath.IsAbs(p) {
			return configError("private path %q is not absolute", p)
		}
		p = filepath.Clean(p)
		w, ok := s.workspaceOf(p)
		if !ok {
			// Outside every workspace: read-only for commands; hidden
			// when it exists (symlinks resolved by the masks).
			s.private = append(s.private, p)
			continue
		}
		if p == w {
			return configError("workspace %s is modebox's own state or configuration (%s), which commands must not reach; choose another workspace", w, p)
		}
		// Every component between the workspace and p must be a real
		// directory (or p itself a real file): a command could replace a
		// symbolic link and point modebox at files it wrote.
		rel, _ := filepath.Rel(w, p)
		cur := w
		for _, c := range strings.Split(rel, string(filepath.Separator)) {
			cur = filepath.Join(cur, c)
			fi, err := os.Lstat(cur)
			if os.IsNotExist(err) {
				break
			}
			if err != nil {
				return &Error{Code: codes.SandboxConfig, Reason: fmt.Sprintf("cannot check %s: %v", cur, err), Err: err}
			}
			if fi.Mode()&os.ModeSymlink != 0 {
				return configError("%s is a symbolic link inside the workspace %s, on the way to modebox's own state or configuration (%s): a command could replace it, so modebox refuses; make it a real directory or choose another workspace", cur, w, p)
			}
		}
		if _, err := os.Lstat(p); os.IsNotExist(err) {
			// State directories modebox creates on first use: create
			// them now, private, so they can be hidden.
			if err := os.MkdirAll(p, 0o700); err != nil {
				return &Error{Code: codes.SandboxConfig, Reason: fmt.Sprintf("cannot create %s to hide it from commands: %v", p, err), Err: err}
			}
		}
		s.private = append(s.private, p)
	}
	return nil
}

// workspaceOf returns the resolved workspace that contains p, trying p as
// given and with symlinks resolved.
func (s *Sandbox) workspaceOf(p string) (string, bool) {
	cands := []string{p}
	if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
		cands = append(cands, r)
	}
	for _, c := range cands {
		for i, w := range s.workspaces {
			if within(c, w) {
				return w, true
			}
			if cw := filepath.Clean(s.cfg.Workspace[i]); within(c, cw) {
				return w, true
			}
		}
	}
	return "", false
}

// isPrivate reports whether the (resolved) path p is one of the private
// paths.
func (s *Sandbox) isPrivate(p string) bool {
	for _, q := range s.private {
		if q == p {
			return true
		}
		if r, err := filepath.EvalSymlinks(q); err == nil && r == p {
			return true
		}
	}
	return false
}

// pins returns the directories strictly between a workspace and a path
// masked inside it. Each is bound onto itself so that it is a mount point
// in the sandbox: a command cannot rename it away (EBUSY) and recreate
// the masked path, unmasked, under the old name.
func (s *Sandbox) pins(masks []mask) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range masks {
		w, ok := s.workspaceOf(m.path)
		if !ok || w == m.path {
			continue
		}
		for d := filepath.Dir(m.path); d != w && within(d, w); d = filepath.Dir(d) {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	// parents first
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j]) < len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// protectedPaths returns the Protected names that exist now at the top of
// each workspace and are not allowed to be written there. Symbolic links
// are skipped: binding over one would protect its target, not the link.
func (s *Sandbox) protectedPaths() []string {
	names := s.cfg.Protected
	if names == nil {
		names = DefaultProtected
	}
	var out []string
	for i, w := range s.workspaces {
		allow := s.cfg.AllowWrite[w]
		if a, ok := s.cfg.AllowWrite[s.cfg.Workspace[i]]; ok {
			allow = append(append([]string(nil), allow...), a...)
		}
		if a, ok := s.cfg.AllowWrite[filepath.Clean(s.cfg.Workspace[i])]; ok {
			allow = append(append([]string(nil), allow...), a...)
		}
	names:
		for _, n := range names {
			for _, a := range allow {
				if a == "*" || a == n {
					continue names
				}
			}
			p := filepath.Join(w, n)
			fi, err := os.Lstat(p)
			if err != nil || fi.Mode()&os.ModeSymlink != 0 {
				continue
			}
			out = append(out, p)
		}
	}
	return out
}
