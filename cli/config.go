package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/config"
	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/prompt"
	"github.com/modebox/modebox/mcpserver"
	"github.com/modebox/modebox/pgstore"
)

// loadConfig finds and loads modebox.json: --config, then $MODEBOX_CONFIG,
// then ./modebox.json. No file at all means defaults.
func loadConfig(flagPath string) (*config.File, error) { return config.Open(flagPath) }

// engineFor builds the engine a command uses from its configuration and
// starts the configured MCP servers; stop ends them.
func engineFor(ctx context.Context, cfg *config.File, s Streams) (eng *modebox.Engine, stop func(), err error) {
	return engineWith(ctx, cfg, s, nil, func() {})
}

// engineWith is engineFor with continuations c when c is not nil
// (closeC releases their store when the engine stops).
func engineWith(ctx context.Context, cfg *config.File, s Streams, c *modebox.Continuations, closeC func()) (eng *modebox.Engine, stop func(), err error) {
	ec := cfg.Engine
	if c == nil && needsContinuations(cfg) {
		c, closeC, err = cliContinuations(ctx, cfg)
		if err != nil {
			return nil, nil, err
		}
	}
	if c == nil && ec.FS != nil {
		// Without continuations the engine is not given the token store,
		// but other runs use it: a directory store stays hidden from fs.
		if spec, _, err := storeSpec(cfg); err == nil && spec != "" && !isPostgres(spec) {
			fc := *ec.FS
			fc.Private = append(slices.Clip(fc.Private), spec)
			ec.FS = &fc
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
	for _, w := range eng.Warnings() { // tool names come from servers
		fmt.Fprintf(s.Stderr, "modebox: %s\n", prompt.Sanitize(w))
	}
	stopServers, e := stop, eng
	stopAll := func() {
		_ = e.Close()
		stopServers()
		closeC()
	}
	return eng, stopAll, nil
}

// pathCause is err without the operation and path an *fs.PathError
// repeats.
func pathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func newInitCmd(s Streams, g *globals) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "init [PATH]",
		Short: "Write a starter modebox.json",
		Long: `Writes a starter modebox.json to PATH, else to --config, else to
./modebox.json: the default limits written out, example policies and
flows, and the "everything" reference MCP server as an example that is
"disabled": true (remove that line to start it with npx; until then a
run starts no server). See docs/configuration.md, "Starter file".`,
		Args: maxArgs(1, "PATH"),
		RunE: jsonCommandErrors(g, s, func(cmd *cobra.Command, args []string) error {
			path := config.DefaultFile
			if g.config != "" {
				path = g.config
			}
			if len(args) == 1 {
				if g.config != "" && g.config != args[0] {
					return usageError("give the file once: PATH or --config, not both")
				}
				path = args[0]
			}
			flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
			if force {
				flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			}
			f, err := os.OpenFile(path, flags, 0o644)
			if errors.Is(err, os.ErrExist) {
				return failure(&cliError{Code: codes.ConfigExists, Message: path + " exists (use --force to overwrite)"})
			}
			if err != nil {
				return failure(&cliError{Code: codes.ConfigWriteFailed, Message: "cannot write " + path, Err: pathCause(err)})
			}
			_, werr := f.Write(config.Starter())
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				return failure(&cliError{Code: codes.ConfigWriteFailed, Message: "cannot write " + path, Err: pathCause(werr)})
			}
			if g.json() {
				b, _ := json.Marshal(struct {
					Wrote string `json:"wrote"`
				}{path})
				fmt.Fprintln(s.Stdout, string(b))
				return nil
			}
			fmt.Fprintf(s.Stdout, "wrote %s\n", path)
			return nil
		}),
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite an existing file")
	return cmd
}

// maxArgs accepts at most n positional arguments, named name in the error.
func maxArgs(n int, name string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return usageError("expected at most %d %s, got %d arguments", n, name, len(args))
		}
		return nil
	}
}

func newConfigCmd(s Streams, g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Check a modebox.json, or print its JSON Schema",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usageError("a subcommand is required: check or schema")
		},
	}
	check := &cobra.Command{
		Use:   "check [PATH]",
		Short: "Validate a modebox.json (PATH, else --config, $MODEBOX_CONFIG, ./modebox.json)",
		Args:  maxArgs(1, "PATH"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if g.config != "" && g.config != args[0] {
					return usageError("give the file once: PATH or --config, not both")
				}
				return configCheck(args[0], true, g, s)
			}
			return configCheck(g.config, false, g, s)
		},
	}
	schema := &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of modebox.json (for \"$schema\" and editors)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := s.Stdout.Write(config.Schema())
			return err
		},
	}
	cmd.AddCommand(check, schema)
	return cmd
}

