// Package config loads a modebox.json for a program that embeds modebox:
// it finds the file as the CLI does, parses it with the CLI's checks and
// errors, and returns the [modebox.EngineConfig] it describes and its
// "mcpServers" entries, ready for [mcpclient.Start]. The CLI and
// `modebox mcp` build their engines through this package, so a file means
// the same thing everywhere.
//
//	f, err := config.Load("modebox.json") // or config.Open("") for the CLI's lookup
//	if err != nil {
//		return err // a *config.Error: file, JSON Pointer, line and column
//	}
//	c, err := mcpclient.Start(ctx, f.MCPServers, nil)
//	if err != nil {
//		return err
//	}
//	defer c.Close()
//	ec := f.Engine
//	ec.Tools = append(ec.Tools, c.Tools()...)
//	eng, err := modebox.New(ec)
//
// The file's format is in docs/configuration.md; [Schema] is its JSON Schema.
package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modebox/modebox"
	iconfig "github.com/modebox/modebox/internal/config"
	"github.com/modebox/modebox/mcpclient"
)

const (
	// DefaultFile is the file [Find] looks for in the working directory.
	DefaultFile = iconfig.DefaultFile
	// EnvVar names the environment variable [Find] reads.
	EnvVar = iconfig.EnvVar
)

// Error is every error [Find], [Load], [Parse] and [Open] return: a file
// that cannot be found or read, is not valid JSON, or does not describe a
// valid configuration. Its fields are File, Path (the JSON Pointer of the
// offending value), Line, Column, Message, Suggestion and Err (the
// underlying error, so that errors.Is(err, fs.ErrNotExist) works); its
// text is the CLI's, such as
//
//	modebox.json: /tools/github.*/policy: expected "allow", "ask" or "deny", got "maybe"
type Error = iconfig.Error

// File is a loaded modebox.json.
type File struct {
	// Path is the name the file was loaded or parsed under; empty for
	// [Default].
	Path string
	// Engine is the engine configuration the file describes: limits,
	// tool policies, flows, run limits, the approval timeout and the
	// shell, fetch and fs built-ins (nil when off). Relative paths in the
	// shell and fs sections are made absolute against the file's
	// directory (the working directory for [Default]) and "~" is the home
	// directory; the file itself is added to Shell.Private and
	// FS.Private. Tools and
	// Continuations are left to the caller.
	Engine modebox.EngineConfig
	// MCPServers are the "mcpServers" entries by name, disabled ones
	// included ([mcpclient.Start] skips those). Nil when there are none.
	MCPServers map[string]mcpclient.Server
	// TokenStore is "tokenStore" as written: where the CLI records used
	// continuation tokens (a directory or a postgres:// URL); empty when
	// absent.
	TokenStore string
	// MCP is the "mcp" section (settings of `modebox mcp`) as written;
	// nil when absent.
	MCP json.RawMessage
	// Warnings are values that parse but are likely mistakes, each a
	// message starting with the value's JSON Pointer.
	Warnings []string
}

// Find locates the configuration file as the CLI does:
//
//  1. flag (the CLI's --config), if not empty;
//  2. $MODEBOX_CONFIG, if set and not empty;
//  3. ./modebox.json, if it exists.
//
// A path from 1 or 2 must exist, or Find returns an [*Error] wrapping
// fs.ErrNotExist. When nothing is found Find returns "" and nil. Find does
// not read the file; a program that should not consult the environment
// calls [Load] with its own path instead.
func Find(flag string) (path string, err error) {
	path, _, err = iconfig.Find(flag)
	return path, err
}

// Open is [Find] then [Load]; when no file is found it returns [Default].
func Open(flag string) (*File, error) {
	path, err := Find(flag)
	if err != nil {
		return nil, err
	}
	if path == "" {
		return Default(), nil
	}
	return Load(path)
}

// Load reads and parses the file at path. Every error is an [*Error].
func Load(path string) (*File, error) {
	cfg, err := iconfig.Load(path)
	if err != nil {
		return nil, err
	}
	return fromConfig(cfg), nil
}

// Parse parses a file's contents; name is used in errors and as
// File.Path, and relative paths in the file are resolved against its
// directory. Every error is an [*Error].
func Parse(data []byte, name string) (*File, error) {
	cfg, err := iconfig.Parse(data, name)
	if err != nil {
		return nil, err
	}
	return fromConfig(cfg), nil
}

