#!/bin/sh
# Regenerates internal/intl/cldr.json.gz, the CLDR data modebox's Intl uses,
# from FormatJS's locale-data packages pinned (name, version, integrity) by
# package-lock.json beside this script. CI regenerates it and fails if the
# bytes differ from the committed file.
#
# Usage: internal/intl/gen/gen.sh [OUTPUT]   Needs: node, npm, gzip
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/../cldr.json.gz"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/package.json" "$here/package-lock.json" "$here/gen.mjs" "$work/"
# the cldr-cal-* packages declare peers of their own (older) CLDR version
(cd "$work" && npm ci --silent --no-audit --no-fund --ignore-scripts --legacy-peer-deps >/dev/null)
node "$work/gen.mjs" >"$work/cldr.json"
gzip -9 -n <"$work/cldr.json" >"$work/cldr.json.gz"
cp "$work/cldr.json.gz" "$out"
echo "gen.sh: wrote $out ($(wc -c <"$out") bytes)"
