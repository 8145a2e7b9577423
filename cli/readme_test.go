package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// placeholder marks a synopsis line (FILE, TOKEN, [flags], a|b), not a
// command to run as it is.
var placeholder = regexp.MustCompile(`[A-Z]{3,}|\[|\|`)

// docCommands returns the commands in a Markdown file's indented code
// blocks: lines that start with "modebox ", "go run ./cmd/modebox",
// "go install" or "source <(modebox", with "# comments" cut, and the
// synopsis lines with placeholders apart.
func docCommands(t *testing.T, path string) (run, synopsis []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		cmd, ok := strings.CutPrefix(l, "    ")
		if !ok || strings.HasPrefix(cmd, " ") {
			continue
		}
		if !strings.HasPrefix(cmd, "modebox ") && !strings.HasPrefix(cmd, "go run ./cmd/modebox") &&
			!strings.HasPrefix(cmd, "go install") && !strings.HasPrefix(cmd, "source <(modebox") && !strings.HasPrefix(cmd, "scripts/") {
			continue
		}
		if i := strings.Index(cmd, "  #"); i >= 0 {
			cmd = strings.TrimSpace(cmd[:i])
		}
		if placeholder.MatchString(cmd) && !strings.HasPrefix(cmd, "source") {
			synopsis = append(synopsis, cmd)
			continue
		}
		run = append(run, cmd)
	}
	return run, synopsis
}

