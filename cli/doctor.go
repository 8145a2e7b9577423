package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/config"
	"github.com/modebox/modebox/internal/mountfs"
	"github.com/modebox/modebox/internal/sandbox"
	"github.com/modebox/modebox/internal/seal"
)

// check is one line of `modebox doctor`.
type check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	// Optional checks do not fail the doctor.
	Optional bool `json:"optional,omitempty"`
}

func newDoctorCmd(s Streams, g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the engine, configuration, token key and sandbox here",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// The doctor changes nothing on the machine: the engine
			// compiles into a throwaway cache, the key file and the
			// used-token store are only looked at.
			if os.Getenv("MODEBOX_CACHE_DIR") == "" {
				if dir, err := os.MkdirTemp("", "modebox-doctor-cache-"); err == nil {
					defer os.RemoveAll(dir)
					os.Setenv("MODEBOX_CACHE_DIR", dir)
					defer os.Unsetenv("MODEBOX_CACHE_DIR")
				}
			}
			checks := []check{checkEngine(), checkConfig(g.config), checkKey()}
			checks = append(checks, checkTokenStore(g.config)...)
			checks = append(checks, checkSandbox(g.config)...)
			checks = append(checks, checkFS())
			failed := false
			for _, c := range checks {
				failed = failed || (!c.OK && !c.Optional)
			}
			if g.json() {
				b, _ := json.MarshalIndent(checks, "", "  ")
				fmt.Fprintln(s.Stdout, string(b))
			} else {
				for _, c := range checks {
					mark := "ok  "
					switch {
					case !c.OK && c.Optional:
						mark = "--  "
					case !c.OK:
						mark = "FAIL"
					}
					fmt.Fprintf(s.Stdout, "%s %-20s %s\n", mark, c.Name, c.Detail)
				}
			}
			if failed {
				return status(ExitFailed)
			}
			return nil
		},
	}
	withJSONAlias(cmd, g)
	return cmd
}

func checkEngine() check {
	start := time.Now()
	eng, err := modebox.New(modebox.EngineConfig{})
	if err != nil {
		return check{Name: "engine", Detail: err.Error()}
	}
	res, err := eng.Run(context.Background(), "return 6 * 7", modebox.RunOptions{})
	if err != nil || res.Error != nil || string(res.Value) != "42" {
		return check{Name: "engine", Detail: fmt.Sprintf("a test run failed: %v %v", err, res.Error)}
	}
	return check{Name: "engine", OK: true, Detail: fmt.Sprintf("image sha256:%.12s…, imports %v, first run in %s",
		modebox.ImageHash(), modebox.Imports(), time.Since(start).Round(time.Millisecond))}
}

func checkConfig(flagPath string) check {
	path, err := config.Find(flagPath)
	if err != nil {
		return check{Name: "config", Detail: err.Error()}
	}
	if path == "" {
		return check{Name: "config", OK: true, Detail: "none found (--config, $MODEBOX_CONFIG, ./modebox.json): defaults, console only"}
	}
	cfg, err := config.Load(path)
	if err != nil {
		return check{Name: "config", Detail: err.Error()}
	}
	missing := ""
	for name, srv := range cfg.MCPServers {
		if srv.Command != "" && !srv.Disabled {
			if _, err := exec.LookPath(srv.Command); err != nil {
				missing += fmt.Sprintf("; server %s: %s not found", name, srv.Command)
			}
		}
	}
	return check{Name: "config", OK: missing == "", Detail: fmt.Sprintf("%s: %d tool rules, %d MCP servers%s", path, len(cfg.Engine.Policies), len(cfg.MCPServers), missing)}
}

func checkKey() check {
	if _, ok := os.LookupEnv(seal.EnvSecret); ok {
		if _, err := seal.LoadKeyring(); err != nil {
			return check{Name: "token key", Detail: err.Error()}
		}
		return check{Name: "token key", OK: true, Detail: "$" + seal.EnvSecret}
	}
	path, err := seal.DefaultKeyPath()
	if err != nil {
		return check{Name: "token key", Detail: err.Error()}
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return check{Name: "token key", OK: true, Detail: path + " (created 0600 on first use)"}
	}
	if _, err := seal.LoadKeyringFile(path, false); err != nil {
		return check{Name: "token key", Detail: err.Error()}
	}
	return check{Name: "token key", OK: true, Detail: path}
}

// checkDirStore checks the directory store at dir, or the default one.
func checkDirStore(dir string) check {
	st := &seal.DirStore{Dir: dir}
	if dir == "" {
		var err error
		if st, err = seal.DefaultStore(); err != nil {
			return check{Name: "used tokens", Detail: err.Error()}
		}
	}
	// Look, never create: the store's directory, or the nearest existing
	// parent that Claim would create it in, must be a writable directory.
	dir, suffix := st.Dir, ""
	for {
		fi, err := os.Stat(dir)
		if err == nil {
			if !fi.IsDir() {
				return check{Name: "used tokens", Detail: dir + " is not a directory"}
			}
			if err := unix.Access(dir, unix.W_OK|unix.X_OK); err != nil {
				return check{Name: "used tokens", Detail: dir + ": not writable: " + err.Error()}
			}
			break
		}
		if !errors.Is(err, os.ErrNotExist) {
			return check{Name: "used tokens", Detail: err.Error()}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir, suffix = parent, " (created 0700 on first use)"
	}
	return check{Name: "used tokens", OK: true, Detail: st.Dir + suffix}
}

// checkSandbox reports which parts of sh()'s sandbox work here. The
// checks are optional unless the configuration enables the shell.
func checkSandbox(cfgPath string) []check {
	sc := sandbox.Config{}
	required := false
	if cfg, err := loadConfig(cfgPath); err == nil && cfg.Engine.Shell != nil {
		sh := cfg.Engine.Shell
		sc = sandbox.Config{Workspace: sh.Workspace, DenyRead: sh.DenyRead, Bwrap: sh.Bwrap, User: sh.User}
		required = true
	}
	if len(sc.Workspace) == 0 {
		dir, err := os.MkdirTemp("", "modebox-doctor-")
		if err == nil {
			defer os.RemoveAll(dir)
			sc.Workspace = []string{dir}
			if os.Geteuid() == 0 {
				// as root, probe what a workspace of another user's gets
				// by default: commands run as its owner, never as root
				_ = os.Chmod(dir, 0o755)
				_ = os.Chown(dir, 65534, 65534)
			}
		}
	}
	var out []check
	for _, c := range sandbox.Probe(sc) {
		out = append(out, check{Name: "sh: " + c.Name, OK: c.OK, Detail: c.Detail, Optional: !required})
	}
	return out
}

// checkFS reports how fs resolves paths here: openat2, or the fallback walk.
func checkFS() check {
	dir, err := os.MkdirTemp("", "modebox-doctor-")
	if err != nil {
		return check{Name: "fs", Optional: true, Detail: err.Error()}
	}
	defer os.RemoveAll(dir)
	f, err := mountfs.New(mountfs.Config{Mounts: []mountfs.Mount{{Host: dir, Guest: "/d", Mode: "ro"}}})
	if err != nil {
		return check{Name: "fs", Optional: true, Detail: err.Error()}
	}
	defer f.Close()
	if f.Resolver() == "openat2" {
		return check{Name: "fs", OK: true, Optional: true, Detail: "paths resolve with openat2 (RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS)"}
	}
	return check{Name: "fs", OK: true, Optional: true, Detail: "openat2 is unavailable here; paths resolve with the O_NOFOLLOW component walk"}
}
