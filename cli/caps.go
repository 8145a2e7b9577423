package cli

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/config"
)

// capabilities maps the config's shell, fetch and fs sections onto the
// engine's. Relative paths are relative to the configuration file's
// directory (the working directory without a file); "~" is the home
// directory.
func capabilities(cfg *config.Config, ec *modebox.EngineConfig) {
	base := "."
	if cfg.File != "" {
		base = filepath.Dir(cfg.File)
	}
	if s := cfg.ShellTool; s != nil {
		sc := &modebox.ShellConfig{
			DenyRead:   s.DenyRead,
			Env:        s.Env,
			Timeout:    s.Timeout,
			MaxTimeout: s.MaxTimeout,
			MaxOutput:  int(min(s.MaxOutput, 1<<31-1)),
			Bwrap:      s.Bwrap,
			User:       s.User,
		}
		for _, w := range s.Workspace {
			sc.Workspace = append(sc.Workspace, resolvePath(base, w))
		}
		// The configuration file in use is modebox's own: hidden from
		// every command, even inside a workspace.
		if cfg.File != "" {
			sc.Private = append(sc.Private, resolvePath(".", cfg.File))
		}
		for w, names := range s.AllowWrite {
			if sc.AllowWrite == nil {
				sc.AllowWrite = map[string][]string{}
			}
			sc.AllowWrite[resolvePath(base, w)] = names
		}
		sc.Limits = modebox.ShellLimits{
			Processes: s.Limits.Processes, OpenFiles: s.Limits.OpenFiles,
			FileSize: s.Limits.FileSize, Memory: s.Limits.Memory, TmpSize: s.Limits.TmpSize,
		}
		if s.Network != nil {
			sc.Network = &modebox.ShellNetwork{Allow: s.Network.Allow}
		}
		ec.Shell = sc
	}
	if f := cfg.FetchTool; f != nil {
		ec.Fetch = &modebox.FetchConfig{
			Allow: f.Allow, Headers: f.Headers,
			MaxBytes: f.MaxBytes, MaxHeaderBytes: f.MaxHeaderBytes, MaxRequestBody: f.MaxRequestBody,
			Timeout: f.Timeout, MaxRequests: f.MaxRequests, MaxRedirects: f.MaxRedirects, Source: f.Source,
		}
	}
	if f := cfg.FSTool; f != nil {
		fc := &modebox.FSConfig{Deny: f.Deny, MaxFileSize: f.MaxFileSize, MaxEntries: f.MaxEntries}
		for _, m := range f.Mounts {
			fc.Mounts = append(fc.Mounts, modebox.Mount{Host: resolvePath(base, m.Host), Guest: m.Guest, Mode: modebox.MountMode(m.Mode), Source: m.Source})
		}
		ec.FS = fc
	}
}

// resolvePath expands "~" and makes p absolute against base.
func resolvePath(base, p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return p
}
