package config

import (
	"encoding/json"
	"time"

	"github.com/modebox/modebox/internal/limits"
	"github.com/modebox/modebox/internal/policy"
)

// Policies a tool rule can set.
const (
	// PolicyAllow lets matching tool calls run without asking.
	PolicyAllow = "allow"
	// PolicyAsk asks the user before each matching tool call runs.
	PolicyAsk = "ask"
	// PolicyDeny refuses matching tool calls.
	PolicyDeny = "deny"
)

// policies lists the valid policies, in the order used in messages.
var policies = []string{PolicyAllow, PolicyAsk, PolicyDeny}

// Config is a parsed modebox.json. The zero value (see [Default]) is the
// configuration used when there is no file: default limits, no tool rules,
// no flows, no MCP servers and every built-in feature off.
//
// A Config is not modified by its methods and is safe for concurrent reads.
type Config struct {
	// File is the name the configuration was loaded or parsed under; empty
	// for [Default].
	File string
	// Schema is the optional "$schema" string. It is there for editors and
	// has no effect.
	Schema string
	// Limits are the caps of each run; zero fields mean the engine's
	// defaults.
	Limits Limits
	// Tools maps a tool pattern (see [Match]) to its rule. Use
	// [Config.PolicyFor] to find the rule that applies to a tool.
	Tools map[string]ToolRule
	// Flows names the tools whose results are sensitive and the tools
	// that send data out.
	Flows Flows
	// MCPServers maps a server name to how to reach it. The name is the
	// namespace of the server's tools: tool "get_issue" of server
	// "github" is "github.get_issue".
	MCPServers map[string]Server
	// Shell, Fetch, FS and MCP hold the "shell", "fetch", "fs" and "mcp"
	// sections as written (always a JSON object when present, nil when
	// absent); an absent or empty section leaves the feature at its
	// defaults, which for the built-in tools means off.
	Shell, Fetch, FS, MCP json.RawMessage
	// ShellTool, FetchTool and FSTool are those sections parsed: nil when
	// the feature is off.
	ShellTool *Shell
	FetchTool *Fetch
	FSTool    *FS
	// MCPSettings is the "mcp" section parsed (its zero value when absent).
	MCPSettings MCP
	// TokenStore is "tokenStore": where used continuation tokens (and the
	// MCP server's retry cache) are recorded, a postgres:// URL shared by
	// replicas or a directory path; empty means the default directory.
	// $MODEBOX_TOKEN_STORE overrides it.
	TokenStore string
	// Warnings are values that parse but are likely mistakes, such as a
	// run timeout written as a bare number below 1000 (milliseconds), each
	// a message that starts with the value's JSON Pointer.
	Warnings []string
}

// Limits are what "limits" sets: the caps of each run (the fields of
// limits.Limits, which is modebox.Limits: "timeout", "memory", "fuel",
// "maxCalls", "maxConcurrency", "maxValue", "maxLog", "maxClockReads",
// "maxTimers"; a zero field means the engine's default: timeout 30s,
// memory 64 MiB, unlimited fuel, 1000 calls, 16 concurrent calls, 4 MiB
// values, 256 KiB of logs, 1,000,000 clock readings, 100,000 timers set),
// and the engine-wide bounds below.
type Limits struct {
	limits.Limits
	// MaxRuns, MaxQueued and QueueTimeout bound the runs of one engine
	// (the CLI's, the MCP server's) at once: "maxRuns", "maxQueued",
	// "queueTimeout". They are engine-wide, not per run.
	MaxRuns, MaxQueued int
	QueueTimeout       time.Duration
	// ApprovalTimeout bounds the wait for a person's answer to an
	// approval request ("approvalTimeout"; engine-wide, default 10m);
	// past it the call is refused with APPROVAL_TIMEOUT.
	ApprovalTimeout time.Duration
}

// ToolRule is what the configuration says about the tools matching one
// pattern under "tools".
type ToolRule struct {
	// Policy is [PolicyAllow], [PolicyAsk] or [PolicyDeny].
	Policy string
}

