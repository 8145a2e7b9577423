// Command modebox runs model-written JavaScript/TypeScript in a sandbox.
// See the cli package for the commands.
package main

import (
	"os"

	"github.com/modebox/modebox/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], cli.Streams{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
