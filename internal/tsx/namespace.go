package tsx

import (
	"fmt"
	"strings"
)

// msgNamespace explains a TypeScript namespace (or module) declaration,
// as msgImport explains an import: esbuild allows them only at the top
// level of a module, and says `Expected ";" but found "N"` in a function.
const msgNamespace = "%s declarations are not supported: a program is the body of an async function, where TypeScript allows none; use an object instead (const N = { ... })"

// explainNamespace returns the message of d, or msgNamespace when d is
// esbuild's `Expected ";" but found "N"` right after the word namespace
// or module on the same line.
func explainNamespace(d Diagnostic) string {
	if !strings.HasPrefix(d.Message, `Expected ";" but found "`) || d.Column < 1 || d.Column-1 > len(d.LineText) {
		return d.Message
	}
	before := strings.TrimRight(d.LineText[:d.Column-1], " \t")
	for _, kw := range []string{"namespace", "module"} {
		rest, ok := strings.CutSuffix(before, kw)
		if ok && (rest == "" || !isIdentByte(rest[len(rest)-1])) {
			return fmt.Sprintf(msgNamespace, kw)
		}
	}
	return d.Message
}
