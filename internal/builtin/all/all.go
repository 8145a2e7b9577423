// Package all is the list of modebox's built-in capabilities: it makes the
// ones a configuration enables, in a fixed order. A new built-in is its own
// folder under internal/builtin (the Go package, its schemas, its .d.ts and
// its prelude.js) plus one line in List and its field in Config.
package all

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
	"github.com/modebox/modebox/internal/errs"
)

// Config holds each built-in's configuration (nil: off) and what the
// built-ins need to know about the rest of the engine.
type Config struct {
	Shell *sh.Config
	Fetch *fetch.Config
	FS    *fs.Config
	// TokenDir is the used-token directory given to the engine ("" if
	// none): modebox's own state, hidden from sh() and fs.
	TokenDir string
}

// Maker makes one built-in from the configuration, or returns nil when the
// configuration leaves it off. sources are the host directories of the fs
// source mounts (glob-escaped), which sh() must not see.
type Maker func(cfg Config, sources []string) (*builtin.Capability, error)

// List is every built-in, in the order New makes them.
var List = []Maker{
	func(cfg Config, sources []string) (*builtin.Capability, error) {
		if cfg.Shell == nil {
			return nil, nil
		}
		sc := *cfg.Shell
		// source mounts are hidden from sh(): their data reaches the
		// program only through fs, where the flow check sees it
		sc.DenyRead = append(slices.Clip(sc.DenyRead), sources...)
		return sh.New(sc, sh.StatePaths(cfg.TokenDir))
	},
	func(cfg Config, _ []string) (*builtin.Capability, error) {
		if cfg.Fetch == nil {
			return nil, nil
		}
		return fetch.New(*cfg.Fetch)
	},
	func(cfg Config, _ []string) (*builtin.Capability, error) {
		if cfg.FS == nil {
			return nil, nil
		}
		fc := *cfg.FS
		// modebox's own state is hidden from fs as from sh(), even
		// inside a mount
		fc.Private = append(sh.StatePaths(cfg.TokenDir), fc.Private...)
		return fs.New(fc)
	},
}

// New makes the built-ins cfg enables, in the order of List. On an error
// it closes what it made.
func New(cfg Config) (caps []*builtin.Capability, err error) {
	defer func() {
		if err != nil {
			_ = Close(caps)
			caps = nil
		}
	}()
	sources, err := sourceDirs(cfg)
	if err != nil {
		return nil, err
	}
	for _, make := range List {
		c, err := make(cfg, sources)
		if err != nil {
			return caps, err
		}
		if c != nil {
			caps = append(caps, c)
		}
	}
	return caps, nil
}

// Close releases what the built-ins hold (a proxy, open directories).
func Close(caps []*builtin.Capability) error {
	var errList []error
	for _, c := range caps {
		if c.Close != nil {
			errList = append(errList, c.Close())
		}
	}
	return errors.Join(errList...)
}

// sourceDirs returns the host directories of the fs source mounts
// (absolute, symlinks resolved, glob characters escaped), for sh() to
// hide. It refuses what would let a source's data skip the flow check: a
// shell workspace inside a source mount (it cannot be hidden), and a plain
// mount whose host directory overlaps a source mount's (the same files
// without the mark).
func sourceDirs(cfg Config) ([]string, error) {
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
				return nil, &errs.Config{Field: "FS.Mounts", Reason: fmt.Sprintf("mount %s (host %s) overlaps the source mount %s (host %s): its files would be readable without the source mark; mark both as sources or separate them", o.Guest, o.Host, m.Guest, m.Host)}
			}
		}
		if cfg.Shell != nil {
			for _, w := range cfg.Shell.Workspace {
				if pathWithin(real(w), src) {
					return nil, &errs.Config{Field: "Shell.Workspace", Reason: fmt.Sprintf("workspace %s is inside the fs source mount %s (host %s): sh() would read the source's data without the flow check; use a workspace outside it", w, m.Guest, m.Host)}
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
