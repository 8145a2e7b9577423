package credpaths

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// TestLists checks that the lists hold what issues 13 and 14 named, that
// every home entry (and modebox's own state) is also a name (one list),
// that every pattern is well formed, and that the protected names are
// single literal components.
func TestLists(t *testing.T) {
	for _, h := range []string{".claude", ".config/github-copilot", ".config/gh", ".cache/huggingface/token", ".kaggle",
		".config/pip", ".gem/credentials", ".cargo/credentials*", ".composer/auth.json", ".npmrc", ".pypirc",
		".m2/settings*.xml", ".gradle/gradle.properties", ".gitconfig", ".docker", ".kube", ".aws", ".azure",
		".config/gcloud", ".password-store", ".gnupg", ".ssh", ".netrc", ".pgpass", ".git-credentials"} {
		if !slices.Contains(Home, h) {
			t.Errorf("Home lacks %s", h)
		}
	}
	for _, n := range []string{"id_ecdsa*", "id_dsa*", "id_rsa*", "id_ed25519*", ".ssh", ".aws", ".netrc", ".npmrc", ".pgpass",
		".git-credentials", "*.p12", "*.pfx", "*.ppk", "*.jks", "*.pem", "*.key", ".env", ".env.*", ".git"} {
		if !slices.Contains(Names, n) {
			t.Errorf("Names lacks %s", n)
		}
	}
	for _, h := range slices.Concat(Home, ModeboxState) {
		if !slices.Contains(Names, h) {
			t.Errorf("Home entry %s is not in Names", h)
		}
		if strings.HasPrefix(h, "/") || strings.Contains(h, "..") {
			t.Errorf("Home entry %s is not relative to the home", h)
		}
		if _, err := path.Match(h, ""); err != nil {
			t.Errorf("Home entry %s: %v", h, err)
		}
	}
	for _, n := range Names {
		for c := range strings.SplitSeq(n, "/") {
			if c == "" || c == "." || c == ".." || c == "**" {
				t.Errorf("name %s has an empty, \".\", \"..\" or \"**\" component", n)
			}
			if _, err := path.Match(c, ""); err != nil {
				t.Errorf("name %s: %v", n, err)
			}
		}
	}
	for _, n := range []string{".config/modebox", ".local/state/modebox", ".cache/modebox"} {
		if !slices.Contains(Names, n) {
			t.Errorf("Names lacks modebox's own %s", n)
		}
	}
	for _, n := range Protected {
		if n == "" || strings.ContainsAny(n, "/*?[\\") {
			t.Errorf("protected name %q is not one literal component", n)
		}
	}
	for _, n := range []string{".git", ".envrc", ".bashrc", ".vscode", ".mcp.json", ".husky", ".pre-commit-config.yaml",
		".devcontainer", ".cursor", ".modebox", "modebox.json"} {
		if !slices.Contains(Protected, n) {
			t.Errorf("Protected lacks %s", n)
		}
	}
}
