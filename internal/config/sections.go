package config

import (
	"strconv"
	"strings"
	"time"

	"github.com/modebox/modebox/internal/netguard"
)

// Shell is the "shell" section: the built-in sh() tool. nil when the
// section is absent or "enabled" is not true.
type Shell struct {
	// Workspace lists the directories commands may write ("workspace").
	Workspace []string
	// Network is nil for no network ("network": false or absent), or the
	// hosts reachable through the proxy ("network": {"allow": [...]}).
	Network *ShellNetwork
	// DenyRead adds paths hidden from commands ("denyRead").
	DenyRead []string
	// Env adds environment variables ("env").
	Env map[string]string
	// Timeout is a command's default limit ("timeout"); MaxTimeout caps
	// what a program may ask for ("maxTimeout").
	Timeout, MaxTimeout time.Duration
	// MaxOutput caps each of stdout and stderr ("maxOutput").
	MaxOutput int64
	// Bwrap is the bubblewrap binary ("bwrap").
	Bwrap string
}

// ShellNetwork is "network": {"allow": ["host:port", ...]}.
type ShellNetwork struct {
	Allow []string
}

// Fetch is the "fetch" section: the built-in fetch(). nil when the
// section is absent or "enabled" is not true.
type Fetch struct {
	// Allow lists "host:port" entries that need no approval ("allow").
	Allow []string
	// Headers injects headers per allow entry ("headers"); "env:NAME"
	// values come from modebox's environment.
	Headers map[string]map[string]string
	// MaxBytes, MaxHeaderBytes and MaxRequestBody are size caps.
	MaxBytes, MaxHeaderBytes, MaxRequestBody int64
	// Timeout bounds one request ("timeout").
	Timeout time.Duration
	// MaxRequests per run and MaxRedirects per request.
	MaxRequests, MaxRedirects int
	// Source marks responses as a data-flow source ("source").
	Source bool
}

// FS is the "fs" section: the built-in fs. nil when it declares no mounts.
type FS struct {
	// Mounts expose host directories ("mounts").
	Mounts []Mount
	// Deny adds hidden globs ("deny").
	Deny []string
	// MaxFileSize and MaxEntries are caps ("maxFileSize", "maxEntries").
	MaxFileSize int64
	MaxEntries  int
}

// Mount is one entry of "mounts".
type Mount struct {
	Host, Guest, Mode string
	Source            bool
}

var (
	shellKeys   = []string{"enabled", "workspace", "network", "denyRead", "env", "timeout", "maxTimeout", "maxOutput", "bwrap"}
	networkKeys = []string{"allow"}
	fetchKeys   = []string{"enabled", "allow", "headers", "maxBytes", "maxHeaderBytes", "maxRequestBody", "timeout", "maxRequests", "maxRedirects", "source"}
	fsKeys      = []string{"mounts", "deny", "maxFileSize", "maxEntries"}
	mountKeys   = []string{"host", "guest", "mode", "source"}
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
			s.MaxOutput, err = c.size(v, p)
		case "bwrap":
			s.Bwrap, err = c.str(v, p, "a path to the bwrap binary")
		}
		return err
	})
	if err != nil || !enabled {
		return nil, err
	}
	if len(s.Workspace) == 0 {
		return nil, c.fail(n.off, path, `an enabled shell needs "workspace": the directories commands may write`, `for example "workspace": ["."]`)
	}
	return s, nil
}

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
			f.MaxRedirects = int(min(n, 100))
		case "source":
			f.Source, err = c.boolean(v, p)
		}
		return err
	})
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
						mt.Mode, err = c.enum(m.val, p, []string{"ro", "rw"})
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
	return f, nil
}
