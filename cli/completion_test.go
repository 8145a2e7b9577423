package cli

import (
	"strings"
	"testing"
)

// "modebox completion" needs a shell it knows: none, or another, is a
// usage error, as "modebox config" without a subcommand is.
func TestCompletionNeedsAShell(t *testing.T) {
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}} {
		code, out, errs := runCLI(t, "", args...)
		if code != ExitUsage || !strings.Contains(errs, "bash") || out != "" {
			t.Errorf("%v: exit %d, stdout %.100q, stderr %.200q", args, code, out, errs)
		}
	}
	if code, out, _ := runCLI(t, "", "completion", "bash"); code != ExitOK || !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash: exit %d %.100q", code, out)
	}
}