// copyRepo copies the repository (without .git and .cache) to a scratch
// directory, so that commands that write files write there.
func copyRepo(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src, _ := filepath.Abs("..")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() && (rel == ".git" || rel == ".cache") {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, _ := d.Info()
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// rootFirst is the command README.md says to run first as root before
// the capabilities example.
const rootFirst = "chown nobody: examples/capabilities/out"

// TestDocumentedCommands runs every command the README (and the
// configuration docs) show, and every example in the CLI's help, exactly
// as printed, with a built modebox on PATH, from a copy of the
// repository. Synopsis lines with placeholders are checked against the
// list below, so that a new command cannot slip past untested.
func TestDocumentedCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the documented commands")
	}
	repo := copyRepo(t)
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "modebox"), "../cmd/modebox").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	readme, readmeSynopsis := docCommands(t, "../README.md")
	if b, _ := os.ReadFile("../README.md"); !bytes.Contains(b, []byte("`"+rootFirst+"`")) {
		t.Errorf("README no longer says to run %q as root", rootFirst)
	}
	config, _ := docCommands(t, "../docs/configuration.md")
	wantSynopsis := []string{
		"modebox run [flags] FILE|-", "modebox resume TOKEN --approve", "modebox revoke TOKEN", "modebox mcp [--http ADDR]",
		"modebox search QUERY", "modebox init [PATH]", "modebox config check [PATH]",
		"modebox completion bash|zsh|fish|powershell",
	}
	if strings.Join(readmeSynopsis, "\n") != strings.Join(wantSynopsis, "\n") {
		t.Errorf("README synopsis lines changed; run the new ones in this test:\n%s", strings.Join(readmeSynopsis, "\n"))
	}
	// scripts/test.sh is the command that runs this test; .ci/run runs it
	var cmds []string
	for _, c := range append(readme, config...) {
		if c != "scripts/test.sh" {
			cmds = append(cmds, c)
		}
	}
	if len(cmds) < 10 {
		t.Fatalf("only %d commands found: %q", len(cmds), cmds)
	}
	// the synopsis commands without placeholders, as a user fills them in
	cmds = append(cmds, "modebox search add", "modebox init new.json", "modebox config check new.json",
		"modebox completion zsh", "modebox completion fish", "modebox completion powershell",
		"echo 'return 1' | modebox run -")
	servers := os.Getenv("MODEBOX_MCP_SERVERS_DIR") != ""
	gobin := t.TempDir()
	env := append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"MODEBOX_SECRET=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
		"XDG_STATE_HOME="+t.TempDir(), "MODEBOX_CONFIG=", "GOBIN="+gobin)
	sh := func(t *testing.T, dir, shell, script string) (int, string, string) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, shell, "-c", script)
		cmd.Dir, cmd.Env = dir, env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", script, err)
		}
		return code, out.String(), errb.String()
	}
	for _, c := range cmds {
		t.Run(c, func(t *testing.T) {
			if strings.Contains(c, "examples/modebox.json") && !servers {
				skipOrFail(t, "the npm reference servers (set MODEBOX_MCP_SERVERS_DIR; scripts/test.sh installs them)")
			}
			if strings.Contains(c, "capabilities") {
				if _, err := exec.LookPath("bwrap"); err != nil {
					skipOrFail(t, "bubblewrap")
				}
				if os.Geteuid() == 0 {
					for _, d := range []string{filepath.Dir(repo), repo} {
						if err := os.Chmod(d, 0o755); err != nil { // t.TempDir is 0700: let nobody in
							t.Fatal(err)
						}
					}
					// as README says to do first as root (sh() never
					// runs commands as host uid 0 by default)
					if code, out, errs := sh(t, repo, "sh", rootFirst); code != 0 {
						t.Fatalf("%s: exit %d %s %s", rootFirst, code, out, errs)
					}
				}
			}
			shell := "sh"
			if strings.HasPrefix(c, "source") {
				shell = "bash"
			}
			code, out, errs := sh(t, repo, shell, c)
			quiet := strings.HasPrefix(c, "source") || strings.Contains(c, ">") || strings.HasPrefix(c, "go install") || c == "modebox search add"
			if code != 0 || strings.TrimSpace(out) == "" && !quiet {
				t.Fatalf("exit %d\nstdout %q\nstderr %q", code, out, errs)
			}
			if strings.HasPrefix(c, "go install") {
				if _, err := os.Stat(filepath.Join(gobin, "modebox")); err != nil {
					t.Fatalf("go install put no modebox in GOBIN: %v", err)
				}
			}
			if strings.Contains(c, "config schema >") {
				b, err := os.ReadFile(filepath.Join(repo, "modebox.schema.json"))
				if err != nil || !json.Valid(b) {
					t.Fatalf("the schema file: %v", err)
				}
			}
		})
	}
	// the help examples, each block as one script, in a directory where
	// the files they name exist
	work := t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(work, "examples"), 0o755))
	hello, err := os.ReadFile("../examples/hello.ts")
	must(err)
	must(os.WriteFile(filepath.Join(work, "examples", "hello.ts"), hello, 0o644))
	must(os.Mkdir(filepath.Join(work, "out"), 0o755))
	must(os.WriteFile(filepath.Join(work, "modebox.json"), []byte(`{"tools": {"fs.write": {"policy": "ask"}}, "fs": {"mounts": [{"host": "out", "guest": "/out", "mode": "rw"}]}}`), 0o644))
	must(os.WriteFile(filepath.Join(work, "prog.ts"), []byte(`const r = await Promise.allSettled([fs.write("/out/1.txt", "one"), fs.write("/out/2.txt", "two")]); return r.map(x => x.status)`), 0o644))
	root := newRoot(Streams{})
	examples := 0
	for _, c := range root.Commands() {
		if c.Example == "" {
			continue
		}
		examples++
		t.Run("help "+c.Name(), func(t *testing.T) {
			code, out, errs := sh(t, work, "sh", c.Example)
			if code != 0 || strings.TrimSpace(out) == "" {
				t.Fatalf("%s\nexit %d\nstdout %q\nstderr %q", c.Example, code, out, errs)
			}
			if c.Name() == "revoke" {
				// the revoked token does not resume: nothing is written
				if err := os.Remove(filepath.Join(work, "out", "1.txt")); err != nil {
					t.Fatal(err) // the resume example wrote it
				}
				code, out, errs := sh(t, work, "sh", "modebox resume - --approve < token")
				if code != ExitToken || !strings.Contains(errs, "TOKEN_USED") {
					t.Errorf("resume of the revoked token: exit %d %q %q", code, out, errs)
				}
				if _, err := os.Stat(filepath.Join(work, "out", "1.txt")); err == nil {
					t.Errorf("the revoked token's write happened")
				}
				return
			}
			if c.Name() != "resume" {
				return
			}
			// the resume example approved call 1 and denied call 2
			if b, err := os.ReadFile(filepath.Join(work, "out", "1.txt")); err != nil || string(b) != "one" || strings.Join(strings.Fields(out), "") != `["fulfilled","rejected"]` {
				t.Errorf("approved write: %q %v; result %q", b, err, out)
			}
			if _, err := os.Stat(filepath.Join(work, "out", "2.txt")); err == nil {
				t.Errorf("the denied write happened")
			}
		})
	}
	if examples < 2 {
		t.Fatalf("%d commands have examples", examples)
	}
}

// skipOrFail skips a test whose dependency is missing, or fails it in CI.
func skipOrFail(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is required in CI", what)
	}
	t.Skipf("needs %s", what)
}
