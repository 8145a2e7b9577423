// Package codes is the registry of modebox's stable error codes: every
// code that can reach a user, an operator, an HTTP client or the model is
// a constant here, with a doc comment that says when it happens. Nothing
// else in modebox spells a code as a string; the packages that return or
// compare one use these constants, and the root package re-exports each of
// them as modebox.Code<Name>.
//
// A code is never renamed; new ones may be added. To add one: declare it
// in the block of its area below, with a doc comment "Name: when it
// happens." (the first sentence, short, is what the model's manual
// shows), then run
//
//	go test ./internal/codes -run TestTable -update
//	MODEBOX_UPDATE_CODES=1 go test -run TestEveryCodeExported .
//
// to regenerate the table and the root's re-exports (errors.go), and list
// it in README.md's "Error codes". The tests of this package, of the root
// and of mcpserver fail until all of that is done.
//
// The package imports nothing of modebox's, so that every package can
// import it.
package codes

import (
	"errors"
	"slices"
)

// Code is a stable error code, such as [Timeout]. The constants of this
// package are modebox's own codes; a tool may give a failed call a code of
// its own, so a Code is not always one of them (see [Lookup]).
type Code string

// String returns the code itself.
func (c Code) String() string { return string(c) }

// Area is where a code comes from, and so who gets to see it.
type Area string

// The areas, in the order [All] lists them.
const (
	// AreaLimit: a run went over one of its caps.
	AreaLimit Area = "limit"
	// AreaProgram: the program itself failed.
	AreaProgram Area = "program"
	// AreaEngine: the engine could not take the run.
	AreaEngine Area = "engine"
	// AreaTool: a tool call was refused or failed (the program sees it as
	// e.code on the rejected call, and as the run's code if uncaught).
	AreaTool Area = "tool"
	// AreaShell: sh() and its sandbox.
	AreaShell Area = "sh"
	// AreaFetch: fetch().
	AreaFetch Area = "fetch"
	// AreaFS: the fs built-ins over mounts.
	AreaFS Area = "fs"
	// AreaToken: a continuation token that does not resume (Engine.Resume's
	// TokenError).
	AreaToken Area = "token"
	// AreaTokenStore: the PostgreSQL token store (pgstore), for the operator.
	AreaTokenStore Area = "token-store"
	// AreaServer: the MCP server's own tool results (run, search, approve).
	AreaServer Area = "mcp"
	// AreaHTTP: the MCP server's HTTP handler and its pages, for HTTP
	// clients and browsers.
	AreaHTTP Area = "http"
	// AreaProxy: the shell sandbox's network proxy, whose refusals a
	// program run by sh() sees (the X-Modebox-Proxy-Error header).
	AreaProxy Area = "proxy"
	// AreaNetwork: the network guard, and the start and stop of the shell's
	// network proxy; fetch() and the proxy report the guard's refusals with
	// codes of their own, so these reach no program.
	AreaNetwork Area = "network"
	// AreaConfig: a configuration modebox refuses (modebox.json, or an
	// EngineConfig, RunOptions or tool field), for the operator and the
	// embedding code; the CLI exits 4 and prints the code.
	AreaConfig Area = "config"
)

var areaOrder = []Area{AreaLimit, AreaProgram, AreaEngine, AreaTool, AreaShell, AreaFetch, AreaFS,
	AreaToken, AreaTokenStore, AreaServer, AreaHTTP, AreaProxy, AreaNetwork, AreaConfig}

// Areas returns every area, in the order [All] lists them.
func Areas() []Area { return slices.Clone(areaOrder) }

// Doc says where the area's codes come from (its doc comment).
func (a Area) Doc() string { return areaDoc[a] }

// ModelSees reports whether codes of the area can reach the model that
// writes programs (through a run's result, a rejected call, an MCP tool's
// result or a sh() program's output). The others reach operators, HTTP
// clients and embedding code only.
func (a Area) ModelSees() bool {
	return a != AreaTokenStore && a != AreaHTTP && a != AreaNetwork && a != AreaConfig
}

// Info describes one code.
type Info struct {
	// Code is the code.
	Code Code
	// Name is the Go name of its constant in this package (the root
	// package's is "Code" + Name).
	Name string
	// Area is where it comes from.
	Area Area
	// Doc is its doc comment, without the leading "Name: ".
	Doc string
	// Summary is the first sentence of Doc.
	Summary string
}