// checkReport is what `modebox config check --output json` prints.
type checkReport struct {
	File       string   `json:"file"`
	OK         bool     `json:"ok"`
	Error      string   `json:"error,omitempty"`
	Code       string   `json:"code,omitempty"`
	Warnings   []string `json:"warnings"`
	Tools      int      `json:"toolRules"`
	Sources    int      `json:"sources"`
	Sinks      int      `json:"sinks"`
	MCPServers int      `json:"mcpServers"`
}

// configCheck checks the file at flagPath, looked up as --config is
// (then $MODEBOX_CONFIG, ./modebox.json), or the file named by the
// command's argument when arg is set (config.Load says when it is
// missing, without naming --config).
func configCheck(flagPath string, arg bool, g *globals, s Streams) error {
	path, err := flagPath, error(nil)
	if !arg {
		path, err = config.Find(flagPath)
		if err == nil && path == "" {
			err = &config.Error{Code: codes.ConfigNotFound, Message: "no configuration found (--config, $MODEBOX_CONFIG, ./modebox.json)"}
		}
		if err != nil {
			path = flagPath
		}
	}
	rep := checkReport{File: path, Warnings: []string{}}
	var cfg *config.File
	if err == nil {
		cfg, err = config.Load(path)
	}
	if err == nil {
		err = engineCheck(cfg)
	}
	if err == nil {
		if err = checkServerRules(cfg, s); err != nil {
			err = fmt.Errorf("%s: %s", path, prompt.Sanitize(err.Error()))
		}
	}
	if err != nil {
		if !g.json() {
			return configError(err)
		}
		rep.Error = err.Error()
		rep.Code = string(configCode(err))
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(s.Stdout, string(b))
		return status(ExitConfig)
	}
	rep.OK = true
	rep.Warnings = append(rep.Warnings, cfg.Warnings...)
	rep.Tools, rep.Sources, rep.Sinks, rep.MCPServers = len(cfg.Engine.Policies), len(cfg.Engine.Flows.Sources), len(cfg.Engine.Flows.Sinks), len(cfg.MCPServers)
	if g.json() {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(s.Stdout, string(b))
		return nil
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(s.Stderr, "%s: warning: %s\n", path, w)
	}
	fmt.Fprintf(s.Stdout, "%s: ok (%d tool rules, %d sources, %d sinks, %d mcpServers)\n",
		path, rep.Tools, rep.Sources, rep.Sinks, rep.MCPServers)
	return nil
}

// checkServerRules starts the configured MCP servers and checks the tool
// rules and flows against their tools, as the engine does at startup: a
// rule aimed at a server that matches none of its tools is an error.
func checkServerRules(cfg *config.File, s Streams) error {
	if len(cfg.MCPServers) == 0 {
		return nil
	}
	tools, stop, err := downstream(context.Background(), cfg, s)
	if err != nil {
		return err
	}
	defer stop()
	_, err = modebox.New(modebox.EngineConfig{Tools: tools, Policies: cfg.Engine.Policies, Flows: cfg.Engine.Flows})
	return err
}

// needsContinuations is true when some call could need approval: only
// then do the CLI's runs load (and on first use create) the key.
func needsContinuations(cfg *config.File) bool {
	if len(cfg.Engine.Flows.Sources) > 0 || len(cfg.Engine.Flows.Sinks) > 0 || cfg.Engine.Shell != nil || cfg.Engine.Fetch != nil {
		return true
	}
	for _, srv := range cfg.MCPServers {
		if !srv.Disabled {
			return true
		}
	}
	for _, p := range cfg.Engine.Policies {
		if p == modebox.PolicyAsk {
			return true
		}
	}
	return false
}

// cliContinuations are the CLI's: the key from $MODEBOX_SECRET or
// ~/.config/modebox/secret, and used tokens recorded in the token store
// ($MODEBOX_TOKEN_STORE, "tokenStore", else on disk) so that a token
// resumes once across processes. closeFn releases the store.
func cliContinuations(ctx context.Context, cfg *config.File) (c *modebox.Continuations, closeFn func(), err error) {
	c, _, closeFn, err = cliContinuationsPG(ctx, cfg)
	return c, closeFn, err
}

// cliContinuationsPG is cliContinuations that also returns the
// PostgreSQL store, when that is the token store.
func cliContinuationsPG(ctx context.Context, cfg *config.File) (*modebox.Continuations, *pgstore.Store, func(), error) {
	keys, err := cliKeys()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %w", errKey, err)
	}
	store, pg, closeFn, err := openStore(ctx, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	return &modebox.Continuations{Keys: keys, Store: store}, pg, closeFn, nil
}

