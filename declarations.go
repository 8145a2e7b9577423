package modebox

import (
	"fmt"
	"maps"
	"slices"
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

// Index returns a compact index of the toolbox for a model's context: one
// line per namespace with its tool names, and how to get the rest. It is
// meant for the description of a "run" tool; full declarations come from
// tools.search(query, {full: true}) or Declarations.
func (e *Engine) Index() string {
	groups := map[string][]string{}
	n := 0
	for _, en := range e.box.entries {
		if en.Policy == PolicyDeny {
			continue
		}
		groups[en.ns] = append(groups[en.ns], en.js)
		n++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d tools; call tools.<namespace>.<name>(args). tools.search(\"words\") returns signatures; {full: true} adds declarations.\n", n)
	for _, ns := range slices.Sorted(maps.Keys(groups)) {
		label := ns
		if label == "" {
			label = "tools"
		}
		fmt.Fprintf(&b, "%s (%d): %s\n", label, len(groups[ns]), strings.Join(groups[ns], ", "))
	}
	return b.String()
}
