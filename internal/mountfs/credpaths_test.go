package mountfs

import (
	"path/filepath"
	"testing"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/credpaths"
)

// TestDefaultDenyIsCredentialList reads, through a real mount, a file of
// each kind on the shared credential list (issue 14's additions among
// them) and requires each to be hidden, with an ordinary file next to
// them readable.
func TestDefaultDenyIsCredentialList(t *testing.T) {
	if len(DefaultDeny) != len(credpaths.Names) {
		t.Fatalf("DefaultDeny is not the shared credential list")
	}
	dir := t.TempDir()
	hidden := []string{"id_ecdsa", "id_dsa.pub", ".ssh/config", ".aws/credentials", ".netrc", ".npmrc", ".pgpass",
		".git-credentials", "cert.p12", "cert.PFX", "key.ppk", "store.jks", ".kube/config", ".docker/config.json",
		".kaggle/kaggle.json", ".claude/settings.json", ".gnupg/pubring.kbx", ".env", "sub/.env.local", ".git/config"}
	for _, p := range hidden {
		writeFile(t, filepath.Join(dir, p), "secret")
	}
	writeFile(t, filepath.Join(dir, "README.md"), "hello")
	f := mustFS(t, Config{Mounts: []Mount{{Host: dir, Guest: "/home", Mode: ReadOnly}}})
	s := f.NewSession()
	for _, p := range hidden {
		_, _, _, err := s.Read("/home/" + p)
		wantCode(t, err, codes.FSNotFound)
	}
	if b, _, _, err := s.Read("/home/README.md"); err != nil || string(b) != "hello" {
		t.Fatalf("ordinary file: %q %v", b, err)
	}
}
