package cli

import (
	"strings"
	"testing"
)

// A TypeScript namespace is explained as import is: a program is the body
// of a function, where namespaces cannot be declared.
func TestNamespaceExplained(t *testing.T) {
	t.Setenv("MODEBOX_CONFIG", "")
	code, out, errs := runCLI(t, "namespace N { export const x = 1 }\nreturn N.x", "run", "--lang", "ts", "-")
	if code != ExitFailed || !strings.Contains(errs, "SYNTAX_ERROR") || !strings.Contains(errs, "namespace") || strings.Contains(errs, `Expected ";"`) {
		t.Errorf("namespace: exit %d %q %q", code, out, errs)
	}
}
