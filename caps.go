package modebox

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/mountfs"
	"github.com/modebox/modebox/internal/netproxy"
	"github.com/modebox/modebox/internal/sandbox"
	"github.com/modebox/modebox/internal/schema"
	"github.com/modebox/modebox/internal/seal"
	"github.com/modebox/modebox/internal/webfetch"
)

// capabilities are an engine's built-ins: sh(), fetch() and fs.
type capabilities struct {
	shell    *sandbox.Sandbox
	shellErr error // why sh() refuses (the sandbox could not start)
	proxy    *netproxy.Server
	proxyDir string
	fetch    *webfetch.Client
	fs       *mountfs.FS
	entries  []*entry
	// digest identifies the capability configuration; continuation tokens
	// are bound to it (with the tool set), so a paused run resumes only
	// where sh, fetch and fs are configured the same way.
	digest string
}

// runCaps is one run's built-in state.
type runCaps struct {
	fetch *webfetch.Session
	fs    *mountfs.Session
}

func newCapabilities(cfg EngineConfig) (c *capabilities, err error) {
	c = &capabilities{}
	made := c // what to close on failure ("return nil, err" clears c)
	defer func() {
		if err != nil {
			_ = made.close()
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
		if err := c.initShell(&sc, cfg.Continuations); err != nil {
			return nil, err
		}
	}
	if cfg.Fetch != nil {
		if err := c.initFetch(cfg.Fetch); err != nil {
			return nil, err
		}
	}
	if cfg.FS != nil {
		if err := c.initFS(cfg.FS); err != nil {
			return nil, err
		}
	}
	if cfg.Shell != nil || cfg.Fetch != nil || cfg.FS != nil {
		c.digest = capsDigest(cfg)
	}
	return c, nil
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

// capsDigest digests what a resumed run's built-ins depend on: the shell's
// workspace, masks, environment and network allowlist, fetch's allowlist,
// header names and caps, and the mounts.
func capsDigest(cfg EngineConfig) string {
	type fetchView struct {
		Allow                                    []string
		Headers                                  map[string]map[string]string
		MaxBytes, MaxHeaderBytes, MaxRequestBody int64
		Timeout                                  time.Duration
		MaxRequests, MaxRedirects                int
		Source                                   bool
	}
	v := struct {
		Shell *ShellConfig
		Fetch *fetchView
		FS    *FSConfig
	}{Shell: cfg.Shell, FS: cfg.FS}
	if f := cfg.Fetch; f != nil {
		v.Fetch = &fetchView{f.Allow, f.Headers, f.MaxBytes, f.MaxHeaderBytes, f.MaxRequestBody, f.Timeout, f.MaxRequests, f.MaxRedirects, f.Source}
	}
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (c *capabilities) close() error {
	if c == nil {
		return nil
	}
	var errs []error
	if c.shell != nil {
		errs = append(errs, c.shell.Close())
	}
	if c.proxy != nil {
		errs = append(errs, c.proxy.Close())
	}
	if c.proxyDir != "" {
		errs = append(errs, os.RemoveAll(c.proxyDir))
	}
	if c.fs != nil {
		errs = append(errs, c.fs.Close())
	}
	return errors.Join(errs...)
}

func (c *capabilities) newRun() *runCaps {
	if c == nil {
		return nil
	}
	r := &runCaps{}
	if c.fetch != nil {
		r.fetch = c.fetch.NewSession()
	}
	if c.fs != nil {
		r.fs = c.fs.NewSession()
	}
	return r
}

// finish ends a run: staged writes commit when the run succeeded and are
// dropped otherwise (a paused run re-stages them when it resumes).
func (r *runCaps) finish(res *Result) {
	if r == nil {
		return
	}
	if r.fetch != nil {
		r.fetch.Close()
	}
	if r.fs == nil {
		return
	}
	if res.Status != StatusOK {
		r.fs.Discard()
		return
	}
	rep := r.fs.Commit()
	if len(rep.Committed) == 0 && len(rep.Conflicts) == 0 {
		return
	}
	res.Files = &FilesReport{Committed: rep.Committed}
	for _, cf := range rep.Conflicts {
		res.Files.Conflicts = append(res.Files.Conflicts, FileConflict{Path: cf.Path, Reason: cf.Reason})
	}
}

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

// builtin makes a built-in entry.
func builtin(key, ns, desc string, policy Policy, input string, h Handler) *entry {
	e := &entry{
		Tool:    Tool{Name: key, Description: desc, InputSchema: json.RawMessage(input), Handler: h, Policy: policy},
		js:      key,
		key:     key,
		ns:      ns,
		builtin: true,
	}
	v, err := schema.Compile(e.InputSchema)
	if err != nil {
		panic(fmt.Sprintf("modebox: built-in %s has a bad schema: %v", key, err))
	}
	e.input = v
	return e
}

// ---- sh() ----

const shSchema = `{"type":"object","properties":{
"command":{"type":"string","minLength":1,"maxLength":262144},
"cwd":{"type":"string"},
"timeout":{"type":["number","string"]},
"env":{"type":"object","additionalProperties":{"type":"string"}},
"stdin":{"type":"string"},
"stdinBase64":{"type":"string"}},
"required":["command"],"additionalProperties":false}`

type shArgs struct {
	Command     string            `json:"command"`
	Cwd         string            `json:"cwd"`
	Timeout     json.RawMessage   `json:"timeout"`
	Env         map[string]string `json:"env"`
	Stdin       string            `json:"stdin"`
	StdinBase64 string            `json:"stdinBase64"`
}

type shResult struct {
	ExitCode  int    `json:"exitCode"`
	Stdout    string `json:"stdout"`
	Stderr    string `json:"stderr"`
	TimedOut  bool   `json:"timedOut"`
	Truncated bool   `json:"truncated"`
}

// statePaths lists modebox's own state, which no shell command may read
// or write: the key directory, the state directory (used tokens), the
// engine's compilation cache (native code the host runs) and a custom
// used-token directory.
func statePaths(cont *Continuations) []string {
	var out []string
	if p, err := seal.DefaultKeyPath(); err == nil {
		out = append(out, filepath.Dir(p))
	}
	if st, err := seal.DefaultStore(); err == nil {
		out = append(out, filepath.Dir(st.Dir))
	}
	if d := os.Getenv("MODEBOX_CACHE_DIR"); d != "" {
		out = append(out, d)
	}
	if d, err := os.UserCacheDir(); err == nil {
		out = append(out, filepath.Join(d, "modebox"))
	}
	if cont != nil {
		if ds, ok := cont.Store.(*seal.DirStore); ok && ds.Dir != "" {
			out = append(out, ds.Dir)
		}
	}
	for i, p := range out {
		if abs, err := filepath.Abs(p); err == nil {
			out[i] = abs
		}
	}
	return out
}

func (c *capabilities) initShell(cfg *ShellConfig, cont *Continuations) error {
	if cfg.MaxOutput < 0 || cfg.MaxOutput > sandbox.MaxOutputLimit {
		return &ConfigError{Field: "Shell.MaxOutput", Reason: fmt.Sprintf("%d is out of range: between 1 and %d bytes (0: the default, 1 MiB)", cfg.MaxOutput, sandbox.MaxOutputLimit)}
	}
	if cfg.Timeout < 0 || (cfg.Timeout > 0 && cfg.Timeout < sandbox.MinTimeout) || cfg.MaxTimeout < 0 || (cfg.MaxTimeout > 0 && cfg.MaxTimeout < sandbox.MinTimeout) {
		return &ConfigError{Field: "Shell.Timeout", Reason: fmt.Sprintf("timeouts must be at least %s (0: the default)", sandbox.MinTimeout)}
	}
	sc := sandbox.Config{
		Workspace:  cfg.Workspace,
		DenyRead:   cfg.DenyRead,
		Env:        cfg.Env,
		Timeout:    cfg.Timeout,
		MaxTimeout: cfg.MaxTimeout,
		MaxOutput:  cfg.MaxOutput,
		Bwrap:      cfg.Bwrap,
		Private:    append(statePaths(cont), cfg.Private...),
		AllowWrite: cfg.AllowWrite,
		User:       cfg.User,
		Limits: sandbox.Limits{
			Processes: cfg.Limits.Processes, OpenFiles: cfg.Limits.OpenFiles,
			FileSize: cfg.Limits.FileSize, Memory: cfg.Limits.Memory, TmpSize: cfg.Limits.TmpSize,
		},
	}
	if cfg.Network != nil {
		dir, err := os.MkdirTemp("", "modebox-proxy-")
		if err != nil {
			return fmt.Errorf("modebox: shell network proxy: %w", err)
		}
		c.proxyDir = dir
		sock := filepath.Join(dir, "proxy.sock")
		srv, err := netproxy.Listen(sock, netproxy.Config{Allow: cfg.Network.Allow})
		if err != nil {
			return &ConfigError{Field: "Shell.Network.Allow", Reason: err.Error(), Err: err}
		}
		c.proxy = srv
		go func() { _ = srv.Serve() }()
		sc.Network = &sandbox.Network{ProxySocket: sock, Bridge: cfg.Bridge}
	}
	sb, err := sandbox.New(sc)
	if err != nil {
		var se *sandbox.Error
		if !errors.As(err, &se) || se.Code != CodeSandboxUnavailable {
			return &ConfigError{Field: "Shell", Reason: err.Error(), Err: err}
		}
		// fail closed, but keep the engine: sh() refuses with the reason
		c.shellErr = err
	}
	c.shell = sb
	desc := "Runs a shell command in a sandbox: writes only in the workspace and temp dirs, credential stores hidden"
	if cfg.Network == nil {
		desc += ", no network."
	} else {
		desc += ", network only to the listed hosts through a proxy."
	}
	e := builtin("sh", "", desc, PolicyAsk, shSchema, c.runShell)
	e.Sink = cfg.Network != nil
	c.entries = append(c.entries, e)
	return nil
}

func (c *capabilities) runShell(ctx context.Context, raw json.RawMessage) (any, error) {
	if c.shellErr != nil {
		msg := c.shellErr.Error()
		var se *sandbox.Error
		if errors.As(c.shellErr, &se) && se.Fix != "" && !containsFold(msg, se.Fix) {
			msg += "; to fix: " + se.Fix
		}
		return nil, &ToolError{Code: CodeSandboxUnavailable, Message: "sh(): the sandbox cannot start, so nothing was run: " + msg, Err: c.shellErr}
	}
	var a shArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, &ToolError{Code: CodeInvalidArgument, Message: "sh(): " + err.Error(), Err: err}
	}
	cmd := sandbox.Command{Script: a.Command, Cwd: a.Cwd, Env: a.Env, Stdin: []byte(a.Stdin)}
	if a.StdinBase64 != "" {
		b, err := base64.StdEncoding.DecodeString(a.StdinBase64)
		if err != nil {
			return nil, &ToolError{Code: CodeInvalidArgument, Message: "sh(): stdin is not valid base64", Err: err}
		}
		cmd.Stdin = b
	}
	if len(a.Timeout) > 0 {
		d, err := parseTimeout(a.Timeout)
		if err != nil {
			return nil, &ToolError{Code: CodeInvalidArgument, Message: "sh(): timeout: " + err.Error(), Err: err}
		}
		cmd.Timeout = d
	}
	r, err := c.shell.Run(ctx, cmd)
	if err != nil {
		var se *sandbox.Error
		if errors.As(err, &se) {
			if se.Code == CodeSandboxInvalidCommand {
				return nil, &ToolError{Code: CodeInvalidArgument, Message: "sh(): " + se.Reason, Err: err}
			}
			msg := se.Error()
			if se.Fix != "" && !containsFold(msg, se.Fix) {
				msg += "; to fix: " + se.Fix
			}
			return nil, &ToolError{Code: se.Code, Message: "sh(): " + msg, Err: err}
		}
		return nil, err
	}
	return shResult{ExitCode: r.ExitCode, Stdout: r.Stdout, Stderr: r.Stderr, TimedOut: r.TimedOut, Truncated: r.Truncated}, nil
}

// parseTimeout reads a number of milliseconds or a duration string.
func parseTimeout(raw json.RawMessage) (time.Duration, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return 0, fmt.Errorf("%q is not a positive duration like \"5s\"", s)
		}
		if d < sandbox.MinTimeout || d > 24*time.Hour {
			return 0, fmt.Errorf("%q is out of range: between %s and 24h", s, sandbox.MinTimeout)
		}
		return d, nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f <= 0 || f > float64(24*time.Hour/time.Millisecond) {
		return 0, fmt.Errorf("%s is not a positive number of milliseconds", raw)
	}
	if f < 1 {
		return 0, fmt.Errorf("%s is out of range: at least 1 millisecond", raw)
	}
	return time.Duration(f * float64(time.Millisecond)), nil
}

// ---- fetch() ----

const fetchSchema = `{"type":"object","properties":{
"url":{"type":"string","minLength":1,"maxLength":8192},
"method":{"type":"string"},
"headers":{"type":"object","additionalProperties":{"type":"string"}},
"body":{"type":"string"},
"bodyBase64":{"type":"string"}},
"required":["url"],"additionalProperties":false}`

type fetchArgs struct {
	URL        string            `json:"url"`
	Method     string            `json:"method"`
	Headers    map[string]string `json:"headers"`
	Body       *string           `json:"body"`
	BodyBase64 string            `json:"bodyBase64"`
}

func (a fetchArgs) request() (webfetch.Request, error) {
	r := webfetch.Request{URL: a.URL, Method: a.Method, Headers: a.Headers}
	if r.Method == "" {
		r.Method = "GET"
	}
	if a.Body != nil {
		r.Body = []byte(*a.Body)
	} else if a.BodyBase64 != "" {
		b, err := base64.StdEncoding.DecodeString(a.BodyBase64)
		if err != nil {
			return r, err
		}
		r.Body = b
	}
	return r, nil
}

type fetchResult struct {
	Status     int               `json:"status"`
	StatusText string            `json:"statusText"`
	Headers    map[string]string `json:"headers"`
	URL        string            `json:"url"`
	Redirected bool              `json:"redirected"`
	Body       string            `json:"body"`
	Encoding   string            `json:"encoding"` // utf8 or base64
}

func (c *capabilities) initFetch(cfg *FetchConfig) error {
	cl, err := webfetch.New(webfetch.Config{
		Allow:          cfg.Allow,
		Headers:        cfg.Headers,
		MaxBytes:       cfg.MaxBytes,
		MaxHeaderBytes: cfg.MaxHeaderBytes,
		MaxRequestBody: cfg.MaxRequestBody,
		Timeout:        cfg.Timeout,
		MaxRequests:    cfg.MaxRequests,
		MaxRedirects:   cfg.MaxRedirects,
		Resolver:       cfg.resolver,
		RootCAs:        cfg.RootCAs,
	})
	if err != nil {
		return &ConfigError{Field: "Fetch", Reason: err.Error(), Err: err}
	}
	c.fetch = cl
	e := builtin("fetch", "", "Makes a web request from the host: listed hosts directly, others with approval.", PolicyAllow, fetchSchema, c.runFetch)
	e.Sink = true
	e.Source = cfg.Source
	e.gate = func(raw json.RawMessage) gateInfo {
		var a fetchArgs
		if json.Unmarshal(raw, &a) != nil {
			return gateInfo{} // the schema check reports it
		}
		req, err := a.request()
		if err != nil {
			return gateInfo{reject: &ToolError{Code: CodeInvalidArgument, Message: "fetch(): body is not valid base64"}}
		}
		chk, err := cl.Check(req)
		if err != nil {
			return gateInfo{reject: toolErrorFrom("fetch(): ", err)}
		}
		if chk.Listed {
			return gateInfo{}
		}
		return gateInfo{
			reason:      "fetch " + chk.Summary + " is not on the fetch allowlist",
			approvalKey: "fetch " + chk.Target.URL.Scheme + "://" + chk.Target.HostPort(),
		}
	}
	// a replayed request counts against maxRequests: the cap is per run,
	// pauses included (a replayed call the gate had refused counts too:
	// the cap errs on the safe side)
	e.replay = func(h *runHost, _ engine.Call) error {
		if h.caps != nil && h.caps.fetch != nil {
			h.caps.fetch.CountReplayed()
		}
		return nil
	}
	c.entries = append(c.entries, e)
	return nil
}

func (c *capabilities) runFetch(ctx context.Context, raw json.RawMessage) (any, error) {
	ci := callFrom(ctx)
	if ci.host == nil || ci.host.caps == nil || ci.host.caps.fetch == nil {
		return nil, &ToolError{Code: CodeToolError, Message: "fetch(): no session"}
	}
	var a fetchArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, &ToolError{Code: CodeInvalidArgument, Message: "fetch(): " + err.Error(), Err: err}
	}
	req, err := a.request()
	if err != nil {
		return nil, &ToolError{Code: CodeInvalidArgument, Message: "fetch(): body is not valid base64", Err: err}
	}
	resp, err := ci.host.caps.fetch.Do(ctx, req, ci.approved)
	if err != nil {
		return nil, toolErrorFrom("fetch(): ", err)
	}
	out := fetchResult{Status: resp.Status, StatusText: resp.StatusText, Headers: resp.Headers, URL: resp.URL, Redirected: resp.Redirected}
	if out.Headers == nil {
		out.Headers = map[string]string{}
	}
	if utf8.Valid(resp.Body) {
		out.Body, out.Encoding = string(resp.Body), "utf8"
	} else {
		out.Body, out.Encoding = base64.StdEncoding.EncodeToString(resp.Body), "base64"
	}
	return out, nil
}