// All returns every code, grouped by area in the order of [Areas].
func All() []Info { return slices.Clone(table) }

// Lookup returns the description of a code of this registry; ok is false
// for a code that is not one of modebox's (a tool's own).
func Lookup(c Code) (info Info, ok bool) {
	for _, i := range table {
		if i.Code == c {
			return i, true
		}
	}
	return Info{}, false
}

// Of returns the code of the first error in err's chain that has an
// ErrorCode() string method, or "" if there is none.
func Of(err error) Code {
	var c interface{ ErrorCode() string }
	if errors.As(err, &c) {
		return Code(c.ErrorCode())
	}
	return ""
}

// Limits: a run went over a cap. The run ends with the code.
//
//codes:area limit
const (
	// Timeout: the run went over its wall-clock limit. The limit is
	// Limits.Timeout. The shell's network proxy also answers TIMEOUT to a
	// client too slow sending its request.
	Timeout Code = "TIMEOUT"
	// MemoryLimit: the program used more memory than its limit. The limit is
	// Limits.Memory, of JavaScript heap.
	MemoryLimit Code = "MEMORY_LIMIT"
	// FuelExhausted: the program used up its CPU budget. The budget is
	// Limits.Fuel, about 10,000 branches a unit.
	FuelExhausted Code = "FUEL_EXHAUSTED"
	// HostCallLimit: the program made more tool calls than its limit. The limit
	// is Limits.MaxCalls.
	HostCallLimit Code = "HOST_CALL_LIMIT"
	// ClockLimit: the program read the clock more times than its limit. The
	// limit is Limits.MaxClockReads; Date.now(), new Date() and
	// performance.now() each read it once.
	ClockLimit Code = "CLOCK_LIMIT"
	// TimerLimit: the program set more timers than its limit. The limit is
	// Limits.MaxTimers; setTimeout, setInterval and each repeat of an
	// interval set one.
	TimerLimit Code = "TIMER_LIMIT"
	// ValueTooLarge: a value crossing the sandbox's boundary is over its limit.
	// The limit is Limits.MaxValue, and 8,000 levels of nested arrays and
	// objects; a call's arguments or a tool's result over it fail that call,
	// the run's result fails the run.
	ValueTooLarge Code = "VALUE_TOO_LARGE"
	// StackOverflow: the program recursed too deep.
	StackOverflow Code = "STACK_OVERFLOW"
	// ProgramTooLarge: the program's source is over 4 MiB; nothing ran. The
	// limit is MaxProgramSize.
	ProgramTooLarge Code = "PROGRAM_TOO_LARGE"
)

// The program: it does not compile, throws, or cannot finish.
//
//codes:area program
const (
	// GuestCrash: the engine's interpreter failed; the run ended. It could not
	// start, or it trapped: a bug in modebox, not in the program.
	GuestCrash Code = "GUEST_CRASH"
	// SyntaxError: the program does not parse or compile; nothing ran.
	// JavaScript that does not parse, or TypeScript that does not compile.
	SyntaxError Code = "SYNTAX_ERROR"
	// UncaughtException: the program threw a value it did not catch. A failed
	// tool call that is not caught keeps its own code instead.
	UncaughtException Code = "UNCAUGHT_EXCEPTION"
	// ValueNotSerializable: the program's result could not be turned into
	// JSON (a cycle, or a getter that threw).
	ValueNotSerializable Code = "VALUE_NOT_SERIALIZABLE"
	// NeverSettled: the program awaited a promise that nothing could settle. No
	// tool call or timer was pending.
	NeverSettled Code = "NEVER_SETTLED"
	// Cancelled: the caller's context was cancelled.
	Cancelled Code = "CANCELLED"
	// ReplayMismatch: a resumed program made other calls than its journal
	// recorded. The program is not deterministic between its calls.
	ReplayMismatch Code = "REPLAY_MISMATCH"
)

