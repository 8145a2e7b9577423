// Package credpaths is modebox's one list of where developers keep
// credentials, and of the names the host's tools run or load later. The
// shell sandbox hides every Home path in each home directory it covers;
// the fs capability hides every path that matches one of Names, in every
// mount. Both keep Protected read-only at the top of each writable
// directory (a shell workspace, a read-write fs mount).
package credpaths

import "slices"

// Home lists credential files and directories relative to a home
// directory. Entries may contain "/" and filepath.Match glob characters.
// Each entry is a path the shell sandbox masks; an entry of one path
// component also appears in Names.
var Home = []string{
	// SSH, GPG, password managers and system keyrings.
	".ssh", ".gnupg", ".password-store", ".local/share/keyrings", ".pki",
	".config/op", ".config/age", ".config/sops",
	// Cloud CLIs.
	".aws", ".azure", ".config/gcloud", ".gcloud", ".oci", ".config/doctl",
	".fly", ".s3cfg", ".boto", ".config/rclone", ".terraform.d", ".terraformrc",
	".vault-token", ".config/hcloud", ".config/scw", ".ibmcloud", ".aliyun",
	".config/exoscale", ".linode-cli", ".config/linode-cli", ".config/vercel",
	".netlify", ".config/netlify", ".heroku", ".config/heroku", ".wrangler",
	".config/.wrangler",
	// Containers and clusters.
	".kube", ".docker", ".config/containers/auth.json", ".config/helm",
	// Git hosting and git's own configuration (credential helpers, tokens).
	".gitconfig", ".config/git", ".git-credentials", ".config/gh", ".config/hub",
	".config/glab-cli",
	// AI tools.
	".claude", ".claude.json", ".config/github-copilot", ".codex",
	".cache/huggingface/token", ".huggingface", ".config/openai", ".gemini",
	// Data and ML platforms.
	".kaggle", ".databrickscfg", ".config/wandb", ".netrc",
	// Package registries.
	".npmrc", ".yarnrc", ".yarnrc.yml", ".config/yarn", ".pypirc",
	".config/pip", ".pip", ".pydistutils.cfg", ".gem/credentials",
	".local/share/gem/credentials", ".cargo/credentials*",
	".composer/auth.json", ".config/composer/auth.json", ".m2/settings*.xml",
	".m2/settings-security.xml", ".gradle/gradle.properties", ".nuget/NuGet",
	".config/NuGet", ".config/pypoetry/auth.toml", ".local/share/pypoetry",
	".config/hatch", ".pub-cache/credentials.json", ".config/dart",
	// Databases.
	".pgpass", ".my.cnf", ".mylogin.cnf",
	// Shell and REPL history.
	".bash_history", ".zsh_history", ".zhistory", ".histfile", ".sh_history",
	".local/share/fish/fish_history", ".python_history", ".node_repl_history",
	".psql_history", ".mysql_history", ".sqlite_history", ".irb_history",
	".rediscli_history", ".lesshst", ".viminfo",
	// Browser and mail profiles (cookies, saved passwords, sessions).
	".mozilla", ".thunderbird", ".config/google-chrome", ".config/google-chrome-beta",
	".config/chromium", ".config/BraveSoftware", ".config/microsoft-edge",
	".config/vivaldi", ".config/opera", ".var/app/org.mozilla.firefox",
	".var/app/com.google.Chrome", ".var/app/org.chromium.Chromium",
}

// Names lists the patterns (path.Match syntax per component, matched
// case-insensitively by the fs capability) that name credentials wherever
// they appear: key and certificate files, the names that only make sense
// inside a project (.env files, git metadata), every entry of Home and
// ModeboxState. An entry of one component matches any path component; an
// entry of several (".config/gh") matches that run of components at any
// depth, so a mount of a home directory, of its parent or of / hides it.
var Names = slices.Concat(projectNames, Home, ModeboxState)

// ModeboxState lists modebox's own files relative to a home directory:
// the continuation key directory, the used-token store and the engine
// cache. The shell hides the running user's copies as private state; the
// fs capability hides them, through Names, in any home directory a mount
// reaches.
var ModeboxState = []string{".config/modebox", ".local/state/modebox", ".cache/modebox"}

// Protected are the names kept read-only at the top of every writable
// directory (a shell workspace, a read-write fs mount): version-control
// metadata and hooks, shell start-up files, direnv, editor and agent
// configuration (task and launch files, MCP server lists) and modebox's
// own configuration: files that the user's tools run or load later,
// outside the sandbox. The list follows what the Codex CLI sandbox (.git,
// .codex) and sandbox-runtime (.git hooks and config, .gitconfig,
// .gitmodules, shell rc files, .vscode, .idea, .mcp.json, .claude)
// protect, plus .envrc, .husky, the pre-commit configuration and
// modebox.json.
var Protected = []string{
	".git", ".gitmodules", ".gitconfig", ".husky", ".pre-commit-config.yaml",
	".envrc", ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc",
	".zprofile", ".zshenv", ".zlogin", ".ripgreprc",
	".vscode", ".idea", ".devcontainer", ".mcp.json", ".claude", ".codex", ".cursor",
	".modebox", "modebox.json",
	// Other version-control systems' metadata (Mercurial's .hg/hgrc
	// hooks run on the next hg command) and the git-hook and package
	// managers' configuration that names programs to run (lefthook,
	// yarn's yarnPath, npm's script-shell and node-options, pnpm's hooks).
	".hg", ".jj", ".bzr", "lefthook.yml", ".lefthook.yml", "lefthook-local.yml",
	".lefthook-local.yml", ".yarnrc", ".yarnrc.yml", ".npmrc", ".pnpmfile.cjs",
}

// RootOnly lists host files only root may read that hold credentials of
// the machine (password hashes, sudo rules, SSH host keys, TLS private
// keys), absolute and with filepath.Match glob characters. The shell
// masks them when it runs commands as root; the fs capability hides them
// in every mount that covers them.
var RootOnly = []string{
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
	"/etc/sudoers", "/etc/sudoers.d", "/etc/ssh/ssh_host_*_key",
	"/etc/ssl/private", "/etc/security/opasswd",
}

// RuntimeState lists host directories that hold other processes' live
// state and the secrets a container runtime injects: /run (sockets, the
// user's runtime directory, Docker's /run/secrets), Kubernetes'
// service-account token under /var/run/secrets (where /var/run is not a
// link to /run) and shared memory (/dev/shm), absolute and with
// filepath.Match glob characters. The shell gives commands an empty /run
// and /dev/shm of their own; the fs capability hides them in every mount
// that covers them.
var RuntimeState = []string{"/run", "/var/run/secrets", "/dev/shm"}

var projectNames = []string{
	// Private keys, keystores and certificates.
	"id_rsa*", "id_ed25519*", "id_ecdsa*", "id_dsa*", "*.pem", "*.key",
	"*.p12", "*.pfx", "*.ppk", "*.jks", "*.keystore",
	// Project secrets and metadata.
	".env", ".env.*", ".envrc", ".git",
}
