//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Probe reports which parts of the sandbox work on this machine, for
// `modebox doctor`: bubblewrap, user namespaces, the preflight, the seccomp
// filter, the pid and network namespaces, and whether we run as root.
func Probe(cfg Config) []Check {
	var checks []Check
	if os.Geteuid() == 0 {
		checks = append(checks, Check{Name: "user", OK: true, Detail: "running as root: commands run as the workspace's owner, or nobody, or the shell's \"user\"; as host uid 0 only with \"user\": \"root\" (see \"runs as\")"})
	} else {
		checks = append(checks, Check{Name: "user", OK: true, Detail: fmt.Sprintf("running as uid %d", os.Geteuid())})
	}
	bw, err := findBwrap(cfg.Bwrap)
	if err != nil {
		return append(checks, Check{Name: "bwrap", Detail: errText(err)})
	}
	// Like every start of bwrap, these pass on none of modebox's
	// inherited descriptors (see closeInherited).
	probe := func(cmd *exec.Cmd) ([]byte, error) {
		if err := closeInherited(cmd); err != nil {
			return nil, err
		}
		return cmd.CombinedOutput()
	}
	out, err := probe(exec.Command(bw, "--version"))
	if err != nil {
		return append(checks, Check{Name: "bwrap", Detail: fmt.Sprintf("%s --version failed: %v %s", bw, err, strings.TrimSpace(string(out)))})
	}
	checks = append(checks, Check{Name: "bwrap", OK: true, Detail: bw + ": " + strings.TrimSpace(string(out))})

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err = probe(exec.CommandContext(ctx, bw, "--unshare-user", "--ro-bind", "/", "/", "/bin/true"))
	if err != nil {
		msg := strings.TrimSpace(string(out))
		return append(checks, Check{Name: "user namespaces", Detail: fmt.Sprintf("bwrap --unshare-user failed: %v %s; fix: %s", err, msg, diagnoseFix(msg))})
	}
	checks = append(checks, Check{Name: "user namespaces", OK: true, Detail: "bwrap can create a user namespace"})

	s, err := New(cfg)
	if err != nil {
		return append(checks, Check{Name: "preflight", Detail: errText(err)})
	}
	defer s.Close()
	checks = append(checks, Check{Name: "preflight", OK: true, Detail: "/bin/true ran with the full sandbox flags"})
	runsAs := Check{Name: "runs as", OK: true, Detail: "commands run as " + s.RunsAs()}
	if s.root && s.as == nil {
		runsAs.Detail += `: "user": "root" in the configuration; /proc/sys and /sys are read-only and root-only files masked, but the kernel does not apply the process limit to uid 0`
	}
	checks = append(checks, runsAs)

	res, err := s.Run(ctx, Command{Script: "grep '^Seccomp:' /proc/self/status; readlink /proc/self/ns/pid /proc/self/ns/net", Cwd: "/tmp"})
	if err != nil {
		return append(checks, Check{Name: "seccomp", Detail: errText(err)})
	}
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	if len(lines) != 3 {
		return append(checks, Check{Name: "seccomp", Detail: "unexpected probe output: " + res.Stdout + res.Stderr})
	}
	seccompOn := strings.HasSuffix(strings.TrimSpace(lines[0]), "2")
	checks = append(checks, Check{Name: "seccomp", OK: seccompOn, Detail: "filter mode in the sandbox: " + strings.TrimSpace(strings.TrimPrefix(lines[0], "Seccomp:")) + fmt.Sprintf(" (2 = filter); %d syscalls or argument rules denied", len(DeniedSyscalls()))})
	for i, ns := range []string{"pid", "net"} {
		host, _ := os.Readlink("/proc/self/ns/" + ns)
		inside := strings.TrimSpace(lines[1+i])
		name := map[string]string{"pid": "pid namespace", "net": "network namespace"}[ns]
		checks = append(checks, Check{Name: name, OK: host != "" && inside != host, Detail: fmt.Sprintf("host %s, sandbox %s", host, inside)})
	}
	return checks
}

func errText(err error) string {
	var se *Error
	if errors.As(err, &se) {
		if se.Fix != "" {
			return se.Reason + "; fix: " + se.Fix
		}
		return se.Reason
	}
	return err.Error()
}
