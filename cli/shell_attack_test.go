package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestShellCannotReachModeboxState does what an attacker did through the
// CLI: with "workspace": ["."] in a project that is also $HOME, a program
// reads the continuation key, rewrites modebox.json, sets core.fsmonitor,
// adds a git hook and deletes the used-token store. Every attempt fails
// and the host files are unchanged. As root the configuration says
// "user": "root", the worst case: the masks must hold for host uid 0 too.
func TestShellCannotReachModeboxState(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bubblewrap is required in CI")
		}
		t.Skip("bubblewrap not installed")
	}
	// the worst case: modebox's key, state and cache inside the workspace
	// (a home directory as the workspace is refused: TestShellWorkspaceNotHome)
	proj := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(proj, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(proj, ".local", "state"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(proj, ".cache"))
	t.Setenv("MODEBOX_SECRET", "")
	os.Unsetenv("MODEBOX_SECRET")
	user := ""
	if os.Geteuid() == 0 {
		user = `, "user": "root"`
	}
	conf := `{"shell": {"enabled": true, "workspace": ["."]` + user + `}, "tools": {"sh": {"policy": "allow"}}}`
	cfgPath := filepath.Join(proj, "modebox.json")
	if err := os.WriteFile(cfgPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	gitConfig, _ := os.ReadFile(filepath.Join(proj, ".git", "config"))
	prog := `
const out = [];
for (const c of [
  "cat .config/modebox/secret && echo READ-KEY",
  "echo '{\"mcpServers\": {\"x\": {\"command\": \"/tmp/payload\"}}}' > modebox.json && echo WROTE-CONFIG",
  "git config core.fsmonitor /tmp/payload && echo SET-FSMONITOR",
  "printf '#!/bin/sh\\nid\\n' > .git/hooks/post-checkout && echo ADDED-HOOK",
  "rm -rf .local/state/modebox && [ ! -e .local/state/modebox ] && echo REMOVED-STORE",
  "echo fine > notes.txt && echo WROTE-NOTES",
]) {
  const r = await sh(c);
  out.push(r.stdout + r.stderr);
}
return out.join("\n");
`
	code, stdout, stderr := runCLI(t, prog, "run", "--config", cfgPath, "-")
	if code != ExitOK {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	key, err := os.ReadFile(filepath.Join(proj, ".config", "modebox", "secret"))
	if err != nil {
		t.Fatalf("the run created no key file: %v", err)
	}
	for _, bad := range []string{"READ-KEY", "WROTE-CONFIG", "SET-FSMONITOR", "ADDED-HOOK", "REMOVED-STORE"} {
		if strings.Contains(stdout, bad) {
			t.Errorf("%s: %s", bad, stdout)
		}
	}
	if !strings.Contains(stdout, "WROTE-NOTES") {
		t.Errorf("the workspace is not writable at all (the test could not fail): %s", stdout)
	}
	for _, line := range strings.Split(string(key), "\n") {
		if len(line) > 16 && !strings.HasPrefix(line, "#") && strings.Contains(stdout, line) {
			t.Errorf("key material in the output")
		}
	}
	if b, _ := os.ReadFile(cfgPath); string(b) != conf {
		t.Errorf("modebox.json rewritten: %s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, ".git", "config")); string(b) != string(gitConfig) {
		t.Errorf(".git/config changed: %s", b)
	}
	if _, err := os.Stat(filepath.Join(proj, ".git", "hooks", "post-checkout")); err == nil {
		t.Errorf("hook added")
	}
	if _, err := os.Stat(filepath.Join(proj, ".local", "state", "modebox")); err != nil {
		t.Errorf("state directory gone: %v", err)
	}
}

// TestDoctorChangesNothing runs the doctor with a fresh, empty home and
// requires the home to stay empty: no key file, no used-token store, no
// engine cache.
func TestDoctorChangesNothing(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "MODEBOX_CACHE_DIR", "MODEBOX_SECRET", "MODEBOX_CONFIG"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(home); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	code, out, errs := runCLI(t, "", "doctor")
	if !strings.Contains(out, "created 0600 on first use") || !strings.Contains(out, "created 0700 on first use") {
		t.Errorf("doctor output (exit %d): %s %s", code, out, errs)
	}
	entries, _ := os.ReadDir(home)
	if len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("doctor created %v in the home", names)
	}
}

// TestShellWorkspaceNotHome is the red team's attack: with the home
// directory as the workspace, a command created .bash_profile,
// .config/git/config (core.fsmonitor) and .ssh/authorized_keys, which
// the host then ran or honoured. A workspace that is or holds the home
// directory is refused before any command runs, and nothing is created.
func TestShellWorkspaceNotHome(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		skipOrFail(t, "bubblewrap")
	}
	parent := t.TempDir()
	home := filepath.Join(parent, "me")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	user := ""
	if os.Geteuid() == 0 {
		user = `, "user": "root"` // commands as root: able to write the home
	}
	for _, ws := range []string{home, parent} {
		cfgPath := filepath.Join(t.TempDir(), "modebox.json")
		conf := `{"shell": {"enabled": true, "workspace": [` + jsonQ(ws) + `]` + user + `}, "tools": {"sh": {"policy": "allow"}}}`
		if err := os.WriteFile(cfgPath, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		prog := `return await sh("echo 'touch /tmp/pwned' > .bash_profile; mkdir -p .ssh && echo key >> .ssh/authorized_keys; echo RAN")`
		code, stdout, stderr := runCLI(t, prog, "run", "--config", cfgPath, "-")
		if code == ExitOK || strings.Contains(stdout, "RAN") || !strings.Contains(stderr, "SANDBOX_CONFIG") || !strings.Contains(stderr, "home directory") {
			t.Errorf("workspace %s: exit %d, stdout %q, stderr %q", ws, code, stdout, stderr)
		}
		for _, p := range []string{".bash_profile", ".ssh"} {
			if _, err := os.Stat(filepath.Join(home, p)); err == nil {
				t.Errorf("workspace %s: %s created in the home", ws, p)
			}
		}
	}
}

// A relative "denyRead" entry is relative to the configuration file's
// directory, as docs/configuration.md says of every path in the shell
// section: the engine starts, and a command cannot read what it names
// (a directory in the workspace, beside one that stays readable). It was
// refused as "neither absolute nor under ~". (The test's directory is
// under /tmp, which commands see as their own private /tmp: the files are
// in the workspace so that the command sees them at all.)
func TestShellDenyReadRelativeToConfig(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bubblewrap is required in CI")
		}
		t.Skip("bubblewrap not installed")
	}
	proj := t.TempDir()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	for _, d := range []string{"ws", "ws/private", "ws/public"} {
		if err := os.Mkdir(filepath.Join(proj, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"ws/private/key", "ws/public/readme"} {
		if err := os.WriteFile(filepath.Join(proj, f), []byte("CONTENT-OF-"+f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	user := ""
	if os.Geteuid() == 0 {
		user = `, "user": "root"`
	}
	conf := `{"shell": {"enabled": true, "workspace": ["ws"], "denyRead": ["ws/private"]` + user + `}, "tools": {"sh": {"policy": "allow"}}}`
	cfgPath := filepath.Join(proj, "modebox.json")
	if err := os.WriteFile(cfgPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := `const a = await sh("cat private/key"); const b = await sh("cat public/readme");
return a.stdout + "|" + b.stdout;`
	code, stdout, stderr := runCLI(t, prog, "run", "--config", cfgPath, "-")
	if code != ExitOK {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "CONTENT-OF-ws/private/key") {
		t.Errorf("the denied file was read: %s", stdout)
	}
	if !strings.Contains(stdout, "CONTENT-OF-ws/public/readme") {
		t.Errorf("the file beside it was not read (the test could not fail): %s", stdout)
	}
}

// Mercurial's .hg/hgrc hooks run on the user's next hg command, and the
// hook and package managers' files name programs to run: a command could
// write them at the top of its workspace (.git was protected, .hg was
// not). Both the shell and fs keep them read-only.
func TestShellCannotPlantOtherToolsHooks(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("bubblewrap is required in CI")
		}
		t.Skip("bubblewrap not installed")
	}
	proj := t.TempDir()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
	ws := filepath.Join(proj, "ws")
	if err := os.MkdirAll(filepath.Join(ws, ".hg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".hg", "hgrc"), []byte("[ui]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// the shell protects the names that exist when a command starts
	for _, f := range []string{"lefthook.yml", ".yarnrc.yml", ".npmrc", ".pnpmfile.cjs"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("orig\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(ws, ".jj"), 0o755); err != nil {
		t.Fatal(err)
	}
	user := ""
	if os.Geteuid() == 0 {
		user = `, "user": "root"`
	}
	conf := `{"shell": {"enabled": true, "workspace": ["ws"]` + user + `}, "tools": {"sh": {"policy": "allow"}}}`
	cfgPath := filepath.Join(proj, "modebox.json")
	if err := os.WriteFile(cfgPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := `const r = await sh("printf '[hooks]\\npre-status = touch /tmp/pwned\\n' >> .hg/hgrc && echo WROTE-HGRC; ` +
		`for f in lefthook.yml .yarnrc.yml .npmrc .pnpmfile.cjs; do echo x >> $f && echo WROTE-$f; done; touch .jj/config.toml && echo WROTE-JJ; echo fine > src.txt && echo WROTE-SRC; true");
return r.stdout;`
	code, stdout, stderr := runCLI(t, prog, "run", "--config", cfgPath, "-")
	if code != ExitOK {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "WROTE-HGRC") || strings.Contains(stdout, "WROTE-.") || strings.Contains(stdout, "WROTE-lefthook") || strings.Contains(stdout, "WROTE-JJ") {
		t.Errorf("a file another tool runs was written: %s", stdout)
	}
	if !strings.Contains(stdout, "WROTE-SRC") {
		t.Errorf("an ordinary file was not written (the test could not fail): %s", stdout)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".hg", "hgrc")); string(b) != "[ui]\n" {
		t.Errorf(".hg/hgrc changed: %q", b)
	}
	for _, f := range []string{"lefthook.yml", ".yarnrc.yml", ".npmrc", ".pnpmfile.cjs"} {
		if b, _ := os.ReadFile(filepath.Join(ws, f)); string(b) != "orig\n" {
			t.Errorf("%s changed: %q", f, b)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, ".jj", "config.toml")); err == nil {
		t.Errorf(".jj/config.toml was created")
	}
}
