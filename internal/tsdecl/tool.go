package tsdecl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// maxInline is the length up to which a single-line root type without doc
// comment is written in the signature rather than named.
const maxInline = 60

// toolDecl is one rendered tool.
type toolDecl struct {
	decls  []string // named types, each ending in a newline
	doc    []string // the function's doc comment lines
	name   string
	params string // "args: T", "args?: T" or ""
	result string // the promise's type
}

// method renders the tool as a method signature at indent.
func (td toolDecl) method(indent string) []string {
	var b strings.Builder
	writeDoc(&b, indent, td.doc)
	b.WriteString(indent + td.name + "(" + td.params + "): Promise<" + td.result + ">;\n")
	return []string{b.String()}
}

// parseSchema parses a schema; nil, empty and "null" give nil.
func parseSchema(raw json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	return parseJSON(raw)
}

// size is the length of the tool's declaration: its types and method.
func (td toolDecl) size() int {
	n := len(td.method("    ")[0])
	for _, d := range td.decls {
		n += len(d) + 1
	}
	return n
}

// How much of a tool's types renderTool shows.
const (
	detailFull   = iota // types with their doc comments
	detailNoDocs        // types without doc comments
	detailNone          // Record<string, unknown> and unknown
)

// renderTool renders one tool in full (declaration) mode, at most
// MaxToolDeclaration bytes of it: past that, with less detailed types and
// a doc line that says so.
func renderTool(names *namer, t Tool) (toolDecl, error) {
	m := names.mark()
	td, err := renderToolAt(names, t, detailFull)
	if err != nil || td.size() <= MaxToolDeclaration {
		return td, err
	}
	full := td.size()
	names.release(m)
	td, err = renderToolAt(names, t, detailNoDocs)
	if err != nil {
		return td, err
	}
	if td.size() <= MaxToolDeclaration {
		td.doc = append(td.doc, fmt.Sprintf("@remarks Its types are shown without their doc comments: declared in full they are too large (%d bytes; at most %d).", full, MaxToolDeclaration))
		return td, nil
	}
	names.release(m)
	td, err = renderToolAt(names, t, detailNone)
	td.doc = append(td.doc, fmt.Sprintf("@remarks Its argument and result types are too large to declare (%d bytes; at most %d): the argument is checked against the tool's input schema when it is called.", full, MaxToolDeclaration))
	return td, err
}

// renderToolAt renders one tool in full (declaration) mode, with the
// detail asked for.
func renderToolAt(names *namer, t Tool, detail int) (toolDecl, error) {
	td := toolDecl{name: t.Name, result: "unknown"}
	td.doc = toolDoc(t)
	in, err := parseSchema(t.Input)
	if err != nil {
		return td, fmt.Errorf("tsdecl: tool %s: input schema: %w", t.label(), err)
	}
	out, err := parseSchema(t.Output)
	if err != nil {
		return td, fmt.Errorf("tsdecl: tool %s: output schema: %w", t.label(), err)
	}
	prefix := toolPrefix(t)
	r := &renderer{names: names, budget: maxNodes, noDocs: detail != detailFull}

	switch {
	case in == nil || in == true:
		td.params = "args?: Record<string, unknown>"
	case detail == detailNone:
		td.params = "args: Record<string, unknown>"
		if argsOptional(in) {
			td.params = "args?: Record<string, unknown>"
		}
	default:
		d := newDoc(in, prefix, names.claim(prefix+"Input"))
		e := r.typeOf(d, in, 0, "")
		switch {
		case e.s == "{}" && !d.rootUsed:
			td.params = ""
		default:
			typ := r.root(d, in, e, &td)
			if argsOptional(in) {
				td.params = "args?: " + typ
			} else {
				td.params = "args: " + typ
			}
		}
		td.decls = append(td.decls, r.drain()...)
	}
	if out != nil && detail != detailNone {
		d := newDoc(out, prefix, names.claim(prefix+"Output"))
		e := r.typeOf(d, out, 0, "")
		td.result = r.root(d, out, e, &td)
		td.decls = append(td.decls, r.drain()...)
	}
	return td, nil
}

// root names the root type e of document d when it is referenced, has a
// doc comment or is long, adding its declaration to td; it returns the
// type to use in the signature.
func (r *renderer) root(d *schemaDoc, n any, e texpr, td *toolDecl) string {
	doc := r.docs(n, "", false)
	if !d.rootUsed && len(doc) == 0 && !strings.Contains(e.s, "\n") && len(e.s) <= maxInline {
		return e.s
	}
	td.decls = append(td.decls, declare(d.rootName, doc, e))
	return d.rootName
}

// drain writes the named types of referenced schemas, including those
// that they reference in turn.
func (r *renderer) drain() []string {
	var out []string
	for len(r.queue) > 0 {
		p := r.queue[0]
		r.queue = r.queue[1:]
		e := r.typeOf(p.doc, p.node, 0, "")
		out = append(out, declare(p.name, r.docs(p.node, p.key, true), e))
	}
	return out
}

// declare writes a named type: an interface for an object literal type,
// else a type alias.
func declare(name string, doc []string, e texpr) string {
	var b strings.Builder
	writeDoc(&b, "", doc)
	if e.obj {
		b.WriteString("interface " + name + " " + e.s + "\n")
	} else {
		b.WriteString("type " + name + " = " + e.s + ";\n")
	}
	return b.String()
}

// argsOptional reports whether the argument may be left out: the input is
// a plain object schema that requires nothing (possibly through a
// top-level "$ref").
func argsOptional(in any) bool {
	o, ok := in.(*object)
	legacy := refOnly(in)
	for i := 0; ok && i < 8; i++ {
		ref := o.str("$ref")
		if !strings.HasPrefix(ref, "#/") || !legacy && o.has(baseKeys...) {
			break
		}
		target, found := resolve(in, ref[1:])
		if !found {
			return false
		}
		o, ok = target.(*object)
	}
	if !ok || o.has("$ref", "allOf", "anyOf", "oneOf", "minProperties", "const", "enum") {
		return false
	}
	if req, _ := requiredSet(o); len(req) > 0 {
		return false
	}
	switch v, _ := o.get("type"); x := v.(type) {
	case string:
		return x == "object"
	case nil:
		return o.has("properties", "additionalProperties", "patternProperties")
	}
	return false
}

// toolDoc returns the doc comment lines of a tool's function.
func toolDoc(t Tool) []string {
	var lines []string
	if d := strings.TrimSpace(docBreaks.Replace(cutBytes(t.Description, MaxToolDocLength))); d != "" {
		lines = splitDoc(d)
	}
	if t.OriginalName != "" && t.OriginalName != t.Name {
		lines = append(lines, "Original name: "+quote(t.OriginalName)+".")
	}
	if t.Policy == "ask" {
		lines = append(lines, "@remarks Needs approval before it runs.")
	}
	return lines
}