// Flows marks tools for information-flow control, by pattern (see
// [Match]): data that came from a source is not to reach a sink unchecked.
type Flows struct {
	// Sources are patterns of tools whose results are sensitive.
	Sources []string
	// Sinks are patterns of tools that send data out of the machine or
	// to other people.
	Sinks []string
}

// Server is one entry of "mcpServers", in the format MCP desktop clients
// use, so that existing entries can be pasted unchanged. Exactly one of
// Command (a local server spoken to over stdio) and URL (a remote server
// spoken to over Streamable HTTP) is set.
type Server struct {
	// Command is the program to start for a stdio server. Parsing a file
	// makes a relative path (one with a "/") absolute against Cwd, or the
	// file's directory when Cwd is empty, and "~/" the home directory; a
	// bare name is left for PATH.
	Command string
	// Args are the program's arguments.
	Args []string
	// Env holds environment variables set for the program, on top of the
	// inherited environment.
	Env map[string]string
	// Cwd is the program's working directory; empty means modebox's own.
	// Parsing a file makes a relative one absolute against the file's
	// directory, and "~" the home directory.
	Cwd string
	// URL is the http or https endpoint of a remote server.
	URL string
	// Headers are HTTP headers sent with every request to URL.
	Headers map[string]string
	// Type is the transport the entry declares, if any: "stdio", "http",
	// "streamable-http" or "sse". It is optional and must agree with
	// Command/URL ("stdio" with Command, the others with URL).
	Type string
	// Disabled entries are kept but not started.
	Disabled bool
	// Timeout bounds requests to the server; zero means the default of
	// the MCP client.
	Timeout time.Duration
}

// Transport returns "stdio" for a server with a Command and "http" for
// one with a URL. An entry of Type "sse" reports "http" too; the MCP
// client may look at Type to fall back to the legacy SSE transport.
func (s Server) Transport() string {
	if s.Command != "" {
		return "stdio"
	}
	return "http"
}

// Default returns the configuration used when there is no config file.
func Default() *Config { return &Config{} }

// PolicyFor returns the policy of the most specific "tools" rule matching
// the tool key (such as "github.delete_repo", "sh" or "fs.read"), and
// false if no rule matches. See [Config.RuleFor] for how the rule is chosen.
func (c *Config) PolicyFor(key string) (policy string, ok bool) {
	_, rule, ok := c.RuleFor(key)
	return rule.Policy, ok
}

// RuleFor returns the most specific "tools" rule matching key and its
// pattern, and false if none matches. Among the patterns matching key:
//
//  1. an exact pattern (no "*") wins; otherwise
//  2. the pattern with fewer "*" wins; otherwise
//  3. the longer pattern (more literal characters) wins; otherwise
//  4. the stricter policy wins (deny over ask over allow).
//
// So with "github.*": ask, "*.delete_*": deny and "github.delete_repo":
// allow, "github.delete_repo" is allowed (exact), "github.delete_user" is
// asked ("github.*" has one "*" to two), and "gitlab.delete_x" is denied.
func (c *Config) RuleFor(key string) (pattern string, rule ToolRule, ok bool) {
	if c == nil {
		return "", ToolRule{}, false
	}
	for p, r := range c.Tools {
		if !policy.Match(p, key) {
			continue
		}
		if !ok || policy.MoreSpecific(p, policy.Policy(r.Policy), pattern, policy.Policy(rule.Policy)) {
			pattern, rule, ok = p, r, true
		}
	}
	return pattern, rule, ok
}

// IsSource reports whether key matches a pattern of "flows.sources".
func (c *Config) IsSource(key string) bool {
	return c != nil && policy.MatchAny(c.Flows.Sources, key)
}

// IsSink reports whether key matches a pattern of "flows.sinks".
func (c *Config) IsSink(key string) bool {
	return c != nil && policy.MatchAny(c.Flows.Sinks, key)
}

// Match reports whether a tool pattern matches a tool key; see
// [policy.Match], which it is.
func Match(pattern, key string) bool { return policy.Match(pattern, key) }

// MCP is modebox.json's "mcp" section: settings of `modebox mcp`.
type MCP struct {
	// ApproveTool offers the approve tool to clients that cannot elicit
	// ("approveTool").
	ApproveTool bool
}
