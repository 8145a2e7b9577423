//go:build linux

package mountfs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/credpaths"
)

// setProtected checks [Config.AllowWrite] and sets, for each read-write
// mount, the normalised [DefaultProtected] names that stay read-only at
// its top.
func (f *FS) setProtected(allowWrite map[string][]string) error {
	allow := map[*mount][]string{}
	for key, names := range allowWrite {
		comps, perr := splitGuest(key)
		var m *mount
		for _, o := range f.mounts {
			if perr == "" && slices.Equal(o.comps, comps) {
				m = o
			}
		}
		if m == nil {
			return fmt.Errorf("allowWrite names %q, which is not a mount's guest path (mounts: %s)", key, f.mountList())
		}
		for _, a := range names {
			if a != "*" && (a == "" || a == "." || a == ".." || strings.ContainsAny(a, "/\x00")) {
				return fmt.Errorf("allowWrite %q: %q: a protected name is one path component (like \".vscode\"), or \"*\" for all of them", key, a)
			}
		}
		allow[m] = append(allow[m], names...)
	}
	for _, m := range f.mounts {
		if !m.rw || slices.Contains(allow[m], "*") {
			continue
		}
		m.protected = map[string]bool{}
		for _, n := range DefaultProtected {
			m.protected[normName(n)] = true
		}
		for _, a := range allow[m] {
			delete(m.protected, normName(a))
		}
	}
	return nil
}

// protectedErr is the error for op changing t when t is, or lies beneath,
// a protected name at the top of its mount; nil otherwise. The answer
// depends on the name only.
func (t *target) protectedErr(op string) error {
	if t.m == nil || len(t.rel) == 0 || !t.m.protected[normName(t.rel[0])] {
		return nil
	}
	return newErr(codes.FSDenied, op, t.path, fmt.Sprintf(
		"%q at the top of the mount %s is protected: files the host's tools run or load later stay read-only; "+
			"to let programs change it, list %q under allowWrite[%q]", t.rel[0], t.m.guest, t.rel[0], t.m.guest), nil)
}

// concealed reports whether t is hidden. Unlike t.hidden, which a glob
// sets from the last component alone, it checks every rule against the
// whole path.
func (t *target) concealed() bool {
	return t.hidden || t.m != nil && t.m.hide.hiddenAny(t.rel)
}

// privateRules returns the anchored rules that hide, in a mount whose
// host directory is host (absolute), the private paths inside it. It
// fails when the host directory is a private path or lies inside one.
func privateRules(host string, private []string) ([]rule, error) {
	hosts := pathForms(host)
	var out []rule
	seen := map[string]bool{}
	for _, p := range private {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		for _, pf := range pathForms(p) {
			for _, hf := range hosts {
				if within(hf, pf) {
					return nil, fmt.Errorf("the host directory %q is or lies inside %q, modebox's own state (its key, used tokens, engine cache or configuration file), which fs never exposes; mount another directory", host, p)
				}
				if !within(pf, hf) {
					continue
				}
				rel := strings.TrimPrefix(pf[len(hf):], "/")
				if seen[rel] {
					continue
				}
				seen[rel] = true
				out = append(out, literalRule(strings.Split(rel, "/")))
			}
		}
	}
	return out, nil
}

// pathForms returns the clean absolute path p and, when it differs, p
// with symlinks resolved (in its longest existing prefix, for a path that
// does not exist yet).
func pathForms(p string) []string {
	p = filepath.Clean(p)
	out := []string{p}
	rest := ""
	for dir := p; ; dir = filepath.Dir(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			if r := filepath.Join(real, rest); r != p {
				out = append(out, r)
			}
			return out
		} else if !errors.Is(err, os.ErrNotExist) || dir == filepath.Dir(dir) {
			return out
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

// within reports whether p is dir or lies inside it (both clean and
// absolute).
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

// systemPathRules returns the anchored rules that hide, in a mount whose
// host directory has the forms hosts (as written, symlinks resolved), the
// files only root may read ([credpaths.RootOnly]: password hashes, host
// keys) and the host's runtime state ([credpaths.RuntimeState]: /run,
// injected container secrets, shared memory) that lie inside it. It fails
// for a host directory inside one of them.
func systemPathRules(hosts []string) ([]rule, error) {
	out, err := hostPathRules(hosts, credpaths.RootOnly, "holds credentials only root may read")
	if err != nil {
		return nil, err
	}
	state, err := hostPathRules(hosts, credpaths.RuntimeState, "holds other processes' live state or the secrets a container runtime injects")
	return append(out, state...), err
}

// hostPathRules returns the anchored rules that hide the absolute host
// paths pats (filepath.Match globs per component) in a mount whose host
// directory has the forms hosts, and fails, saying why, for a host
// directory that is one of them or lies inside one.
func hostPathRules(hosts, pats []string, why string) ([]rule, error) {
	var out []rule
	for _, pat := range pats {
		pc := strings.Split(strings.TrimPrefix(pat, "/"), "/")
		for _, h := range hosts {
			var hc []string
			if h != "/" {
				hc = strings.Split(strings.TrimPrefix(filepath.Clean(h), "/"), "/")
			}
			n := min(len(hc), len(pc))
			match := true
			for i := range n {
				if ok, _ := filepath.Match(pc[i], hc[i]); !ok {
					match = false
					break
				}
			}
			switch {
			case !match:
			case len(hc) >= len(pc):
				return nil, fmt.Errorf("the host directory %q is or lies inside %q, which %s; fs never exposes it", h, pat, why)
			default:
				r := rule{anchored: true}
				for _, c := range pc[len(hc):] {
					r.comps = append(r.comps, normName(c))
				}
				out = append(out, r)
			}
		}
	}
	return out, nil
}
