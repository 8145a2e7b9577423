package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/modebox/modebox/internal/builtin/sh"
	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/mountfs"
	"github.com/modebox/modebox/internal/netguard"
	"github.com/modebox/modebox/internal/webfetch"
)

// The sections of the built-ins decode into the configuration types the
// built-ins themselves take (and the public API names), so that a file's
// settings reach them without being copied field by field.

// Shell is the "shell" section: the built-in sh() tool (modebox.ShellConfig:
// "workspace", "network", "denyRead", "env", "timeout", "maxTimeout",
// "maxOutput", "bwrap", "allowWrite", "limits", "user"). nil when the
// section is absent or "enabled" is not true.
type Shell = sh.Config

// ShellLimits is "limits": {"processes", "openFiles", "fileSize",
// "memory", "tmpSize"} (modebox.ShellLimits).
type ShellLimits = sh.Limits

// ShellNetwork is "network": {"allow": ["host:port", ...]}
// (modebox.ShellNetwork).
type ShellNetwork = sh.Network

// Fetch is the "fetch" section: the built-in fetch() (modebox.FetchConfig:
// "allow", "headers", "maxBytes", "maxHeaderBytes", "maxRequestBody",
// "timeout", "maxRequests", "maxRedirects", "source"). nil when the section
// is absent or "enabled" is not true.
type Fetch = webfetch.Config

// FS is the "fs" section: the built-in fs (modebox.FSConfig: "mounts",
// "deny", "allowWrite", "maxFileSize", "maxEntries"). nil when it declares
// no mounts.
type FS = mountfs.Config

// Mount is one entry of "mounts" (modebox.Mount: "host", "guest", "mode",
// "source").
type Mount = mountfs.Mount

var (
	shellKeys      = []string{"enabled", "workspace", "network", "denyRead", "env", "timeout", "maxTimeout", "maxOutput", "bwrap", "allowWrite", "limits", "user"}
	shellLimitKeys = []string{"processes", "openFiles", "fileSize", "memory", "tmpSize"}
	networkKeys    = []string{"allow"}
	mcpKeys        = []string{"approveTool"}
	fetchKeys      = []string{"enabled", "allow", "headers", "maxBytes", "maxHeaderBytes", "maxRequestBody", "timeout", "maxRequests", "maxRedirects", "source"}
	fsKeys         = []string{"mounts", "deny", "allowWrite", "maxFileSize", "maxEntries"}
	mountKeys      = []string{"host", "guest", "mode", "source"}
)

func (c *checker) strings(n *node, path, what string) ([]string, *Error) {
	if n.kind != kindArray {
		return nil, c.wrongType(n, path, "an array of "+what)
	}
	out := make([]string, 0, len(n.elems))
	for i, e := range n.elems {
		if e.kind != kindString {
			return nil, c.wrongType(e, path+"/"+strconv.Itoa(i), "a string")
		}
		out = append(out, e.str)
	}
	return out, nil
}

func (c *checker) boolean(n *node, path string) (bool, *Error) {
	if n.kind != kindBool {
		return false, c.wrongType(n, path, "true or false")
	}
	return n.b, nil
}

func (c *checker) str(n *node, path, what string) (string, *Error) {
	if n.kind != kindString {
		return "", c.wrongType(n, path, what)
	}
	return n.str, nil
}

func (c *checker) hostList(n *node, path string) ([]string, *Error) {
	list, err := c.strings(n, path, `"host:port" entries`)
	if err != nil {
		return nil, err
	}
	for i, s := range list {
		if _, perr := netguard.ParseEntry(s); perr != nil {
			return nil, c.fail(n.elems[i].off, path+"/"+strconv.Itoa(i), perr.Error(), `entries are "host:port", "*.example.com:443", "127.0.0.1:8080", "[::1]:8080", "https://api.example.com" or "db.internal:5432 private"`)
		}
	}
	return list, nil
}

// protectedNames reads an "allowWrite" list: protected names (one path
// component each) or "*".
func (c *checker) protectedNames(n *node, path string) ([]string, *Error) {
	names, err := c.strings(n, path, "names")
	if err != nil {
		return nil, err
	}
	for i, name := range names {
		if name == "" || (name != "*" && strings.ContainsAny(name, "/\x00")) || name == "." || name == ".." {
			return nil, c.fail(n.elems[i].off, path+"/"+strconv.Itoa(i), "a protected name is one path component (like \".git\"), or \"*\" for all of them", "")
		}
	}
	return names, nil
}

// enabledWritten refuses a section (shell, fetch) with settings but no
// "enabled": the feature is off without it, and a file that lists the
// hosts fetch() may reach, or the shell's workspace, almost always meant
// it on. An empty section, or one that says "enabled": false, is off as
// written.
func (c *checker) enabledWritten(n *node, path, feature string) *Error {
	if len(n.members) == 0 {
		return nil
	}
	for _, m := range n.members {
		if m.key == "enabled" {
			return nil
		}
	}
	return c.fail(n.off, path, `has settings but no "enabled", so `+feature+` stays off`,
		`add "enabled": true to turn it on, or "enabled": false to keep the settings with it off`)
}

