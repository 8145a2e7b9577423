package tsdecl

import (
	"strings"
	"unicode/utf8"
)

// maxSignature is the length in runes a signature is shortened to when it
// can be.
const maxSignature = 200

// Signature renders a compact one-line signature such as
//
//	tools.github.create_issue({owner: string, repo: string, title: string, body?: string}): Promise<unknown>
//
// for search results. Nested objects show as {…}, references as their
// definition's name and long unions are cut short with …; a signature
// longer than about 200 characters shows fewer properties (required ones
// first), and the result type may collapse to {…}; one still longer (long
// literals or property names) is cut to 200 characters with …. An
// argument that may be left out is written `args?: T`; a tool without
// properties takes `()`.
// It is not meant to be valid TypeScript.
func Signature(t Tool) string {
	path := "tools." + t.Name
	if t.Namespace != "" {
		path = "tools." + t.Namespace + "." + t.Name
	}
	in, inErr := parseSchema(t.Input)
	out, outErr := parseSchema(t.Output)
	render := func(n any, maxProps int) string {
		r := &renderer{names: newNamer(), budget: maxNodes, compact: true, maxProps: maxProps,
			visiting: map[string]bool{}}
		d := newDoc(n, "", "")
		return r.typeOf(d, n, 0, "").s
	}
	params := func(maxProps int) string {
		switch {
		case inErr != nil:
			return "args?: unknown"
		case in == nil || in == true:
			return "args?: Record<string, unknown>"
		}
		s := render(in, maxProps)
		switch {
		case s == "{}":
			return ""
		case argsOptional(in):
			return "args?: " + s
		}
		return s
	}
	result := "unknown"
	if out != nil && outErr == nil {
		result = render(out, 0)
	}
	build := func(p, res string) string {
		return path + "(" + p + "): Promise<" + res + ">"
	}
	sig := build(params(0), result)
	if utf8.RuneCountInString(sig) <= maxSignature {
		return sig
	}
	if strings.HasPrefix(result, "{") {
		result = "{…}"
	}
	p := params(0)
	for n := propCount(in); n >= 1; n-- {
		p = params(n)
		sig = build(p, result)
		if utf8.RuneCountInString(sig) <= maxSignature {
			return sig
		}
	}
	// Still too long (long literals or property names): cut the
	// arguments, then the result, with ….
	if utf8.RuneCountInString(result) > maxSignature/4 {
		result = "…"
	}
	room := maxSignature - utf8.RuneCountInString(build("…", result))
	return build(cutRunes(p, room)+"…", result)
}

// cutRunes returns the first n runes of s (none when n < 1).
func cutRunes(s string, n int) string {
	for i := range s {
		if n < 1 {
			return s[:i]
		}
		n--
	}
	return s
}

// propCount returns how many properties the top-level input schema lists.
func propCount(in any) int {
	o, ok := in.(*object)
	if !ok {
		return 0
	}
	v, _ := o.get("properties")
	po, _ := v.(*object)
	if po == nil {
		return 0
	}
	return len(po.keys)
}
