// Command modebox runs model-written JavaScript/TypeScript in a sandbox.
// See the cli package for the commands.
package main

import (
	"os"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/cli"
)

func main() {
	// inside sh()'s sandbox this binary is the network bridge
	modebox.MaybeBridge()
	os.Exit(cli.Run(os.Args[1:], cli.Streams{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
