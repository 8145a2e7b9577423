package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// Keys allowed at each level, in the order they are documented.
var (
	topKeys    = []string{"$schema", "limits", "tools", "flows", "mcpServers", "shell", "fetch", "fs", "mcp", "tokenStore"}
	limitKeys  = []string{"timeout", "memory", "fuel", "maxCalls", "maxConcurrency", "maxValue", "maxLog", "maxClockReads", "maxTimers", "maxRuns", "maxQueued", "queueTimeout", "approvalTimeout"}
	ruleKeys   = []string{"policy"}
	flowKeys   = []string{"sources", "sinks"}
	serverKeys = []string{"command", "args", "env", "cwd", "url", "headers", "type", "disabled", "timeout"}
	// serverTypes are the values of a server's "type".
	serverTypes = []string{"stdio", "http", "streamable-http", "sse"}
)

// Hints for unknown keys that edit distance cannot catch: names other MCP
// clients or config formats use for the same thing.
var (
	topHints = map[string]string{
		"servers":     `MCP servers go under "mcpServers"`,
		"mcp_servers": `did you mean "mcpServers"?`,
		"policies":    `tool policies go under "tools"`,
		"sh":          `did you mean "shell"?`,
		"filesystem":  `did you mean "fs"?`,
	}
	serverHints = map[string]string{
		"serverUrl":   `did you mean "url"?`,
		"httpUrl":     `did you mean "url"?`,
		"endpoint":    `did you mean "url"?`,
		"environment": `did you mean "env"?`,
		"transport":   `did you mean "type"?`,
		"cmd":         `did you mean "command"?`,
		"autoApprove": `set tool policies under "tools" instead, like "NAME.*": {"policy": "allow"}`,
		"alwaysAllow": `set tool policies under "tools" instead, like "NAME.*": {"policy": "allow"}`,
	}
)

// checker turns the parsed JSON tree into a Config, stopping at the first
// problem.
type checker struct {
	file     string
	data     []byte
	warnings []string
}

// fail builds an *Error about the value or key at offset off.
func (c *checker) fail(off int, path, msg, suggestion string) *Error {
	line, col := lineCol(c.data, off)
	return &Error{Code: codes.ConfigInvalid, File: c.file, Path: path, Line: line, Column: col, Message: msg, Suggestion: suggestion}
}

// describe names the JSON type of n for "got ..." in messages.
func describe(n *node) string {
	switch n.kind {
	case kindNull:
		return "null"
	case kindBool:
		return "a boolean"
	case kindNumber:
		return "a number"
	case kindString:
		return "a string"
	case kindArray:
		return "an array"
	}
	return "an object"
}

// wrongType reports n as not being what was expected.
func (c *checker) wrongType(n *node, path, expected string) *Error {
	return c.fail(n.off, path, "expected "+expected+", got "+describe(n), "")
}

