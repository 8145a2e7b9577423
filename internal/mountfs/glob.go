//go:build linux

package mountfs

import (
	"context"
	"errors"
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
// trailing "**" matches everything beneath. Consecutive "**" components
// mean the same as one. Backslashes are refused (so there is no escaping;
// write "[*]" for a literal star). The walk stays inside the mounts,
// never follows symlinks, skips hidden entries and only matches files and
// directories. Each directory is listed at most once per call, and each
// pair of a directory and a pattern position is walked at most once, so
// the work grows with the entries walked times the pattern's components,
// never exponentially. Walking more than [Config.MaxEntries] entries
// (directories and files a staged write implies included), or matching
// more, fails with [codes.FSTooManyEntries]. Entries that vanish during
// the walk are skipped. Glob is [Session.GlobContext] without a deadline.
func (s *Session) Glob(pattern string) ([]string, error) {
	return s.GlobContext(context.Background(), pattern)
}

// GlobContext is [Session.Glob] bounded by ctx: the walk checks ctx at
// every directory it visits and, once ctx is done, stops with
// [codes.Timeout] (ctx's deadline passed) or [codes.Cancelled]. The host
// passes the call's context, which ends when the run does.
func (s *Session) GlobContext(ctx context.Context, pattern string) ([]string, error) {
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
	pats = collapseStars(pats)
	n := 0
	for n < len(pats) && !hasMeta(pats[n]) {
		n++
	}
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
	g := &globber{ctx: ctx, s: s, pattern: pattern, pats: pats[n:], budget: s.fs.maxEntries,
		found: map[string]bool{}, nodes: map[string]*globNode{}}
	if err := g.walk(g.node(start), 0); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(g.found))
	for p := range g.found {
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}

// testHookGlobVisit, when set (by tests only), is called each time a
// Glob walks a (directory, pattern position) pair.
var testHookGlobVisit func()

// globber is the state of one Glob walk.
type globber struct {
	ctx     context.Context
	s       *Session
	pattern string
	pats    []string // the pattern's components from the first one with glob syntax
	budget  int      // entries left to walk
	found   map[string]bool
	nodes   map[string]*globNode // the directories met, by guest path
}

// globNode is a directory a Glob walk met: its listing, made at most
// once, and the pattern positions already walked from it.
type globNode struct {
	t       *target
	listed  bool
	entries []Info      // nil when the directory cannot be listed
	kids    []*globNode // for the entries that are directories; nil for others
	seen    []uint64    // bit i: position i of the pattern was walked here
}

func (g *globber) tooMany() error {
	return newErr(codes.FSTooManyEntries, "glob", g.pattern, fmt.Sprintf("the pattern walks or matches more than %d entries", g.s.fs.maxEntries), nil)
}

// node returns the node of directory t, making it on first use.
func (g *globber) node(t *target) *globNode {
	n, ok := g.nodes[t.path]
	if !ok {
		n = &globNode{t: t, seen: make([]uint64, (len(g.pats)+63)/64)}
		g.nodes[t.path] = n
	}
	return n
}

// add records a match.
func (g *globber) add(p string) error {
	g.found[p] = true
	if len(g.found) > g.s.fs.maxEntries {
		return g.tooMany()
	}
	return nil
}

// list lists directory n once; directories that cannot be listed (gone,
// replaced by a file or symlink, unreadable) list as empty.
func (g *globber) list(n *globNode) ([]Info, []*globNode, error) {
	if n.listed {
		return n.entries, n.kids, nil
	}
	n.listed = true
	entries, err := g.s.list("glob", n.t, &g.budget, false)
	if CodeOf(err) == codes.FSTooManyEntries {
		return nil, nil, g.tooMany()
	}
	if err != nil {
		return nil, nil, nil
	}
	n.entries, n.kids = entries, make([]*globNode, len(entries))
	for i, e := range entries {
		if e.Kind == KindDir {
			n.kids[i] = g.node(g.s.fs.child(n.t, e.Name))
		}
	}
	return n.entries, n.kids, nil
}

// done fails once the call's context is done.
func (g *globber) done() error {
	err := g.ctx.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return newErr(codes.Timeout, "glob", g.pattern, "stopped: the run's time limit passed", err)
	}
	return newErr(codes.Cancelled, "glob", g.pattern, "stopped: the run was cancelled", err)
}

// walk matches the pattern from position i on against the entries
// beneath directory n, once per (n, i).
func (g *globber) walk(n *globNode, i int) error {
	word, bit := i/64, uint64(1)<<(i%64)
	if n.seen[word]&bit != 0 {
		return nil
	}
	n.seen[word] |= bit
	if testHookGlobVisit != nil {
		testHookGlobVisit()
	}
	if err := g.done(); err != nil {
		return err
	}
	p, last := g.pats[i], i == len(g.pats)-1
	if p == "**" {
		if !last {
			if err := g.walk(n, i+1); err != nil {
				return err
			}
		}
		entries, kids, err := g.list(n)
		if err != nil {
			return err
		}
		for j, e := range entries {
			if last && (e.Kind == KindFile || e.Kind == KindDir) {
				if err := g.add(e.Path); err != nil {
					return err
				}
			}
			if kids[j] != nil {
				if err := g.walk(kids[j], i); err != nil {
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
		c := g.s.fs.child(n.t, p)
		info, err := g.s.stat("glob", c)
		if err != nil {
			return nil
		}
		return g.matched(c, info, nil, i+1)
	}
	entries, kids, err := g.list(n)
	if err != nil {
		return err
	}
	for j, e := range entries {
		if ok, _ := path.Match(p, e.Name); ok {
			if err := g.matched(nil, e, kids[j], i+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// matched continues the walk at an entry that matched the component
// before position next: a listed entry (kid is its node when it is a
// directory) or the target c of a literal component.
func (g *globber) matched(c *target, info Info, kid *globNode, next int) error {
	if next == len(g.pats) {
		if info.Kind == KindFile || info.Kind == KindDir {
			if c != nil {
				return g.add(c.path)
			}
			return g.add(info.Path)
		}
		return nil
	}
	if info.Kind != KindDir {
		return nil
	}
	if kid == nil {
		kid = g.node(c)
	}
	return g.walk(kid, next)
}

// collapseStars replaces each run of "**" components by one: "**/**"
// matches exactly what "**" does.
func collapseStars(pats []string) []string {
	out := pats[:0:0]
	for _, p := range pats {
		if p == "**" && len(out) > 0 && out[len(out)-1] == "**" {
			continue
		}
		out = append(out, p)
	}
	return out
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
