#!/bin/sh
# Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance)
# against modebox's MCP server over Streamable HTTP, with the suite's fixture
# tools added by a test-only program (internal/conformance, a go test entry
# point; no normal build contains the fixtures). Each suite version has a
# baseline of expected failures in testdata/conformance/baseline-<ver>.yml;
# the suite exits non-zero on an unexpected failure or a stale entry.
#
# Needs Go, npm and the npm registry. Node 22 comes from the registry's node
# package (the suite crashes on Node 20). Everything is cached under
# .cache/conformance. CONFORMANCE_PORT overrides the port (default 3791).
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
cache="$root/.cache/conformance"
port="${CONFORMANCE_PORT:-3791}"
url="http://127.0.0.1:$port/mcp"
versions="0.1.16 0.2.0-alpha.12"
mkdir -p "$cache"

npm_install() { # dir package
	[ -d "$1/node_modules" ] && return 0
	timeout 300 npm install --silent --no-audit --no-fund --prefix "$1" "$2" >/dev/null
}
npm_install "$cache/node22" node@22
PATH="$cache/node22/node_modules/.bin:$PATH"
export PATH
for v in $versions; do
	npm_install "$cache/v$v" "@modelcontextprotocol/conformance@$v"
done

go test -c -o "$cache/fixture.test" ./internal/conformance

server_pid=""
stop() {
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
		server_pid=""
	fi
}
trap stop EXIT
trap 'stop; exit 130' INT TERM

MODEBOX_CONFORMANCE_SERVE="127.0.0.1:$port" timeout 900 "$cache/fixture.test" \
	-test.run '^TestConformanceServer$' -test.v >"$cache/server.log" 2>&1 &
server_pid=$!
ready=""
for _ in $(seq 1 100); do
	# The server prints its URL once it listens.
	if grep -q '^conformance server: ' "$cache/server.log" 2>/dev/null; then
		ready=1
		break
	fi
	kill -0 "$server_pid" 2>/dev/null || break
	sleep 0.1
done
if [ -z "$ready" ]; then
	echo "conformance: fixture server did not start:" >&2
	cat "$cache/server.log" >&2
	exit 1
fi

status=0
run() { # version label args...
	v=$1
	label=$2
	shift 2
	out="$cache/out-$label.txt"
	if timeout 300 "$cache/v$v/node_modules/.bin/conformance" server --url "$url" \
		--expected-failures "testdata/conformance/baseline-$v.yml" "$@" >"$out" 2>&1; then
		echo "ok   $label: $(grep -E '^Total:' "$out" | tail -1 | sed 's/^Total: //'), all failures baselined"
	else
		echo "FAIL $label (full output: $out)" >&2
		sed -n '/=== SUMMARY ===/,$p' "$out" >&2
		status=1
	fi
}
run 0.1.16 0.1.16
run 0.2.0-alpha.12 0.2.0-alpha.12
run 0.2.0-alpha.12 0.2.0-alpha.12-2026-07-28 --requirements 2026-07-28
exit $status