func (c *checker) shell(n *node, path string) (*Shell, *Error) {
	s := &Shell{}
	enabled := false
	err := c.object(n, path, shellKeys, nil, func(m member, p string) *Error {
		v := m.val
		var err *Error
		switch m.key {
		case "enabled":
			enabled, err = c.boolean(v, p)
		case "workspace":
			s.Workspace, err = c.strings(v, p, "directories")
		case "network":
			if v.kind == kindBool {
				if v.b {
					return c.fail(v.off, p, "network: true would allow every host", `list the hosts: {"allow": ["api.example.com:443"]}`)
				}
				return nil
			}
			s.Network = &ShellNetwork{}
			err = c.object(v, p, networkKeys, nil, func(m member, p string) *Error {
				var err *Error
				s.Network.Allow, err = c.hostList(m.val, p)
				return err
			})
		case "denyRead":
			s.DenyRead, err = c.strings(v, p, "paths")
		case "env":
			s.Env, err = c.stringMap(v, p)
			for k := range s.Env {
				if k == "" || strings.ContainsAny(k, "=\x00") {
					return c.fail(v.off, p, "environment variable names must not be empty or contain = or NUL", "")
				}
			}
		case "timeout":
			s.Timeout, err = c.duration(v, p)
		case "maxTimeout":
			s.MaxTimeout, err = c.duration(v, p)
		case "maxOutput":
			var n int64
			n, err = c.size(v, p)
			s.MaxOutput = int(min(n, 1<<31-1))
		case "bwrap":
			s.Bwrap, err = c.str(v, p, "a path to the bwrap binary")
		case "user":
			s.User, err = c.str(v, p, `a user name, uid, "uid:gid" or "root"`)
			if err == nil && (s.User == "" || strings.ContainsAny(s.User, "\x00 /")) {
				return c.fail(v.off, p, "user must be a user name, uid, \"uid:gid\" or \"root\"", "")
			}
		case "allowWrite":
			s.AllowWrite = map[string][]string{}
			err = c.object(v, p, nil, nil, func(m member, p string) *Error {
				names, err := c.protectedNames(m.val, p)
				s.AllowWrite[m.key] = names
				return err
			})
		case "limits":
			err = c.object(v, p, shellLimitKeys, nil, func(m member, p string) *Error {
				var err *Error
				var n uint64
				switch m.key {
				case "processes":
					n, err = c.count(m.val, p)
					s.Limits.Processes = int(min(n, 1<<30))
				case "openFiles":
					n, err = c.count(m.val, p)
					s.Limits.OpenFiles = int(min(n, 1<<30))
				case "fileSize":
					s.Limits.FileSize, err = c.size(m.val, p)
				case "memory":
					s.Limits.Memory, err = c.size(m.val, p)
				case "tmpSize":
					s.Limits.TmpSize, err = c.size(m.val, p)
				}
				return err
			})
		}
		return err
	})
	if err == nil {
		err = c.enabledWritten(n, path, "sh()")
	}
	if err != nil || !enabled {
		return nil, err
	}
	for k := range s.AllowWrite {
		if !slices.Contains(s.Workspace, k) {
			return nil, c.fail(n.off, path+"/allowWrite", fmt.Sprintf("allowWrite names %q, which is not a \"workspace\" entry", k), "use the workspace entry exactly as written in \"workspace\"")
		}
	}
	if len(s.Workspace) == 0 {
		return nil, c.fail(n.off, path, `an enabled shell needs "workspace": the directories commands may write`, `for example "workspace": ["."]`)
	}
	return s, nil
}

// maxRedirects is the most redirects "maxRedirects" may ask one fetch to
// follow.
const maxRedirects = 100

func (c *checker) fetch(n *node, path string) (*Fetch, *Error) {
	f := &Fetch{}
	enabled := false
	err := c.object(n, path, fetchKeys, nil, func(m member, p string) *Error {
		v := m.val
		var err *Error
		switch m.key {
		case "enabled":
			enabled, err = c.boolean(v, p)
		case "allow":
			f.Allow, err = c.hostList(v, p)
		case "headers":
			f.Headers = map[string]map[string]string{}
			err = c.object(v, p, nil, nil, func(m member, p string) *Error {
				if _, perr := netguard.ParseEntry(m.key); perr != nil {
					return c.fail(m.keyOff, p, perr.Error(), "keys are allow entries, written as in allow (host:port, or with the entry's scheme)")
				}
				h, err := c.stringMap(m.val, p)
				f.Headers[m.key] = h
				return err
			})
		case "maxBytes":
			f.MaxBytes, err = c.size(v, p)
		case "maxHeaderBytes":
			f.MaxHeaderBytes, err = c.size(v, p)
		case "maxRequestBody":
			f.MaxRequestBody, err = c.size(v, p)
		case "timeout":
			f.Timeout, err = c.duration(v, p)
		case "maxRequests":
			var n uint64
			n, err = c.count(v, p)
			f.MaxRequests = int(min(n, 1<<31-1))
		case "maxRedirects":
			var n uint64
			n, err = c.count(v, p)
			if err == nil && n > maxRedirects {
				return c.fail(v.off, p, fmt.Sprintf("must be at most %d, got %d", maxRedirects, n), "")
			}
			f.MaxRedirects = int(n)
			if err == nil && n == 0 {
				// 0 written means none; FetchConfig's zero is the default
				f.MaxRedirects = webfetch.NoRedirects
			}
		case "source":
			f.Source, err = c.boolean(v, p)
		}
		return err
	})
	if err == nil {
		err = c.enabledWritten(n, path, "fetch()")
	}
	if err != nil || !enabled {
		return nil, err
	}
	for entry := range f.Headers {
		found := false
		for _, a := range f.Allow {
			if a == entry {
				found = true
			}
		}
		if !found {
			return nil, c.fail(n.off, path+"/headers", "headers for "+strconv.Quote(entry)+", which is not in \"allow\"", "headers are injected only for listed entries; add it to allow")
		}
	}
	return f, nil
}

