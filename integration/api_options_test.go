package integration

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modebox/modebox"
)

// An engine on its own image (LoadImage with an explicit cache directory)
// runs programs, and the cache is written where it was asked to be, not
// under $MODEBOX_CACHE_DIR or the user's cache directory.
func TestLoadImageWithExplicitCache(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	im, err := modebox.LoadImage(cache)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := modebox.New(modebox.EngineConfig{Image: im})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Run(context.Background(), `return 6 * 7`, modebox.RunOptions{Lang: modebox.LangJS})
	if err != nil || res.Status != modebox.StatusOK || string(res.Value) != "42" {
		t.Fatalf("run on the loaded image: %v %+v", err, res)
	}
	entries, err := os.ReadDir(cache)
	if err != nil || len(entries) == 0 {
		t.Fatalf("the compilation cache %s is empty (%v)", cache, err)
	}
	def, err := modebox.DefaultImage()
	if err != nil {
		t.Fatal(err)
	}
	if def == im {
		t.Fatal("LoadImage returned the process-wide image")
	}
}

// LoadKeys reads only what it is given: a secret, or a key file (created
// on request), and refuses to guess when given neither.
func TestLoadKeysTakesExplicitInputs(t *testing.T) {
	t.Setenv("MODEBOX_SECRET", base64.StdEncoding.EncodeToString(make([]byte, 32))) // must be ignored
	k1 := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("a", 32)))
	k2 := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("b", 32)))
	keys, err := modebox.LoadKeys(modebox.KeySource{Secret: k1 + ", " + k2})
	if err != nil || len(keys) != 2 || string(keys[0]) != strings.Repeat("a", 32) || string(keys[1]) != strings.Repeat("b", 32) {
		t.Fatalf("secret: %v %q", err, keys)
	}
	if _, err := modebox.LoadKeys(modebox.KeySource{}); err == nil {
		t.Fatal("LoadKeys with no source read something")
	}
	var ce *modebox.ConfigError
	if _, err := modebox.LoadKeys(modebox.KeySource{}); !errors.As(err, &ce) {
		t.Fatalf("no source: %T %v, want a *ConfigError", err, err)
	}
	file := filepath.Join(t.TempDir(), "keys", "secret")
	if _, err := modebox.LoadKeys(modebox.KeySource{File: file}); err == nil {
		t.Fatal("a missing key file was created without Create")
	}
	first, err := modebox.LoadKeys(modebox.KeySource{File: file, Create: true})
	if err != nil || len(first) != 1 {
		t.Fatalf("create: %v %d", err, len(first))
	}
	again, err := modebox.LoadKeys(modebox.KeySource{File: file})
	if err != nil || string(again[0]) != string(first[0]) {
		t.Fatalf("reading the created file again: %v", err)
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode: %v %v", st.Mode(), err)
	}
	if _, err := modebox.LoadKeys(modebox.KeySource{Secret: "not base64!"}); err == nil {
		t.Fatal("a malformed secret was accepted")
	}
}

// Search takes its options as a struct: Limit caps the hits and Full adds
// the declaration.
func TestSearchOptions(t *testing.T) {
	var tools []modebox.Tool
	for _, n := range []string{"read_file", "write_file", "list_files"} {
		tools = append(tools, modebox.Tool{Namespace: "fs2", Name: n, Description: "Does " + n + " on a file.",
			Handler: func(context.Context, json.RawMessage) (any, error) { return nil, nil }})
	}
	eng, err := modebox.New(modebox.EngineConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	hits := eng.Search("file", modebox.SearchOptions{Limit: 2})
	if len(hits) != 2 || hits[0].Declaration != "" {
		t.Fatalf("Limit 2: %+v", hits)
	}
	full := eng.Search("read file", modebox.SearchOptions{Full: true})
	if len(full) == 0 || full[0].Key != "fs2.read_file" || !strings.Contains(full[0].Declaration, "read_file") {
		t.Fatalf("Full: %+v", full)
	}
}
