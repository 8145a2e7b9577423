package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/modebox/modebox/internal/credpaths"
)

// homeCredentialPaths are masked in every home directory the sandbox
// covers, relative to that home: modebox's one credential list, shared
// with the fs capability. Glob patterns are allowed.
var homeCredentialPaths = credpaths.Home

// rootOnlyPaths are masked when the sandbox runs as root: caps are dropped
// inside, but owner permissions still let uid 0 read root-owned files.
// They are the machine's root-only credentials (shared with the fs
// capability, which hides them in its mounts) and root's home.
var rootOnlyPaths = append(slices.Clone(credpaths.RootOnly), "/root")

// mask is one path hidden from the command.
type mask struct {
	path string
	dir  bool
}

// expandUserPath expands a leading "~" or "~/" to home.
func expandUserPath(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") && home != "" {
		return filepath.Join(home, p[2:])
	}
	return p
}

// collectMasks resolves patterns (absolute, possibly globs) to the existing
// paths they name, with symlinks resolved, deduplicated and sorted by
// length so that parents come before children. A mask inside a masked
// directory is dropped unless a workspace (bound back over the parent
// mask) lies between them.
func collectMasks(patterns, workspaces []string) []mask {
	seen := map[string]bool{}
	var out []mask
	for _, pat := range patterns {
		if !filepath.IsAbs(pat) {
			continue
		}
		matches := []string{filepath.Clean(pat)}
		if strings.ContainsAny(pat, "*?[") {
			m, err := filepath.Glob(pat)
			if err != nil {
				continue
			}
			matches = m
		}
		for _, m := range matches {
			if _, err := os.Lstat(m); err != nil {
				continue // the common case: cheaper than resolving
			}
			real, err := filepath.EvalSymlinks(m)
			if err != nil {
				continue
			}
			fi, err := os.Stat(real)
			if err != nil || seen[real] {
				continue
			}
			seen[real] = true
			out = append(out, mask{path: real, dir: fi.IsDir()})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].path) < len(out[j].path) })
	// Drop masks already hidden by a masked parent directory.
	kept := out[:0]
	for _, m := range out {
		covered := false
		for _, k := range kept {
			if k.dir && within(m.path, k.path) && !workspaceBetween(workspaces, k.path, m.path) {
				covered = true
				break
			}
		}
		if !covered {
			kept = append(kept, m)
		}
	}
	return kept
}

// within reports whether p is dir or inside it (both clean and absolute).
func within(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// workspaceBetween reports whether some workspace is inside parent and
// contains p.
func workspaceBetween(workspaces []string, parent, p string) bool {
	for _, w := range workspaces {
		if within(w, parent) && within(p, w) {
			return true
		}
	}
	return false
}