// findDuplicates reports the first key that appears twice in one object,
// anywhere in the tree, including the sections kept as raw JSON.
func (c *checker) findDuplicates(n *node, path string) *Error {
	switch n.kind {
	case kindObject:
		seen := make(map[string]int, len(n.members))
		for _, m := range n.members {
			p := pointer(path, m.key)
			if first, dup := seen[m.key]; dup {
				line, _ := lineCol(c.data, first)
				return c.fail(m.keyOff, p, "duplicate key (first on line "+strconv.Itoa(line)+")", "")
			}
			seen[m.key] = m.keyOff
			if err := c.findDuplicates(m.val, p); err != nil {
				return err
			}
		}
	case kindArray:
		for i, e := range n.elems {
			if err := c.findDuplicates(e, path+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// object checks that n is an object with only the allowed keys and calls
// each for every member in document order.
func (c *checker) object(n *node, path string, allowed []string, hints map[string]string, each func(m member, p string) *Error) *Error {
	if n.kind != kindObject {
		return c.wrongType(n, path, "an object")
	}
	for _, m := range n.members {
		p := pointer(path, m.key)
		if allowed != nil && !slices.Contains(allowed, m.key) {
			hint := hints[m.key]
			if hint == "" {
				hint = didYouMean(m.key, allowed)
			}
			return c.fail(m.keyOff, p, "unknown key", hint)
		}
		if err := each(m, p); err != nil {
			return err
		}
	}
	return nil
}

// check validates the whole document and builds the Config.
func (c *checker) check(root *node) (*Config, *Error) {
	if root.kind != kindObject {
		return nil, c.fail(root.off, "", "expected a JSON object at the top level, got "+describe(root), "")
	}
	if err := c.findDuplicates(root, ""); err != nil {
		return nil, err
	}
	cfg := &Config{File: c.file}
	err := c.object(root, "", topKeys, topHints, func(m member, p string) *Error {
		v := m.val
		switch m.key {
		case "$schema":
			if v.kind != kindString {
				return c.wrongType(v, p, "a string (the URL or path of the JSON Schema)")
			}
			cfg.Schema = v.str
			return nil
		case "limits":
			return c.limits(v, p, &cfg.Limits)
		case "tools":
			cfg.Tools = make(map[string]ToolRule, len(v.members))
			return c.object(v, p, nil, nil, func(m member, p string) *Error {
				if msg := patternProblem(m.key); msg != "" {
					return c.fail(m.keyOff, p, msg, "")
				}
				rule, err := c.rule(m.val, p)
				cfg.Tools[m.key] = rule
				return err
			})
		case "flows":
			return c.flows(v, p, &cfg.Flows)
		case "mcpServers":
			cfg.MCPServers = make(map[string]Server, len(v.members))
			return c.object(v, p, nil, nil, func(m member, p string) *Error {
				if msg, hint := serverNameProblem(m.key); msg != "" {
					return c.fail(m.keyOff, p, msg, hint)
				}
				s, err := c.server(m.val, p)
				cfg.MCPServers[m.key] = s
				return err
			})
		case "tokenStore":
			if v.kind != kindString {
				return c.wrongType(v, p, "a string: a postgres:// URL, or the absolute path of a directory")
			}
			if msg, hint := TokenStoreProblem(v.str, true); msg != "" {
				return c.fail(v.off, p, msg, hint)
			}
			cfg.TokenStore = v.str
			return nil
		default: // shell, fetch, fs, mcp
			if v.kind != kindObject {
				return c.wrongType(v, p, "an object")
			}
			raw := v.raw(c.data)
			var err *Error
			switch m.key {
			case "shell":
				cfg.Shell = raw
				cfg.ShellTool, err = c.shell(v, p)
			case "fetch":
				cfg.Fetch = raw
				cfg.FetchTool, err = c.fetch(v, p)
			case "fs":
				cfg.FS = raw
				cfg.FSTool, err = c.fsSection(v, p)
			case "mcp":
				cfg.MCP = raw
				cfg.MCPSettings, err = c.mcpSection(v, p)
			}
			return err
		}
	})
	if err != nil {
		return nil, err
	}
	if err := c.ruleNamespaces(root, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// headerNamesOnce refuses header names given twice in different cases:
// which one would be sent is left to chance.
func (c *checker) headerNamesOnce(n *node, path string) *Error {
	seen := map[string]string{}
	for _, m := range n.members {
		k := strings.ToLower(m.key)
		if prev, ok := seen[k]; ok {
			return c.fail(m.keyOff, pointer(path, m.key), fmt.Sprintf("header %s is given twice (names are case-insensitive): %q and %q", m.key, prev, m.key), "")
		}
		seen[k] = m.key
	}
	return nil
}

// builtinNames are the built-ins' keys and namespaces a rule may name.
var builtinNames = []string{"sh", "fetch", "fs"}

// ruleNamespaces refuses a rule (of "tools" or "flows") whose namespace is
// not a configured MCP server (enabled or not) nor a built-in but a near
// miss of one ("memroy.*", "Memory.*"): it would silently protect nothing.
// A namespace far from every server is left to the engine, which knows
// the Go tools' namespaces and the built-ins' functions.
func (c *checker) ruleNamespaces(root *node, cfg *Config) *Error {
	var servers []string
	for name := range cfg.MCPServers {
		servers = append(servers, name)
	}
	slices.Sort(servers)
	check := func(pattern string, off int, p string) *Error {
		ns, _, ok := strings.Cut(pattern, ".")
		if !ok || strings.Contains(ns, "*") || slices.Contains(servers, ns) || slices.Contains(builtinNames, ns) {
			return nil
		}
		if near := closest(ns, servers); near != "" {
			hint := "did you mean " + strconv.Quote(near) + "?"
			if strings.EqualFold(near, ns) {
				hint += " Names are case-sensitive"
			}
			return c.fail(off, p, fmt.Sprintf("%q is not a configured MCP server nor a built-in, so the rule would match no tool", ns), hint)
		}
		return nil
	}
	for _, m := range root.members {
		switch m.key {
		case "tools":
			for _, r := range m.val.members {
				if err := check(r.key, r.keyOff, pointer(pointer("", "tools"), r.key)); err != nil {
					return err
				}
			}
		case "flows":
			for _, f := range m.val.members {
				for i, e := range f.val.elems {
					if err := check(e.str, e.off, pointer(pointer("", "flows"), f.key)+"/"+strconv.Itoa(i)); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

const (
	expectDuration = `a string duration like "30s" or a number of milliseconds`
	expectSize     = `a size like "64MiB" or a number of bytes`
	expectCount    = "a whole number"
)

func (c *checker) limits(n *node, path string, l *Limits) *Error {
	return c.object(n, path, limitKeys, nil, func(m member, p string) *Error {
		v := m.val
		var err *Error
		switch m.key {
		case "timeout":
			l.Timeout, err = c.duration(v, p)
			c.warnBareMS(v, p, l.Timeout)
		case "memory":
			l.Memory, err = c.size(v, p)
			if err == nil && l.Memory > maxMemory {
				err = c.fail(v.off, p, "must be at most "+formatSize(maxMemory)+", got "+string(c.data[v.off:v.end]), "")
			}
			if err == nil && l.Memory != 0 && l.Memory < MinMemory {
				err = c.fail(v.off, p, "must be at least "+formatSize(MinMemory)+" (0 or absent: the default, 64MiB), got "+string(c.data[v.off:v.end]),
					"a bare number is bytes: write \"64MiB\"")
			}
		case "maxValue", "maxLog":
			var n int64
			n, err = c.size(v, p)
			n = min(n, 1<<31-1) // the engine's values and logs stay below 2 GiB
			if m.key == "maxValue" {
				l.MaxValue = int(n)
			} else {
				l.MaxLog = int(n)
			}
		case "fuel":
			l.Fuel, err = c.count(v, p)
		case "queueTimeout":
			l.QueueTimeout, err = c.duration(v, p)
			c.warnBareMS(v, p, l.QueueTimeout)
		case "approvalTimeout":
			l.ApprovalTimeout, err = c.duration(v, p)
			c.warnBareMS(v, p, l.ApprovalTimeout)
		case "maxRuns", "maxQueued":
			var cnt uint64
			cnt, err = c.count(v, p)
			if m.key == "maxRuns" {
				l.MaxRuns = int(min(cnt, 1<<20))
			} else {
				l.MaxQueued = int(min(cnt, 1<<20))
			}
		case "maxCalls", "maxConcurrency", "maxClockReads", "maxTimers":
			var cnt uint64
			cnt, err = c.count(v, p)
			switch m.key {
			case "maxCalls":
				l.MaxCalls = int(cnt)
			case "maxConcurrency":
				l.MaxConcurrency = int(cnt)
			case "maxClockReads":
				l.MaxClockReads = int(cnt)
			default:
				l.MaxTimers = int(cnt)
			}
		}
		return err
	})
}

// warnBareMS warns about a duration written as a bare number below 1000:
// a number is milliseconds, and such a small one is usually meant as
// seconds.
func (c *checker) warnBareMS(n *node, path string, d time.Duration) {
	if n.kind == kindNumber && d > 0 && d < minServerTimeoutMS*time.Millisecond {
		c.warnings = append(c.warnings, fmt.Sprintf("%s: the number %s is milliseconds (%s); write %q for seconds", path, n.str, d, n.str+"s"))
	}
}

// duration reads a duration string or a number of milliseconds.
func (c *checker) duration(n *node, path string) (time.Duration, *Error) {
	var d time.Duration
	var msg string
	switch n.kind {
	case kindString:
		d, msg = stringDuration(n.str)
	case kindNumber:
		d, msg = msDuration(n.str)
	default:
		return 0, c.wrongType(n, path, expectDuration)
	}
	if msg != "" {
		return 0, c.fail(n.off, path, msg, "")
	}
	return d, nil
}

// size reads a size string or a number of bytes.
func (c *checker) size(n *node, path string) (int64, *Error) {
	switch n.kind {
	case kindString:
		s, msg := stringSize(n.str)
		if msg != "" {
			return 0, c.fail(n.off, path, msg, "")
		}
		return s, nil
	case kindNumber:
		v, msg := countValue(n.str, maxNumber)
		if msg != "" {
			return 0, c.fail(n.off, path, msg, "")
		}
		return int64(v), nil
	}
	return 0, c.wrongType(n, path, expectSize)
}

// count reads a non-negative whole number.
func (c *checker) count(n *node, path string) (uint64, *Error) {
	if n.kind != kindNumber {
		e := c.wrongType(n, path, expectCount)
		if n.kind == kindString {
			if _, err := strconv.ParseUint(n.str, 10, 64); err == nil {
				e.Suggestion = "write it without quotes: " + n.str
			}
		}
		return 0, e
	}
	v, msg := countValue(n.str, maxNumber)
	if msg != "" {
		return 0, c.fail(n.off, path, msg, "")
	}
	return v, nil
}

// enum reads a string that must be one of values.
func (c *checker) enum(n *node, path string, values []string) (string, *Error) {
	if n.kind != kindString {
		return "", c.wrongType(n, path, quoteList(values))
	}
	if !slices.Contains(values, n.str) {
		return "", c.fail(n.off, path, "expected "+quoteList(values)+", got "+strconv.Quote(n.str), didYouMean(n.str, values))
	}
	return n.str, nil
}

func (c *checker) rule(n *node, path string) (ToolRule, *Error) {
	var r ToolRule
	if n.kind != kindObject {
		e := c.wrongType(n, path, `an object like {"policy": "ask"}`)
		if n.kind == kindString && slices.Contains(policies, n.str) {
			e.Suggestion = `write {"policy": ` + strconv.Quote(n.str) + `}`
		}
		return r, e
	}
	err := c.object(n, path, ruleKeys, nil, func(m member, p string) *Error {
		var err *Error
		r.Policy, err = c.enum(m.val, p, policies)
		return err
	})
	if err == nil && r.Policy == "" {
		err = c.fail(n.off, path, `missing "policy" (`+quoteList(policies)+`)`, "")
	}
	return r, err
}

func (c *checker) flows(n *node, path string, f *Flows) *Error {
	return c.object(n, path, flowKeys, nil, func(m member, p string) *Error {
		list, err := c.patterns(m.val, p)
		if m.key == "sources" {
			f.Sources = list
		} else {
			f.Sinks = list
		}
		return err
	})
}

// patterns reads an array of tool patterns.
func (c *checker) patterns(n *node, path string) ([]string, *Error) {
	if n.kind != kindArray {
		return nil, c.wrongType(n, path, `an array of tool patterns like ["github.*", "fetch"]`)
	}
	list := make([]string, 0, len(n.elems))
	for i, e := range n.elems {
		p := path + "/" + strconv.Itoa(i)
		if e.kind != kindString {
			return nil, c.wrongType(e, p, "a tool pattern string")
		}
		if msg := patternProblem(e.str); msg != "" {
			return nil, c.fail(e.off, p, msg, "")
		}
		list = append(list, e.str)
	}
	return list, nil
}

// patternProblem says what is wrong with a tool pattern, or "".
func patternProblem(p string) string {
	if rest, ok := strings.CutPrefix(p, "tools."); ok {
		return "invalid tool pattern " + strconv.Quote(p) + `: a pattern names a tool without the "tools." prefix: write ` + strconv.Quote(rest)
	}
	if patternPattern.MatchString(p) {
		return ""
	}
	msg := "invalid tool pattern " + strconv.Quote(p) + ": "
	switch {
	case p == "":
		return msg + "empty"
	case strings.Contains(p, "**"):
		return msg + `"**" is not needed, a single "*" matches any run of characters`
	case strings.HasPrefix(p, ".") || strings.HasSuffix(p, ".") || strings.Contains(p, ".."):
		return msg + "empty name between dots"
	}
	return msg + `use "namespace.tool" made of letters, digits, "_", "-" and "*" wildcards, like "github.*"`
}

// serverNameProblem says what is wrong with an mcpServers name, or "".
func serverNameProblem(name string) (msg, hint string) {
	if slices.Contains(reservedServerNames, name) {
		return "the name " + strconv.Quote(name) + " is taken by the built-in " + name + " tool",
			"rename the server, for example to " + strconv.Quote(name+"_mcp")
	}
	if serverNamePattern.MatchString(name) {
		return "", ""
	}
	if name == "" {
		return "empty server name", ""
	}
	return "invalid server name " + strconv.Quote(name) + `: the name becomes the namespace of the server's tools, so it may hold only letters, digits, "_" and "-"`, ""
}

// stringMap reads an object whose values are all strings (env, headers).
func (c *checker) stringMap(n *node, path string) (map[string]string, *Error) {
	out := make(map[string]string, len(n.members))
	err := c.object(n, path, nil, nil, func(m member, p string) *Error {
		switch m.val.kind {
		case kindString:
			out[m.key] = m.val.str
			return nil
		case kindNumber, kindBool:
			e := c.wrongType(m.val, p, "a string")
			e.Suggestion = "quote it: " + strconv.Quote(string(c.data[m.val.off:m.val.end]))
			return e
		}
		return c.wrongType(m.val, p, "a string")
	})
	return out, err
}

func (c *checker) server(n *node, path string) (Server, *Error) {
	var s Server
	if n.kind != kindObject {
		return s, c.wrongType(n, path, `an object like {"command": "npx", "args": [...]} or {"url": "https://..."}`)
	}
	present := map[string]*node{}
	err := c.object(n, path, serverKeys, serverHints, func(m member, p string) *Error {
		v := m.val
		present[m.key] = v
		var err *Error
		switch m.key {
		case "command":
			if v.kind != kindString {
				return c.wrongType(v, p, "a string (the program to start)")
			}
			if v.str == "" {
				return c.fail(v.off, p, "must not be empty", "")
			}
			s.Command = v.str
		case "args":
			if v.kind != kindArray {
				return c.wrongType(v, p, "an array of strings")
			}
			s.Args = make([]string, 0, len(v.elems))
			for i, e := range v.elems {
				if e.kind != kindString {
					return c.wrongType(e, path+"/args/"+strconv.Itoa(i), "a string")
				}
				s.Args = append(s.Args, e.str)
			}
		case "env":
			s.Env, err = c.stringMap(v, p)
		case "headers":
			s.Headers, err = c.stringMap(v, p)
			if err == nil {
				err = c.headerNamesOnce(v, p)
			}
		case "cwd":
			if v.kind != kindString {
				return c.wrongType(v, p, "a string (a directory)")
			}
			s.Cwd = v.str
		case "url":
			if v.kind != kindString {
				return c.wrongType(v, p, "a string (an http or https URL)")
			}
			if msg := urlProblem(v.str); msg != "" {
				return c.fail(v.off, p, msg, "")
			}
			s.URL = v.str
		case "type":
			s.Type, err = c.enum(v, p, serverTypes)
		case "disabled":
			if v.kind != kindBool {
				return c.wrongType(v, p, "true or false")
			}
			s.Disabled = v.b
		case "timeout":
			s.Timeout, err = c.duration(v, p)
			if err == nil && v.kind == kindNumber && s.Timeout < minServerTimeoutMS*time.Millisecond {
				err = c.fail(v.off, p, "a number is milliseconds, so "+v.str+" would be "+s.Timeout.String(),
					`write "`+v.str+`s" for seconds; numbers must be at least 1000`)
			}
		}
		return err
	})
	if err != nil {
		return s, err
	}
	if err := c.serverShape(n, path, s, present); err != nil {
		return s, err
	}
	if err := c.serverCwd(present["cwd"], pointer(path, "cwd"), &s); err != nil {
		return s, err
	}
	c.serverCommand(&s)
	return s, nil
}

// serverCommand makes a relative "command" that names a path (it holds a
// "/", like "./server.sh" or "bin/server") absolute against the server's
// working directory, or the file's directory when it has none: the
// program a relative path names is the one beside the configuration (or
// in its cwd, as a shell's "cd cwd && ./server.sh" would start), not one
// in whatever directory modebox was started from. A leading "~/" is the
// home directory. A bare name ("npx") is looked up on PATH and left as it
// is.
func (c *checker) serverCommand(s *Server) {
	if strings.HasPrefix(s.Command, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			s.Command = filepath.Join(home, s.Command[1:])
		}
		return
	}
	if c.file == "" || !strings.ContainsRune(s.Command, '/') || filepath.IsAbs(s.Command) || strings.HasPrefix(s.Command, "~") {
		return
	}
	base := s.Cwd
	switch {
	case base == "":
		base = filepath.Dir(c.file)
	case !filepath.IsAbs(base):
		return // "~/…": the command is found in it when the server starts
	}
	if abs, err := filepath.Abs(base); err == nil {
		// "m.json" given as is: Join(".", "./server.sh") would be the bare
		// name "server.sh", looked up on PATH
		base = abs
	}
	s.Command = filepath.Join(base, s.Command)
}

// serverCwd resolves a relative "cwd" against the file's directory, as
// the fs mounts' paths are (not against modebox's working directory), and
// a leading "~" to the home directory, and
// refuses, for a server that is not disabled, a directory that does not
// exist: the server would fail to start with a message naming its command.
func (c *checker) serverCwd(v *node, path string, s *Server) *Error {
	if s.Cwd == "" {
		return nil
	}
	if s.Cwd == "~" || strings.HasPrefix(s.Cwd, "~/") {
		// the home directory, as in the other sections' paths: the
		// server's start (exec) would take "~" literally
		if home, err := os.UserHomeDir(); err == nil {
			s.Cwd = filepath.Join(home, s.Cwd[1:])
		}
	}
	if !filepath.IsAbs(s.Cwd) && !strings.HasPrefix(s.Cwd, "~") && c.file != "" {
		s.Cwd = filepath.Join(filepath.Dir(c.file), s.Cwd)
		if abs, err := filepath.Abs(s.Cwd); err == nil {
			s.Cwd = abs // a file named relatively ("m.json"): as if absolute
		}
	}
	if s.Disabled || !filepath.IsAbs(s.Cwd) && strings.HasPrefix(s.Cwd, "~") {
		return nil
	}
	if fi, err := os.Stat(s.Cwd); err != nil || !fi.IsDir() {
		reason := "does not exist"
		if err == nil {
			reason = "is not a directory"
		}
		return c.fail(v.off, path, fmt.Sprintf("the server's working directory %q %s", s.Cwd, reason),
			"a relative cwd is relative to the directory of the configuration file")
	}
	return nil
}

// serverShape checks that an entry is either a command server or a URL
// server, that its keys fit that kind, and that "type" agrees.
func (c *checker) serverShape(n *node, path string, s Server, present map[string]*node) *Error {
	cmd, hasURL := present["command"] != nil, present["url"] != nil
	switch {
	case cmd && hasURL:
		return c.fail(n.off, path, `has both "command" and "url"`,
			`a server is either a program to start ("command") or a remote endpoint ("url"); keep one`)
	case !cmd && !hasURL:
		return c.fail(n.off, path, `needs "command" (a program to start) or "url" (a remote endpoint)`, "")
	}
	kindKeys, other := []string{"args", "env", "cwd"}, "command"
	if cmd {
		kindKeys, other = []string{"headers"}, "url"
	}
	for _, m := range n.members {
		if slices.Contains(kindKeys, m.key) {
			return c.fail(m.keyOff, pointer(path, m.key), strconv.Quote(m.key)+" applies only to a server with "+strconv.Quote(other), "")
		}
	}
	if t := present["type"]; t != nil {
		want := "url"
		if s.Type == "stdio" {
			want = "command"
		}
		if (want == "command") != cmd {
			return c.fail(t.off, pointer(path, "type"), "type "+strconv.Quote(s.Type)+` needs "`+want+`"`, "")
		}
	}
	return nil
}

// urlProblem says what is wrong with a server URL, or "".
func urlProblem(s string) string {
	bad := "invalid URL " + strconv.Quote(s) + ": expected an http or https URL like \"https://example.com/mcp\""
	if !urlPattern.MatchString(s) {
		return bad
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return bad
	}
	return ""
}

// TokenStoreProblem says what is wrong with a token store setting (the
// "tokenStore" key, or $MODEBOX_TOKEN_STORE when inFile is false), and a
// hint, or "" when it is fine: a postgres:// or postgresql:// URL with a
// host or a database, or the absolute path of a directory. In a file the
// URL may not hold a password (the file is often shared or committed):
// the password comes from $PGPASSWORD or a password file then.
func TokenStoreProblem(s string, inFile bool) (msg, hint string) {
	if strings.HasPrefix(s, "/") {
		return "", ""
	}
	scheme, _, ok := strings.Cut(s, "://")
	if !ok || (scheme != "postgres" && scheme != "postgresql") {
		// Only the scheme is shown: the rest may hold a password.
		got := "a relative path"
		if ok {
			got = "a " + strconv.Quote(truncate(scheme, 20)) + " URL"
		}
		return "expected a postgres:// URL or the absolute path of a directory, got " + got,
			`like "postgres://modebox@db.example.com/modebox" or "/var/lib/modebox/used-tokens"`
	}
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which may hold a password
		}
		return "invalid URL: " + err.Error(), ""
	}
	if _, has := u.User.Password(); has && inFile {
		return "the URL holds a password; keep it out of modebox.json",
			"set it in $PGPASSWORD or ~/.pgpass, or put the whole URL in $MODEBOX_TOKEN_STORE"
	}
	if inFile {
		// libpq's and pgx's query parameters that hold a secret or say
		// where one is (only the parameter's name is shown).
		for k := range u.Query() {
			switch strings.ToLower(k) {
			case "password", "sslpassword", "passfile":
				return "the URL's query holds " + strconv.Quote(strings.ToLower(k)) + "; keep it out of modebox.json",
					"set the password in $PGPASSWORD or ~/.pgpass ($PGPASSFILE), or put the whole URL in $MODEBOX_TOKEN_STORE"
			}
		}
	}
	if inFile && !tokenStoreURL.MatchString(s) {
		return "the URL's user name may not contain '@' or ':'", ""
	}
	return "", ""
}

// tokenStoreURL is the schema's pattern of "tokenStore": a path, or a
// postgres URL without a password.
var tokenStoreURL = regexp.MustCompile(`^(/[\s\S]*|postgres(ql)?://([^/?#:@]*@)?[^/?#@]*([/?#][\s\S]*)?)$`)

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