// The engine: it could not take the run.
//
//codes:area engine
const (
	// EngineBusy: the engine had no run slot free in time; nothing ran, try
	// again. It was running EngineConfig.MaxRuns programs and its queue was
	// full, or the run waited QueueTimeout for a slot.
	EngineBusy Code = "ENGINE_BUSY"
	// ImageClosed: the engine's image was closed (Image.Close); nothing ran.
	// An engine made on a closed image runs nothing again.
	ImageClosed Code = "IMAGE_CLOSED"
)

// Tool calls: the program sees these as e.code on the rejected call, and
// as the run's code if it does not catch it.
//
//codes:area tool
const (
	// ToolError: the tool failed. Its handler returned an error without a code
	// of its own, or panicked.
	ToolError Code = "TOOL_ERROR"
	// ToolNotFound: no tool, namespace or built-in of that name exists or is
	// on. The message names the closest tools, or the configuration key that
	// turns the built-in on.
	ToolNotFound Code = "TOOL_NOT_FOUND"
	// InvalidArgument: the call's arguments do not match the tool's input
	// schema; nothing ran. Built-ins answer it to arguments against their
	// rules, and the MCP server's tools to arguments they cannot use.
	InvalidArgument Code = "INVALID_ARGUMENT"
	// SchemaTooComplex: checking the arguments needs more work than the
	// validation bound allows. The tool's input schema is too complex for the
	// value.
	SchemaTooComplex Code = "SCHEMA_TOO_COMPLEX"
	// ToolDenied: the tool's policy is deny; nothing ran.
	ToolDenied Code = "TOOL_DENIED"
	// ApprovalUnavailable: the call needs approval and nothing can approve it
	// now; nothing ran. The tool's policy is ask and there is no approver, or
	// no token store to pause with.
	ApprovalUnavailable Code = "APPROVAL_UNAVAILABLE"
	// ApprovalDenied: a person (or a resume's decision) denied the call.
	ApprovalDenied Code = "APPROVAL_DENIED"
	// ApprovalTimeout: nobody answered the approval request in time; the call
	// was refused. The wait is EngineConfig.ApprovalTimeout
	// (limits.approvalTimeout).
	ApprovalTimeout Code = "APPROVAL_TIMEOUT"
)

// sh(): the shell built-in and its sandbox.
//
//codes:area sh
const (
	// SandboxUnavailable: sh() cannot start its sandbox on this machine;
	// nothing ran. Bubblewrap is missing, user namespaces are off, or the
	// preflight failed; it never runs a command unconfined.
	SandboxUnavailable Code = "SANDBOX_UNAVAILABLE"
	// SandboxFailed: the sandbox could not be set up for this command; it did
	// not run. For example its working directory could not be entered.
	SandboxFailed Code = "SANDBOX_FAILED"
	// SandboxConfig: the shell's configuration is invalid.
	SandboxConfig Code = "SANDBOX_CONFIG"
	// SandboxInvalidCommand: the command is invalid; it did not run. A NUL
	// byte, a bad working directory or environment, a timeout under 1 ms; the
	// program sees it as INVALID_ARGUMENT.
	SandboxInvalidCommand Code = "SANDBOX_INVALID_COMMAND"
)

// fetch(): the HTTP built-in.
//
//codes:area fetch
const (
	// FetchBadURL: the URL is refused before any lookup. Its scheme,
	// credentials in it, a numeric host form, control characters.
	FetchBadURL Code = "FETCH_BAD_URL"
	// FetchBadRequest: the method, a header or the body is refused. CONNECT, a
	// forbidden header, CR or LF in a header, a body on GET.
	FetchBadRequest Code = "FETCH_BAD_REQUEST"
	// FetchNotAllowed: the host and port are on no allowlist entry, and the
	// request was not approved.
	FetchNotAllowed Code = "FETCH_NOT_ALLOWED"
	// FetchAddressRefused: the host is, or resolves to, an address this request
	// may not reach. Loopback, private, link-local, cloud metadata.
	FetchAddressRefused Code = "FETCH_ADDRESS_REFUSED"
	// FetchInsecure: secret headers would go over plain http. The allowlist
	// entry that injects them does not say http://.
	FetchInsecure Code = "FETCH_INSECURE"
	// FetchRedirect: a redirect was refused, or there were too many.
	FetchRedirect Code = "FETCH_REDIRECT"
	// FetchTimeout: the request did not finish within its timeout. Headers and
	// body count.
	FetchTimeout Code = "FETCH_TIMEOUT"
	// FetchTooLarge: a body or headers are over their cap. The response's or
	// the request's.
	FetchTooLarge Code = "FETCH_TOO_LARGE"
	// FetchRequestLimit: the run has made as many requests as it may.
	FetchRequestLimit Code = "FETCH_REQUEST_LIMIT"
	// FetchFailed: the request failed otherwise. Connection refused, TLS, DNS,
	// a malformed response, a cancelled run.
	FetchFailed Code = "FETCH_FAILED"
	// FetchConfig: fetch's configuration is invalid.
	FetchConfig Code = "FETCH_CONFIG"
)

