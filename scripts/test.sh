#!/bin/sh
# The README's test command: on a fresh Debian machine with only Go and the
# package registries, installs what the test suite needs, saying what it
# installs before it does, then runs the whole suite: go test -race ./...
# (with CI set, so that a missing dependency fails a test instead of
# skipping it) and the MCP conformance suite (scripts/conformance.sh).
# .ci/run calls it for its test step.
#
# It installs, when they are missing:
#   Debian (apt-get): bubblewrap (sh() sandbox), curl, passwd (useradd, for
#     the unprivileged sandbox tests), strace, gcc and python3 (the
#     sandbox's syscall tests), nodejs and npm (the MCP reference servers,
#     the TypeScript checks), git, perl, openssl, postgresql and haproxy
#     (the replica tests), chromium (the approval-page browser tests),
#     binaryen (wasm-dis: the engine's check that the image never writes
#     its function table)
#   npm, into .cache/mcp-servers: the reference MCP servers
#     @modelcontextprotocol/server-everything, -filesystem, -memory and
#     -github (listed offline by the tools/list size test)
#   npm, into .cache/conformance: Node 22 (the node@22 package; the
#     differential tests compare modebox with it, $MODEBOX_NODE) and, by
#     scripts/conformance.sh, @modelcontextprotocol/conformance
#
# Installing Debian packages needs root (or sudo). MODEBOX_TEST_NO_INSTALL=1
# installs nothing and only runs the tests. With arguments, only go test
# runs, with them (scripts/test.sh -run TestDoctor ./cli/).
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)

say() { echo "scripts/test.sh: $*" >&2; }

if [ "${MODEBOX_TEST_NO_INSTALL:-}" = "" ]; then
	pkgs=""
	need() { # command package
		command -v "$1" >/dev/null 2>&1 || pkgs="$pkgs $2"
	}
	need bwrap bubblewrap
	need curl curl
	need useradd passwd
	need strace strace
	need gcc gcc
	need git git
	need perl perl
	need openssl openssl
	[ -x /usr/bin/python3 ] || pkgs="$pkgs python3"
	need node nodejs
	need npm npm
	# PostgreSQL and HAProxy: pgstore and internal/scaletest start their own
	# throwaway cluster and load balancer on loopback
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || pkgs="$pkgs postgresql"
	command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || pkgs="$pkgs haproxy"
	need chromium chromium # the approval-page tests drive a real browser
	need wasm-dis binaryen # the engine image's table check disassembles it
	if [ -n "$pkgs" ]; then
		sudo=""
		if [ "$(id -u)" != 0 ]; then
			if command -v sudo >/dev/null 2>&1; then
				sudo=sudo
			else
				say "these Debian packages are missing:$pkgs"
				say "install them as root (apt-get install -y$pkgs) and run me again"
				exit 1
			fi
		fi
		say "installing Debian packages:$pkgs (apt-get install)"
		$sudo apt-get update -qq
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $pkgs >/dev/null
	fi

	servers="$root/.cache/mcp-servers"
	want="@modelcontextprotocol/server-everything@2026.8.31 @modelcontextprotocol/server-filesystem@2026.8.31 @modelcontextprotocol/server-memory@2026.8.31 @modelcontextprotocol/server-github@2025.4.8"
	stamp="$servers/.installed"
	if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
		say "installing the npm reference MCP servers into .cache/mcp-servers: $want"
		mkdir -p "$servers"
		# shellcheck disable=SC2086
		npm install --silent --no-audit --no-fund --prefix "$servers" $want >/dev/null
		echo "$want" >"$stamp"
	fi
	MODEBOX_MCP_SERVERS_DIR="$servers"
	export MODEBOX_MCP_SERVERS_DIR

	# Node 22 for the differential tests (testdata/node), the same copy
	# scripts/conformance.sh uses
	node22="$root/.cache/conformance/node22"
	if [ ! -x "$node22/node_modules/.bin/node" ]; then
		say "installing Node 22 (npm package node@22) into .cache/conformance/node22"
		mkdir -p "$node22"
		timeout 300 npm install --silent --no-audit --no-fund --prefix "$node22" node@22 >/dev/null
	fi
	MODEBOX_NODE="$node22/node_modules/.bin/node"
	export MODEBOX_NODE
fi

# everything above is installed: a test that still lacks something fails
CI="${CI:-1}"
export CI
if [ "$#" -gt 0 ]; then
	say "go test -race $*"
	exec go test -race "$@"
fi
say "go test -race ./..."
go test -race ./...
# the official MCP conformance suite against modebox mcp; it installs Node
# 22 (the npm package node@22) and the suite into .cache/conformance
say "scripts/conformance.sh (installs Node 22 and the MCP conformance suite from npm into .cache/conformance)"
scripts/conformance.sh
