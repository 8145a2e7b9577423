// Package fuzzcorpus keeps a fuzz target's committed seed corpus
// (testdata/fuzz/TARGET/seed-NAME) in step with the seeds its test file
// lists, so that the corpus `go test` replays does not drift from the code.
package fuzzcorpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// EnvWrite names the environment variable that makes [Check] rewrite the
// corpus instead of checking it.
const EnvWrite = "MODEBOX_WRITE_CORPUS"

// Entry is the corpus file holding one seed, in the "go test fuzz v1"
// format: one line per value, each a []byte or a string.
func Entry(values ...any) string {
	var b strings.Builder
	b.WriteString("go test fuzz v1\n")
	for _, v := range values {
		switch v := v.(type) {
		case []byte:
			b.WriteString("[]byte(" + strconv.Quote(string(v)) + ")\n")
		case string:
			b.WriteString("string(" + strconv.Quote(v) + ")\n")
		default:
			panic(fmt.Sprintf("fuzzcorpus: unsupported seed value %T", v))
		}
	}
	return b.String()
}

// Check fails t for each seed (name to [Entry]) whose file
// testdata/fuzz/TARGET/seed-NAME is missing or differs; with $EnvWrite
// set it writes the files instead.
func Check(t testing.TB, target string, seeds map[string]string) {
	t.Helper()
	dir := filepath.Join("testdata", "fuzz", target)
	write := os.Getenv(EnvWrite) != ""
	if write {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range seeds {
		path := filepath.Join(dir, "seed-"+name)
		if write {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != want {
			t.Errorf("%s is missing or stale (%v); regenerate with %s=1", path, err, EnvWrite)
		}
	}
}
