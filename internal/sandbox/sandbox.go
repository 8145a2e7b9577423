// Package sandbox runs shell commands on the host inside an operating-system
// sandbox: bubblewrap with a seccomp filter on Linux, sandbox-exec (Seatbelt)
// on macOS. It backs modebox's built-in sh() tool.
//
// The policy is the same everywhere:
//
//   - writes only in the configured workspace directories and a private /tmp;
//   - reads everywhere except a deny list: credential files and directories
//     (SSH, cloud, registry and package-manager tokens, shell history,
//     browser profiles; as root also /etc/shadow, /etc/sudoers, the SSH host
//     keys and /root) plus Config.DenyRead;
//   - no network, or only a filtering proxy reached through a Unix socket
//     (Config.Network);
//   - an environment rebuilt from an allowlist (modebox's own environment
//     never reaches the command);
//   - on Linux, no new namespaces, no mounts, no ptrace, no io_uring, no
//     kernel-module or keyring calls, no TIOCSTI, no set-user-ID or
//     set-group-ID mode bits (a file planted in the workspace would keep
//     them on the host), enforced by seccomp with a guard that kills calls
//     from any other architecture (the 32-bit int $0x80 path);
//   - no descriptor of modebox's reaches the sandbox but its standard
//     streams, and the command's environment is not on any command line;
//   - on timeout or cancellation the whole process tree is killed;
//   - modebox's own state (Config.Private) hidden even inside a workspace,
//     and the names the host runs later (DefaultProtected: .git, .envrc,
//     .vscode, modebox.json, ...) read-only at the top of each workspace;
//   - /proc/sys and /sys read-only; no bwrap init (the command, or the
//     network bridge, which is not dumpable, is pid 1); socket families
//     from an allow list; resource limits (Config.Limits) and sized tmpfs;
//   - on Linux as root, commands run as an unprivileged host user
//     (Config.User), as host uid 0 only when Config.User is "root".
//
// The package fails closed: if the sandbox cannot be set up, New and Run
// return an *Error with code SANDBOX_UNAVAILABLE (or SANDBOX_FAILED) that
// says what failed and how to fix it; nothing is ever run unconfined.
//
// A workspace may not lie inside a masked path (New refuses it), except
// that when running as root a workspace inside /root is allowed: /root is
// hidden behind an empty read-only tmpfs and only the workspace is bound
// back into it.
package sandbox

import (
	"errors"
	"fmt"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/credpaths"
)

// MinTimeout is the shortest time limit a command may have.
const MinTimeout = time.Millisecond

// MaxOutputLimit is the largest Config.MaxOutput accepted.
const MaxOutputLimit = 1 << 30

// Network bridge constants.
const (
	// BridgeCommand is the first argument that makes MaybeBridge run the
	// network bridge.
	BridgeCommand = "__modebox-bridge"
	// BridgeAddr is the address of the proxy inside the sandbox (the
	// bridge listens there, in the sandbox's own loopback).
	BridgeAddr = "127.0.0.1:3128"
)

// Defaults applied by New when the corresponding Config field is zero.
const (
	DefaultTimeout    = 30 * time.Second
	DefaultMaxTimeout = 10 * time.Minute
	DefaultMaxOutput  = 1 << 20
)

