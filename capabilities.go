package modebox

import (
	"github.com/modebox/modebox/internal/builtin"
	"github.com/modebox/modebox/internal/builtin/all"
	"github.com/modebox/modebox/internal/builtin/fetch"
	"github.com/modebox/modebox/internal/builtin/fs"
	"github.com/modebox/modebox/internal/builtin/sh"
	"github.com/modebox/modebox/internal/mountfs"
	"github.com/modebox/modebox/internal/sandbox"
	"github.com/modebox/modebox/internal/seal"
)

// The built-ins' configurations are defined once, in the package of the
// built-in (or of the layer it drives), and named here.

// ShellConfig enables sh(): shell commands run under bubblewrap (Linux) or
// Seatbelt (macOS): Workspace (the writable directories, the first the
// default working directory), Network (nil: none), DenyRead, Env,
// Timeout and MaxTimeout, MaxOutput, Bwrap, Bridge (see MaybeBridge),
// Private, AllowWrite, Limits and User. See docs/capabilities.md.
type ShellConfig = sh.Config

// ShellLimits bounds a shell command's resources: Processes, OpenFiles,
// FileSize, Memory and TmpSize. A zero field takes its default; see
// docs/security.md.
type ShellLimits = sh.Limits

// ShellNetwork limits a shell's network to the hosts listed in Allow,
// reached through a filtering proxy run by modebox.
type ShellNetwork = sh.Network

// FetchConfig enables fetch(): web requests made by the host. Allow lists
// the hosts that need no approval; Headers injects headers per entry
// (never visible to the program); MaxBytes, MaxHeaderBytes,
// MaxRequestBody, Timeout, MaxRequests and MaxRedirects cap requests;
// Source marks responses as a data-flow source; Resolver, RootCAs and
// Getenv replace the system's resolver, roots and environment. See
// docs/capabilities.md.
type FetchConfig = fetch.Config

// FSConfig enables fs: files over Mounts, with Deny globs hidden (added to
// the built-in credential list: .env, .env.*, *.pem, *.key, id_rsa*,
// .git/, .ssh, .aws, .config/gh, .cargo/credentials*, ...; a pattern with
// a "/" matches that run of path components at any depth), Private host
// paths hidden even inside a mount (modebox's own state is always
// private; the config package adds the configuration file in use) and
// caps MaxFileSize (default 16 MiB), MaxEntries (default 10,000) and
// MaxStaged (bytes one run may stage, default 64 MiB). The protected
// names (.git, .bashrc, .vscode, .mcp.json, modebox.json, ...) stay
// read-only at the top of each read-write mount unless AllowWrite lists
// them for it (keyed by the mount's guest path). Fallback forces the
// portable path resolver (tests). See docs/capabilities.md.
type FSConfig = fs.Config

// Mount exposes a Host directory at a Guest path ("/data"), with a Mode
// (MountReadOnly, the default, or MountReadWrite); Source marks reads from
// it as a data-flow source.
type Mount = mountfs.Mount

// MountMode is a mount's access: MountReadOnly ("ro") or MountReadWrite
// ("rw").
type MountMode = mountfs.Mode

// Mount modes.
const (
	MountReadOnly  = mountfs.ReadOnly
	MountReadWrite = mountfs.ReadWrite
)

// MaybeBridge runs the shell sandbox's network bridge and exits when this
// process was started as one; otherwise it returns at once, doing nothing.
// A program that embeds modebox need not call it.
//
// A shell with a network (ShellConfig.Network) reaches it through a small
// bridge that runs inside the sandbox and relays the sandbox's connections
// to modebox's filtering proxy. By default the bridge is the running
// executable itself, started again with a marker argument; the sandbox
// package recognises that while the program initialises, before main and
// before the init functions of the packages initialised after it, runs the
// bridge and exits. MaybeBridge does the same check, for a program that
// wants it explicit; calling it is harmless. ShellConfig.Bridge names
// another executable to use instead (such as the modebox binary).
func MaybeBridge() { sandbox.MaybeBridge() }

// FilesReport lists what a run's staged file writes did when it ended.
type FilesReport struct {
	// Committed are the guest paths written or removed.
	Committed []string `json:"committed"`
	// Conflicts are changes not applied because the file changed since
	// the run read (or staged) it; those files were left as they were.
	Conflicts []FileConflict `json:"conflicts,omitempty"`
}

// FileConflict is a staged change that was not applied.
type FileConflict struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// newBuiltins makes the built-ins cfg enables (internal/builtin/all).
func newBuiltins(cfg EngineConfig) ([]*builtin.Capability, error) {
	tokenDir := ""
	if cfg.Continuations != nil {
		if ds, ok := cfg.Continuations.Store.(*seal.DirStore); ok {
			tokenDir = ds.Dir
		}
	}
	return all.New(all.Config{Shell: cfg.Shell, Fetch: cfg.Fetch, FS: cfg.FS, TokenDir: tokenDir})
}
