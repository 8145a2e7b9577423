//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// MaybeBridge runs the network bridge and exits if this process was started
// as one (os.Args[1] == "__modebox-bridge"); otherwise it returns at once.
// The package runs it when a program initialises (see reexec.go), so a
// program need not call it.
func MaybeBridge() {
	if len(os.Args) > 1 && os.Args[1] == BridgeCommand {
		os.Exit(BridgeMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == SealCommand {
		os.Exit(sealAndExec(os.Args[2:]))
	}
}

// BridgeMain is the network bridge that runs inside the sandbox. args are
// SOCKET ADDR -- COMMAND [ARG...]: it listens on the TCP address ADDR (in the
// sandbox's own loopback), forwards every connection byte for byte to the
// Unix socket SOCKET (the host's filtering proxy), runs COMMAND with the
// bridge's stdin, stdout, stderr and environment, and returns its exit
// status (128+N if it was killed by signal N; 127 if it could not start).
func BridgeMain(args []string) int {
	if len(args) < 4 || args[2] != "--" {
		fmt.Fprintln(os.Stderr, "modebox bridge: usage: __modebox-bridge SOCKET ADDR -- COMMAND [ARG...]")
		return 2
	}
	sock, addr, argv := args[0], args[1], args[3:]
	// The bridge is pid 1 of the sandbox and may open a Unix socket, which
	// the command may not: not dumpable, so the command (same uid, no
	// capabilities) cannot open /proc/1/mem, ptrace it or take its
	// descriptors with pidfd_getfd.
	if err := setNotDumpable(); err != nil {
		fmt.Fprintf(os.Stderr, "modebox bridge: %v\n", err)
		return 126
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "modebox bridge: listen %s: %v\n", addr, err)
		return 126
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				if errors.Is(err, net.ErrClosed) {
					return
				}
				continue
			}
			go forward(c, sock)
		}
	}()

	// the command runs sealed: this executable adds the AF_UNIX filter and
	// execs it, so only the bridge can reach the proxy's socket
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	cmd := exec.Command(self, append([]string{SealCommand}, argv...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			fmt.Fprintf(os.Stderr, "modebox bridge: %v\n", err)
			return 127
		}
	}
	return exitStatus(cmd.ProcessState)
}

// exitStatus maps a finished process to a shell-style status.
func exitStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// halfCloser is a connection whose write side can be shut down alone.
type halfCloser interface {
	CloseWrite() error
}

// forward copies c to and from a new connection to the Unix socket sock,
// passing each direction's end of stream on as a half-close.
func forward(c net.Conn, sock string) {
	defer c.Close()
	u, err := net.Dial("unix", sock)
	if err != nil {
		return
	}
	defer u.Close()
	var wg sync.WaitGroup
	pipe := func(dst, src net.Conn) {
		defer wg.Done()
		_, _ = io.Copy(dst, src)
		if hc, ok := dst.(halfCloser); ok {
			_ = hc.CloseWrite()
		} else {
			_ = dst.Close()
		}
	}
	wg.Add(2)
	go pipe(u, c)
	go pipe(c, u)
	wg.Wait()
}