func (c *checker) fsSection(n *node, path string) (*FS, *Error) {
	f := &FS{}
	err := c.object(n, path, fsKeys, nil, func(m member, p string) *Error {
		v := m.val
		var err *Error
		switch m.key {
		case "mounts":
			if v.kind != kindArray {
				return c.wrongType(v, p, `an array of {"host": "DIR", "guest": "/data", "mode": "ro"}`)
			}
			for i, e := range v.elems {
				ep := p + "/" + strconv.Itoa(i)
				var mt Mount
				err := c.object(e, ep, mountKeys, nil, func(m member, p string) *Error {
					var err *Error
					switch m.key {
					case "host":
						mt.Host, err = c.str(m.val, p, "a host directory")
					case "guest":
						mt.Guest, err = c.str(m.val, p, `an absolute guest path like "/data"`)
						if err == nil && !strings.HasPrefix(mt.Guest, "/") {
							err = c.fail(m.val.off, p, "the guest path must be absolute", `for example "/data"`)
						}
					case "mode":
						var mode string
						mode, err = c.enum(m.val, p, []string{"ro", "rw"})
						mt.Mode = mountfs.Mode(mode)
					case "source":
						mt.Source, err = c.boolean(m.val, p)
					}
					return err
				})
				if err != nil {
					return err
				}
				if mt.Host == "" || mt.Guest == "" {
					return c.fail(e.off, ep, `a mount needs "host" and "guest"`, "")
				}
				if mt.Mode == "" {
					mt.Mode = "ro"
				}
				f.Mounts = append(f.Mounts, mt)
			}
		case "deny":
			f.Deny, err = c.strings(v, p, "globs")
		case "allowWrite":
			f.AllowWrite = map[string][]string{}
			err = c.object(v, p, nil, nil, func(m member, p string) *Error {
				names, err := c.protectedNames(m.val, p)
				f.AllowWrite[m.key] = names
				return err
			})
		case "maxFileSize":
			f.MaxFileSize, err = c.size(v, p)
		case "maxEntries":
			var n uint64
			n, err = c.count(v, p)
			f.MaxEntries = int(min(n, 1<<31-1))
		}
		return err
	})
	if err != nil || len(f.Mounts) == 0 {
		return nil, err
	}
	for k := range f.AllowWrite {
		if !slices.ContainsFunc(f.Mounts, func(m Mount) bool { return m.Guest == k }) {
			return nil, c.fail(n.off, path+"/allowWrite", fmt.Sprintf("allowWrite names %q, which is not a mount's \"guest\"", k), "use the mount's guest path exactly as written in \"mounts\"")
		}
	}
	return f, nil
}

// mcpSection checks the "mcp" section: keys are case-sensitive, as
// everywhere in the file ("APPROVETOOL" is not "approveTool").
func (c *checker) mcpSection(n *node, path string) (MCP, *Error) {
	var m MCP
	err := c.object(n, path, mcpKeys, nil, func(mb member, p string) *Error {
		var err *Error
		switch mb.key {
		case "approveTool":
			m.ApproveTool, err = c.boolean(mb.val, p)
		}
		return err
	})
	return m, err
}

// ParseMCP parses an "mcp" section as written (Config.MCP) with the
// checks Parse makes: unknown keys and wrong types are a CONFIG_INVALID
// [*Error] at "/mcp/...". An empty raw is the defaults.
func ParseMCP(raw []byte) (MCP, error) {
	if len(raw) == 0 {
		return MCP{}, nil
	}
	root, serr := parseJSON(raw)
	if serr != nil {
		return MCP{}, &Error{Code: codes.ConfigSyntax, Path: "/mcp", Message: "invalid JSON: " + serr.msg}
	}
	c := &checker{data: raw}
	err := c.findDuplicates(root, "/mcp")
	var m MCP
	if err == nil {
		m, err = c.mcpSection(root, "/mcp")
	}
	if err != nil {
		// positions would count in the section, not the file
		err.Line, err.Column = 0, 0
		return MCP{}, err
	}
	return m, nil
}