// fs: the file built-ins over mounts.
//
//codes:area fs
const (
	// FSNotFound: nothing the program may see is at the path. Missing files,
	// hidden (denied) files and paths outside every mount all get this code and
	// the same message.
	FSNotFound Code = "FS_NOT_FOUND"
	// FSReadOnly: the path is in a read-only mount and the operation would
	// change it.
	FSReadOnly Code = "FS_READ_ONLY"
	// FSNotAFile: the path is not a regular file. The operation needs one and
	// found a directory, a named pipe, a device or a socket.
	FSNotAFile Code = "FS_NOT_A_FILE"
	// FSNotADirectory: the path is not a directory. The operation (a listing,
	// or writing a file under it) needs one.
	FSNotADirectory Code = "FS_NOT_A_DIRECTORY"
	// FSTooLarge: a file or data is over its size cap. The mount's file size
	// cap, or the cap on the run's staged writes.
	FSTooLarge Code = "FS_TOO_LARGE"
	// FSInvalidPath: the path or glob pattern is malformed. Relative, a ".."
	// component, a NUL byte, a backslash, invalid UTF-8, too long.
	FSInvalidPath Code = "FS_INVALID_PATH"
	// FSTooManyEntries: a listing or glob has more entries than the cap (or
	// a glob would walk more), or a write would stage more entries or make
	// more new directories than it.
	FSTooManyEntries Code = "FS_TOO_MANY_ENTRIES"
	// FSSymlink: the path is, or goes through, a symbolic link; symlinks
	// are never followed.
	FSSymlink Code = "FS_SYMLINK"
	// FSDenied: a write or removal names a path that matches a deny pattern,
	// or one beneath a protected name (.git, .bashrc, .vscode, .mcp.json,
	// modebox.json, ...) at the top of a read-write mount. The answer
	// depends on the name only; fs.allowWrite lifts the second per mount.
	FSDenied Code = "FS_DENIED"
	// FSNotText: a file read as text is not UTF-8; read it with {encoding:
	// "bytes"}.
	FSNotText Code = "FS_NOT_TEXT"
	// FSClosed: the file system was closed, or the run's session has ended.
	FSClosed Code = "FS_CLOSED"
	// FSConfig: the mounts' configuration is invalid. Only these messages may
	// name host paths: they are for the operator.
	FSConfig Code = "FS_CONFIG"
	// FSIO: an unexpected system error.
	FSIO Code = "FS_IO"
)

