//go:build !unix

package sandbox

import (
	"fmt"
	"os"
)

// MaybeBridge runs the network bridge and exits if this process was started
// as one; the bridge is not available on this operating system.
func MaybeBridge() {
	if len(os.Args) > 1 && os.Args[1] == BridgeCommand {
		os.Exit(BridgeMain(os.Args[2:]))
	}
}

// BridgeMain reports that the network bridge is not supported here.
func BridgeMain(args []string) int {
	fmt.Fprintln(os.Stderr, "modebox bridge: not supported on this operating system")
	return 2
}
