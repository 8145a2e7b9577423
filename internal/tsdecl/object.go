package tsdecl

import (
	"encoding/json"
	"strings"
)

// prop is one property of an object type.
type prop struct {
	key  string
	node any
	opt  bool
	t    texpr
}

// requiredSet returns the names listed in "required".
func requiredSet(o *object) (set map[string]bool, order []string) {
	set = map[string]bool{}
	v, _ := o.get("required")
	list, _ := v.([]any)
	for _, e := range list {
		if s, ok := e.(string); ok && !set[s] {
			set[s] = true
			order = append(order, s)
		}
	}
	return set, order
}

// object renders an object schema: its properties (required ones without
// '?'; names that "required" lists but "properties" does not are unknown)
// and an index signature for "additionalProperties" and
// "patternProperties" schemas.
func (r *renderer) object(d *schemaDoc, o *object, depth int, indent string) texpr {
	inner := indent + "  "
	req, reqOrder := requiredSet(o)
	pv, hasProps := o.get("properties")
	po, _ := pv.(*object)
	var props []prop
	if po != nil {
		for i, k := range po.keys {
			props = append(props, prop{key: k, node: po.vals[i], opt: !req[k]})
		}
	}
	for _, k := range reqOrder {
		if _, ok := po.get(k); !ok {
			props = append(props, prop{key: k, node: true})
		}
	}
	if r.compact && depth > 0 && len(props) > 0 {
		return prim("{…}")
	}
	for i := range props {
		props[i].t = r.typeOf(d, props[i].node, depth+1, inner)
	}

	var idx []texpr
	var patterns []string
	ap, _ := o.get("additionalProperties")
	if apo, ok := ap.(*object); ok && len(apo.keys) > 0 {
		idx = append(idx, r.typeOf(d, ap, depth+1, inner))
	}
	if v, ok := o.get("patternProperties"); ok {
		if pp, ok := v.(*object); ok {
			for i, k := range pp.keys {
				patterns = append(patterns, "`"+k+"`")
				idx = append(idx, r.typeOf(d, pp.vals[i], depth+1, inner))
			}
		}
	}
	var it texpr
	if len(idx) > 0 {
		it = r.union(idx)
	}
	if len(props) == 0 {
		switch {
		case len(patterns) == 0 && len(idx) > 0:
			return prim("Record<string, " + it.s + ">")
		case len(idx) > 0:
			// patternProperties: an index signature with its patterns.
		case hasProps || ap == false:
			return texpr{s: "{}", prec: precPrimary, obj: true}
		default:
			return prim("Record<string, unknown>")
		}
	}
	var idxDoc []string
	if len(patterns) > 0 {
		idxDoc = []string{"Keys matching " + strings.Join(patterns, " or ") + "."}
	}
	if r.compact {
		return r.compactObject(props, it, len(idx) > 0)
	}
	fits := len(idx) == 0 || it.s == "unknown"
	if !fits {
		fits = true
		for _, p := range props {
			fits = fits && p.t.s == it.s
		}
	}
	var members []string
	var docs [][]string
	for _, p := range props {
		opt := ""
		if p.opt {
			opt = "?"
		}
		members = append(members, propKey(p.key)+opt+": "+p.t.s)
		docs = append(docs, r.docs(p.node, p.key, true))
	}
	if len(idx) > 0 && fits {
		members = append(members, "[key: string]: "+it.s)
		docs = append(docs, idxDoc)
	}
	t := objectLiteral(members, docs, depth > 0, indent)
	if fits {
		return t
	}
	// Property types that the index type does not cover: an intersection
	// keeps the declaration valid TypeScript.
	rest := prim("Record<string, " + it.s + ">")
	if len(idxDoc) > 0 {
		rest = objectLiteral([]string{"[key: string]: " + it.s}, [][]string{idxDoc}, depth > 0, indent)
	}
	return intersect([]texpr{t, rest})
}

// objectLiteral renders members (with their doc comment lines) as an
// object literal type: on one line when oneLine allows it and it is short
// and has no doc comments, else one member a line.
func objectLiteral(members []string, docs [][]string, oneLine bool, indent string) texpr {
	for i, m := range members {
		oneLine = oneLine && len(docs[i]) == 0 && !strings.Contains(m, "\n")
	}
	if line := "{ " + strings.Join(members, "; ") + " }"; oneLine && len(line) <= maxInline {
		return texpr{s: line, prec: precPrimary, obj: true}
	}
	var b strings.Builder
	b.WriteString("{\n")
	for i, m := range members {
		writeDoc(&b, indent+"  ", docs[i])
		b.WriteString(indent + "  " + m + ";\n")
	}
	b.WriteString(indent + "}")
	return texpr{s: b.String(), prec: precPrimary, obj: true}
}

// compactObject renders properties on one line, required ones first when
// not all fit in maxProps.
func (r *renderer) compactObject(props []prop, it texpr, hasIdx bool) texpr {
	shown := props
	more := false
	if r.maxProps > 0 && len(props) > r.maxProps {
		shown = nil
		for _, p := range props {
			if !p.opt && len(shown) < r.maxProps {
				shown = append(shown, p)
			}
		}
		for _, p := range props {
			if p.opt && len(shown) < r.maxProps {
				shown = append(shown, p)
			}
		}
		more = true
	}
	var parts []string
	for _, p := range shown {
		opt := ""
		if p.opt {
			opt = "?"
		}
		parts = append(parts, propKey(p.key)+opt+": "+p.t.s)
	}
	if hasIdx && !more {
		parts = append(parts, "[key: string]: "+it.s)
	}
	if more {
		parts = append(parts, "…")
	}
	return texpr{s: "{" + strings.Join(parts, ", ") + "}", prec: precPrimary, obj: true}
}

// array renders an array schema: T[], or a tuple for "prefixItems" or a
// draft-07 "items" list (elements past "minItems" are optional).
func (r *renderer) array(d *schemaDoc, o *object, depth int, indent string) texpr {
	if v, ok := o.get("prefixItems"); ok {
		if list, ok := v.([]any); ok {
			rest, _ := o.get("items")
			return r.tuple(d, o, list, rest, depth, indent)
		}
	}
	iv, ok := o.get("items")
	if list, isList := iv.([]any); isList {
		rest, _ := o.get("additionalItems")
		return r.tuple(d, o, list, rest, depth, indent)
	}
	if !ok || iv == true {
		return prim("unknown[]")
	}
	if iv == false {
		return prim("[]")
	}
	return prim(paren(r.typeOf(d, iv, depth+1, indent), precPrimary) + "[]")
}

// tuple renders a tuple type; rest, when it is a schema, types the
// elements after the listed ones.
func (r *renderer) tuple(d *schemaDoc, o *object, list []any, rest any, depth int, indent string) texpr {
	minItems := 0
	if v, ok := o.get("minItems"); ok {
		if n, ok := v.(json.Number); ok {
			if i, err := n.Int64(); err == nil && i > 0 && i < 1<<20 {
				minItems = int(i)
			}
		}
	}
	var parts []string
	for i, e := range list {
		t := r.typeOf(d, e, depth+1, indent)
		if i >= minItems {
			parts = append(parts, paren(t, precPrimary)+"?")
		} else {
			parts = append(parts, t.s)
		}
	}
	if ro, ok := rest.(*object); ok && len(ro.keys) > 0 {
		parts = append(parts, "..."+paren(r.typeOf(d, rest, depth+1, indent), precPrimary)+"[]")
	}
	return prim("[" + strings.Join(parts, ", ") + "]")
}
