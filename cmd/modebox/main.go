// Command modebox runs model-written JavaScript/TypeScript in a sandbox.
// See the cli package for the commands.
package main

import (
	"os"

	"github.com/modebox/modebox/cli"
)

// Inside sh()'s sandbox this binary is also the network bridge: the
// sandbox package answers that re-execution while the program
// initialises, before main runs.
func main() {
	os.Exit(cli.Run(os.Args[1:], cli.Streams{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
