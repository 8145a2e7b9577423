package tsdecl

import "strings"

const (
	maxDepth        = 12   // nested schemas rendered inline before `unknown`
	maxNodes        = 4000 // schemas rendered per tool before `unknown`
	maxEnum         = 200  // enum values rendered as a literal union
	maxCompactUnion = 4    // union members a compact signature shows
)

// Operator precedence of a rendered type, to know when to parenthesize.
const (
	precUnion = iota
	precInter
	precPrimary
)

// texpr is a rendered type expression.
type texpr struct {
	s    string
	prec int
	obj  bool     // a single object literal type (can be an interface body)
	alts []string // the members of a union, for flattening
}

func prim(s string) texpr { return texpr{s: s, prec: precPrimary} }

var unknownT = prim("unknown")

// schemaDoc is one schema document: a tool's input or output schema, in
// which "$ref"s resolve.
type schemaDoc struct {
	root     any
	prefix   string            // names of referenced types: prefix_Def
	rootName string            // name of the root's type
	rootUsed bool              // a "$ref": "#" needs the root's name
	refs     map[string]string // JSON pointer -> type name
	// refOnly: the document is draft-07 or earlier (its "$schema" says
	// so), where a schema with "$ref" is that reference alone: the
	// validator ignores the keywords beside it
	refOnly bool
}

// newDoc returns the schema document of root.
func newDoc(root any, prefix, rootName string) *schemaDoc {
	return &schemaDoc{root: root, prefix: prefix, rootName: rootName, refs: map[string]string{}, refOnly: refOnly(root)}
}

// refOnly reports whether root's "$schema" is draft-07, -06 or -04, in
// which "$ref" overrides its siblings (as package schema's validator,
// github.com/santhosh-tekuri/jsonschema, reads the draft: http or https,
// with or without an empty fragment). Without "$schema" the validator
// takes draft 2020-12.
func refOnly(root any) bool {
	o, ok := root.(*object)
	if !ok {
		return false
	}
	u := strings.TrimSuffix(o.str("$schema"), "#")
	if r, ok := strings.CutPrefix(u, "http://"); ok {
		u = r
	} else {
		u = strings.TrimPrefix(u, "https://")
	}
	switch u {
	case "json-schema.org/draft-07/schema", "json-schema.org/draft-06/schema", "json-schema.org/draft-04/schema":
		return true
	}
	return false
}

// pending is a referenced schema whose named type is still to be written.
type pending struct {
	doc  *schemaDoc
	name string
	key  string // last pointer segment, e.g. the $defs key
	node any
}

// renderer turns schemas into TypeScript types.
type renderer struct {
	names    *namer
	budget   int
	queue    []pending
	compact  bool            // one-line signature mode
	maxProps int             // compact: properties shown at depth 0
	visiting map[string]bool // compact: references being inlined
	noDocs   bool            // no doc comments on types (a tool too large to declare in full)
}

// docs returns the doc comment lines of schema n (see docLines), none
// when r leaves them out.
func (r *renderer) docs(n any, name string, titleOK bool) []string {
	if r.noDocs {
		return nil
	}
	return docLines(n, name, titleOK)
}

// typeOf renders schema n found at nesting depth; multi-line types put
// their closing lines at indent.
func (r *renderer) typeOf(d *schemaDoc, n any, depth int, indent string) texpr {
	if depth > maxDepth || r.budget <= 0 {
		return unknownT
	}
	r.budget--
	switch x := n.(type) {
	case bool:
		if x {
			return unknownT
		}
		return prim("never")
	case *object:
		return r.schema(d, x, depth, indent)
	}
	return unknownT
}

// baseKeys are the keywords that give a schema a type of its own.
var baseKeys = []string{"type", "enum", "const", "properties", "additionalProperties",
	"patternProperties", "items", "prefixItems"}

// hasTypeInfo reports whether a schema says anything about the type of
// the value (rather than only constraining it).
func hasTypeInfo(o *object) bool {
	return o.has(baseKeys...) || o.has("$ref", "$recursiveRef", "allOf", "anyOf", "oneOf")
}