// ---- fs ----

const (
	fsPathSchema = `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`
	fsReadSchema = `{"type":"object","properties":{"path":{"type":"string"},"encoding":{"enum":["utf8","bytes","base64"]}},"required":["path"],"additionalProperties":false}`
	fsWrite      = `{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"},"contentBase64":{"type":"string"}},"required":["path"],"additionalProperties":false}`
	fsGlobSchema = `{"type":"object","properties":{"pattern":{"type":"string"}},"required":["pattern"],"additionalProperties":false}`
)

type fsArgs struct {
	Path          string  `json:"path"`
	Pattern       string  `json:"pattern"`
	Encoding      string  `json:"encoding"`
	Content       *string `json:"content"`
	ContentBase64 string  `json:"contentBase64"`
}

func (a fsArgs) data() ([]byte, error) {
	if a.Content != nil {
		return []byte(*a.Content), nil
	}
	return base64.StdEncoding.DecodeString(a.ContentBase64)
}

type fsReadResult struct {
	Content  string       `json:"content"`
	Encoding string       `json:"encoding"`
	Base     mountfs.Base `json:"base"`
}

type fsChangeResult struct {
	Path string       `json:"path"`
	Size int          `json:"size,omitempty"`
	Base mountfs.Base `json:"base"`
}