// Continuation tokens: why a token did not resume (Engine.Resume's
// TokenError; the CLI exits 5).
//
//codes:area token
const (
	// TokenMalformed: the token is not a well-formed token. Wrong prefix, bad
	// or non-canonical base64, too short, or contents that are not a paused
	// run.
	TokenMalformed Code = "TOKEN_MALFORMED"
	// TokenTooLarge: the token, or its decompressed body, is over its size cap.
	// A run that pauses with a token over the cap fails with it.
	TokenTooLarge Code = "TOKEN_TOO_LARGE"
	// TokenVersion: the token's format version is not one this build
	// reads.
	TokenVersion Code = "TOKEN_VERSION"
	// TokenUnknownKey: the key that sealed the token is not in the keyring.
	// Another machine's key, or one rotated out.
	TokenUnknownKey Code = "TOKEN_UNKNOWN_KEY"
	// TokenTampered: the token's authentication failed; it was modified or
	// forged.
	TokenTampered Code = "TOKEN_TAMPERED"
	// TokenExpired: the token's expiry time has passed.
	TokenExpired Code = "TOKEN_EXPIRED"
	// TokenNotYetValid: the token was issued further in the future than
	// the allowed clock skew.
	TokenNotYetValid Code = "TOKEN_NOT_YET_VALID"
	// TokenLifetime: the token's lifetime is too long, or not positive. Its
	// expiry minus its issue time is over the maximum.
	TokenLifetime Code = "TOKEN_LIFETIME"
	// TokenBinding: the token was issued for another engine image, tool set or
	// configuration. The message says which.
	TokenBinding Code = "TOKEN_BINDING"
	// TokenUsed: the token was already used or revoked (Engine.Revoke,
	// modebox revoke); each token resumes a run once.
	TokenUsed Code = "TOKEN_USED"
	// TokenStoreUnavailable: the used-token record could not be written or
	// read, so nothing ran. A database connection lost, a disk that refuses the
	// write; it fails closed, so the token may not resume later either.
	TokenStoreUnavailable Code = "TOKEN_STORE_UNAVAILABLE"
)

// The PostgreSQL token store (pgstore): errors of opening it, for the
// operator.
//
//codes:area token-store
const (
	// TokenStoreURLInvalid: the token store's connection string does not
	// parse.
	TokenStoreURLInvalid Code = "TOKEN_STORE_URL_INVALID"
	// TokenStoreSchemaTooNew: the database holds the schema of a later
	// modebox than this one; upgrade this replica.
	TokenStoreSchemaTooNew Code = "TOKEN_STORE_SCHEMA_TOO_NEW"
	// TokenStoreInvalidID: a claim of something that is not a token id.
	TokenStoreInvalidID Code = "TOKEN_STORE_INVALID_ID"
)

// The MCP server's own tool results (besides INVALID_ARGUMENT and the token
// codes).
//
//codes:area mcp
const (
	// ResumeFailed: the paused run could not be resumed, for a reason other
	// than its token. The approve tool, or a retried run, answers it.
	ResumeFailed Code = "RESUME_FAILED"
	// ResultNotKept: a retried resume's result was too large to keep in the
	// shared store. The retry cannot return it.
	ResultNotKept Code = "RESULT_NOT_KEPT"
	// Internal: a bug in modebox. A result that cannot be encoded, a recovered
	// panic in the shell's network proxy.
	Internal Code = "INTERNAL"
)

// The MCP server's HTTP handler and its pages: the first word of a plain
// text error response, for HTTP clients and browsers.
//
//codes:area http
const (
	// SessionLimit: every session slot is taken by a session with a
	// request in flight (HTTP 503).
	SessionLimit Code = "SESSION_LIMIT"
	// Unauthorized: the request carries no valid bearer token (401).
	Unauthorized Code = "UNAUTHORIZED"
	// ForbiddenHost: the Host header is not an allowed host (403).
	ForbiddenHost Code = "FORBIDDEN_HOST"
	// ForbiddenOrigin: the Origin header is neither the server's own origin
	// nor a listed one (403).
	ForbiddenOrigin Code = "FORBIDDEN_ORIGIN"
	// NotFound: no endpoint at this path (404).
	NotFound Code = "NOT_FOUND"
	// MethodNotAllowed: a page was sent a method it does not take (405).
	MethodNotAllowed Code = "METHOD_NOT_ALLOWED"
	// CrossSite: an approval decision was not posted from the approval page
	// itself (403).
	CrossSite Code = "CROSS_SITE"
	// BadForm: an approval decision's form could not be read, or its
	// decision is not one of approve, approve_tool and deny (400).
	BadForm Code = "BAD_FORM"
	// CSRF: an approval decision's page token is missing or wrong; reload
	// the approval page and decide there (403).
	CSRF Code = "CSRF"
	// RunFailed: the runs page's code for a run that ended with an error
	// of the engine rather than a result.
	RunFailed Code = "RUN_FAILED"
)

