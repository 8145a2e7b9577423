package sandbox

// The network bridge and the sealed command are this executable run again
// inside the sandbox, with BridgeCommand or SealCommand as the first
// argument (see Network.Bridge). So that a program embedding modebox need
// not know about that re-execution, the package answers it while the
// program initialises: a process started as the bridge or to seal a command
// does that and exits before the program's main runs, and before the init
// functions of packages initialised after this one (which would otherwise
// run inside the sandbox, as pid 1, with the bridge's arguments). Any other
// process continues at once. Calling MaybeBridge again later is harmless.
//
// This is safer than asking every main to call MaybeBridge first: a main
// that forgets would, inside the sandbox, run the whole program with the
// bridge's arguments instead of the command, and less of the program runs
// before the bridge makes itself non-dumpable. The two commands give no
// authority a caller of the executable lacks: the bridge forwards a port
// of the caller's own network to a socket the caller names, and sealing
// only adds a seccomp filter before exec'ing the caller's command.
func init() { MaybeBridge() }
