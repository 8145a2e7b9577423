package credpaths

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
)

// HomeWithin returns a home directory that dir (absolute, symlinks
// resolved) is or holds, or "": the invoking user's ($HOME and the
// passwd entry's) and, where the platform tells, that of dir's owner. A
// home of "/" (no home) is ignored. A writable directory that holds a
// home lets what writes there create the files the user's tools run
// later (.bash_profile, .config/git, .ssh/authorized_keys, autostart
// entries), which no list of names can cover while they do not exist.
func HomeWithin(dir string) string {
	var homes []string
	if h, err := os.UserHomeDir(); err == nil {
		homes = append(homes, h)
	}
	if u, err := user.Current(); err == nil {
		homes = append(homes, u.HomeDir)
	}
	if h := ownerHome(dir); h != "" {
		homes = append(homes, h)
	}
	dir = filepath.Clean(dir)
	for _, h := range homes {
		if h == "" || !filepath.IsAbs(h) {
			continue
		}
		if r, err := filepath.EvalSymlinks(h); err == nil {
			h = r
		}
		h = filepath.Clean(h)
		if h != "/" && (dir == "/" || h == dir || strings.HasPrefix(h, dir+string(filepath.Separator))) {
			return h
		}
	}
	return ""
}
