package modebox

import (
	"strings"

	"github.com/modebox/modebox/internal/tsdecl"
)

// searchDecl declares tools.search, which every toolbox has.
const searchDecl = `  /**
   * Searches this toolbox by tool name, description and parameter names and
   * returns compact signatures, best first. With {full: true} each hit also
   * has the tool's full declaration.
   */
  search(query: string, options?: { limit?: number; full?: boolean }): Promise<Array<{ key: string; signature: string; description?: string; declaration?: string; score: number }>>;
`

// Declarations returns TypeScript declarations (.d.ts text) for the whole
// toolbox: every callable tool with its input and output types and doc
// comments, tools.search, and the namespaces that are also globals. Denied
// tools are left out: the model should not plan with them.
func (e *Engine) Declarations() (string, error) {
	var tools []tsdecl.Tool
	for _, en := range e.box.entries {
		if en.Policy == PolicyDeny {
			continue
		}
		tools = append(tools, en.decl())
	}
	d, err := tsdecl.Declarations(tools, e.box.globals)
	if err != nil {
		return "", err
	}
	const head = "declare const tools: {\n"
	if i := strings.Index(d, head); i >= 0 {
		return d[:i+len(head)] + searchDecl + d[i+len(head):], nil
	}
	return d + "\ndeclare const tools: {\n" + searchDecl + "};\n", nil
}