func (r *renderer) schema(d *schemaDoc, o *object, depth int, indent string) texpr {
	var parts []texpr
	if v, ok := o.get("$ref"); ok {
		s, _ := v.(string)
		t := r.ref(d, s, depth, indent)
		if d.refOnly {
			return t
		}
		parts = append(parts, t)
	} else if v, ok := o.get("$recursiveRef"); ok && v == "#" {
		parts = append(parts, r.ref(d, "#", depth, indent))
	}
	if o.has(baseKeys...) {
		parts = append(parts, r.base(d, o, depth, indent))
	}
	if v, ok := o.get("allOf"); ok {
		all, _ := v.([]any)
		for _, e := range all {
			parts = append(parts, r.typeOf(d, e, depth+1, indent))
		}
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		v, ok := o.get(k)
		if !ok {
			continue
		}
		branches, _ := v.([]any)
		var members []texpr
		for _, e := range branches {
			members = append(members, r.typeOf(d, e, depth+1, indent))
		}
		if len(members) > 0 {
			parts = append(parts, r.union(members))
		}
	}
	// OpenAPI's "nullable" is no JSON Schema keyword: the validator
	// ignores it and refuses null, so the type has no "| null" for it
	return intersect(parts)
}

// base renders the type that const, enum or type give.
func (r *renderer) base(d *schemaDoc, o *object, depth int, indent string) texpr {
	if c, ok := o.get("const"); ok {
		return prim(literal(c))
	}
	if v, ok := o.get("enum"); ok {
		if vals, ok := v.([]any); ok && len(vals) > 0 && (len(vals) <= maxEnum || r.compact) {
			members := make([]texpr, len(vals))
			for i, e := range vals {
				members[i] = prim(literal(e))
			}
			return r.union(members)
		}
	}
	var types []string
	switch v, _ := o.get("type"); x := v.(type) {
	case string:
		types = []string{x}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				types = append(types, s)
			}
		}
	}
	if len(types) == 0 {
		switch {
		case o.has("properties", "additionalProperties", "patternProperties"):
			types = []string{"object"}
		case o.has("items", "prefixItems"):
			types = []string{"array"}
		default:
			return unknownT
		}
	}
	var members []texpr
	for _, t := range types {
		switch t {
		case "string", "boolean", "null":
			members = append(members, prim(t))
		case "number", "integer":
			members = append(members, prim("number"))
		case "array":
			members = append(members, r.array(d, o, depth, indent))
		case "object":
			members = append(members, r.object(d, o, depth, indent))
		default:
			members = append(members, unknownT)
		}
	}
	return r.union(members)
}

// union joins members with |. An unknown member makes it unknown; never
// members drop out. A compact union shows only its first members.
func (r *renderer) union(members []texpr) texpr {
	seen := map[string]bool{}
	var out []string
	for _, m := range members {
		if m.s == "unknown" {
			return unknownT
		}
		alts := m.alts
		if alts == nil {
			alts = []string{m.s}
		}
		for _, a := range alts {
			if a != "never" && !seen[a] {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	switch len(out) {
	case 0:
		return prim("never")
	case 1:
		for _, m := range members {
			if m.s == out[0] {
				return m
			}
		}
	}
	alts := out
	if r.compact && len(out) > maxCompactUnion {
		out = append(out[:maxCompactUnion-1:maxCompactUnion-1], "…")
	}
	return texpr{s: strings.Join(out, " | "), prec: precUnion, alts: alts}
}

// intersect joins parts with &. Unknown parts drop out; a never part
// makes it never.
func intersect(parts []texpr) texpr {
	seen := map[string]bool{}
	var kept []texpr
	for _, p := range parts {
		if p.s == "never" {
			return p
		}
		if p.s == "unknown" || seen[p.s] {
			continue
		}
		seen[p.s] = true
		kept = append(kept, p)
	}
	switch len(kept) {
	case 0:
		return unknownT
	case 1:
		return kept[0]
	}
	s := make([]string, len(kept))
	for i, p := range kept {
		s[i] = paren(p, precInter)
	}
	return texpr{s: strings.Join(s, " & "), prec: precInter}
}

// paren renders t, parenthesized when it binds looser than prec.
func paren(t texpr, prec int) string {
	if t.prec < prec {
		return "(" + t.s + ")"
	}
	return t.s
}
