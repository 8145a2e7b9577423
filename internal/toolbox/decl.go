package toolbox

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/toolsearch"
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
// comments, tools.search, the namespaces that are also globals, and the
// built-ins not denied. Denied tools are left out: the model should not
// plan with them.
func (box *Box) Declarations() (string, error) {
	var tools []tsdecl.Tool
	for _, en := range box.entries {
		if en.Policy == policy.Deny {
			continue
		}
		tools = append(tools, en.decl())
	}
	d, err := tsdecl.Declarations(tools, box.globals)
	if err != nil {
		return "", err
	}
	const head = "declare const tools: {\n"
	if i := strings.Index(d, head); i >= 0 {
		return d[:i+len(head)] + searchDecl + d[i+len(head):] + box.builtinDecls(), nil
	}
	return d + "\ndeclare const tools: {\n" + searchDecl + "};\n" + box.builtinDecls(), nil
}

// IndexBudget is the most bytes Index takes. While every tool's name fits,
// it lists them all: 1,500 bytes is about 80 tools of typical names (the
// captured npm reference servers' 36 tools take 681, with the github
// server's 62 take 1,178); past that, it is about 30 namespaces with a
// tool each. docs/benchmarks.md has the measurements it comes from.
const IndexBudget = 1500

// maxPerNamespace caps the tools Index names per namespace when it cannot
// name them all.
const maxPerNamespace = 6

// Index returns a compact index of the toolbox for a model's context, at
// most IndexBudget bytes plus a line for the built-ins. While it fits it
// lists every callable tool, one line per namespace ("filesystem:
// read_file, write_file"). Past that it lists each namespace with its
// count and its most representative tools (see toolsearch.Representative),
// as many per namespace as fit; past even that, namespaces and counts,
// largest first, as many as fit. Namespaces with the same tools share a
// line ("github, gitea (26 each): ..."). So it grows with the number of
// namespaces, not of tools, and tools.search(query) finds the rest. It
// says nothing about how to call tools: that is the caller's manual.
func (box *Box) Index() string {
	groups := map[string][]string{}
	n := 0
	for _, en := range box.entries {
		if en.Policy == policy.Deny {
			continue
		}
		groups[en.NS] = append(groups[en.NS], en.JS)
		n++
	}
	lines := indexLines(groups)
	var b strings.Builder
	fmt.Fprintf(&b, "%d tools:\n", n)
	for _, l := range lines {
		fmt.Fprintf(&b, "%s: %s\n", l.label(0), strings.Join(l.names, ", "))
	}
	if b.Len() > IndexBudget {
		b.Reset()
		b.WriteString(indexSample(n, len(groups), lines))
	}
	var bi []string
	for _, en := range box.builtins {
		if en.Policy != policy.Deny {
			bi = append(bi, en.Key+"()")
		}
	}
	if len(bi) > 0 {
		fmt.Fprintf(&b, "built-in globals: %s\n", strings.Join(bi, ", "))
	}
	return b.String()
}

// indexLine is one line of the index: namespaces with the same tools.
type indexLine struct {
	labels []string // "github", "gitea"
	names  []string // the tools, in the toolbox's order
}

// label names the line's namespaces, at most max of them (0: all).
func (l indexLine) label(max int) string {
	if max <= 0 || len(l.labels) <= max {
		return strings.Join(l.labels, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(l.labels[:max], ", "), len(l.labels)-max)
}

// count is the line's tool count: "26", or "26 each".
func (l indexLine) count() string {
	if len(l.labels) > 1 {
		return fmt.Sprintf("%d each", len(l.names))
	}
	return fmt.Sprint(len(l.names))
}

// maxLabels caps the namespaces named on one line of a sampled index.
const maxLabels = 8

// indexLines groups namespaces by their tools, in namespace order.
func indexLines(groups map[string][]string) []indexLine {
	var lines []indexLine
	at := map[string]int{}
	for _, ns := range slices.Sorted(maps.Keys(groups)) {
		label := ns
		if label == "" {
			label = "(no namespace)" // tools.<name>
		}
		key := strings.Join(groups[ns], ",")
		if i, ok := at[key]; ok {
			lines[i].labels = append(lines[i].labels, label)
			continue
		}
		at[key] = len(lines)
		lines = append(lines, indexLine{labels: []string{label}, names: groups[ns]})
	}
	return lines
}

// indexSample is the index of a toolbox too large to list whole.
func indexSample(n, namespaces int, lines []indexLine) string {
	var b strings.Builder
	for k := maxPerNamespace; k > 0; k-- {
		b.Reset()
		fmt.Fprintf(&b, "%d tools in %d namespaces; some of each (search for the rest):\n", n, namespaces)
		for _, l := range lines {
			fmt.Fprintf(&b, "%s (%s): %s", l.label(maxLabels), l.count(), strings.Join(toolsearch.Representative(l.names, k), ", "))
			if len(l.names) > k {
				b.WriteString(", …")
			}
			b.WriteString("\n")
		}
		if b.Len() <= IndexBudget {
			return b.String()
		}
	}
	// Namespaces and counts only, the largest first, as many as fit.
	byCount := slices.Clone(lines)
	slices.SortStableFunc(byCount, func(a, c indexLine) int { return len(c.names) - len(a.names) })
	b.Reset()
	fmt.Fprintf(&b, "%d tools in %d namespaces (search for them):\n", n, namespaces)
	left := namespaces
	for i, l := range byCount {
		item := fmt.Sprintf("%s (%s)", l.label(maxLabels), l.count())
		rest := fmt.Sprintf("; and %d more\n", left)
		if i > 0 && b.Len()+2+len(item)+len(rest) > IndexBudget {
			b.WriteString(rest)
			return b.String()
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(item)
		left -= len(l.labels)
	}
	b.WriteString("\n")
	return b.String()
}

// builtinDecls declares the enabled built-ins that have a function not
// denied.
func (box *Box) builtinDecls() string {
	var b strings.Builder
	for _, c := range box.caps {
		for _, f := range c.Funcs {
			if en := box.byKey[f.Key]; en != nil && en.Policy != policy.Deny {
				b.WriteString(c.Decl)
				break
			}
		}
	}
	return b.String()
}
