//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The environment script, sourced as the limit prelude sources it (set -a,
// then ". file"), gives every variable its exact value in dash and in bash
// (where /bin/sh is bash), and a variable bash keeps read-only (UID) does
// not end the shell or lose the others.
func TestEnvScriptSourcedByEveryShell(t *testing.T) {
	env := map[string]string{
		"A":        "plain",
		"QUOTES":   `it's "quoted" \ $HOME $(id) ` + "`id`",
		"NEWLINES": "line one\nline two\n",
		"UNICODE":  "żółw 🐢 \u202e",
		"EMPTY":    "",
		"UID":      "4242",
		"Z":        "last",
	}
	// and with the read-only variable last, as sorting puts UID when no
	// name sorts after it
	uidLast := map[string]string{"A": "first", "UID": "4242"}
	shells := map[string][]string{"dash": {"dash"}, "bash --posix": {"bash", "--posix"}, "bash": {"bash"}}
	for _, env := range []map[string]string{env, uidLast} {
		checkEnvScript(t, env, shells)
	}
}

// checkEnvScript sources envScript(env) in each shell as the prelude does
// and checks the environment the shell then passes on.
func checkEnvScript(t *testing.T, env map[string]string, shells map[string][]string) {
	t.Helper()
	file := t.TempDir() + "/env"
	if err := os.WriteFile(file, envScript(env), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, argv := range shells {
		path, err := exec.LookPath(argv[0])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		script := `set -a; . "$1" || { echo "the prelude would stop" >&2; exit 126; }; set +a; exec /usr/bin/env -0`
		cmd := exec.Command(path, append(argv[1:], "-c", script, "sh", file)...)
		cmd.Env = []string{"PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%s, %d variables: %v", name, len(env), err)
			continue
		}
		got := map[string]string{}
		for _, kv := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			k, v, _ := strings.Cut(kv, "=")
			got[k] = v
		}
		for k, v := range env {
			if k == "UID" && strings.HasPrefix(name, "bash") {
				continue // read-only there: bash's own value stays
			}
			if got[k] != v {
				t.Errorf("%s: %s = %q, want %q", name, k, got[k], v)
			}
		}
	}
}
