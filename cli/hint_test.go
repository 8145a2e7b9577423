package cli

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shellWords splits a command line the way a POSIX shell does for the
// quoting the CLI prints: spaces separate words, single quotes quote.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			cur.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.ContainsRune("\"\\$`<>|;&()*?[]{}~", r):
			t.Fatalf("the printed command needs more of a shell than quoting: %q", line)
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// printedCommand returns the command after prefix on a line of stderr.
func printedCommand(t *testing.T, stderr, prefix string) []string {
	t.Helper()
	for _, l := range strings.Split(stderr, "\n") {
		if cmd, ok := strings.CutPrefix(l, prefix); ok {
			w := shellWords(t, strings.TrimSpace(cmd))
			if len(w) < 2 || w[0] != "modebox" {
				t.Fatalf("not a modebox command: %q", l)
			}
			return w[1:]
		}
	}
	t.Fatalf("no %q line in %q", prefix, stderr)
	return nil
}

// TestPauseHintRunsAsPrinted pauses a run (a write that needs approval),
// then runs the resume commands exactly as the pause printed them, from
// another directory: the approve command finishes the run and writes the
// file; run again, the same command is refused with TOKEN_USED (exit 5).
func TestPauseHintRunsAsPrinted(t *testing.T) {
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_CONFIG", "")
	dir := t.TempDir()
	out := filepath.Join(dir, "out dir") // a space: the hint must quote it
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "my config.json")
	if err := os.WriteFile(cfg, []byte(`{"tools": {"fs.write": {"policy": "ask"}}, "fs": {"mounts": [{"host": "out dir", "guest": "/out", "mode": "rw"}]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "w.ts")
	if err := os.WriteFile(prog, []byte(`console.log("writing"); await fs.write("/out/a.txt", "hello"); return "done"`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, stdout, errs := runCLI(t, "", "run", "w.ts", "--config", "my config.json", "--no-prompt")
	if code != ExitPaused || !strings.HasPrefix(stdout, "mbx1.") {
		t.Fatalf("exit %d %q %q", code, stdout, errs)
	}
	approve := printedCommand(t, errs, "approve with: ")
	deny := printedCommand(t, errs, "deny with:    ")
	if !strings.Contains(strings.Join(approve, " "), strings.TrimSpace(stdout)) || len(deny) != len(approve) {
		t.Fatalf("the hint does not carry the token: %q", errs)
	}
	t.Chdir(t.TempDir()) // the printed command works from anywhere
	code, res, errs := runCLI(t, "", approve...)
	if code != ExitOK || strings.TrimSpace(res) != `"done"` {
		t.Fatalf("%v: exit %d %q %q", approve, code, res, errs)
	}
	if b, err := os.ReadFile(filepath.Join(out, "a.txt")); err != nil || string(b) != "hello" {
		t.Fatalf("the approved write: %q %v", b, err)
	}
	code, _, errs = runCLI(t, "", approve...)
	if code != ExitToken || !strings.HasPrefix(errs, "modebox resume: TOKEN_USED: ") {
		t.Fatalf("a used token: exit %d %q (want %d, TOKEN_USED)", code, errs, ExitToken)
	}
	if code, _, errs = runCLI(t, "", deny...); code != ExitToken || !strings.Contains(errs, "TOKEN_USED") {
		t.Fatalf("deny after approve: exit %d %q", code, errs)
	}
}

// TestShellQuoteRoundTrip quotes generated strings (quotes, spaces, shell
// metacharacters, every Unicode plane; no NUL, which no path holds) and
// has a real shell read each back.
func TestShellQuoteRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pool := []rune("ab/._-~ '\"\\$`!*?[]{}()<>|;&#\n\té€\U0001F600\U0010FFFD")
	var inputs []string
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for n := rng.IntN(12); n >= 0; n-- {
			if rng.IntN(4) == 0 {
				b.WriteRune(rune(1 + rng.IntN(0x10FFFF-1)))
			} else {
				b.WriteRune(pool[rng.IntN(len(pool))])
			}
		}
		s := strings.ToValidUTF8(strings.ReplaceAll(b.String(), "\x00", ""), "")
		inputs = append(inputs, s)
	}
	inputs = append(inputs, "", "'", "''", "/tmp/my config.json", "a'b'c")
	var script strings.Builder
	for _, s := range inputs {
		script.WriteString("printf '%s\\000' " + shellQuote(s) + "\n")
	}
	out, err := exec.Command("/bin/sh", "-c", script.String()).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(string(out), "\x00")
	if len(got) != len(inputs)+1 {
		t.Fatalf("%d values back for %d", len(got)-1, len(inputs))
	}
	for i, s := range inputs {
		if got[i] != s {
			t.Errorf("%q quoted as %s reads back as %q", s, shellQuote(s), got[i])
		}
	}
}
