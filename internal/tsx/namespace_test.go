package tsx

import (
	"errors"
	"strings"
	"testing"
)

// A namespace or module declaration is explained, as an import is; other
// `Expected ";"` errors keep esbuild's text.
func TestNamespaceExplained(t *testing.T) {
	for src, want := range map[string]string{
		"namespace N { export const x = 1 }\nreturn N.x": "namespace declarations are not supported",
		"declare namespace D { const x: number }":        "namespace declarations are not supported",
		"module M {}":      "module declarations are not supported",
		"const a = 1 b":    `Expected ";" but found "b"`,
		"mynamespace N {}": `Expected ";" but found "N"`,
	} {
		_, err := TransformFull(src, TS)
		var e *Error
		if !errors.As(err, &e) || len(e.Diagnostics) == 0 || !strings.HasPrefix(e.Diagnostics[0].Message, want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}
