package tsdecl

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// isIdent reports whether s is a JS identifier name (reserved words
// included: they are fine as property names).
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r == '_' || r == '$' || unicode.IsLetter(r)
		if i > 0 {
			ok = ok || unicode.IsDigit(r)
		}
		if !ok {
			return false
		}
	}
	return true
}

// reserved holds the words that cannot name a global binding.
var reserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`await break case catch class const continue
		debugger default delete do else enum export extends false finally for
		function if implements import in instanceof interface let new null package
		private protected public return static super switch this throw true try
		typeof var void while with yield undefined NaN Infinity arguments eval`) {
		reserved[w] = true
	}
}

// propKey renders an object key: bare when it is an identifier, quoted
// otherwise.
func propKey(k string) string {
	if isIdent(k) {
		return k
	}
	return quote(k)
}

// pascal turns a name into a PascalCase type name part: "create_issue"
// becomes "CreateIssue". Characters that cannot appear in a type name are
// dropped as separators.
func pascal(s string) string {
	var b strings.Builder
	upper := true
	for _, r := range s {
		if !(r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			upper = true
			continue
		}
		if upper {
			r = unicode.ToUpper(r)
			upper = false
		}
		b.WriteRune(r)
	}
	out := b.String()
	if r, _ := utf8.DecodeRuneInString(out); unicode.IsDigit(r) {
		out = "_" + out
	}
	return out
}

// toolPrefix is the type name prefix of a tool: "Github_CreateIssue".
func toolPrefix(t Tool) string {
	name := pascal(t.Name)
	if name == "" {
		name = "Tool"
	}
	if t.Namespace == "" {
		return name
	}
	ns := pascal(t.Namespace)
	if ns == "" {
		ns = "Ns"
	}
	return ns + "_" + name
}

// namer hands out unique type names.
type namer struct {
	used map[string]bool
	log  []string // names in the order claimed, for release
}

func newNamer() *namer { return &namer{used: map[string]bool{}} }

// mark returns a point to release names back to.
func (n *namer) mark() int { return len(n.log) }

// release frees the names claimed since mark m.
func (n *namer) release(m int) {
	for _, name := range n.log[m:] {
		delete(n.used, name)
	}
	n.log = n.log[:m]
}

// claim returns base, or base with the smallest numeric suffix from 2 on
// that is still free, and marks it used.
func (n *namer) claim(base string) string {
	name := base
	for i := 2; n.used[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	n.used[name] = true
	n.log = append(n.log, name)
	return name
}

// normWord lowercases s and drops everything but letters and digits, to
// compare a title with the name it would repeat.
func normWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
