package sh

import (
	"time"

	"github.com/modebox/modebox/internal/sandbox"
)

// Config enables sh() (modebox.ShellConfig): shell commands run under
// bubblewrap (Linux) or Seatbelt (macOS). See docs/capabilities.md.
type Config struct {
	// Workspace lists the directories commands may write (temp dirs are
	// always writable, and private to the command). The first is the
	// default working directory.
	Workspace []string
	// Network, when set, lets commands reach the listed hosts through a
	// filtering proxy run by modebox; nil means no network at all.
	Network *Network
	// DenyRead adds paths (globs, "~" expanded) hidden from commands, to
	// the built-in list of credential stores.
	DenyRead []string
	// Env adds environment variables to the rebuilt environment.
	Env map[string]string
	// Timeout is a command's default time limit (default 30s); MaxTimeout
	// caps what a program may ask for (default 10m).
	Timeout, MaxTimeout time.Duration
	// MaxOutput caps each of stdout and stderr in bytes (default 1 MiB).
	MaxOutput int
	// Bwrap is the bubblewrap binary (default: found on PATH).
	Bwrap string
	// Bridge is the executable run inside the sandbox as the network
	// bridge when Network is set. Default: this process's executable,
	// which answers that re-execution by itself while it initialises (see
	// modebox.MaybeBridge); or name the modebox binary here.
	Bridge string
	// Private adds host paths no command may read or write, even inside a
	// workspace, to modebox's own state, which is always private: the key
	// directory (~/.config/modebox), the state directory with the
	// used-token store (~/.local/state/modebox), a used-token directory
	// given to the engine, and the engine cache (~/.cache/modebox,
	// $MODEBOX_CACHE_DIR). The CLI adds the configuration file it loaded.
	Private []string
	// AllowWrite maps a workspace directory (as in Workspace) to the
	// protected names (see docs/security.md: .git, .envrc, .vscode,
	// modebox.json, ...) left writable in it; "*" leaves all of them
	// writable there.
	AllowWrite map[string][]string
	// Limits bounds each command's resources (zero fields: defaults).
	Limits Limits
	// User is who commands run as on the host when modebox runs as root
	// (Linux): empty means the owner of the first workspace if that is
	// not root, else nobody; a user name, uid or "uid:gid" names one;
	// "root" runs them as host uid 0, which only this explicit value
	// does. The workspaces must be writable by that user. When modebox is
	// not root, commands run as its own user.
	User string
}

// Limits bounds a shell command's resources (modebox.ShellLimits):
// Processes (default 1024), OpenFiles (default 4096), FileSize (bytes,
// default 4 GiB), Memory (bytes of address space per process, default
// 8 GiB) and TmpSize (bytes of the private /tmp, default 1 GiB). A zero
// field takes its default; see docs/security.md.
type Limits = sandbox.Limits

// Network limits a shell's network to listed hosts (modebox.ShellNetwork).
type Network struct {
	// Allow lists "host:port" entries ("*.example.com:443" for
	// subdomains), with the syntax and the address rule of
	// FetchConfig.Allow (a scheme is accepted and ignored: the proxy
	// cannot see it). Names are resolved by modebox at each connect; a
	// name that resolves to a loopback, private, link-local or metadata
	// address is refused unless the entry is marked " private" or names
	// that IP literally.
	Allow []string
}
