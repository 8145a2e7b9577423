// Package conformance holds the test-only fixture server for the official
// MCP conformance suite (npm @modelcontextprotocol/conformance), run by
// scripts/conformance.sh. The fixture tools live in _test.go files only, so
// no normal build of modebox can reach them.
package conformance
