// Package cli is the modebox command line as a library: Run takes the
// arguments and streams and returns the exit status, so cmd/modebox is
// only os.Exit(cli.Run(...)) and tests drive the real commands in-process.
package cli

import (
	"fmt"
	"io"
)

// Exit statuses.
const (
	ExitOK     = 0 // success
	ExitFailed = 1 // the program failed (its error code on stderr)
	ExitUsage  = 2 // usage or configuration error
	ExitPaused = 3 // the run paused for approval; the token is on stdout
)

// Streams are the command's standard streams.
type Streams struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

const usage = `modebox runs model-written JavaScript/TypeScript in a sandbox.

Usage:
  modebox run [flags] FILE|-    run a program (the body of an async function)
  modebox resume TOKEN|-        continue a paused run (--approve, --deny, --approve-id N)
  modebox mcp [--http ADDR]     serve modebox as an MCP server (stdio, or Streamable HTTP)
  modebox types                 print the toolbox's TypeScript declarations
  modebox search QUERY          find tools by name, description and parameters
  modebox init [PATH]           write a starter modebox.json
  modebox config check [PATH]   validate a modebox.json
  modebox doctor [--json]       check the engine, configuration, token key and sandbox here
  modebox version [--json]      print the version, engine image hash and imports

Configuration: --config FILE, else $MODEBOX_CONFIG, else ./modebox.json;
none at all is fine (defaults, console only).

Run "modebox run -h" for the run flags.
`

// Run runs the command line args (without the program name).
func Run(args []string, s Streams) int {
	if len(args) == 0 {
		fmt.Fprint(s.Stderr, usage)
		return ExitUsage
	}
	switch args[0] {
	case "run":
		return runCmd(args[1:], s)
	case "resume":
		return resumeCmd(args[1:], s)
	case "types":
		return typesCmd(args[1:], s)
	case "mcp":
		return mcpCmd(args[1:], s)
	case "doctor":
		return doctorCmd(args[1:], s)
	case "search":
		return searchCmd(args[1:], s)
	case "init":
		return initCmd(args[1:], s)
	case "config":
		return configCmd(args[1:], s)
	case "version", "--version":
		return versionCmd(args[1:], s)
	case "help", "-h", "--help":
		fmt.Fprint(s.Stdout, usage)
		return ExitOK
	}
	fmt.Fprintf(s.Stderr, "modebox: unknown command %q\n\n%s", args[0], usage)
	return ExitUsage
}
