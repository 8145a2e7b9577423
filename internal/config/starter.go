package config

import "slices"

// starter is the file "modebox init" writes. It is plain JSON (no
// comments) and must parse; a test checks that.
const starter = `{
  "limits": {
    "timeout": "30s",
    "memory": "64MiB",
    "maxCalls": 1000,
    "maxConcurrency": 16,
    "maxValue": "4MiB",
    "maxLog": "256KiB"
  },
  "tools": {
    "everything.*": {"policy": "ask"},
    "everything.echo": {"policy": "allow"},
    "*.delete_*": {"policy": "deny"},
    "sh": {"policy": "ask"},
    "fetch": {"policy": "ask"},
    "fs.*": {"policy": "ask"}
  },
  "flows": {
    "sources": ["fs.*"],
    "sinks": ["fetch", "sh"]
  },
  "mcpServers": {
    "everything": {
      "disabled": true,
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-everything"]
    }
  },
  "shell": {},
  "fetch": {},
  "fs": {},
  "mcp": {}
}
`

// Starter returns a starter modebox.json: the default limits written out,
// one example MCP server, disabled (the MCP reference server "everything",
// started with npx once "disabled" is removed: a console-only run starts
// no server), example tool policies and flows, and empty "shell", "fetch", "fs"
// and "mcp" sections, which leave the built-in tools off. It is valid JSON
// without comments and parses with [Parse]. The caller may modify the
// result.
func Starter() []byte { return slices.Clone([]byte(starter)) }