// engineShared is engineFor with continuations always on; it also
// returns the MCP server's shared retry cache when the token store is
// PostgreSQL (else nil).
func engineShared(ctx context.Context, cfg *config.File, s Streams) (*modebox.Engine, func(), *mcpserver.Shared, error) {
	c, pg, closeC, err := cliContinuationsPG(ctx, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	eng, stop, err := engineWith(ctx, cfg, s, c, closeC)
	if err != nil {
		return nil, nil, nil, err
	}
	return eng, stop, sharedCache(pg, c), nil
}

// openEngine loads the configuration named by g (recording the file used
// in g.file) and builds the
// engine, with continuations always on when cont is set. The caller must
// call stop when err is nil.
func openEngine(ctx context.Context, g *globals, cont bool, s Streams) (eng *modebox.Engine, stop func(), err error) {
	cfg, err := loadConfig(g.config)
	if err != nil {
		return nil, nil, configError(err)
	}
	g.file = cfg.Path
	return openEngineFor(ctx, cfg, cont, s)
}

// warnConfig prints the configuration's warnings on stderr.
func warnConfig(cfg *config.File, s Streams) {
	for _, w := range cfg.Warnings {
		fmt.Fprintf(s.Stderr, "modebox: %s: warning: %s\n", cfg.Path, w)
	}
}

// openEngineFor is openEngine for a loaded configuration.
func openEngineFor(ctx context.Context, cfg *config.File, cont bool, s Streams) (eng *modebox.Engine, stop func(), err error) {
	eng, stop, _, err = openEngineShared(ctx, cfg, cont, s)
	return eng, stop, err
}

// openEngineShared is openEngineFor that also returns the MCP server's
// shared retry cache when continuations are on and the token store is
// PostgreSQL (else nil).
func openEngineShared(ctx context.Context, cfg *config.File, cont bool, s Streams) (eng *modebox.Engine, stop func(), shared *mcpserver.Shared, err error) {
	warnConfig(cfg, s)
	if cont {
		eng, stop, shared, err = engineShared(ctx, cfg, s)
	} else {
		eng, stop, err = engineFor(ctx, cfg, s)
	}
	if err != nil {
		var ce *modebox.ConfigError
		var te *modebox.TokenError
		switch {
		case errors.As(err, &te):
			return nil, nil, nil, &exitError{code: ExitToken, err: err}
		case errors.As(err, &ce):
			return nil, nil, nil, configError(pointed(cfg.Path, err))
		case errors.Is(err, errKey), errors.Is(err, errStore):
			return nil, nil, nil, configError(err)
		}
		return nil, nil, nil, failure(err)
	}
	return eng, stop, shared, nil
}

// engineCheck reports configuration values the engine cannot work with,
// by building an engine from them (without starting any server).
func engineCheck(cfg *config.File) error {
	eng, err := modebox.New(cfg.Engine)
	if err != nil {
		return pointed(cfg.Path, err)
	}
	return eng.Close()
}

// pointed names the file and, where the engine's configuration error is
// about a field that a section of modebox.json sets, that section's JSON
// Pointer instead of the Go field: "modebox.json: /tools/shh: matches no
// tool", not "modebox: EngineConfig.Policies[\"shh\"]: …". The code
// stays the error's.
func pointed(path string, err error) error {
	var ce *modebox.ConfigError
	if !errors.As(err, &ce) {
		return fmt.Errorf("%s: %w", path, err)
	}
	ptr, what := "", ""
	if f, ok := strings.CutSuffix(ce.Field, "]"); ok {
		if field, key, ok := strings.Cut(f, "["); ok {
			if k, uerr := strconv.Unquote(key); uerr == nil {
				switch field {
				case "EngineConfig.Policies":
					ptr = "/tools/" + pointerToken(k)
				case "EngineConfig.Flows.Sources":
					ptr, what = "/flows/sources", strconv.Quote(k)+": "
				case "EngineConfig.Flows.Sinks":
					ptr, what = "/flows/sinks", strconv.Quote(k)+": "
				}
			}
		}
	}
	switch ce.Field {
	case "Shell":
		ptr = "/shell"
	case "FS":
		ptr = "/fs"
	case "Fetch":
		ptr = "/fetch"
	}
	if ptr == "" {
		return fmt.Errorf("%s: %w", path, err)
	}
	code := configCode(err)
	msg := ce.Error()
	msg = strings.TrimPrefix(msg, "modebox: "+ce.Field+": ")
	msg = strings.TrimPrefix(msg, string(code)+": ")
	msg = strings.TrimSuffix(msg, " ("+string(code)+")")
	return &pointedError{code: code, msg: path + ": " + ptr + ": " + what + msg, err: err}
}

// pointerToken escapes a key for a JSON Pointer (RFC 6901).
func pointerToken(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// pointedError is pointed's error: its own message over the engine's
// error, and that error's code.
type pointedError struct {
	code codes.Code
	msg  string
	err  error
}

func (e *pointedError) Error() string     { return e.msg }
func (e *pointedError) Unwrap() error     { return e.err }
func (e *pointedError) ErrorCode() string { return string(e.code) }
