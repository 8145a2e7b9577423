package modebox

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modebox/modebox/internal/builtin"
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
// the built-in list: .env, .env.*, *.pem, *.key, id_rsa*, id_ed25519*,
// .git/) and caps MaxFileSize (default 16 MiB), MaxEntries (default
// 10,000) and MaxStaged (bytes one run may stage, default 64 MiB).
// Fallback forces the portable path resolver (tests). See
// docs/capabilities.md.
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

// newBuiltins enables the built-ins cfg configures, in a fixed order.
func newBuiltins(cfg EngineConfig) (caps []*builtin.Capability, err error) {
	defer func() {
		if err != nil {
			_ = closeBuiltins(caps)
			caps = nil
		}
	}()
	sources, err := sourceDirs(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Shell != nil {
		sc := *cfg.Shell
		// source mounts are hidden from sh(): their data reaches the
		// program only through fs, where the flow check sees it
		sc.DenyRead = append(slices.Clip(sc.DenyRead), sources...)
		tokenDir := ""
		if cfg.Continuations != nil {
			if ds, ok := cfg.Continuations.Store.(*seal.DirStore); ok {
				tokenDir = ds.Dir
			}
		}
		c, err := sh.New(sc, sh.StatePaths(tokenDir))
		if err != nil {
			return caps, err
		}
		caps = append(caps, c)
	}
	if cfg.Fetch != nil {
		c, err := fetch.New(*cfg.Fetch)
		if err != nil {
			return caps, err
		}
		caps = append(caps, c)
	}
	if cfg.FS != nil {
		c, err := fs.New(*cfg.FS)
		if err != nil {
			return caps, err
		}
		caps = append(caps, c)
	}
	return caps, nil
}

func closeBuiltins(caps []*builtin.Capability) error {
	var errs []error
	for _, c := range caps {
		if c.Close != nil {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}

// sourceDirs returns the host directories of the fs source mounts
// (absolute, symlinks resolved, glob characters escaped), for sh() to
// hide. It refuses what would let a source's data skip the flow check: a
// shell workspace inside a source mount (it cannot be hidden), and a plain
// mount whose host directory overlaps a source mount's (the same files
// without the mark).
func sourceDirs(cfg EngineConfig) ([]string, error) {
	if cfg.FS == nil {
		return nil, nil
	}
	real := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			p = a
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		return p
	}
	var out []string
	for _, m := range cfg.FS.Mounts {
		if !m.Source || m.Host == "" {
			continue
		}
		src := real(m.Host)
		for _, o := range cfg.FS.Mounts {
			if o.Source || o.Host == "" {
				continue
			}
			if h := real(o.Host); pathWithin(h, src) || pathWithin(src, h) {
				return nil, &ConfigError{Field: "FS.Mounts", Reason: fmt.Sprintf("mount %s (host %s) overlaps the source mount %s (host %s): its files would be readable without the source mark; mark both as sources or separate them", o.Guest, o.Host, m.Guest, m.Host)}
			}
		}
		if cfg.Shell != nil {
			for _, w := range cfg.Shell.Workspace {
				if pathWithin(real(w), src) {
					return nil, &ConfigError{Field: "Shell.Workspace", Reason: fmt.Sprintf("workspace %s is inside the fs source mount %s (host %s): sh() would read the source's data without the flow check; use a workspace outside it", w, m.Guest, m.Host)}
				}
			}
		}
		out = append(out, globEscape(src))
	}
	return out, nil
}

// pathWithin reports whether p is dir or inside it (both clean, absolute).
func pathWithin(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

// globEscape makes p match itself only as a filepath.Match pattern.
func globEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		switch r {
		case '*', '?', '[', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
