// Package sh is the sh() built-in: a shell command in the sandbox of
// internal/sandbox, with its network (when configured) through the
// filtering proxy of internal/netproxy.
package sh

import (
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/modebox/modebox/internal/builtin"
	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/netproxy"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/sandbox"
	"github.com/modebox/modebox/internal/seal"
)

//go:embed schema.json
var inputSchema []byte

//go:embed sh.d.ts
var decl string

type args struct {
	Command     string            `json:"command"`
	Cwd         string            `json:"cwd"`
	Timeout     json.RawMessage   `json:"timeout"`
	Env         map[string]string `json:"env"`
	Stdin       string            `json:"stdin"`
	StdinBase64 string            `json:"stdinBase64"`
}

type result struct {
	ExitCode  int    `json:"exitCode"`
	Stdout    string `json:"stdout"`
	Stderr    string `json:"stderr"`
	TimedOut  bool   `json:"timedOut"`
	Truncated bool   `json:"truncated"`
}

// StatePaths lists modebox's own state, which no shell command (and no
// fs call) may read or write: the key directory, the state directory
// (used tokens), the engine's compilation cache (native code the host
// runs) and tokenDir, a used-token directory given to the engine ("" if
// none).
func StatePaths(tokenDir string) []string {
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
	if tokenDir != "" {
		out = append(out, tokenDir)
	}
	for i, p := range out {
		if abs, err := filepath.Abs(p); err == nil {
			out[i] = abs
		}
	}
	return out
}

// shell is an enabled sh().
type shell struct {
	sb    *sandbox.Sandbox
	err   error // why sh() refuses (the sandbox could not start)
	proxy *netproxy.Server
	dir   string // the proxy's socket directory
}

// New enables sh() with cfg; private are the host paths that stay hidden
// besides cfg.Private (see StatePaths). A machine where the sandbox
// cannot start still gets sh(), which then refuses every command with
// SANDBOX_UNAVAILABLE and the reason (it fails closed, never runs a
// command unconfined).
func New(cfg Config, private []string) (c *builtin.Capability, err error) {
	if cfg.MaxOutput < 0 || cfg.MaxOutput > sandbox.MaxOutputLimit {
		return nil, &errs.Config{Field: "Shell.MaxOutput", Reason: fmt.Sprintf("%d is out of range: between 1 and %d bytes (0: the default, 1 MiB)", cfg.MaxOutput, sandbox.MaxOutputLimit)}
	}
	if cfg.Timeout < 0 || (cfg.Timeout > 0 && cfg.Timeout < sandbox.MinTimeout) || cfg.MaxTimeout < 0 || (cfg.MaxTimeout > 0 && cfg.MaxTimeout < sandbox.MinTimeout) {
		return nil, &errs.Config{Field: "Shell.Timeout", Reason: fmt.Sprintf("timeouts must be at least %s (0: the default)", sandbox.MinTimeout)}
	}
	s := &shell{}
	defer func() {
		if err != nil {
			_ = s.close()
		}
	}()
	sc := sandbox.Config{
		Workspace:  cfg.Workspace,
		DenyRead:   cfg.DenyRead,
		Env:        cfg.Env,
		Timeout:    cfg.Timeout,
		MaxTimeout: cfg.MaxTimeout,
		MaxOutput:  cfg.MaxOutput,
		Bwrap:      cfg.Bwrap,
		Private:    append(append([]string(nil), private...), cfg.Private...),
		AllowWrite: cfg.AllowWrite,
		User:       cfg.User,
		Limits:     cfg.Limits,
	}
	if cfg.Network != nil {
		dir, err := os.MkdirTemp("", "modebox-proxy-")
		if err != nil {
			return nil, fmt.Errorf("modebox: shell network proxy: %w", err)
		}
		s.dir = dir
		sock := filepath.Join(dir, "proxy.sock")
		srv, err := netproxy.Listen(sock, netproxy.Config{Allow: cfg.Network.Allow})
		if err != nil {
			return nil, &errs.Config{Field: "Shell.Network.Allow", Reason: err.Error(), Err: err}
		}
		s.proxy = srv
		go func() { _ = srv.Serve() }()
		sc.Network = &sandbox.Network{ProxySocket: sock, Bridge: cfg.Bridge}
	}
	sb, err := sandbox.New(sc)
	if err != nil {
		var se *sandbox.Error
		if !errors.As(err, &se) || se.Code != codes.SandboxUnavailable {
			return nil, &errs.Config{Field: "Shell", Reason: err.Error(), Err: err}
		}
		// fail closed, but keep the engine: sh() refuses with the reason
		s.err = err
	}
	s.sb = sb
	desc := "Runs a shell command in a sandbox: writes only in the workspace and temp dirs, credential stores hidden"
	if cfg.Network == nil {
		desc += ", no network."
	} else {
		desc += ", network only to the listed hosts through a proxy."
	}
	return (&builtin.Capability{
		Name: "sh",
		Decl: decl,
		Funcs: []*builtin.Func{{
			Key: "sh", Description: desc, Schema: inputSchema, Policy: policy.Ask,
			Sink:    cfg.Network != nil,
			Handler: s.run,
		}},
		Close: s.close,
	}).Compile(), nil
}

