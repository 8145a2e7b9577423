package tsdecl

import (
	"net/url"
	"strconv"
	"strings"
)

// ref renders a "$ref". Local JSON pointers become named types (or, in
// compact mode, are inlined once at the top level); anything else is
// unknown.
func (r *renderer) ref(d *schemaDoc, ref string, depth int, indent string) texpr {
	if ref == "#" || ref == "" {
		if r.compact {
			return prim("{…}")
		}
		d.rootUsed = true
		return prim(d.rootName)
	}
	if ro, ok := d.root.(*object); ok {
		// A reference that spells out the document's own $id is local.
		if id := strings.TrimSuffix(ro.str("$id"), "#"); id != "" && strings.HasPrefix(ref, id+"#") {
			ref = ref[len(id):]
		}
	}
	if !strings.HasPrefix(ref, "#/") {
		return unknownT
	}
	ptr := ref[1:]
	if name, ok := d.refs[ptr]; ok && !r.compact {
		return prim(name)
	}
	target, ok := resolve(d.root, ptr)
	if !ok {
		return unknownT
	}
	key := pascal(ptr[strings.LastIndex(ptr, "/")+1:])
	if key == "" {
		key = "Def"
	}
	if r.compact {
		if depth > 0 || r.visiting[ptr] {
			return prim(key)
		}
		r.visiting[ptr] = true
		defer delete(r.visiting, ptr)
		return r.typeOf(d, target, depth, indent)
	}
	name := r.names.claim(d.prefix + "_" + key)
	d.refs[ptr] = name
	r.queue = append(r.queue, pending{doc: d, name: name, key: key, node: target})
	return prim(name)
}

// resolve follows a JSON pointer ("/$defs/Node") from root.
func resolve(root any, ptr string) (any, bool) {
	cur := root
	for _, seg := range strings.Split(ptr, "/")[1:] {
		if u, err := url.PathUnescape(seg); err == nil {
			seg = u
		}
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch x := cur.(type) {
		case *object:
			v, ok := x.get(seg)
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