// Default is the configuration without a file: the engine's defaults,
// no tool rules or flows, no MCP servers, every built-in off.
func Default() *File { return fromConfig(iconfig.Default()) }

// Schema returns the JSON Schema of modebox.json (draft 2020-12).
func Schema() []byte { return iconfig.Schema() }

// Starter returns the starter modebox.json `modebox init` writes.
func Starter() []byte { return iconfig.Starter() }

// fromConfig maps a parsed file onto the library's types.
func fromConfig(cfg *iconfig.Config) *File {
	f := &File{
		Path: cfg.File, TokenStore: cfg.TokenStore, MCP: cfg.MCP,
		Warnings: cfg.Warnings, Engine: engineConfig(cfg),
	}
	if len(cfg.MCPServers) > 0 {
		f.MCPServers = make(map[string]mcpclient.Server, len(cfg.MCPServers))
		for name, s := range cfg.MCPServers {
			f.MCPServers[name] = s
		}
	}
	return f
}

// engineConfig maps the configuration onto the engine's, without tools
// or continuations.
func engineConfig(cfg *iconfig.Config) modebox.EngineConfig {
	ec := modebox.EngineConfig{
		Limits:          cfg.Limits.Limits,
		Policies:        map[string]modebox.Policy{},
		Flows:           modebox.Flows{Sources: cfg.Flows.Sources, Sinks: cfg.Flows.Sinks},
		MaxRuns:         cfg.Limits.MaxRuns,
		MaxQueued:       cfg.Limits.MaxQueued,
		QueueTimeout:    cfg.Limits.QueueTimeout,
		ApprovalTimeout: cfg.Limits.ApprovalTimeout,
	}
	for pattern, rule := range cfg.Tools {
		ec.Policies[pattern] = modebox.Policy(rule.Policy)
	}
	capabilities(cfg, &ec)
	return ec
}

// capabilities maps the shell, fetch and fs sections onto the engine's.
// Relative paths are relative to the file's directory (the working
// directory without a file); "~" is the home directory.
func capabilities(cfg *iconfig.Config, ec *modebox.EngineConfig) {
	base := "."
	if cfg.File != "" {
		base = filepath.Dir(cfg.File)
	}
	if s := cfg.ShellTool; s != nil {
		sc := *s // the parsed section is the engine's type: only paths change
		sc.Workspace = nil
		for _, w := range s.Workspace {
			sc.Workspace = append(sc.Workspace, resolvePath(base, w))
		}
		// The configuration file in use is modebox's own: hidden from
		// every command, even inside a workspace.
		sc.Private = slices.Clone(s.Private)
		if cfg.File != "" {
			sc.Private = append(sc.Private, resolvePath(".", cfg.File))
		}
		// denyRead's relative entries too; "~" ones are the sandbox's to
		// expand, globs are expanded when the engine starts
		sc.DenyRead = nil
		for _, p := range s.DenyRead {
			if p != "~" && !strings.HasPrefix(p, "~/") {
				p = resolvePath(base, p)
			}
			sc.DenyRead = append(sc.DenyRead, p)
		}
		sc.AllowWrite = nil
		for w, names := range s.AllowWrite {
			if sc.AllowWrite == nil {
				sc.AllowWrite = map[string][]string{}
			}
			sc.AllowWrite[resolvePath(base, w)] = names
		}
		if s.Network != nil {
			n := *s.Network
			sc.Network = &n
		}
		ec.Shell = &sc
	}
	if f := cfg.FetchTool; f != nil {
		fc := *f
		ec.Fetch = &fc
	}
	if f := cfg.FSTool; f != nil {
		fc := *f
		fc.Mounts = nil
		for _, m := range f.Mounts {
			m.Host = resolvePath(base, m.Host)
			fc.Mounts = append(fc.Mounts, m)
		}
		// The configuration file in use is hidden from fs too, even
		// inside a mount: a program that could rewrite it would choose
		// the next run's mounts.
		fc.Private = slices.Clone(f.Private)
		if cfg.File != "" {
			fc.Private = append(fc.Private, resolvePath(".", cfg.File))
		}
		ec.FS = &fc
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