// The shell sandbox's network proxy: refusals reach the program run by
// sh() as the X-Modebox-Proxy-Error header of an HTTP answer (and in the
// proxy's events).
//
//codes:area proxy
const (
	// BadRequest: the proxy does not understand the client's request. Garbage,
	// a truncated greeting, CONNECT without a port, an origin-form HTTP
	// request.
	BadRequest Code = "BAD_REQUEST"
	// BadHost: the host is written in a refused form. A non-canonical numeric
	// address, an IPv6 zone, a trailing dot, credentials, a wildcard; checked
	// before any lookup.
	BadHost Code = "BAD_HOST"
	// Unsupported: a valid request the proxy does not serve. SOCKS BIND or UDP
	// ASSOCIATE, SOCKS authentication, SOCKS4, https:// in an absolute-form
	// request.
	Unsupported Code = "UNSUPPORTED"
	// BadAddressType: a SOCKS5 request with an unknown address type.
	BadAddressType Code = "BAD_ADDRESS_TYPE"
	// HostNotAllowed: the host and port match no entry of the shell's network
	// allowlist (shell.network.allow).
	HostNotAllowed Code = "HOST_NOT_ALLOWED"
	// AddressRefused: the address about to be dialled is not allowed. A non-
	// public address that the matched entry does not name literally.
	AddressRefused Code = "ADDRESS_REFUSED"
	// ResolveFailed: the host name could not be resolved.
	ResolveFailed Code = "RESOLVE_FAILED"
	// DialTimeout: the connection to the target timed out.
	DialTimeout Code = "DIAL_TIMEOUT"
	// ConnectionRefused: the target refused the connection.
	ConnectionRefused Code = "CONNECTION_REFUSED"
	// NetworkUnreachable: there is no route to the target's network.
	NetworkUnreachable Code = "NETWORK_UNREACHABLE"
	// HostUnreachable: there is no route to the target host.
	HostUnreachable Code = "HOST_UNREACHABLE"
	// DialFailed: the connection to the target failed for another reason.
	DialFailed Code = "DIAL_FAILED"
	// TooManyConnections: the proxy has as many connections open as it may.
	TooManyConnections Code = "TOO_MANY_CONNECTIONS"
	// HeaderTooLarge: a request's or response's header is over its cap.
	HeaderTooLarge Code = "HEADER_TOO_LARGE"
	// BadUpstreamResponse: the origin's HTTP response could not be read.
	BadUpstreamResponse Code = "BAD_UPSTREAM_RESPONSE"
)

// The network guard's refusals and the proxy's own start and stop: they
// reach the code that embeds those packages (or an operator's log), never
// a program.
//
//codes:area network
const (
	// BadConfig: the proxy's configuration is invalid.
	BadConfig Code = "BAD_CONFIG"
	// ListenFailed: the proxy's socket could not be created.
	ListenFailed Code = "LISTEN_FAILED"
	// ServerClosed: the proxy is closed.
	ServerClosed Code = "SERVER_CLOSED"
	// BadURL: the network guard refused a URL before any lookup. The proxy and
	// fetch() report it as BAD_HOST and FETCH_BAD_URL.
	BadURL Code = "BAD_URL"
)

// Configuration: modebox.json (internal/config's Error, the public
// config.Error) and the library's ConfigError. A configuration error of a
// built-in whose cause has a code of its own (SANDBOX_CONFIG, FETCH_CONFIG,
// FS_CONFIG) keeps that code.
//
//codes:area config
const (
	// ConfigNotFound: the configuration file does not exist or cannot be
	// read. It is named by --config, $MODEBOX_CONFIG or config.Load; a
	// directory where the file should be counts too.
	ConfigNotFound Code = "CONFIG_NOT_FOUND"
	// ConfigSyntax: the configuration file is not valid JSON. The error
	// gives the line and column.
	ConfigSyntax Code = "CONFIG_SYNTAX"
	// ConfigInvalid: a configuration value or key is refused. In
	// modebox.json the error gives its JSON Pointer; in the library it is
	// a ConfigError naming the EngineConfig, RunOptions or tool field.
	ConfigInvalid Code = "CONFIG_INVALID"
	// ConfigExists: the file `modebox init` was to write exists; nothing
	// was written. --force overwrites it.
	ConfigExists Code = "CONFIG_EXISTS"
	// ConfigWriteFailed: `modebox init` could not write its file (a
	// missing directory, permissions, a full disk).
	ConfigWriteFailed Code = "CONFIG_WRITE_FAILED"
)