// Config configures a Sandbox.
type Config struct {
	// Workspace lists the directories the command may write, in order.
	// Each must be an absolute path to an existing directory. The first is
	// the default working directory.
	Workspace []string
	// DenyRead lists extra paths hidden from the command, in addition to
	// the built-in credential masks. "~" is expanded to $HOME and glob
	// patterns are expanded with filepath.Glob; paths that do not exist are
	// ignored.
	DenyRead []string
	// Env adds environment variables to every command.
	Env map[string]string
	// Timeout is the default time limit of a command (DefaultTimeout if
	// zero); MaxTimeout caps Command.Timeout (DefaultMaxTimeout if zero).
	Timeout, MaxTimeout time.Duration
	// MaxOutput caps each of stdout and stderr, in bytes (DefaultMaxOutput
	// if zero).
	MaxOutput int
	// Network, when nil, gives the command no network at all. Otherwise
	// the command reaches only the proxy listening on Network.ProxySocket.
	Network *Network
	// Bwrap is the path of the bubblewrap executable; if empty it is
	// looked up in PATH. (Linux only.)
	Bwrap string
	// Private lists host paths (files or directories) no command may read
	// or write, even inside a workspace: modebox's own state (its key
	// file, used-token store, engine cache) and the configuration files it
	// loaded. A missing directory inside a workspace is created (mode
	// 0700) so that it can be hidden. New refuses a workspace inside a
	// private path, and a private path inside a workspace that is reached
	// through a symbolic link (a command could swap the link).
	Private []string
	// Protected lists names, relative to each workspace directory, that
	// stay read-only inside it (files the host or the user's tools run
	// later). nil means DefaultProtected; the names that exist when a
	// command starts are protected.
	Protected []string
	// AllowWrite maps a workspace directory (as configured, or resolved)
	// to the Protected names left writable in it; "*" leaves all of them
	// writable there.
	AllowWrite map[string][]string
	// Limits bounds each command's resources (zero fields: the defaults).
	Limits Limits
	// User is who commands run as on the host when modebox runs as root
	// (Linux): empty means the owner of the first workspace if that is
	// not root, else nobody; a user name, uid or "uid:gid" names one;
	// "root" (UserRoot) runs them as host uid 0, which only this explicit
	// value does. The workspaces must be writable by that user (New says
	// so otherwise). When modebox is not root, commands run as modebox's
	// own user and User may only name it.
	User string
}

// Limits bounds a command's resources. A zero field takes its default.
// (Linux only; Seatbelt has no equivalent.)
type Limits struct {
	// Processes caps the processes and threads of the command's user in
	// the sandbox (RLIMIT_NPROC; DefaultProcesses). The kernel does not
	// apply it to processes of host uid 0.
	Processes int
	// OpenFiles caps each process's open files (RLIMIT_NOFILE;
	// DefaultOpenFiles).
	OpenFiles int
	// FileSize caps the size of a file a process writes (RLIMIT_FSIZE;
	// DefaultFileSize); a write beyond it kills the writer with SIGXFSZ
	// (exit status 153).
	FileSize int64
	// Memory caps each process's address space (RLIMIT_AS;
	// DefaultMemory); an allocation beyond it fails.
	Memory int64
	// TmpSize caps the sandbox's private /tmp (a tmpfs; DefaultTmpSize);
	// /dev/shm gets an eighth of it. A write beyond it fails with ENOSPC.
	TmpSize int64
}

// Default limits.
const (
	DefaultProcesses = 1024
	DefaultOpenFiles = 4096
	DefaultFileSize  = 4 << 30
	DefaultMemory    = 8 << 30
	DefaultTmpSize   = 1 << 30
)

// DefaultProtected are the names kept read-only at the top of every
// writable workspace: version-control metadata and hooks, shell start-up
// files, direnv, editor and agent configuration (task and launch files,
// MCP server lists) and modebox's own configuration: files that the
// user's tools run or load later, outside the sandbox. It is
// [credpaths.Protected], the list the fs capability also keeps read-only
// at the top of each read-write mount.
var DefaultProtected = credpaths.Protected

// Network describes the filtering proxy a sandboxed command may use.
type Network struct {
	// ProxySocket is the host path of the proxy's Unix socket. The proxy
	// speaks HTTP (plain and CONNECT) and SOCKS5 on it.
	ProxySocket string
	// Bridge is the path of an executable that runs BridgeMain when its
	// first argument is "__modebox-bridge" (see MaybeBridge); if empty,
	// os.Executable() is used.
	Bridge string
}

// Command is one shell command to run in the sandbox.
type Command struct {
	// Script is run as /bin/sh -c Script.
	Script string
	// Cwd is the working directory: inside a workspace directory, or /tmp.
	// It defaults to the first workspace directory.
	Cwd string
	// Env adds environment variables for this command (after Config.Env).
	Env map[string]string
	// Stdin is the command's standard input (empty: /dev/null).
	Stdin []byte
	// Timeout limits the command (Config.Timeout if zero), capped by
	// Config.MaxTimeout.
	Timeout time.Duration
	// MaxOutput, when positive and below Config.MaxOutput, caps each of
	// this command's stdout and stderr instead (a caller that cannot use
	// more: a run's value limit).
	MaxOutput int
}

