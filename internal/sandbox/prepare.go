//go:build linux || darwin

package sandbox

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/credpaths"
)

// prepare is the part of New every platform shares: it fills in the
// default timeouts and output cap and refuses impossible ones, finds the
// home directory and user, and checks the workspaces, the environment, the
// deny-read paths and the network's proxy socket and bridge executable. It
// returns the Sandbox with those fields set; New adds the platform's own.
func prepare(cfg Config) (*Sandbox, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxTimeout <= 0 {
		cfg.MaxTimeout = DefaultMaxTimeout
	}
	if cfg.Timeout > cfg.MaxTimeout {
		cfg.Timeout = cfg.MaxTimeout
	}
	if cfg.MaxOutput == 0 {
		cfg.MaxOutput = DefaultMaxOutput
	}
	if cfg.MaxOutput < 0 || cfg.MaxOutput > MaxOutputLimit {
		return nil, configError("max output %d is out of range: it must be between 1 and %d bytes", cfg.MaxOutput, MaxOutputLimit)
	}
	if cfg.Timeout < MinTimeout || cfg.MaxTimeout < MinTimeout {
		return nil, configError("timeout %s is shorter than %s", min(cfg.Timeout, cfg.MaxTimeout), MinTimeout)
	}
	s := &Sandbox{cfg: cfg, root: os.Geteuid() == 0}
	s.home, _ = os.UserHomeDir()
	if u, err := user.Current(); err == nil {
		s.userName = u.Username
		if s.home == "" {
			s.home = u.HomeDir
		}
	}
	if s.home == "" {
		s.home = "/"
	}
	for _, w := range cfg.Workspace {
		rw, err := checkWorkspace(w)
		if err != nil {
			return nil, err
		}
		if h := credpaths.HomeWithin(rw); h != "" {
			return nil, &Error{Code: codes.SandboxConfig,
				Reason: fmt.Sprintf("shell workspace %s is or holds the home directory %s: a command could create the files there that run at login and in every git command (.bash_profile, .config/git, .ssh/authorized_keys)", w, h),
				Fix:    "give the shell a project directory, not a home directory"}
		}
		s.workspaces = append(s.workspaces, rw)
	}
	if err := checkEnv(cfg.Env, "config env", configError); err != nil {
		return nil, err
	}
	for _, p := range cfg.DenyRead {
		if !filepath.IsAbs(expandUserPath(p, s.home)) {
			return nil, configError("deny_read path %q is neither absolute nor under ~", p)
		}
	}
	if n := cfg.Network; n != nil {
		if !filepath.IsAbs(n.ProxySocket) {
			return nil, configError("network proxy socket %q is not an absolute path", n.ProxySocket)
		}
		fi, err := os.Stat(n.ProxySocket)
		if err != nil || fi.Mode().Type() != os.ModeSocket {
			return nil, &Error{Code: codes.SandboxConfig, Reason: fmt.Sprintf("network proxy socket %s is not a Unix socket", n.ProxySocket), Err: err}
		}
		s.proxySock = n.ProxySocket
		s.bridge = n.Bridge
		if s.bridge == "" {
			if s.bridge, err = os.Executable(); err != nil {
				return nil, &Error{Code: codes.SandboxConfig, Reason: "cannot find the modebox executable for the network bridge", Err: err}
			}
		}
		fi, err = os.Stat(s.bridge)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			return nil, &Error{Code: codes.SandboxConfig, Reason: fmt.Sprintf("network bridge %s is not an executable file", s.bridge), Err: err}
		}
	}
	return s, nil
}

// Masked returns the paths hidden from commands on this machine now.
func (s *Sandbox) Masked() []string {
	ms, _ := s.masks()
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.path
	}
	return out
}
