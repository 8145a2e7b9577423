package schema

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// leaf is a violation plus what ordering and alternative selection need.
type leaf struct {
	Violation
	loc []string   // instance location tokens, unescaped
	typ *kind.Type // set for "type" failures
}

// collectViolations flattens the library's error tree into leaf
// violations, ordered by instance location and without duplicates. v (may
// be nil) supplies the schema document for hints.
func collectViolations(e *jsonschema.ValidationError, v *Validator) []Violation {
	leaves := walk(e, v, nil)
	slices.SortStableFunc(leaves, func(a, b leaf) int {
		if c := compareLocs(a.loc, b.loc); c != 0 {
			return c
		}
		return cmp.Compare(a.Rule, b.Rule)
	})
	out := make([]Violation, 0, len(leaves))
	for _, l := range leaves {
		if len(out) > 0 && out[len(out)-1] == l.Violation {
			continue
		}
		out = append(out, l.Violation)
	}
	return out
}

// compareLocs orders instance locations token by token, comparing array
// indexes numerically; a parent sorts before its children.
func compareLocs(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		ai, aerr := strconv.Atoi(a[i])
		bi, berr := strconv.Atoi(b[i])
		if aerr == nil && berr == nil {
			return cmp.Compare(ai, bi)
		}
		return strings.Compare(a[i], b[i])
	}
	return cmp.Compare(len(a), len(b))
}

// walk appends the leaf violations under e to out. Wrappers (the root,
// groups, $ref, allOf) are looked through; anyOf/oneOf failures are reduced
// to their most plausible alternative.
func walk(e *jsonschema.ValidationError, v *Validator, out []leaf) []leaf {
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf:
		return alternatives(e, v, out)
	case *kind.OneOf:
		if k.Subschemas == nil {
			return alternatives(e, v, out)
		}
	case *kind.PropertyNames:
		return append(out, newLeaf(e, v))
	}
	if len(e.Causes) == 0 {
		return append(out, newLeaf(e, v))
	}
	for _, c := range e.Causes {
		out = walk(c, v, out)
	}
	return out
}

// alternatives reduces a failed anyOf/oneOf to useful violations. When
// every alternative failed only on "type" at this location, the result is
// one merged type violation ("want string or null"). Otherwise the
// violations of the alternative that looks intended are reported, ranked:
// one that did not fail on type at this location, then one whose
// discriminator matched (no const/enum failure on a direct property), then
// one whose failures are deepest in the value, then one with the fewest
// failures; the first alternative wins ties.
func alternatives(e *jsonschema.ValidationError, v *Validator, out []leaf) []leaf {
	if len(e.Causes) == 0 {
		return append(out, newLeaf(e, v))
	}
	self := len(e.InstanceLocation)
	var best []leaf
	var bestScore [4]int
	allType := true
	var wants []string
	for i, c := range e.Causes {
		ls := walk(c, v, nil)
		typeOnly := len(ls) > 0
		score := [4]int{1, 1, 0, -len(ls)}
		for _, l := range ls {
			if l.typ == nil || len(l.loc) != self {
				typeOnly = false
			} else {
				wants = append(wants, l.typ.Want...)
			}
			if (l.Rule == "const" || l.Rule == "enum") && len(l.loc) == self+1 {
				score[1] = 0
			}
			score[2] = max(score[2], len(l.loc))
		}
		allType = allType && typeOnly
		if typeOnly {
			score[0] = 0
		}
		if i == 0 || slices.Compare(score[:], bestScore[:]) > 0 {
			best, bestScore = ls, score
		}
	}
	if allType {
		got := best[0].typ.Got
		var uniq []string
		for _, w := range wants {
			if !slices.Contains(uniq, w) {
				uniq = append(uniq, w)
			}
		}
		l := best[0]
		l.typ = &kind.Type{Got: got, Want: uniq}
		l.Message = "got " + got + ", want " + strings.Join(uniq, " or ")
		return append(out, l)
	}
	return append(out, best...)
}

// newLeaf converts one library error into a leaf violation.
func newLeaf(e *jsonschema.ValidationError, v *Validator) leaf {
	rule, msg := describe(e, v)
	l := leaf{
		Violation: Violation{
			Path:    pointer(e.InstanceLocation),
			Rule:    rule,
			Message: truncate(msg, maxMessage),
		},
		loc: e.InstanceLocation,
	}
	if t, ok := e.ErrorKind.(*kind.Type); ok {
		l.typ = t
	}
	return l
}

// pointer renders instance location tokens as a JSON Pointer.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}

// allowedProperties returns the sorted names under "properties" of the
// schema at loc, or nil when they are unknown or do not tell the whole
// story (patternProperties).
func (v *Validator) allowedProperties(loc string) []string {
	obj := v.subschema(loc)
	if obj == nil || obj["patternProperties"] != nil {
		return nil
	}
	props, _ := obj["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// subschema resolves a schema location reported by the library (an
// absolute URL whose fragment is a JSON Pointer) inside the schema document.
func (v *Validator) subschema(loc string) map[string]any {
	if v == nil {
		return nil
	}
	u, frag, _ := strings.Cut(loc, "#")
	if u != baseURL && (v.id == "" || u != strings.TrimSuffix(v.id, "#")) {
		return nil
	}
	cur := v.doc
	if frag != "" {
		toks := strings.Split(frag, "/")
		if toks[0] != "" {
			return nil // an anchor, not a pointer
		}
		for _, tok := range toks[1:] {
			if t, err := url.PathUnescape(tok); err == nil {
				tok = t
			}
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch c := cur.(type) {
			case map[string]any:
				cur = c[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(c) {
					return nil
				}
				cur = c[i]
			default:
				return nil
			}
		}
	}
	obj, _ := cur.(map[string]any)
	return obj
}