func (c *capabilities) initFS(cfg *FSConfig) error {
	mc := mountfs.Config{Deny: cfg.Deny, MaxFileSize: cfg.MaxFileSize, MaxEntries: cfg.MaxEntries}
	for _, m := range cfg.Mounts {
		mode := mountfs.Mode(m.Mode)
		if m.Mode == "" {
			mode = "ro"
		}
		mc.Mounts = append(mc.Mounts, mountfs.Mount{Host: m.Host, Guest: m.Guest, Mode: mode, Source: m.Source})
	}
	f, err := mountfs.New(mc)
	if err != nil {
		return &ConfigError{Field: "FS", Reason: err.Error(), Err: err}
	}
	c.fs = f
	source := func(op string) func(raw json.RawMessage) gateInfo {
		return func(raw json.RawMessage) gateInfo {
			var a fsArgs
			if json.Unmarshal(raw, &a) != nil {
				return gateInfo{}
			}
			p := a.Path
			if p == "" {
				p = a.Pattern
			}
			if !f.IsSource(p) {
				return gateInfo{}
			}
			return gateInfo{source: true, sourceName: "fs." + op + "(" + strconv.Quote(p) + ")"}
		}
	}
	add := func(op, desc, schema string, run func(s *mountfs.Session, a fsArgs) (any, error)) *entry {
		e := builtin("fs."+op, "fs", desc, PolicyAllow, schema, func(ctx context.Context, raw json.RawMessage) (any, error) {
			ci := callFrom(ctx)
			if ci.host == nil || ci.host.caps == nil || ci.host.caps.fs == nil {
				return nil, &ToolError{Code: CodeToolError, Message: "fs: no session"}
			}
			var a fsArgs
			if err := json.Unmarshal(raw, &a); err != nil {
				return nil, &ToolError{Code: CodeInvalidArgument, Message: "fs." + op + "(): " + err.Error(), Err: err}
			}
			v, err := run(ci.host.caps.fs, a)
			if err != nil {
				return nil, toolErrorFrom("", err)
			}
			return v, nil
		})
		c.entries = append(c.entries, e)
		return e
	}
	rd := add("read", "Reads a file (text, or bytes with {encoding: \"bytes\"}).", fsReadSchema, func(s *mountfs.Session, a fsArgs) (any, error) {
		data, _, base, err := s.Read(a.Path)
		if err != nil {
			return nil, err
		}
		switch a.Encoding {
		case "bytes", "base64":
			return fsReadResult{Content: base64.StdEncoding.EncodeToString(data), Encoding: a.Encoding, Base: base}, nil
		}
		if !utf8.Valid(data) {
			return nil, &ToolError{Code: CodeFSNotText, Message: "fs.read(" + a.Path + "): the file is not UTF-8 text; read it with {encoding: \"bytes\"}"}
		}
		return fsReadResult{Content: string(data), Encoding: "utf8", Base: base}, nil
	})
	rd.gate = source("read")
	rd.replay = replayFS(func(s *mountfs.Session, a fsArgs, base mountfs.Base) error {
		return s.NoteRead(a.Path, base)
	})
	wr := add("write", "Writes a file (staged; committed when the run ends well).", fsWrite, func(s *mountfs.Session, a fsArgs) (any, error) {
		data, err := a.data()
		if err != nil {
			return nil, &ToolError{Code: CodeInvalidArgument, Message: "fs.write(): content is not valid base64", Err: err}
		}
		base, err := s.Write(a.Path, data)
		if err != nil {
			return nil, err
		}
		return fsChangeResult{Path: a.Path, Size: len(data), Base: base}, nil
	})
	wr.replay = replayFS(func(s *mountfs.Session, a fsArgs, base mountfs.Base) error {
		data, err := a.data()
		if err != nil {
			return err
		}
		return s.Restage(a.Path, data, base)
	})
	rm := add("remove", "Removes a file (staged; committed when the run ends well).", fsPathSchema, func(s *mountfs.Session, a fsArgs) (any, error) {
		base, err := s.Remove(a.Path)
		if err != nil {
			return nil, err
		}
		return fsChangeResult{Path: a.Path, Base: base}, nil
	})
	rm.replay = replayFS(func(s *mountfs.Session, a fsArgs, base mountfs.Base) error {
		return s.RestageRemove(a.Path, base)
	})
	add("list", "Lists a directory.", fsPathSchema, func(s *mountfs.Session, a fsArgs) (any, error) {
		return s.List(a.Path)
	}).gate = source("list")
	add("stat", "Describes a file or directory.", fsPathSchema, func(s *mountfs.Session, a fsArgs) (any, error) {
		return s.Stat(a.Path)
	})
	add("exists", "Tells whether a path exists.", fsPathSchema, func(s *mountfs.Session, a fsArgs) (any, error) {
		return s.Exists(a.Path)
	})
	add("glob", "Finds files by pattern (*, ?, [..], **).", fsGlobSchema, func(s *mountfs.Session, a fsArgs) (any, error) {
		return s.Glob(a.Pattern)
	}).gate = source("glob")
	return nil
}

