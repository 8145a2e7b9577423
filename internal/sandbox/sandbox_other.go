//go:build !linux && !darwin

package sandbox

import (
	"context"
	"runtime"

	"github.com/modebox/modebox/internal/codes"
)

// Sandbox is unavailable on this operating system.
type Sandbox struct{}

func unavailable() *Error {
	return &Error{Code: codes.SandboxUnavailable, Reason: "no shell sandbox on " + runtime.GOOS,
		Fix: "run modebox on Linux (bubblewrap) or macOS (sandbox-exec) to use sh()"}
}

// New always fails: there is no sandbox for this operating system, and
// commands are never run unconfined.
func New(cfg Config) (*Sandbox, error) { return nil, unavailable() }

// Run always fails with SANDBOX_UNAVAILABLE.
func (s *Sandbox) Run(ctx context.Context, c Command) (Result, error) { return Result{}, unavailable() }

// Masked returns nothing: nothing runs here.
func (s *Sandbox) Masked() []string { return nil }

// Probe reports that no sandbox exists on this operating system.
func Probe(cfg Config) []Check {
	return []Check{{Name: "sandbox", Detail: unavailable().Error()}}
}

// Close releases nothing.
func (s *Sandbox) Close() error { return nil }

// RunsAs describes who commands run as: nobody, nothing runs here.
func (s *Sandbox) RunsAs() string { return "nobody: no sandbox on " + runtime.GOOS }
