package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/modebox/modebox/internal/codes"
)

// TestErrorCodes checks each kind of configuration error carries its
// stable code, read the way callers read any code (codes.Of).
func TestErrorCodes(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.json")
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"limits": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	wrong := filepath.Join(dir, "wrong.json")
	if err := os.WriteFile(wrong, []byte(`{"limits": {"timeout": "soon"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	unknown := filepath.Join(dir, "unknown.json")
	if err := os.WriteFile(unknown, []byte(`{"limts": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		err  func() error
		want codes.Code
	}{
		{"missing file", func() error { _, err := Load(missing); return err }, codes.ConfigNotFound},
		{"directory", func() error { _, err := Load(dir); return err }, codes.ConfigNotFound},
		{"named by $MODEBOX_CONFIG", func() error {
			t.Setenv(EnvVar, missing)
			_, _, err := Find("")
			return err
		}, codes.ConfigNotFound},
		{"invalid JSON", func() error { _, err := Load(bad); return err }, codes.ConfigSyntax},
		{"bad value", func() error { _, err := Load(wrong); return err }, codes.ConfigInvalid},
		{"unknown key", func() error { _, err := Load(unknown); return err }, codes.ConfigInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			if err == nil {
				t.Fatal("no error")
			}
			if got := codes.Of(err); got != tc.want {
				t.Errorf("code %q, want %q (%v)", got, tc.want, err)
			}
		})
	}
}
