package modebox

import (
	"errors"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/errs"
)

// Code is a stable error code. The Code constants are modebox's own; a
// tool may give a failed call a code of its own (see ToolError).
type Code = codes.Code

// Stable error codes: every code of modebox, as the codes registry
// (internal/codes) defines and describes it. A code is never renamed; new
// ones may be added. A test checks that this list is the registry's.
const (
	// limit: a run went over one of its caps.

	// CodeTimeout: the run went over its wall-clock limit. The limit is
	// Limits.Timeout. The shell's network proxy also answers TIMEOUT to a
	// client too slow sending its request.
	CodeTimeout = codes.Timeout
	// CodeMemoryLimit: the program used more memory than its limit. The limit
	// is Limits.Memory, of JavaScript heap.
	CodeMemoryLimit = codes.MemoryLimit
	// CodeFuelExhausted: the program used up its CPU budget. The budget is
	// Limits.Fuel, about 10,000 branches a unit.
	CodeFuelExhausted = codes.FuelExhausted
	// CodeHostCallLimit: the program made more tool calls than its limit. The
	// limit is Limits.MaxCalls.
	CodeHostCallLimit = codes.HostCallLimit
	// CodeClockLimit: the program read the clock more times than its limit.
	// The limit is Limits.MaxClockReads; Date.now(), new Date() and
	// performance.now() each read it once.
	CodeClockLimit = codes.ClockLimit
	// CodeTimerLimit: the program set more timers than its limit. The limit is
	// Limits.MaxTimers; setTimeout, setInterval and each repeat of an interval
	// set one.
	CodeTimerLimit = codes.TimerLimit
	// CodeValueTooLarge: a value crossing the sandbox's boundary is over its
	// limit. The limit is Limits.MaxValue, and 8,000 levels of nested arrays
	// and objects; a call's arguments or a tool's result over it fail that
	// call, the run's result fails the run.
	CodeValueTooLarge = codes.ValueTooLarge
	// CodeStackOverflow: the program recursed too deep.
	CodeStackOverflow = codes.StackOverflow
	// CodeProgramTooLarge: the program's source is over 4 MiB; nothing ran.
	// The limit is MaxProgramSize.
	CodeProgramTooLarge = codes.ProgramTooLarge

	// program: the program itself failed.

	// CodeGuestCrash: the engine's interpreter failed; the run ended. It could
	// not start, or it trapped: a bug in modebox, not in the program.
	CodeGuestCrash = codes.GuestCrash
	// CodeSyntaxError: the program does not parse or compile; nothing ran.
	// JavaScript that does not parse, or TypeScript that does not compile.
	CodeSyntaxError = codes.SyntaxError
	// CodeUncaughtException: the program threw a value it did not catch. A
	// failed tool call that is not caught keeps its own code instead.
	CodeUncaughtException = codes.UncaughtException
	// CodeValueNotSerializable: the program's result could not be turned into
	// JSON (a cycle, or a getter that threw).
	CodeValueNotSerializable = codes.ValueNotSerializable
	// CodeNeverSettled: the program awaited a promise that nothing could
	// settle. No tool call or timer was pending.
	CodeNeverSettled = codes.NeverSettled
	// CodeCancelled: the caller's context was cancelled.
	CodeCancelled = codes.Cancelled
	// CodeReplayMismatch: a resumed program made other calls than its journal
	// recorded. The program is not deterministic between its calls.
	CodeReplayMismatch = codes.ReplayMismatch

	// engine: the engine could not take the run.

	// CodeEngineBusy: the engine had no run slot free in time; nothing ran,
	// try again. It was running EngineConfig.MaxRuns programs and its queue
	// was full, or the run waited QueueTimeout for a slot.
	CodeEngineBusy = codes.EngineBusy
	// CodeImageClosed: the engine's image was closed (Image.Close); nothing
	// ran. An engine made on a closed image runs nothing again.
	CodeImageClosed = codes.ImageClosed

	// tool: a tool call was refused or failed (the program sees it as e.code on the rejected call, and as the run's code if uncaught).

	// CodeToolError: the tool failed. Its handler returned an error without a
	// code of its own, or panicked.
	CodeToolError = codes.ToolError
	// CodeToolNotFound: no tool, namespace or built-in of that name exists or
	// is on. The message names the closest tools, or the configuration key
	// that turns the built-in on.
	CodeToolNotFound = codes.ToolNotFound
	// CodeInvalidArgument: the call's arguments do not match the tool's input
	// schema; nothing ran. Built-ins answer it to arguments against their
	// rules, and the MCP server's tools to arguments they cannot use.
	CodeInvalidArgument = codes.InvalidArgument
	// CodeSchemaTooComplex: checking the arguments needs more work than the
	// validation bound allows. The tool's input schema is too complex for the
	// value.
	CodeSchemaTooComplex = codes.SchemaTooComplex
	// CodeToolDenied: the tool's policy is deny; nothing ran.
	CodeToolDenied = codes.ToolDenied
	// CodeApprovalUnavailable: the call needs approval and nothing can approve
	// it now; nothing ran. The tool's policy is ask and there is no approver,
	// or no token store to pause with.
	CodeApprovalUnavailable = codes.ApprovalUnavailable
	// CodeApprovalDenied: a person (or a resume's decision) denied the call.
	CodeApprovalDenied = codes.ApprovalDenied
	// CodeApprovalTimeout: nobody answered the approval request in time; the
	// call was refused. The wait is EngineConfig.ApprovalTimeout
	// (limits.approvalTimeout).
	CodeApprovalTimeout = codes.ApprovalTimeout

	// sh: sh() and its sandbox.

	// CodeSandboxUnavailable: sh() cannot start its sandbox on this machine;
	// nothing ran. Bubblewrap is missing, user namespaces are off, or the
	// preflight failed; it never runs a command unconfined.
	CodeSandboxUnavailable = codes.SandboxUnavailable
	// CodeSandboxFailed: the sandbox could not be set up for this command; it
	// did not run. For example its working directory could not be entered.
	CodeSandboxFailed = codes.SandboxFailed
	// CodeSandboxConfig: the shell's configuration is invalid.
	CodeSandboxConfig = codes.SandboxConfig
	// CodeSandboxInvalidCommand: the command is invalid; it did not run. A NUL
	// byte, a bad working directory or environment, a timeout under 1 ms; the
	// program sees it as INVALID_ARGUMENT.
	CodeSandboxInvalidCommand = codes.SandboxInvalidCommand

	// fetch: fetch().

	// CodeFetchBadURL: the URL is refused before any lookup. Its scheme,
	// credentials in it, a numeric host form, control characters.
	CodeFetchBadURL = codes.FetchBadURL
	// CodeFetchBadRequest: the method, a header or the body is refused.
	// CONNECT, a forbidden header, CR or LF in a header, a body on GET.
	CodeFetchBadRequest = codes.FetchBadRequest
	// CodeFetchNotAllowed: the host and port are on no allowlist entry, and
	// the request was not approved.
	CodeFetchNotAllowed = codes.FetchNotAllowed
	// CodeFetchAddressRefused: the host is, or resolves to, an address this
	// request may not reach. Loopback, private, link-local, cloud metadata.
	CodeFetchAddressRefused = codes.FetchAddressRefused
	// CodeFetchInsecure: secret headers would go over plain http. The
	// allowlist entry that injects them does not say http://.
	CodeFetchInsecure = codes.FetchInsecure
	// CodeFetchRedirect: a redirect was refused, or there were too many.
	CodeFetchRedirect = codes.FetchRedirect
	// CodeFetchTimeout: the request did not finish within its timeout. Headers
	// and body count.
	CodeFetchTimeout = codes.FetchTimeout
	// CodeFetchTooLarge: a body or headers are over their cap. The response's
	// or the request's.
	CodeFetchTooLarge = codes.FetchTooLarge
	// CodeFetchRequestLimit: the run has made as many requests as it may.
	CodeFetchRequestLimit = codes.FetchRequestLimit
	// CodeFetchFailed: the request failed otherwise. Connection refused, TLS,
	// DNS, a malformed response, a cancelled run.
	CodeFetchFailed = codes.FetchFailed
	// CodeFetchConfig: fetch's configuration is invalid.
	CodeFetchConfig = codes.FetchConfig

	// fs: the fs built-ins over mounts.

	// CodeFSNotFound: nothing the program may see is at the path. Missing
	// files, hidden (denied) files and paths outside every mount all get this
	// code and the same message.
	CodeFSNotFound = codes.FSNotFound
	// CodeFSReadOnly: the path is in a read-only mount and the operation would
	// change it.
	CodeFSReadOnly = codes.FSReadOnly
	// CodeFSNotAFile: the path is not a regular file. The operation needs one
	// and found a directory, a named pipe, a device or a socket.
	CodeFSNotAFile = codes.FSNotAFile
	// CodeFSNotADirectory: the path is not a directory. The operation (a
	// listing, or writing a file under it) needs one.
	CodeFSNotADirectory = codes.FSNotADirectory
	// CodeFSTooLarge: a file or data is over its size cap. The mount's file
	// size cap, or the cap on the run's staged writes.
	CodeFSTooLarge = codes.FSTooLarge
	// CodeFSInvalidPath: the path or glob pattern is malformed. Relative, a
	// ".." component, a NUL byte, a backslash, invalid UTF-8, too long.
	CodeFSInvalidPath = codes.FSInvalidPath
	// CodeFSTooManyEntries: a listing or glob has more entries than the cap (or
	// a glob would walk more), or a write would stage more entries or make
	// more new directories than it.
	CodeFSTooManyEntries = codes.FSTooManyEntries
	// CodeFSSymlink: the path is, or goes through, a symbolic link; symlinks
	// are never followed.
	CodeFSSymlink = codes.FSSymlink
	// CodeFSDenied: a write or removal names a path that matches a deny
	// pattern, or one beneath a protected name (.git, .bashrc, .vscode,
	// .mcp.json, modebox.json, ...) at the top of a read-write mount. The
	// answer depends on the name only; fs.allowWrite lifts the second per
	// mount.
	CodeFSDenied = codes.FSDenied
	// CodeFSNotText: a file read as text is not UTF-8; read it with {encoding:
	// "bytes"}.
	CodeFSNotText = codes.FSNotText
	// CodeFSClosed: the file system was closed, or the run's session has
	// ended.
	CodeFSClosed = codes.FSClosed
	// CodeFSConfig: the mounts' configuration is invalid. Only these messages
	// may name host paths: they are for the operator.
	CodeFSConfig = codes.FSConfig
	// CodeFSIO: an unexpected system error.
	CodeFSIO = codes.FSIO

	// token: a continuation token that does not resume (Engine.Resume's TokenError).

	// CodeTokenMalformed: the token is not a well-formed token. Wrong prefix,
	// bad or non-canonical base64, too short, or contents that are not a
	// paused run.
	CodeTokenMalformed = codes.TokenMalformed
	// CodeTokenTooLarge: the token, or its decompressed body, is over its size
	// cap. A run that pauses with a token over the cap fails with it.
	CodeTokenTooLarge = codes.TokenTooLarge
	// CodeTokenVersion: the token's format version is not one this build
	// reads.
	CodeTokenVersion = codes.TokenVersion
	// CodeTokenUnknownKey: the key that sealed the token is not in the
	// keyring. Another machine's key, or one rotated out.
	CodeTokenUnknownKey = codes.TokenUnknownKey
	// CodeTokenTampered: the token's authentication failed; it was modified or
	// forged.
	CodeTokenTampered = codes.TokenTampered
	// CodeTokenExpired: the token's expiry time has passed.
	CodeTokenExpired = codes.TokenExpired
	// CodeTokenNotYetValid: the token was issued further in the future than
	// the allowed clock skew.
	CodeTokenNotYetValid = codes.TokenNotYetValid
	// CodeTokenLifetime: the token's lifetime is too long, or not positive.
	// Its expiry minus its issue time is over the maximum.
	CodeTokenLifetime = codes.TokenLifetime
	// CodeTokenBinding: the token was issued for another engine image, tool
	// set or configuration. The message says which.
	CodeTokenBinding = codes.TokenBinding
	// CodeTokenUsed: the token was already used or revoked (Engine.Revoke,
	// modebox revoke); each token resumes a run once.
	CodeTokenUsed = codes.TokenUsed
	// CodeTokenStoreUnavailable: the used-token record could not be written or
	// read, so nothing ran. A database connection lost, a disk that refuses
	// the write; it fails closed, so the token may not resume later either.
	CodeTokenStoreUnavailable = codes.TokenStoreUnavailable

	// token-store: the PostgreSQL token store (pgstore), for the operator.

	// CodeTokenStoreURLInvalid: the token store's connection string does not
	// parse.
	CodeTokenStoreURLInvalid = codes.TokenStoreURLInvalid
	// CodeTokenStoreSchemaTooNew: the database holds the schema of a later
	// modebox than this one; upgrade this replica.
	CodeTokenStoreSchemaTooNew = codes.TokenStoreSchemaTooNew
	// CodeTokenStoreInvalidID: a claim of something that is not a token id.
	CodeTokenStoreInvalidID = codes.TokenStoreInvalidID

	// mcp: the MCP server's own tool results (run, search, approve).

	// CodeResumeFailed: the paused run could not be resumed, for a reason
	// other than its token. The approve tool, or a retried run, answers it.
	CodeResumeFailed = codes.ResumeFailed
	// CodeResultNotKept: a retried resume's result was too large to keep in
	// the shared store. The retry cannot return it.
	CodeResultNotKept = codes.ResultNotKept
	// CodeInternal: a bug in modebox. A result that cannot be encoded, a
	// recovered panic in the shell's network proxy.
	CodeInternal = codes.Internal

	// http: the MCP server's HTTP handler and its pages, for HTTP clients and browsers.

	// CodeSessionLimit: every session slot is taken by a session with a
	// request in flight (HTTP 503).
	CodeSessionLimit = codes.SessionLimit
	// CodeUnauthorized: the request carries no valid bearer token (401).
	CodeUnauthorized = codes.Unauthorized
	// CodeForbiddenHost: the Host header is not an allowed host (403).
	CodeForbiddenHost = codes.ForbiddenHost
	// CodeForbiddenOrigin: the Origin header is neither the server's own
	// origin nor a listed one (403).
	CodeForbiddenOrigin = codes.ForbiddenOrigin
	// CodeNotFound: no endpoint at this path (404).
	CodeNotFound = codes.NotFound
	// CodeMethodNotAllowed: a page was sent a method it does not take (405).
	CodeMethodNotAllowed = codes.MethodNotAllowed
	// CodeCrossSite: an approval decision was not posted from the approval
	// page itself (403).
	CodeCrossSite = codes.CrossSite
	// CodeBadForm: an approval decision's form could not be read, or its
	// decision is not one of approve, approve_tool and deny (400).
	CodeBadForm = codes.BadForm
	// CodeCSRF: an approval decision's page token is missing or wrong; reload
	// the approval page and decide there (403).
	CodeCSRF = codes.CSRF
	// CodeRunFailed: the runs page's code for a run that ended with an error
	// of the engine rather than a result.
	CodeRunFailed = codes.RunFailed

	// proxy: the shell sandbox's network proxy, whose refusals a program run by sh() sees (the X-Modebox-Proxy-Error header).

	// CodeBadRequest: the proxy does not understand the client's request.
	// Garbage, a truncated greeting, CONNECT without a port, an origin-form
	// HTTP request.
	CodeBadRequest = codes.BadRequest
	// CodeBadHost: the host is written in a refused form. A non-canonical
	// numeric address, an IPv6 zone, a trailing dot, credentials, a wildcard;
	// checked before any lookup.
	CodeBadHost = codes.BadHost
	// CodeUnsupported: a valid request the proxy does not serve. SOCKS BIND or
	// UDP ASSOCIATE, SOCKS authentication, SOCKS4, https:// in an
	// absolute-form request.
	CodeUnsupported = codes.Unsupported
	// CodeBadAddressType: a SOCKS5 request with an unknown address type.
	CodeBadAddressType = codes.BadAddressType
	// CodeHostNotAllowed: the host and port match no entry of the shell's
	// network allowlist (shell.network.allow).
	CodeHostNotAllowed = codes.HostNotAllowed
	// CodeAddressRefused: the address about to be dialled is not allowed. A
	// non- public address that the matched entry does not name literally.
	CodeAddressRefused = codes.AddressRefused
	// CodeResolveFailed: the host name could not be resolved.
	CodeResolveFailed = codes.ResolveFailed
	// CodeDialTimeout: the connection to the target timed out.
	CodeDialTimeout = codes.DialTimeout
	// CodeConnectionRefused: the target refused the connection.
	CodeConnectionRefused = codes.ConnectionRefused
	// CodeNetworkUnreachable: there is no route to the target's network.
	CodeNetworkUnreachable = codes.NetworkUnreachable
	// CodeHostUnreachable: there is no route to the target host.
	CodeHostUnreachable = codes.HostUnreachable
	// CodeDialFailed: the connection to the target failed for another reason.
	CodeDialFailed = codes.DialFailed
	// CodeTooManyConnections: the proxy has as many connections open as it
	// may.
	CodeTooManyConnections = codes.TooManyConnections
	// CodeHeaderTooLarge: a request's or response's header is over its cap.
	CodeHeaderTooLarge = codes.HeaderTooLarge
	// CodeBadUpstreamResponse: the origin's HTTP response could not be read.
	CodeBadUpstreamResponse = codes.BadUpstreamResponse

	// network: the network guard, and the start and stop of the shell's network proxy; fetch() and the proxy report the guard's refusals with codes of their own, so these reach no program.

	// CodeBadConfig: the proxy's configuration is invalid.
	CodeBadConfig = codes.BadConfig
	// CodeListenFailed: the proxy's socket could not be created.
	CodeListenFailed = codes.ListenFailed
	// CodeServerClosed: the proxy is closed.
	CodeServerClosed = codes.ServerClosed
	// CodeBadURL: the network guard refused a URL before any lookup. The proxy
	// and fetch() report it as BAD_HOST and FETCH_BAD_URL.
	CodeBadURL = codes.BadURL

	// config: a configuration modebox refuses (modebox.json, or an EngineConfig, RunOptions or tool field), for the operator and the embedding code; the CLI exits 4 and prints the code.

	// CodeConfigNotFound: the configuration file does not exist or cannot be
	// read. It is named by --config, $MODEBOX_CONFIG or config.Load; a
	// directory where the file should be counts too.
	CodeConfigNotFound = codes.ConfigNotFound
	// CodeConfigSyntax: the configuration file is not valid JSON. The error
	// gives the line and column.
	CodeConfigSyntax = codes.ConfigSyntax
	// CodeConfigInvalid: a configuration value or key is refused. In
	// modebox.json the error gives its JSON Pointer; in the library it is a
	// ConfigError naming the EngineConfig, RunOptions or tool field.
	CodeConfigInvalid = codes.ConfigInvalid
	// CodeConfigExists: the file `modebox init` was to write exists;
	// nothing was written. --force overwrites it.
	CodeConfigExists = codes.ConfigExists
	// CodeConfigWriteFailed: `modebox init` could not write its file (a
	// missing directory, permissions, a full disk).
	CodeConfigWriteFailed = codes.ConfigWriteFailed
)

// ToolError is an error a tool handler may return to give the guest a
// stable code (Code, with Message and the underlying Err); any other error
// reaches the guest as TOOL_ERROR. Its Error method returns the message
// (or the wrapped error's). It is the built-ins' error type too.
type ToolError = errs.Tool

// ConfigError reports an invalid EngineConfig, RunOptions or tool: the
// Field, the Reason and the underlying Err. It renders "modebox: field:
// reason: cause".
type ConfigError = errs.Config

// ErrEngine is wrapped by errors that come from loading the engine image.
var ErrEngine = errors.New("modebox: engine unavailable")