// maxOutput is the cap on each of c's output streams under cfg.
func (c *Command) maxOutput(cfg *Config) int {
	if c.MaxOutput > 0 && c.MaxOutput < cfg.MaxOutput {
		return c.MaxOutput
	}
	return cfg.MaxOutput
}

// Result is the outcome of a command that ran.
type Result struct {
	// ExitCode is the command's exit status; 128+N if it was killed by
	// signal N (137 after a timeout).
	ExitCode int
	// Stdout and Stderr hold the command's output, up to MaxOutput bytes
	// each, with invalid UTF-8 replaced by U+FFFD.
	Stdout, Stderr string
	// TimedOut reports that the command was killed at its time limit.
	TimedOut bool
	// Truncated reports that some output was discarded beyond MaxOutput.
	Truncated bool
	// Duration is the wall time of the command, sandbox setup included.
	Duration time.Duration
}

// Check is one line of a Probe report.
type Check struct {
	Name   string
	OK     bool
	Detail string
}

// Error is returned when the sandbox cannot be set up or the input is
// invalid. Reason says what failed and Fix what to change.
type Error struct {
	Code   codes.Code
	Reason string
	Fix    string
	Err    error
}

// Error returns the code, the reason and the fix on one line.
func (e *Error) Error() string {
	msg := string(e.Code) + ": " + e.Reason
	if e.Fix != "" {
		msg += " (fix: " + e.Fix + ")"
	}
	return msg
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the code as a string (see [codes.Of]).
func (e *Error) ErrorCode() string { return string(e.Code) }

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, &Error{Code: codes.SandboxUnavailable}) works.
func (e *Error) Is(target error) bool {
	var t *Error
	if !errors.As(target, &t) {
		return false
	}
	return t.Code == e.Code
}

func configError(format string, args ...any) *Error {
	return &Error{Code: codes.SandboxConfig, Reason: fmt.Sprintf(format, args...)}
}

func invalidCommand(format string, args ...any) *Error {
	return &Error{Code: codes.SandboxInvalidCommand, Reason: fmt.Sprintf(format, args...)}
}

// DeniedSyscalls returns the system calls the Linux seccomp filter refuses,
// for documentation; entries with a parenthesis are refused only with the
// arguments described. Calls from any architecture other than x86-64 (or
// arm64 when running there) kill the process; x32 calls fail with ENOSYS.
func DeniedSyscalls() []string {
	out := make([]string, 0, len(deniedNames)+len(conditionalDenials))
	out = append(out, deniedNames...)
	out = append(out, conditionalDenials...)
	return out
}

// deniedNames are refused with EPERM unconditionally (those not present in
// the running architecture's syscall table are skipped).
var deniedNames = []string{
	// Namespaces and mounts.
	"unshare", "setns", "mount", "umount2", "pivot_root", "chroot",
	"fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr",
	// Other processes' memory and file descriptors.
	"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "process_madvise", "kcmp",
	// Kernel attack surface.
	"bpf", "perf_event_open", "userfaultfd",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"kexec_load", "kexec_file_load",
	"init_module", "finit_module", "delete_module",
	"keyctl", "add_key", "request_key",
	"open_by_handle_at", "acct", "swapon", "swapoff", "reboot", "quotactl",
	"lookup_dcookie", "vhangup", "iopl", "ioperm",
	// Legacy x86 calls.
	"uselib", "ustat", "sysfs", "_sysctl", "vm86", "vm86old",
	"create_module", "get_kernel_syms", "query_module", "nfsservctl",
}

// conditionalDenials documents the argument-checked rules.
var conditionalDenials = []string{
	"clone (with any CLONE_NEW* namespace flag)",
	"clone3 (ENOSYS, so libc falls back to clone)",
	"chmod, fchmod, fchmodat, fchmodat2 (a mode with S_ISUID or S_ISGID, on files and directories)",
	"open, openat, creat (O_CREAT or O_TMPFILE with S_ISUID or S_ISGID in the mode), mknod, mknodat (S_ISUID or S_ISGID)",
	"openat2 (ENOSYS: its mode cannot be checked; libc falls back to openat)",
	"personality (anything but 0 = PER_LINUX and 0xffffffff = query)",
	"ioctl (TIOCSTI, TIOCLINUX)",
	"socket (any family but AF_INET and AF_INET6 with a network, AF_NETLINK with NETLINK_ROUTE, and AF_UNIX for the network bridge only)",
}
