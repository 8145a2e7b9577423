package mountfs

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/credpaths"

	"golang.org/x/text/unicode/norm"
)

// DefaultDeny are the deny patterns that always apply, whatever
// [Config.Deny] adds: modebox's credential list ([credpaths.Names]):
// environment files, private keys and keystores, git metadata, the
// credential files and directories developers keep in their home
// directory (.ssh, .aws, .netrc, .config/gh, .cargo/credentials*,
// .cache/huggingface/token, ...) and modebox's own state in a home
// directory (.config/modebox, ...). A pattern of one component is matched
// against every path component; one of several against every run of
// components, at any depth (see [Config.Deny]).
var DefaultDeny = credpaths.Names

// DefaultProtected are the names that stay read-only at the top of every
// read-write mount unless [Config.AllowWrite] lists them for it: files the
// host's tools run or load later (.git, .envrc, .bashrc, .vscode,
// .mcp.json, .husky, .pre-commit-config.yaml, .devcontainer, .cursor,
// .modebox, modebox.json, ...). It is [credpaths.Protected], the list the
// shell sandbox keeps read-only at the top of each workspace. Names are
// matched like deny patterns (case-insensitive, normalised); writing or
// removing a file at or beneath one fails with [codes.FSDenied], while
// reading it works.
var DefaultProtected = credpaths.Protected

// TempPrefix starts the name of the temporary file a commit writes before
// renaming it over its target. Names with this prefix are hidden like
// denied ones, so a temporary file left by a crash is never seen by a
// guest.
const TempPrefix = ".modebox-tmp-"

// rule is a normalised deny pattern of one or more components.
type rule struct {
	comps    []string // normalised path.Match patterns, one per component
	anchored bool     // matches at the mount root only
}

// denyList holds normalised deny patterns. It is read-only once built, so
// mounts share its parts.
type denyList struct {
	names map[string]bool // one-component patterns without glob syntax
	globs []string        // one-component patterns with glob syntax
	paths []rule          // patterns of several components, or anchored
}

// newDenyList checks and normalises the user's patterns and adds the
// default ones.
func newDenyList(user []string) (*denyList, error) {
	d := &denyList{names: map[string]bool{}}
	for _, p := range DefaultDeny {
		r, err := parsePattern(p)
		if err != nil {
			return nil, fmt.Errorf("built-in deny pattern %q: %v", p, err)
		}
		d.add(r)
	}
	for _, p := range user {
		r, err := parsePattern(p)
		if err != nil {
			return nil, fmt.Errorf("deny pattern %q: %v", p, err)
		}
		d.add(r)
	}
	return d, nil
}

// parsePattern checks a deny pattern and normalises it: components
// separated by "/", empty and "." components dropped (so a trailing "/"
// is allowed), a leading "/" anchoring it at the mount root.
func parsePattern(p string) (rule, error) {
	if strings.ContainsRune(p, 0) {
		return rule{}, fmt.Errorf("contains a NUL byte")
	}
	if strings.HasPrefix(p, "~") {
		return rule{}, fmt.Errorf(`starts with "~", which is not expanded: a deny pattern names paths beneath each mount ("~/.aws" is "/.aws" at a mount's root, or ".aws" at any depth)`)
	}
	if hasBrace(p) {
		return rule{}, fmt.Errorf(`has "{" or "}": braces are not alternatives in a glob ("*.{db,json}" matches only that literal name); write one pattern per alternative, or escape a literal brace as "\\{"`)
	}
	r := rule{anchored: strings.HasPrefix(p, "/")}
	for c := range strings.SplitSeq(p, "/") {
		switch c {
		case "", ".":
			continue
		case "..":
			return rule{}, fmt.Errorf(`has a ".." component; patterns name paths beneath the mount`)
		case "**":
			return rule{}, fmt.Errorf(`has a "**" component; a pattern with a "/" already matches at any depth ("a/b" hides a/b and x/a/b), and one starting with "/" only at the mount root`)
		}
		if _, err := path.Match(c, ""); err != nil {
			return rule{}, err
		}
		r.comps = append(r.comps, normName(c))
	}
	if len(r.comps) == 0 {
		return rule{}, fmt.Errorf("is empty")
	}
	return r, nil
}

// hasBrace reports an unescaped "{" or "}" in a pattern.
func hasBrace(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++ // the next byte is literal
		case '{', '}':
			return true
		}
	}
	return false
}

// literalRule is the anchored rule that hides exactly the path comps
// (names, not patterns) and everything beneath it.
func literalRule(comps []string) rule {
	r := rule{anchored: true}
	for _, c := range comps {
		r.comps = append(r.comps, escapeMeta(normName(c)))
	}
	return r
}

