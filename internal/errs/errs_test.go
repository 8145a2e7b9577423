package errs

import (
	"errors"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

type codedErr struct{ msg string }

func (e *codedErr) Error() string     { return e.msg }
func (e *codedErr) ErrorCode() string { return string(codes.SandboxConfig) }

func TestConfigErrorText(t *testing.T) {
	cause := &codedErr{msg: "SANDBOX_CONFIG: the workspace is not writable (fix: chown it)"}
	for _, c := range []struct {
		name string
		err  *Config
		want string
	}{
		{"reason only", &Config{Field: "Shell.Timeout", Reason: "must not be negative"},
			"modebox: Shell.Timeout: must not be negative"},
		{"reason and a cause", &Config{Field: "Continuations.Keys[0]", Reason: "invalid key", Err: errors.New("short key")},
			"modebox: Continuations.Keys[0]: invalid key: short key"},
		// a built-in's error passed on whole is its reason and its cause:
		// said once, not twice (the CLI printed it twice)
		{"the cause is the reason", &Config{Field: "Shell", Reason: cause.Error(), Err: cause},
			"modebox: Shell: SANDBOX_CONFIG: the workspace is not writable (fix: chown it)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.err.Error(); got != c.want {
				t.Fatalf("Error() = %q, want %q", got, c.want)
			}
			if n := strings.Count(c.err.Error(), "not writable"); c.err.Err == cause && n != 1 {
				t.Fatalf("the cause is said %d times", n)
			}
		})
	}
	if got := (&Config{Field: "Shell", Reason: cause.Error(), Err: cause}).ErrorCode(); got != string(codes.SandboxConfig) {
		t.Fatalf("ErrorCode() = %q, want the cause's", got)
	}
	if !errors.Is(&Config{Field: "Shell", Reason: cause.Error(), Err: cause}, cause) {
		t.Fatal("the cause is not kept for errors.Is")
	}
}
