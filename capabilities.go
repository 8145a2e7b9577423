package modebox

import (
	"crypto/x509"
	"time"

	"github.com/modebox/modebox/internal/netguard"
	"github.com/modebox/modebox/internal/sandbox"
)

// ShellConfig enables sh(): shell commands run under bubblewrap (Linux) or
// Seatbelt (macOS). See docs/capabilities.md.
type ShellConfig struct {
	// Workspace lists the directories commands may write (temp dirs are
	// always writable, and private to the command). The first is the
	// default working directory.
	Workspace []string
	// Network, when set, lets commands reach the listed hosts through a
	// filtering proxy run by modebox; nil means no network at all.
	Network *ShellNetwork
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
	// bridge (default: this process's executable, whose main must call
	// MaybeBridge first; the modebox binary does).
	Bridge string
}

// ShellNetwork limits a shell's network to listed hosts.
type ShellNetwork struct {
	// Allow lists "host:port" entries ("*.example.com:443" for
	// subdomains), with the syntax and the address rule of
	// FetchConfig.Allow (a scheme is accepted and ignored: the proxy
	// cannot see it). Names are resolved by modebox at each connect; a
	// name that resolves to a loopback, private, link-local or metadata
	// address is refused unless the entry is marked " private" or names
	// that IP literally.
	Allow []string
}

// FetchConfig enables fetch(): web requests made by the host. See
// docs/capabilities.md.
type FetchConfig struct {
	// Allow lists entries that need no approval: "host:port",
	// "*.example.com:443" for subdomains, optionally with a scheme
	// ("https://api.example.com", port 443 implied; such an entry matches
	// that scheme only) and optionally marked " private". Other hosts need
	// approval. Loopback, private, link-local and metadata addresses are
	// reachable only through an entry naming that IP literally
	// ("127.0.0.1:8080", which reaches exactly that IP) or a host entry
	// marked private ("db.internal:8080 private"); a plain host entry
	// reaches public addresses only, whatever its DNS answers, and an
	// approval never opens them.
	Allow []string
	// Headers injects headers per Allow entry (the key written as the
	// entry): entry -> name -> value; a value "env:NAME" is read from
	// modebox's environment. The program never sees them. They are sent
	// over https only, unless the entry is written with http://; a plain
	// http request to an entry with headers is refused (FETCH_INSECURE).
	Headers map[string]map[string]string
	// MaxBytes caps a response body after decompression (default 10 MiB);
	// MaxHeaderBytes the response headers (default 64 KiB);
	// MaxRequestBody a request body (default 4 MiB).
	MaxBytes, MaxHeaderBytes, MaxRequestBody int64
	// Timeout bounds one request, body included (default 30s).
	Timeout time.Duration
	// MaxRequests caps requests per run (default 100); MaxRedirects the
	// redirects one request follows (default 5).
	MaxRequests, MaxRedirects int
	// Source marks responses as a data-flow source.
	Source bool
	// RootCAs replaces the system's root certificates (nil: the system's).
	RootCAs *x509.CertPool
	// resolver replaces the system resolver (tests).
	resolver netguard.Resolver
}

// FSConfig enables fs: files over mounts. See docs/capabilities.md.
type FSConfig struct {
	// Mounts expose host directories at guest paths.
	Mounts []Mount
	// Deny adds globs hidden from the program, to the built-in list
	// (.env, .env.*, *.pem, *.key, id_rsa*, id_ed25519*, .git/).
	Deny []string
	// MaxFileSize caps a file read or written (default 16 MiB); MaxEntries
	// the entries a list or glob returns (default 10,000).
	MaxFileSize int64
	MaxEntries  int
}

// Mount exposes a host directory at a guest path.
type Mount struct {
	// Host is the directory on the host.
	Host string
	// Guest is the absolute path the program uses ("/data").
	Guest string
	// Mode is "ro" (default) or "rw".
	Mode string
	// Source marks reads from this mount as a data-flow source.
	Source bool
}

// MaybeBridge runs the shell sandbox's network bridge and exits when this
// process was started as one; otherwise it returns at once. A program that
// embeds modebox with a shell network calls it first thing in main (the
// bridge is this executable, run inside the sandbox), or sets
// ShellConfig.Bridge to the modebox binary.
func MaybeBridge() { sandbox.MaybeBridge() }
