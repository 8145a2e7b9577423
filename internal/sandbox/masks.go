package sandbox

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// homeCredentialPaths are masked in every home directory the sandbox
// covers, relative to that home. Glob patterns are allowed.
var homeCredentialPaths = []string{
	// Keys and tokens.
	".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".gcloud", ".kube",
	".docker", ".config/containers/auth.json", ".netrc", ".git-credentials",
	".config/git/credentials", ".config/gh", ".config/hub", ".config/glab-cli",
	".npmrc", ".yarnrc", ".pypirc", ".cargo/credentials*", ".m2/settings*.xml",
	".gradle/gradle.properties", ".terraform.d", ".terraformrc", ".vault-token",
	".pgpass", ".my.cnf", ".config/op", ".password-store", ".local/share/keyrings",
	".pki", ".s3cfg", ".boto", ".oci", ".config/rclone", ".config/doctl",
	".fly", ".config/age", ".config/sops",
	// Shell and REPL history.
	".bash_history", ".zsh_history", ".zhistory", ".histfile", ".sh_history",
	".local/share/fish/fish_history", ".python_history", ".node_repl_history",
	".psql_history", ".mysql_history", ".sqlite_history", ".irb_history",
	".rediscli_history", ".lesshst", ".viminfo",
	// Browser and mail profiles (cookies, saved passwords, sessions).
	".mozilla", ".thunderbird", ".config/google-chrome", ".config/google-chrome-beta",
	".config/chromium", ".config/BraveSoftware", ".config/microsoft-edge",
	".config/vivaldi", ".config/opera", ".var/app/org.mozilla.firefox",
	".var/app/com.google.Chrome", ".var/app/org.chromium.Chromium",
}

// rootOnlyPaths are masked when the sandbox runs as root: caps are dropped
// inside, but owner permissions still let uid 0 read root-owned files.
var rootOnlyPaths = []string{
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
	"/etc/sudoers", "/etc/sudoers.d", "/etc/ssh/ssh_host_*_key",
	"/etc/ssl/private", "/etc/security/opasswd", "/root",
}

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
