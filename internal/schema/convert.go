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

// leaf is a violation found in the library's error tree, not yet
// rendered: the report renders only the few it keeps.
type leaf struct {
	e    *jsonschema.ValidationError
	loc  []string   // instance location tokens, unescaped
	rule string     // the failed keyword (ruleOf)
	typ  *kind.Type // set for "type" failures
	msg  string     // set for a merged type failure: the message to show
}

// violation renders l.
func (l leaf) violation(v *Validator) Violation {
	rule, msg := describe(l.e, v)
	if l.msg != "" {
		msg = l.msg
	}
	return Violation{Path: pointer(l.loc), Rule: rule, Message: truncate(msg, maxMessage)}
}

// compareLeaves orders leaves by instance location, then rule.
func compareLeaves(a, b *leaf) int {
	if c := compareLocs(a.loc, b.loc); c != 0 {
		return c
	}
	return strings.Compare(a.rule, b.rule)
}

// collectViolations flattens the library's error tree into leaf
// violations and reports the first limit of them in the order of their
// instance locations (a parent before its children, array indexes
// numerically, then by rule; leaves alike in both keep the order of the
// error tree), without duplicates. omitted counts the leaves found beyond
// them (a violation reported alike by two subschemas may count twice).
// Only the kept leaves are rendered, and at most budget error nodes are
// visited: when the tree is larger, complete is false and omitted counts
// what was found before the walk stopped. v (may be nil) supplies the
// schema document for hints.
func collectViolations(e *jsonschema.ValidationError, v *Validator, limit, budget int) (vs []Violation, omitted int, complete bool) {
	c := &collector{v: v, limit: limit, budget: budget}
	walk(e, c, c.add)
	vs = make([]Violation, len(c.kept))
	slices.SortStableFunc(c.kept, func(a, b kept) int {
		if x := compareLeaves(&a.l, &b.l); x != 0 {
			return x
		}
		return cmp.Compare(a.seq, b.seq)
	})
	for i, k := range c.kept {
		vs[i] = k.v
	}
	return vs, c.found - len(vs), !c.cut
}

// collector keeps the first leaves by compareLeaves, at most limit of
// them, in a max-heap.
type collector struct {
	v      *Validator
	limit  int
	budget int  // error nodes the walk may still visit
	cut    bool // the budget ran out
	kept   []kept
	found  int // distinct leaves found, kept or not
	seq    int
}

type kept struct {
	l   leaf
	v   Violation
	seq int
}

// greater orders the heap: the greatest (last to report) at the top.
func (c *collector) greater(i, j int) bool {
	if x := compareLeaves(&c.kept[i].l, &c.kept[j].l); x != 0 {
		return x > 0
	}
	return c.kept[i].seq > c.kept[j].seq
}

// visit counts one error node against the budget.
func (c *collector) visit() bool {
	if c.budget <= 0 {
		c.cut = true
		return false
	}
	c.budget--
	return true
}

// add offers one leaf to the report.
func (c *collector) add(l leaf) {
	c.seq++
	if c.limit <= 0 {
		c.found++
		return
	}
	if len(c.kept) == c.limit && compareLeaves(&l, &c.kept[0].l) > 0 {
		c.found++ // after every kept one: not rendered
		return
	}
	vi := l.violation(c.v)
	for _, k := range c.kept {
		if k.v == vi {
			return // the same violation again
		}
	}
	c.found++
	c.kept = append(c.kept, kept{l: l, v: vi, seq: c.seq})
	c.up(len(c.kept) - 1)
	if len(c.kept) > c.limit {
		last := len(c.kept) - 1
		c.kept[0] = c.kept[last]
		c.kept = c.kept[:last]
		c.down(0)
	}
}

func (c *collector) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !c.greater(i, p) {
			return
		}
		c.kept[i], c.kept[p] = c.kept[p], c.kept[i]
		i = p
	}
}

func (c *collector) down(i int) {
	for {
		l, r, top := 2*i+1, 2*i+2, i
		if l < len(c.kept) && c.greater(l, top) {
			top = l
		}
		if r < len(c.kept) && c.greater(r, top) {
			top = r
		}
		if top == i {
			return
		}
		c.kept[i], c.kept[top] = c.kept[top], c.kept[i]
		i = top
	}
}

// compareLocs orders instance locations token by token, comparing array
// indexes numerically; a parent sorts before its children.
func compareLocs(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		ai, aok := index(a[i])
		bi, bok := index(b[i])
		if aok && bok {
			return cmp.Compare(ai, bi)
		}
		return strings.Compare(a[i], b[i])
	}
	return cmp.Compare(len(a), len(b))
}

// index parses a token as a decimal array index without allocating (as
// strconv.Atoi does for a token that is not one).
func index(s string) (int, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// walk passes the leaf violations under e to emit. Wrappers (the root,
// groups, $ref, allOf) are looked through; anyOf/oneOf failures are
// reduced to their most plausible alternative. Every node visited counts
// against c's budget; when it runs out, walk stops.
func walk(e *jsonschema.ValidationError, c *collector, emit func(leaf)) {
	if !c.visit() {
		return
	}
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf:
		alternatives(e, c, emit)
		return
	case *kind.OneOf:
		if k.Subschemas == nil {
			alternatives(e, c, emit)
			return
		}
	case *kind.PropertyNames:
		emit(newLeaf(e))
		return
	}
	if len(e.Causes) == 0 {
		emit(newLeaf(e))
		return
	}
	for _, cause := range e.Causes {
		walk(cause, c, emit)
		if c.cut {
			return
		}
	}
}

// alternatives reduces a failed anyOf/oneOf to useful violations. When
// every alternative failed only on "type" at this location, the result is
// one merged type violation ("want string or null"). Otherwise the
// violations of the alternative that looks intended are reported, ranked:
// one that did not fail on type at this location, then one whose
// discriminator matched (no const/enum failure on a direct property), then
// one whose failures are deepest in the value, then one with the fewest
// failures; the first alternative wins ties.
func alternatives(e *jsonschema.ValidationError, c *collector, emit func(leaf)) {
	if len(e.Causes) == 0 {
		emit(newLeaf(e))
		return
	}
	self := len(e.InstanceLocation)
	var best []leaf
	var bestScore [4]int
	allType := true
	var wants []string
	for i, cause := range e.Causes {
		var ls []leaf
		walk(cause, c, func(l leaf) { ls = append(ls, l) })
		if c.cut {
			for _, l := range ls {
				emit(l)
			}
			return
		}
		typeOnly := len(ls) > 0
		score := [4]int{1, 1, 0, -len(ls)}
		for _, l := range ls {
			if l.typ == nil || len(l.loc) != self {
				typeOnly = false
			} else {
				wants = append(wants, l.typ.Want...)
			}
			if (l.rule == "const" || l.rule == "enum") && len(l.loc) == self+1 {
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
		l.msg = "got " + got + ", want " + strings.Join(uniq, " or ")
		emit(l)
		return
	}
	for _, l := range best {
		emit(l)
	}
}

// newLeaf is one library error as a leaf violation.
func newLeaf(e *jsonschema.ValidationError) leaf {
	l := leaf{e: e, loc: e.InstanceLocation, rule: ruleOf(e)}
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