func (s *shell) close() error {
	var errs []error
	if s.sb != nil {
		errs = append(errs, s.sb.Close())
	}
	if s.proxy != nil {
		errs = append(errs, s.proxy.Close())
	}
	if s.dir != "" {
		errs = append(errs, os.RemoveAll(s.dir))
	}
	return errors.Join(errs...)
}

func (s *shell) run(ctx context.Context, c builtin.Call, raw json.RawMessage) (any, error) {
	if s.err != nil {
		msg := s.err.Error()
		var se *sandbox.Error
		if errors.As(s.err, &se) && se.Fix != "" && !containsFold(msg, se.Fix) {
			msg += "; to fix: " + se.Fix
		}
		return nil, &errs.Tool{Code: codes.SandboxUnavailable, Message: "sh(): the sandbox cannot start, so nothing was run: " + msg, Err: s.err}
	}
	var a args
	if err := builtin.DecodeArgs("sh()", raw, &a); err != nil {
		return nil, err
	}
	// output past the value limit could not be returned: it is not kept
	cmd := sandbox.Command{Script: a.Command, Cwd: a.Cwd, Env: a.Env, Stdin: []byte(a.Stdin), MaxOutput: c.MaxValue}
	if a.StdinBase64 != "" {
		b, err := base64.StdEncoding.DecodeString(a.StdinBase64)
		if err != nil {
			return nil, &errs.Tool{Code: codes.InvalidArgument, Message: "sh(): stdin is not valid base64", Err: err}
		}
		cmd.Stdin = b
	}
	if len(a.Timeout) > 0 {
		d, err := parseTimeout(a.Timeout)
		if err != nil {
			return nil, &errs.Tool{Code: codes.InvalidArgument, Message: "sh(): timeout: " + err.Error(), Err: err}
		}
		cmd.Timeout = d
	}
	r, err := s.sb.Run(ctx, cmd)
	if err != nil {
		var se *sandbox.Error
		if errors.As(err, &se) {
			if se.Code == codes.SandboxInvalidCommand {
				return nil, &errs.Tool{Code: codes.InvalidArgument, Message: "sh(): " + se.Reason, Err: err}
			}
			msg := se.Error()
			if se.Fix != "" && !containsFold(msg, se.Fix) {
				msg += "; to fix: " + se.Fix
			}
			return nil, &errs.Tool{Code: se.Code, Message: "sh(): " + msg, Err: err}
		}
		return nil, err
	}
	return result{ExitCode: r.ExitCode, Stdout: r.Stdout, Stderr: r.Stderr, TimedOut: r.TimedOut, Truncated: r.Truncated}, nil
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

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
