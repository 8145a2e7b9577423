package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func checkEnv(env map[string]string, what string, mk func(string, ...any) *Error) error {
	for k, v := range env {
		if !envName.MatchString(k) {
			return mk("%s: invalid environment variable name %q", what, k)
		}
		if strings.IndexByte(v, 0) >= 0 {
			return mk("%s: value of %s contains a NUL byte", what, k)
		}
	}
	return nil
}

// checkCommand refuses a command that cannot be passed to the sandbox.
func checkCommand(c Command) error {
	if strings.IndexByte(c.Script, 0) >= 0 {
		return invalidCommand("the command contains a NUL byte")
	}
	if strings.IndexByte(c.Cwd, 0) >= 0 {
		return invalidCommand("the working directory contains a NUL byte")
	}
	if c.Timeout < 0 || (c.Timeout > 0 && c.Timeout < MinTimeout) {
		return invalidCommand("timeout %s is shorter than %s", c.Timeout, MinTimeout)
	}
	return checkEnv(c.Env, "command env", invalidCommand)
}

// checkWorkspace validates one workspace directory and resolves symlinks.
func checkWorkspace(w string) (string, error) {
	if !filepath.IsAbs(w) {
		return "", configError("workspace %q is not an absolute path", w)
	}
	rw, err := filepath.EvalSymlinks(filepath.Clean(w))
	if err != nil {
		return "", &Error{Code: codes.SandboxConfig, Reason: fmt.Sprintf("workspace %s does not exist", w), Err: err}
	}
	fi, err := os.Stat(rw)
	if err != nil || !fi.IsDir() {
		return "", &Error{Code: codes.SandboxConfig, Reason: fmt.Sprintf("workspace %s is not a directory", w), Err: err}
	}
	if rw == "/" {
		return "", configError("workspace %s would make the whole file system writable", w)
	}
	for _, sys := range []string{"/proc", "/sys", "/dev", "/run"} {
		if within(rw, sys) {
			return "", configError("workspace %s is inside %s, which the sandbox replaces", w, sys)
		}
	}
	return rw, nil
}

// capture keeps up to max bytes and discards the rest, so that the writer
// never blocks the command.
type capture struct {
	buf       []byte
	max       int
	truncated bool
}

func (c *capture) Write(p []byte) (int, error) {
	room := c.max - len(c.buf)
	if room > len(p) {
		room = len(p)
	}
	if room > 0 {
		if len(c.buf)+room > cap(c.buf) {
			// doubling, not append's 1.25 for large slices: 4 MiB of
			// output allocated 20 MiB on the way
			grown := make([]byte, len(c.buf), min(c.max, max(2*cap(c.buf), len(c.buf)+room, 4096)))
			copy(grown, c.buf)
			c.buf = grown
		}
		c.buf = append(c.buf, p[:room]...)
	}
	if room < len(p) {
		c.truncated = true
	}
	return len(p), nil
}

// outcome is the part of a finished command's Result that does not depend
// on the platform: its output (as valid UTF-8), whether it was cut, how
// long it ran, and how it ended when it was stopped. ctx is the caller's
// context, runCtx the command's (ctx with the command's timeout). When
// runCtx ended, stopped is true and the result is final: the caller's
// cancellation is err, a timeout is TimedOut with the exit status of
// SIGKILL. Otherwise the caller fills in the exit status.
func outcome(ctx, runCtx context.Context, stdout, stderr *capture, dur time.Duration) (res Result, stopped bool, err error) {
	res = Result{
		Stdout:    strings.ToValidUTF8(string(stdout.buf), "\uFFFD"),
		Stderr:    strings.ToValidUTF8(string(stderr.buf), "\uFFFD"),
		Truncated: stdout.truncated || stderr.truncated,
		Duration:  dur,
	}
	if runCtx.Err() == nil {
		return res, false, nil
	}
	res.ExitCode = 128 + int(syscall.SIGKILL)
	if ctx.Err() != nil {
		return res, true, fmt.Errorf("sandbox: command stopped: %w", ctx.Err())
	}
	res.TimedOut = true
	return res, true, nil
}
