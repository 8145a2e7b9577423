package tsdecl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Bounds on what one tool's declaration shows, so that what a model reads
// (and the memory rendering it takes) stays in proportion however long a
// server's descriptions and however large its schemas are. An MCP tool's
// own description is cut before it gets here, at
// mcpclient.MaxDescriptionLength (8 KiB); these bound the rest.
const (
	// MaxToolDocLength is the longest tool description shown, in bytes
	// (as mcpclient.MaxDescriptionLength); a longer one is cut with "…".
	MaxToolDocLength = 8 << 10
	// MaxSchemaDocLength is the longest doc text taken from a schema, in
	// bytes: a description or title of the input or output, of a
	// property, of a nested or referenced schema. A longer one is cut
	// with "…". Values after tags (@default, @example, @pattern …) are
	// cut at 120 characters.
	MaxSchemaDocLength = 1 << 10
	// MaxToolDeclaration is the largest declaration of one tool, in bytes
	// (its named types and its method). A tool whose declaration would be
	// larger is declared without the doc comments of its types, and if
	// that is still too large, with Record<string, unknown> for its
	// argument and unknown for its result; its doc comment says so.
	MaxToolDeclaration = 64 << 10
)

// Tool is one callable tool as the guest sees it.
type Tool struct {
	// Namespace is a JS identifier, or "" for a tool called as
	// tools.<Name>.
	Namespace string
	// Name is a JS identifier (reserved words are fine).
	Name string
	// OriginalName is the name at the source (e.g. MCP "get-sum"); the doc
	// comment shows it when it differs from Name.
	OriginalName string
	// Description becomes the function's doc comment.
	Description string
	// Input is the JSON Schema of the single argument. Nil or empty means
	// any object may be passed: `args?: Record<string, unknown>`.
	Input json.RawMessage
	// Output is the JSON Schema of the result; nil means unknown.
	Output json.RawMessage
	// Policy is "allow", "ask" or "". "ask" adds the doc line
	// "@remarks Needs approval before it runs." Denied tools must not be
	// passed in.
	Policy string
}

// label names t in error messages.
func (t Tool) label() string {
	if t.Namespace == "" {
		return t.Name
	}
	return t.Namespace + "." + t.Name
}

// Declarations renders the whole toolbox as .d.ts text: named types for
// inputs, outputs and referenced definitions (e.g.
// `interface Github_CreateIssueInput`), then a `declare const tools: {...}`
// object type with one nested object type per namespace whose methods are
// `name(args: XInput): Promise<XOutput>` with doc comments. For each
// namespace in globals (namespaces also exposed as JS globals) that has a
// tool, it adds `declare const <ns>: typeof tools.<ns>;`. Tools are sorted
// by namespace and name, so the output is deterministic.
//
// It fails when a name or namespace is not an identifier, a tool appears
// twice, a namespace has the name of a tool without namespace, a policy is
// unknown, a global cannot be a global binding, or a schema is not JSON.
func Declarations(tools []Tool, globals []string) (string, error) {
	sorted := append([]Tool(nil), tools...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Namespace != sorted[j].Namespace {
			return sorted[i].Namespace < sorted[j].Namespace
		}
		return sorted[i].Name < sorted[j].Name
	})
	if err := validate(sorted); err != nil {
		return "", err
	}
	names := newNamer()
	var decls []string
	methods := map[string][]string{} // top-level key -> lines
	nsTools := map[string]bool{}
	for _, t := range sorted {
		td, err := renderTool(names, t)
		if err != nil {
			return "", err
		}
		decls = append(decls, td.decls...)
		if t.Namespace == "" {
			methods[t.Name] = td.method("  ")
		} else {
			nsTools[t.Namespace] = true
			methods[t.Namespace] = append(methods[t.Namespace], td.method("    ")...)
		}
	}
	keys := make([]string, 0, len(methods))
	for k := range methods {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	var b strings.Builder
	for _, d := range decls {
		b.WriteString(d)
		b.WriteString("\n")
	}
	b.WriteString("declare const tools: {\n")
	for _, k := range keys {
		if nsTools[k] {
			b.WriteString("  " + k + ": {\n")
			b.WriteString(strings.Join(methods[k], ""))
			b.WriteString("  };\n")
		} else {
			b.WriteString(strings.Join(methods[k], ""))
		}
	}
	b.WriteString("};\n")

	gl := append([]string(nil), globals...)
	sort.Strings(gl)
	for i, g := range gl {
		if i > 0 && g == gl[i-1] {
			continue
		}
		if !isIdent(g) || reserved[g] || g == "tools" {
			return "", fmt.Errorf("tsdecl: %q cannot be a global", g)
		}
		if nsTools[g] {
			b.WriteString("declare const " + g + ": typeof tools." + g + ";\n")
		}
	}
	// invalid UTF-8 in a Go tool's description or schema strings must not
	// reach the model's context as is
	return strings.ToValidUTF8(b.String(), "\uFFFD"), nil
}

// Declaration renders the full declaration of one tool: its types and its
// function signature with doc comment, inside `declare const tools` as in
// [Declarations], so that the text is valid TypeScript on its own.
func Declaration(t Tool) (string, error) {
	return Declarations([]Tool{t}, nil)
}

// validate checks names, duplicates and policies of sorted tools.
func validate(sorted []Tool) error {
	top := map[string]string{} // top-level key -> "namespace" or "tool"
	for i, t := range sorted {
		if !isIdent(t.Name) {
			return fmt.Errorf("tsdecl: tool name %q is not a JS identifier", t.Name)
		}
		if t.Namespace != "" && !isIdent(t.Namespace) {
			return fmt.Errorf("tsdecl: namespace %q is not a JS identifier", t.Namespace)
		}
		if t.Policy != "" && t.Policy != "allow" && t.Policy != "ask" {
			return fmt.Errorf("tsdecl: tool %s: policy %q is not allow or ask", t.label(), t.Policy)
		}
		if i > 0 && sorted[i-1].Namespace == t.Namespace && sorted[i-1].Name == t.Name {
			return fmt.Errorf("tsdecl: tool %s appears twice", t.label())
		}
		key, kind := t.Name, "tool"
		if t.Namespace != "" {
			key, kind = t.Namespace, "namespace"
		}
		if prev, ok := top[key]; ok && prev != kind {
			return fmt.Errorf("tsdecl: tools.%s is both a namespace and a tool", key)
		}
		top[key] = kind
	}
	return nil
}
