// Package cli is the modebox command line as a library: Run takes the
// arguments and streams and returns the exit status, so cmd/modebox is
// only os.Exit(cli.Run(...)) and tests drive the real commands in-process.
//
// The commands are built with spf13/cobra: flags go anywhere on the line,
// "--" ends them, every command takes -h/--help, a usage error prints one
// error line and then the command's usage, and `modebox completion
// bash|zsh|fish|powershell` prints a shell completion script.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/prompt"
)

// Exit statuses. They are documented in the README; a status is never
// given another meaning.
const (
	ExitOK     = 0 // success
	ExitFailed = 1 // the program failed (its error code on stderr), or a check failed
	ExitUsage  = 2 // usage error: unknown command or flag, missing or extra argument, bad flag value
	ExitPaused = 3 // the run paused for approval; the token is on stdout
	ExitConfig = 4 // configuration error: modebox.json cannot be found, read or used
	ExitToken  = 5 // continuation token refused: malformed, forged, expired, used, or for another engine
)

// Streams are the command's standard streams.
type Streams struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// globals are the flags every command takes.
type globals struct {
	config string // --config
	output string // --output: text or json
	file   string // the configuration file a command loaded ("" for none)
}

// json reports whether --output json was asked for.
func (g *globals) json() bool { return g.output == "json" }

// exitError is a command's failure and the exit status it maps to. An
// empty message means the command already said what went wrong.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// status ends a command with code after it printed its own output.
func status(code int) error {
	if code == ExitOK {
		return nil
	}
	return &exitError{code: code}
}

// usageError is a mistake on the command line: it prints the command's
// usage after the error line.
func usageError(format string, a ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, a...)}
}

// configError is a configuration that cannot be found, read or used.
func configError(err error) error { return &exitError{code: ExitConfig, err: err} }

// configCode is the stable code of a configuration error: its own
// (config.Error's CONFIG_NOT_FOUND, CONFIG_SYNTAX, CONFIG_INVALID; a
// ConfigError's; a built-in's SANDBOX_CONFIG), else CONFIG_INVALID.
func configCode(err error) codes.Code {
	if c := codes.Of(err); c != "" {
		return c
	}
	return codes.ConfigInvalid
}

// withConfigCode puts the stable code of a configuration error in front
// of its message ("CONFIG_INVALID: modebox.json: /limts: unknown key"),
// unless the message starts with it already.
func withConfigCode(err error, msg string) string {
	c := string(configCode(err))
	if strings.HasPrefix(msg, c+":") {
		return msg
	}
	return c + ": " + msg
}

// failure is any other failure of the command (exit 1).
func failure(err error) error { return &exitError{code: ExitFailed, err: err} }

// cliError is a failure of the CLI's own with a stable code (init's).
type cliError = codes.Error[cliErrorOf]

type cliErrorOf struct{}

const rootLong = `modebox runs model-written JavaScript/TypeScript in a sandbox.

Configuration: --config FILE, else $MODEBOX_CONFIG, else ./modebox.json;
none at all is fine (defaults, console only).

Exit status: 0 ok, 1 the program or a check failed, 2 usage error,
3 the run paused for approval (token on stdout), 4 configuration error,
5 continuation token refused.`

// newRoot builds the command tree; a fresh tree per Run keeps runs
// independent of each other.
func newRoot(s Streams) *cobra.Command {
	g := &globals{}
	root := &cobra.Command{
		Use:           "modebox",
		Short:         "Run model-written JavaScript/TypeScript in a sandbox",
		Long:          rootLong,
		Version:       modebox.Version,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usageError("a command is required")
		},
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if g.output != "text" && g.output != "json" {
				return usageError("--output must be text or json, not %q", g.output)
			}
			return nil
		},
	}
	root.SetVersionTemplate("modebox {{.Version}}\n")
	root.SetIn(s.Stdin)
	root.SetOut(s.Stdout)
	root.SetErr(s.Stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: ExitUsage, err: err}
	})
	pf := root.PersistentFlags()
	pf.StringVar(&g.config, "config", "", "modebox.json to use (default: $MODEBOX_CONFIG, then ./modebox.json)")
	pf.StringVarP(&g.output, "output", "o", "text", "output format: text or json")
	root.AddCommand(
		newRunCmd(s, g),
		newResumeCmd(s, g),
		newRevokeCmd(s, g),
		newMCPCmd(s, g),
		newTypesCmd(s, g),
		newSearchCmd(s, g),
		newInitCmd(s, g),
		newConfigCmd(s, g),
		newDoctorCmd(s, g),
		newVersionCmd(s, g),
	)
	root.CompletionOptions.HiddenDefaultCmd = false
	requireShell(root)
	return root
}

// requireShell makes `modebox completion` without a shell, or with one
// it has no script for, a usage error (cobra's default prints the help
// and exits 0), as `modebox config` without a subcommand is.
func requireShell(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		var shells []string
		for _, sc := range c.Commands() {
			shells = append(shells, sc.Name())
		}
		list := strings.Join(shells, ", ")
		c.Args = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError("no completion script for %q: the shells are %s", args[0], list)
			}
			return nil
		}
		c.RunE = func(cmd *cobra.Command, args []string) error {
			return usageError("a shell is required: %s", list)
		}
	}
}

// Run runs the command line args (without the program name) and returns
// the exit status.
func Run(args []string, s Streams) int {
	return runContext(context.Background(), args, s)
}

// runContext is Run with a context the commands see (modebox mcp serves
// until it is done).
func runContext(ctx context.Context, args []string, s Streams) int {
	root := newRoot(s)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	if cmd == nil {
		cmd = root
	}
	code, msg := ExitUsage, err.Error()
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
		msg = ""
		if ee.err != nil {
			msg = ee.err.Error()
		}
	}
	if code == ExitConfig && msg != "" {
		msg = withConfigCode(ee.err, msg)
	}
	if msg != "" {
		// errors can carry server text (start failures, tool errors):
		// nothing reaches the terminal unescaped
		fmt.Fprintf(s.Stderr, "%s: %s\n", cmd.CommandPath(), prompt.Sanitize(msg))
	}
	if code == ExitUsage {
		fmt.Fprintf(s.Stderr, "\n%s", cmd.UsageString())
	}
	return code
}

// withJSONAlias adds --json to cmd, short for --output json.
func withJSONAlias(cmd *cobra.Command, g *globals) {
	var asJSON bool
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (same as --output json)")
	prev := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if asJSON {
			g.output = "json"
		}
		if prev != nil {
			return prev(c, args)
		}
		return nil
	}
}