// escapeMeta makes a name match itself only as a path.Match pattern.
func escapeMeta(s string) string {
	if !strings.ContainsAny(s, `*?[\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// add adds r.
func (d *denyList) add(r rule) {
	switch {
	case len(r.comps) > 1 || r.anchored:
		d.paths = append(d.paths, r)
	case strings.ContainsAny(r.comps[0], `*?[\`):
		d.globs = append(d.globs, r.comps[0])
	default:
		d.names[r.comps[0]] = true
	}
}

// hostRules returns the anchored rules that carry d's patterns of
// several components across a mount's root: a mount of ~/.config sees
// "gh" at its root, which ".config/gh" must hide. host is the mount's
// absolute host directory. refused is a pattern that matches the host
// directory itself or a directory above it (a mount of ~/.ssh or of
// ~/.config/gh): everything in such a mount is what the pattern hides,
// so the mount is refused rather than shown.
func (d *denyList) hostRules(host string) (extra []rule, refused string) {
	var hc []string
	for c := range strings.SplitSeq(host, "/") {
		if c != "" {
			hc = append(hc, normName(c))
		}
	}
	for _, c := range hc {
		if d.hiddenNorm(c) {
			return nil, c
		}
	}
	for _, r := range d.paths {
		if r.anchored {
			continue
		}
		k := len(r.comps)
		for start := 0; start+k <= len(hc); start++ {
			if r.matchesAt(hc, start) {
				return nil, strings.Join(r.comps, "/")
			}
		}
		// the rule's first j components end the host path: the rest
		// starts at the mount's root
		for j := 1; j < k && j <= len(hc); j++ {
			if (rule{comps: r.comps[:j]}).matchesAt(hc, len(hc)-j) {
				extra = append(extra, rule{comps: r.comps[j:], anchored: true})
			}
		}
	}
	return extra, ""
}

// with returns a list with d's patterns and extra, sharing d's parts.
func (d *denyList) with(extra []rule) *denyList {
	if len(extra) == 0 {
		return d
	}
	return &denyList{names: d.names, globs: d.globs, paths: append(slices.Clip(d.paths), extra...)}
}

// matchComp matches a normalised name against a normalised pattern.
func matchComp(pat, name string) bool {
	if !strings.ContainsAny(pat, `*?[\`) {
		return pat == name
	}
	ok, _ := path.Match(pat, name)
	return ok
}

// hidden reports whether a single path component names something the
// guest must not see wherever it is: a name with [TempPrefix], or one a
// pattern of one component matches. Patterns of several components and
// anchored ones need the whole path: see [denyList.hiddenAny].
func (d *denyList) hidden(name string) bool {
	if strings.HasPrefix(name, TempPrefix) {
		return true
	}
	return d.hiddenNorm(normName(name))
}

// hiddenNorm is hidden for a normalised name.
func (d *denyList) hiddenNorm(n string) bool {
	if strings.HasPrefix(n, TempPrefix) || d.names[n] {
		return true
	}
	for _, p := range d.globs {
		if ok, _ := path.Match(p, n); ok {
			return true
		}
	}
	return false
}

// hiddenAny reports whether the path comps (beneath a mount root) is
// hidden: some component is, or some pattern of several components (or
// anchored) matches a run of them, so that a hidden directory hides all
// beneath it.
func (d *denyList) hiddenAny(comps []string) bool {
	nc := make([]string, len(comps))
	for i, c := range comps {
		if strings.HasPrefix(c, TempPrefix) {
			return true
		}
		nc[i] = normName(c)
	}
	for last := range nc {
		if d.hiddenNorm(nc[last]) || d.pathEndsAt(nc, last) {
			return true
		}
	}
	return false
}

// hiddenEntry reports whether the entry name of the directory dir (a
// path beneath a mount root that is not hidden itself) is hidden.
func (d *denyList) hiddenEntry(dir []string, name string) bool {
	if strings.HasPrefix(name, TempPrefix) {
		return true
	}
	n := normName(name)
	if d.hiddenNorm(n) {
		return true
	}
	if len(d.paths) == 0 {
		return false
	}
	var nc []string // dir's normalised components, made when needed
	for _, r := range d.paths {
		k := len(r.comps)
		start := len(dir) + 1 - k
		if start < 0 || r.anchored && start != 0 || !matchComp(r.comps[k-1], n) {
			continue
		}
		if nc == nil {
			nc = make([]string, len(dir)+1)
			for i, c := range dir {
				nc[i] = normName(c)
			}
			nc[len(dir)] = n
		}
		if r.matchesAt(nc, start) {
			return true
		}
	}
	return false
}

// pathEndsAt reports whether a pattern of d.paths matches the normalised
// components nc[start:last+1] for some start.
func (d *denyList) pathEndsAt(nc []string, last int) bool {
	for _, r := range d.paths {
		start := last + 1 - len(r.comps)
		if start >= 0 && (!r.anchored || start == 0) && r.matchesAt(nc, start) {
			return true
		}
	}
	return false
}

// matchesAt reports whether r matches nc[start:start+len(r.comps)].
func (r rule) matchesAt(nc []string, start int) bool {
	for j := len(r.comps) - 1; j >= 0; j-- {
		if !matchComp(r.comps[j], nc[start+j]) {
			return false
		}
	}
	return true
}

// normName is the form of a name deny patterns are matched against:
// default-ignorable code points (zero-width spaces and joiners, byte
// order marks, soft hyphens, variation selectors and so on) removed,
// NFKC-normalised, lower-cased, and without trailing dots and spaces
// (which some file systems and tools drop).
func normName(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		s = stripIgnorable(s)
		s = norm.NFKC.String(s)
		s = stripIgnorable(s)
	}
	s = strings.ToLower(s)
	if !ascii {
		s = norm.NFKC.String(s)
	}
	return strings.TrimRightFunc(s, func(r rune) bool { return r == '.' || unicode.IsSpace(r) })
}

// stripIgnorable removes default-ignorable code points and other
// invisible format characters.
func stripIgnorable(s string) string {
	if strings.IndexFunc(s, ignorable) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if ignorable(r) {
			return -1
		}
		return r
	}, s)
}

// ignorable approximates Unicode's Default_Ignorable_Code_Point property
// (which Go's unicode package has no table for) from its parts: format
// characters (Cf: U+200B..U+200F, U+202A..U+202E, U+2060..U+2064,
// U+FEFF, U+00AD, ...), variation selectors, and the
// Other_Default_Ignorable_Code_Point list (U+034F, Hangul fillers, ...).
func ignorable(r rune) bool {
	return unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}
