package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/config"
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

func doctorCmd(args []string, s Streams) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	cfgPath := configFlag(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	checks := []check{checkEngine(), checkConfig(*cfgPath), checkKey(), checkStore(), checkSandbox()}
	failed := false
	for _, c := range checks {
		failed = failed || (!c.OK && !c.Optional)
	}
	if *asJSON {
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
			fmt.Fprintf(s.Stdout, "%s %-14s %s\n", mark, c.Name, c.Detail)
		}
	}
	if failed {
		return ExitFailed
	}
	return ExitOK
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
	path, _, err := config.Find(flagPath)
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
	return check{Name: "config", OK: missing == "", Detail: fmt.Sprintf("%s: %d tool rules, %d MCP servers%s", path, len(cfg.Tools), len(cfg.MCPServers), missing)}
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

func checkStore() check {
	st, err := seal.DefaultStore()
	if err != nil {
		return check{Name: "used tokens", Detail: err.Error()}
	}
	if err := os.MkdirAll(st.Dir, 0o700); err != nil {
		return check{Name: "used tokens", Detail: err.Error()}
	}
	f, err := os.CreateTemp(st.Dir, ".doctor-*")
	if err != nil {
		return check{Name: "used tokens", Detail: st.Dir + ": not writable: " + err.Error()}
	}
	f.Close()
	os.Remove(f.Name())
	return check{Name: "used tokens", OK: true, Detail: st.Dir}
}

// checkSandbox reports whether bubblewrap can start a sandbox here (for the
// shell capability; optional).
func checkSandbox() check {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return check{Name: "bubblewrap", Optional: true, Detail: "not installed (apt-get install bubblewrap); the shell capability is not part of this version"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bwrap, "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent",
		"--proc", "/proc", "--dev", "/dev", "true").CombinedOutput()
	if err != nil {
		return check{Name: "bubblewrap", Optional: true, Detail: fmt.Sprintf("%s cannot start a sandbox: %v %s (user namespaces disabled?)", bwrap, err, strings.TrimSpace(string(out)))}
	}
	return check{Name: "bubblewrap", OK: true, Optional: true, Detail: bwrap + " starts a sandbox with all namespaces unshared (the shell capability is not part of this version)"}
}
