// Package scaletest holds the tests of modebox as several replicas: real
// `modebox mcp --http` processes sharing a throwaway PostgreSQL cluster,
// behind a real HAProxy, driven by MCP clients of both protocol
// generations. It has no code of its own.
package scaletest
