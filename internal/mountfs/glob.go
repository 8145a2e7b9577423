//go:build linux

package mountfs

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/codes"
)

// Glob returns the guest paths of the files and directories that match
// pattern, sorted, with the session's staged changes applied. pattern is
// an absolute guest path whose components may use path.Match syntax
// ("*", "?", "[...]"; "*" also matches a leading dot) and whose
// component "**" matches any number of directories, none included; a
// trailing "**" matches everything beneath. Backslashes are refused (so
// there is no escaping; write "[*]" for a literal star). The walk stays
// inside the mounts, never follows symlinks, skips hidden entries and
// only matches files and directories. Walking more than
// [Config.MaxEntries] entries, or matching more, fails with
// [codes.FSTooManyEntries]. Entries that vanish during the walk are skipped.
func (s *Session) Glob(pattern string) ([]string, error) {
	const op = "glob"
	end, err := s.begin(op, pattern)
	if err != nil {
		return nil, err
	}
	defer end()
	pats, perr := splitPattern(pattern)
	if perr != "" {
		return nil, newErr(codes.FSInvalidPath, op, pattern, perr, nil)
	}
	n := 0
	for n < len(pats) && !hasMeta(pats[n]) {
		n++
	}
	g := &globber{s: s, pattern: pattern, budget: s.fs.maxEntries, found: map[string]bool{}}
	start, err := s.fs.parse(op, "/"+strings.Join(pats[:n], "/"))
	if err != nil {
		return []string{}, nil // outside every mount: no match
	}
	if n == len(pats) {
		if info, err := s.stat(op, start); err == nil && (info.Kind == KindFile || info.Kind == KindDir) {
			return []string{start.path}, nil
		}
		return []string{}, nil
	}
	if err := g.walk(start, pats[n:]); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(g.found))
	for p := range g.found {
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}

// globber is the state of one Glob walk.
type globber struct {
	s       *Session
	pattern string
	budget  int // entries left to walk
	found   map[string]bool
}

func (g *globber) tooMany() error {
	return newErr(codes.FSTooManyEntries, "glob", g.pattern, fmt.Sprintf("the pattern walks or matches more than %d entries", g.s.fs.maxEntries), nil)
}

// add records a match.
func (g *globber) add(p string) error {
	g.found[p] = true
	if len(g.found) > g.s.fs.maxEntries {
		return g.tooMany()
	}
	return nil
}

// list lists directory t; directories that cannot be listed (gone,
// replaced by a file or symlink, unreadable) list as empty.
func (g *globber) list(t *target) ([]Info, error) {
	entries, err := g.s.list("glob", t, &g.budget, false)
	if CodeOf(err) == codes.FSTooManyEntries {
		return nil, g.tooMany()
	}
	if err != nil {
		return nil, nil
	}
	return entries, nil
}

// walk matches pats against the entries beneath directory t.
func (g *globber) walk(t *target, pats []string) error {
	p, rest := pats[0], pats[1:]
	if p == "**" {
		if len(rest) > 0 {
			if err := g.walk(t, rest); err != nil {
				return err
			}
		}
		entries, err := g.list(t)
		if err != nil {
			return err
		}
		for _, e := range entries {
			c := g.s.fs.child(t, e.Name)
			if len(rest) == 0 && (e.Kind == KindFile || e.Kind == KindDir) {
				if err := g.add(c.path); err != nil {
					return err
				}
			}
			if e.Kind == KindDir {
				if err := g.walk(c, pats); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if !hasMeta(p) {
		g.budget--
		if g.budget < 0 {
			return g.tooMany()
		}
		c := g.s.fs.child(t, p)
		info, err := g.s.stat("glob", c)
		if err != nil {
			return nil
		}
		return g.matched(c, info, rest)
	}
	entries, err := g.list(t)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if ok, _ := path.Match(p, e.Name); ok {
			if err := g.matched(g.s.fs.child(t, e.Name), e, rest); err != nil {
				return err
			}
		}
	}
	return nil
}

// matched continues the walk at an entry that matched a component.
func (g *globber) matched(c *target, info Info, rest []string) error {
	if len(rest) == 0 {
		if info.Kind == KindFile || info.Kind == KindDir {
			return g.add(c.path)
		}
		return nil
	}
	if info.Kind == KindDir {
		return g.walk(c, rest)
	}
	return nil
}

// child returns the target of name in directory t, which may be a
// directory above the mounts.
func (f *FS) child(t *target, name string) *target {
	if t.m != nil {
		c := t.child(name)
		c.hidden = t.hidden || f.deny.hidden(name)
		return c
	}
	c := &target{comps: append(slices.Clip(t.comps), name)}
	c.path = "/" + strings.Join(c.comps, "/")
	c.m, c.rel = f.mountFor(c.comps)
	if c.m == nil {
		c.virtual = f.virtualDir(c.comps)
		if !c.virtual {
			c.hidden = true // outside every mount: nothing there
		}
	}
	return c
}

// hasMeta reports whether a pattern component has glob syntax.
func hasMeta(p string) bool {
	return strings.ContainsAny(p, "*?[")
}

// splitPattern checks a glob pattern like a guest path and returns its
// components.
func splitPattern(p string) ([]string, string) {
	switch {
	case len(p) > maxPathLen:
		return nil, fmt.Sprintf("pattern is longer than %d bytes", maxPathLen)
	case strings.IndexByte(p, 0) >= 0:
		return nil, "pattern contains a NUL byte"
	case strings.IndexByte(p, '\\') >= 0:
		return nil, `pattern contains a backslash; separate components with "/" and write "[*]" for a literal "*"`
	case !utf8.ValidString(p):
		return nil, "pattern is not valid UTF-8"
	case !strings.HasPrefix(p, "/"):
		return nil, `pattern is relative; patterns are absolute guest paths, like "/data/**/*.txt"`
	}
	var comps []string
	for c := range strings.SplitSeq(p, "/") {
		switch {
		case c == "" || c == ".":
			continue
		case c == "..":
			return nil, `".." is not allowed in patterns`
		case len(c) > maxNameLen:
			return nil, fmt.Sprintf("a pattern component is longer than %d bytes", maxNameLen)
		}
		if _, err := path.Match(c, ""); err != nil {
			return nil, fmt.Sprintf("bad pattern component %q", c)
		}
		comps = append(comps, c)
	}
	return comps, ""
}