// replayFS makes the replay hook of an fs call: for a call the journal
// records as successful, it decodes the program's arguments and the base
// recorded in the result, and hands them to restore, which rebuilds the
// run's session (re-stage a write, re-note a read).
func replayFS(restore func(s *mountfs.Session, a fsArgs, base mountfs.Base) error) func(*runHost, engine.Call) error {
	return func(h *runHost, call engine.Call) error {
		if !call.RecordedOK || h.caps == nil || h.caps.fs == nil {
			return nil
		}
		var a fsArgs
		var r struct {
			Base mountfs.Base `json:"base"`
		}
		if err := json.Unmarshal(call.Args, &a); err != nil {
			return err
		}
		if err := json.Unmarshal(call.Recorded, &r); err != nil {
			return err
		}
		return restore(h.caps.fs, a, r.Base)
	}
}

// toolErrorFrom keeps a capability error's stable code.
func toolErrorFrom(prefix string, err error) *ToolError {
	var te *ToolError
	if errors.As(err, &te) {
		return te
	}
	code := CodeToolError
	var ce interface{ ErrorCode() string }
	if errors.As(err, &ce) && ce.ErrorCode() != "" {
		code = Code(ce.ErrorCode())
	} else if c := mountfs.CodeOf(err); c != "" {
		code = c
	}
	return &ToolError{Code: code, Message: prefix + err.Error(), Err: err}
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
