package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "modebox.json")
	writeFile(t, path, `{"limits": {"timeout": "5s"}}`)
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.File != path || cfg.Limits.Timeout.String() != "5s" {
		t.Errorf("got %+v", cfg)
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.json")
	_, err := Load(path)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %T %v", err, err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("does not wrap fs.ErrNotExist: %v", err)
	}
	if want := path + ": config file not found"; err.Error() != want {
		t.Errorf("got %q, want %q", err.Error(), want)
	}
}

func TestLoadErrorNamesFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.json")
	writeFile(t, path, "{\n  \"tools\": {\"sh\": {\"policy\": \"maybe\"}}\n}")
	_, err := Load(path)
	want := path + `: /tools/sh/policy: expected "allow", "ask" or "deny", got "maybe"`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv(EnvVar, "")

	// Nothing anywhere: no config, no error.
	path, explicit, err := Find("")
	if path != "" || explicit || err != nil {
		t.Fatalf("empty dir: %q %v %v", path, explicit, err)
	}

	// ./modebox.json is found implicitly.
	writeFile(t, "modebox.json", `{}`)
	path, explicit, err = Find("")
	if path != "modebox.json" || explicit || err != nil {
		t.Fatalf("default file: %q %v %v", path, explicit, err)
	}

	// $MODEBOX_CONFIG beats ./modebox.json.
	envFile := filepath.Join(dir, "env.json")
	writeFile(t, envFile, `{}`)
	t.Setenv(EnvVar, envFile)
	path, explicit, err = Find("")
	if path != envFile || !explicit || err != nil {
		t.Fatalf("env: %q %v %v", path, explicit, err)
	}

	// --config beats both.
	flagFile := filepath.Join(dir, "flag.json")
	writeFile(t, flagFile, `{}`)
	path, explicit, err = Find(flagFile)
	if path != flagFile || !explicit || err != nil {
		t.Fatalf("flag: %q %v %v", path, explicit, err)
	}
}

func TestFindExplicitMissing(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, "modebox.json", `{}`) // must not be used as a fallback
	missing := filepath.Join(dir, "missing.json")

	t.Setenv(EnvVar, "")
	_, explicit, err := Find(missing)
	if !explicit || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("flag: %v %v", explicit, err)
	}
	if want := missing + ": config file not found (given by --config)"; err.Error() != want {
		t.Errorf("got %q, want %q", err.Error(), want)
	}

	t.Setenv(EnvVar, missing)
	_, explicit, err = Find("")
	if !explicit || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("env: %v %v", explicit, err)
	}
	if want := missing + ": config file not found (given by $MODEBOX_CONFIG)"; err.Error() != want {
		t.Errorf("got %q, want %q", err.Error(), want)
	}
	var e *Error
	if !errors.As(err, &e) || e.File != missing {
		t.Errorf("not an *Error naming the file: %#v", err)
	}
}

func TestFindDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv(EnvVar, "")
	if _, _, err := Find(dir); err == nil {
		t.Error("a directory given by --config was accepted")
	}
	if err := os.Mkdir("modebox.json", 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Find(""); err == nil {
		t.Error("a directory named modebox.json was accepted")
	}
}
