package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/config"
	"github.com/modebox/modebox/pgstore"
)

// loadConfig finds and loads modebox.json: --config, then $MODEBOX_CONFIG,
// then ./modebox.json. No file at all means defaults.
func loadConfig(flagPath string) (*config.Config, error) {
	path, _, err := config.Find(flagPath)
	if err != nil {
		return nil, err
	}
	if path == "" {
		return config.Default(), nil
	}
	return config.Load(path)
}

// engineFor builds the engine a command uses from its configuration and
// starts the configured MCP servers; stop ends them.
func engineFor(ctx context.Context, cfg *config.Config, s Streams) (eng *modebox.Engine, stop func(), err error) {
	return engineWith(ctx, cfg, s, nil, func() {})
}

// engineWith is engineFor with continuations c when c is not nil
// (closeC releases their store when the engine stops).
func engineWith(ctx context.Context, cfg *config.Config, s Streams, c *modebox.Continuations, closeC func()) (eng *modebox.Engine, stop func(), err error) {
	ec := modebox.EngineConfig{
		Limits: modebox.Limits{
			Timeout:        cfg.Limits.Timeout,
			Memory:         cfg.Limits.Memory,
			Fuel:           cfg.Limits.Fuel,
			MaxCalls:       cfg.Limits.MaxCalls,
			MaxConcurrency: cfg.Limits.MaxConcurrency,
			MaxValue:       int(min(cfg.Limits.MaxValue, 1<<31-1)),
			MaxLog:         int(min(cfg.Limits.MaxLog, 1<<31-1)),
		},
		Policies:     map[string]modebox.Policy{},
		Flows:        modebox.Flows{Sources: cfg.Flows.Sources, Sinks: cfg.Flows.Sinks},
		MaxRuns:      cfg.Limits.MaxRuns,
		MaxQueued:    cfg.Limits.MaxQueued,
		QueueTimeout: cfg.Limits.QueueTimeout,
	}
	for pattern, rule := range cfg.Tools {
		ec.Policies[pattern] = modebox.Policy(rule.Policy)
	}
	capabilities(cfg, &ec)
	if c == nil && needsContinuations(cfg) {
		c, closeC, err = cliContinuations(ctx, cfg)
		if err != nil {
			return nil, nil, err
		}
	}
	tools, stop, err := downstream(ctx, cfg, s)
	if err != nil {
		closeC()
		return nil, nil, err
	}
	ec.Tools = tools
	ec.Continuations = c
	eng, err = modebox.New(ec)
	if err != nil {
		stop()
		closeC()
		return nil, nil, err
	}
	stopServers, e := stop, eng
	stopAll := func() {
		_ = e.Close()
		stopServers()
		closeC()
	}
	return eng, stopAll, nil
}

// configFlag adds --config to a command's flags.
func configFlag(fs *flag.FlagSet) *string {
	return fs.String("config", "", "modebox.json to use (default: $MODEBOX_CONFIG, then ./modebox.json)")
}

func initCmd(args []string, s Streams) int {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	force := fs.Bool("force", false, "overwrite an existing file")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	path := config.DefaultFile
	if fs.NArg() > 1 {
		fmt.Fprintln(s.Stderr, "modebox init: expected at most one PATH")
		return ExitUsage
	}
	if fs.NArg() == 1 {
		path = fs.Arg(0)
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if *force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, os.ErrExist) {
		fmt.Fprintf(s.Stderr, "modebox init: %s exists (use --force to overwrite)\n", path)
		return ExitUsage
	}
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox init: %v\n", err)
		return ExitUsage
	}
	_, werr := f.Write(config.Starter())
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		fmt.Fprintf(s.Stderr, "modebox init: %v\n", werr)
		return ExitFailed
	}
	fmt.Fprintf(s.Stdout, "wrote %s\n", path)
	return ExitOK
}

func configCmd(args []string, s Streams) int {
	if len(args) == 0 || args[0] != "check" {
		fmt.Fprintln(s.Stderr, "Usage: modebox config check [PATH]")
		return ExitUsage
	}
	fs := flag.NewFlagSet("config check", flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	if err := fs.Parse(args[1:]); err != nil {
		return ExitUsage
	}
	flagPath := ""
	if fs.NArg() == 1 {
		flagPath = fs.Arg(0)
	} else if fs.NArg() > 1 {
		fmt.Fprintln(s.Stderr, "modebox config check: expected at most one PATH")
		return ExitUsage
	}
	path, _, err := config.Find(flagPath)
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox config check: %v\n", err)
		return ExitUsage
	}
	if path == "" {
		fmt.Fprintln(s.Stderr, "modebox config check: no configuration found (--config, $MODEBOX_CONFIG, ./modebox.json)")
		return ExitUsage
	}
	cfg, err := config.Load(path)
	if err != nil {
		fmt.Fprintln(s.Stderr, err)
		return ExitUsage
	}
	fmt.Fprintf(s.Stdout, "%s: ok (%d tool rules, %d sources, %d sinks, %d mcpServers)\n",
		path, len(cfg.Tools), len(cfg.Flows.Sources), len(cfg.Flows.Sinks), len(cfg.MCPServers))
	return ExitOK
}

// needsContinuations is true when some call could need approval: only
// then do the CLI's runs load (and on first use create) the key.
func needsContinuations(cfg *config.Config) bool {
	if len(cfg.Flows.Sources) > 0 || len(cfg.Flows.Sinks) > 0 || len(cfg.MCPServers) > 0 || cfg.ShellTool != nil || cfg.FetchTool != nil {
		return true
	}
	for _, r := range cfg.Tools {
		if r.Policy == config.PolicyAsk {
			return true
		}
	}
	return false
}

// cliContinuations are the CLI's: the key from $MODEBOX_SECRET or
// ~/.config/modebox/secret, and used tokens recorded in the token store
// ($MODEBOX_TOKEN_STORE, "tokenStore", else on disk) so that a token
// resumes once across processes. closeFn releases the store.
func cliContinuations(ctx context.Context, cfg *config.Config) (c *modebox.Continuations, closeFn func(), err error) {
	c, _, closeFn, err = cliContinuationsPG(ctx, cfg)
	return c, closeFn, err
}

// cliContinuationsPG is cliContinuations that also returns the
// PostgreSQL store, when that is the token store.
func cliContinuationsPG(ctx context.Context, cfg *config.Config) (*modebox.Continuations, *pgstore.Store, func(), error) {
	keys, err := modebox.LoadKeys()
	if err != nil {
		return nil, nil, nil, err
	}
	store, pg, closeFn, err := openStore(ctx, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	return &modebox.Continuations{Keys: keys, Store: store}, pg, closeFn, nil
}

// engineWithContinuations is engineFor with continuations always on.
func engineWithContinuations(ctx context.Context, cfg *config.Config, s Streams) (*modebox.Engine, func(), error) {
	c, closeC, err := cliContinuations(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	return engineWith(ctx, cfg, s, c, closeC)
}

// openEngine loads the configuration named by cfgPath and builds the
// engine for command cmd, with continuations always on when cont is set.
// On failure it prints why and returns ok == false; otherwise the caller
// must call stop.
func openEngine(ctx context.Context, cmd, cfgPath string, cont bool, s Streams) (eng *modebox.Engine, stop func(), ok bool) {
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		fmt.Fprintln(s.Stderr, err)
		return nil, nil, false
	}
	if cont {
		eng, stop, err = engineWithContinuations(ctx, cfg, s)
	} else {
		eng, stop, err = engineFor(ctx, cfg, s)
	}
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox %s: %v\n", cmd, err)
		return nil, nil, false
	}
	return eng, stop, true
}
