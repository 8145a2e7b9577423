#!/usr/bin/env bash
# Side-by-side cost of modebox's sh() and Anthropic's sandbox-runtime (npm
# @anthropic-ai/sandbox-runtime, CLI `srt`) running the same shell command
# under bubblewrap on this machine. Two workloads: `true` and
# `ls -la /usr/bin | wc -l`. For each one it measures wall-clock time per
# invocation, N times, and reports the median:
#
#   bare exec     /bin/sh -c CMD                         (exec floor)
#   bwrap floor   bwrap --ro-bind / / --unshare-all --die-with-parent /bin/true
#                 (or /bin/sh -c CMD for the heavier command)
#   srt CLI       srt --settings S -c CMD     (node start + proxies + sandbox)
#   modebox CLI   modebox run --config C P    (engine start + preflight +
#                 one sandboxed command; P is `await sh(CMD)`)
#   modebox ×20   modebox run of a program that awaits sh(CMD) 20 times;
#                 reported ÷ 20 and as the marginal cost (t20 − t1) ÷ 19
#   srt library   SandboxManager.initialize once, then per command
#                 wrapWithSandbox + spawn + wait + cleanupAfterCommand, timed
#                 inside node (the in-process counterpart of modebox ×20)
#   go bench      go test -bench 'BenchmarkRunTrue|BenchmarkExecTrue'
#                 ./internal/sandbox/ (in-process sandbox.Run and plain exec;
#                 `true` only, the benchmarks exist for nothing else)
#
# Setup (idempotent): apt-get installs bubblewrap, socat and ripgrep (srt's
# Linux dependencies) and hyperfine if missing; npm installs the pinned srt
# into .cache/srt; go build writes .cache/modebox. Settings, configuration,
# programs and the workspace live in a temporary directory. Before timing,
# each variant's output is checked against the bare command and both
# sandboxes are checked to keep writes inside the workspace.
#
# Usage (from anywhere):  bench/sh-vs-srt.sh
# Environment:
#   N=30         timed runs per variant (also the srt library loop)
#   WARMUP=3     untimed runs first
#   COUNT=5      go test -count for the in-process benchmarks (0: skip them)
#   TIMER=auto   hyperfine (if installed or installable) | loop (a bash
#                round-robin loop timed with $EPOCHREALTIME, else date +%s%N)
#   KEEP=1       keep the temporary directory (its path is printed)
# Needs: bash go node npm awk sort, apt-get (or the packages already there).
# Network: Debian apt and the npm registry on first run.
#
# Prints Markdown tables on stdout; progress goes to stderr. If srt cannot
# run, its error is printed and its rows say n/a; everything else is still
# measured. Exits non-zero if modebox or a floor fails or gives a wrong
# result.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=${N:-30}
WARMUP=${WARMUP:-3}
COUNT=${COUNT:-5}
TIMER=${TIMER:-auto}
LOOP=20

SRT_PKG=@anthropic-ai/sandbox-runtime
SRT_VERSION=0.0.83
SRT_DIR=$ROOT/.cache/srt
SRT_PKGDIR=$SRT_DIR/node_modules/$SRT_PKG
SRT=$SRT_DIR/node_modules/.bin/srt
MODEBOX=$ROOT/.cache/modebox

log() { printf '%s\n' "$*" >&2; }
die() { log "sh-vs-srt: $*"; exit 1; }

# ---------------------------------------------------------------- packages

as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo "$@"
	else
		return 1
	fi
}

APT_UPDATED=
apt_install() {
	command -v apt-get >/dev/null 2>&1 || return 1
	if [ -z "$APT_UPDATED" ]; then
		as_root apt-get update -qq >&2 || return 1
		APT_UPDATED=1
	fi
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends "$@" >&2
}

for tool in go node npm awk sort; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is required"
done

missing=()
for pair in bwrap:bubblewrap socat:socat rg:ripgrep; do
	command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "== apt-get install ${missing[*]}"
	apt_install "${missing[@]}" || log "warning: could not install ${missing[*]}"
fi
command -v bwrap >/dev/null 2>&1 || die "bubblewrap (bwrap) is required"

case $TIMER in
auto | hyperfine)
	if ! command -v hyperfine >/dev/null 2>&1; then
		log "== apt-get install hyperfine"
		apt_install hyperfine || log "warning: could not install hyperfine"
	fi
	if command -v hyperfine >/dev/null 2>&1; then
		TIMER=hyperfine
	elif [ "$TIMER" = hyperfine ]; then
		die "TIMER=hyperfine but hyperfine is not available"
	else
		TIMER=loop
	fi
	;;
loop) ;;
*) die "TIMER must be auto, hyperfine or loop" ;;
esac

# --------------------------------------------------------------- srt, modebox

installed=$(node -p 'require(process.argv[1]).version' "$SRT_PKGDIR/package.json" 2>/dev/null || true)
if [ "$installed" != "$SRT_VERSION" ] || [ ! -x "$SRT" ]; then
	log "== npm install $SRT_PKG@$SRT_VERSION into .cache/srt"
	mkdir -p "$SRT_DIR"
	(cd "$ROOT" && npm install --prefix .cache/srt --no-audit --no-fund \
		--loglevel=error "$SRT_PKG@$SRT_VERSION" >&2)
fi
SRT_NODE_ENGINE=$(node -p 'require(process.argv[1]).engines?.node ?? "any"' "$SRT_PKGDIR/package.json")

log "== go build -o .cache/modebox ./cmd/modebox"
(cd "$ROOT" && go build -o .cache/modebox ./cmd/modebox)

# ------------------------------------------------------------ temporary files

TMP=$(mktemp -d "${TMPDIR:-/tmp}/sh-vs-srt.XXXXXX")
if [ "${KEEP:-}" = 1 ]; then
	log "keeping $TMP"
else
	trap 'rm -rf "$TMP"' EXIT
fi
WS=$TMP/ws
SRT_WS=$TMP/srt-ws
mkdir -p "$WS" "$SRT_WS"
if [ "$(id -u)" = 0 ]; then
	# As root, modebox runs commands as the workspace's owner, never as
	# host uid 0 unless told to: give its workspace to nobody, the way a
	# root service would hold a user's project. srt keeps a root-owned
	# one (it creates mount points for its protected files in it).
	chmod 755 "$TMP"
	chown 65534:65534 "$WS"
fi
SETTINGS=$TMP/srt-settings.json
CONFIG=$TMP/modebox.json

# srt: writes only in the workspace, no network (an empty allow list).
cat >"$SETTINGS" <<EOF
{
  "network": {"allowedDomains": [], "deniedDomains": []},
  "filesystem": {"denyRead": [], "allowWrite": ["$SRT_WS"], "denyWrite": []}
}
EOF
cat >"$CONFIG" <<EOF
{"shell": {"enabled": true, "workspace": ["$WS"]}, "tools": {"sh": {"policy": "allow"}}}
EOF

WORKLOADS=(true heavy)
declare -A SCRIPT=([true]='true' [heavy]='ls -la /usr/bin | wc -l')

# The scripts hold no quote or backslash, so a single-quoted JS string works.
for w in "${WORKLOADS[@]}"; do
	s=${SCRIPT[$w]}
	case $s in *"'"* | *'\'*) die "script for $w needs quoting" ;; esac
	cat >"$TMP/$w-1.js" <<EOF
const r = await sh('$s');
if (r.exitCode !== 0) throw new Error("sh() failed: " + JSON.stringify(r));
return r.exitCode;
EOF
	cat >"$TMP/$w-$LOOP.js" <<EOF
for (let i = 0; i < $LOOP; i++) {
  const r = await sh('$s');
  if (r.exitCode !== 0) throw new Error("sh() failed: " + JSON.stringify(r));
}
return $LOOP;
EOF
	cat >"$TMP/$w-check.js" <<EOF
const r = await sh('$s');
if (r.exitCode !== 0) throw new Error("sh() failed: " + JSON.stringify(r));
return r.stdout.trim();
EOF
done

cat >"$TMP/escape.js" <<EOF
await sh('touch $TMP/outside-modebox');
await sh('touch $WS/inside-modebox');
return 0;
EOF

# The srt library driver: one initialize, then WARMUP + N commands, each
# timed from wrapWithSandbox to the child's exit and cleanup. Prints the
# median and minimum in nanoseconds and the first command's stdout (JSON).
cat >"$TMP/srt-lib.mjs" <<'EOF'
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [pkgDir, settingsPath, script, nArg, warmupArg] = process.argv.slice(2);
const n = Number(nArg), warmup = Number(warmupArg);
const { SandboxManager } = await import(pathToFileURL(path.join(pkgDir, 'dist', 'index.js')).href);

function runOnce(cmd) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    child.stdout.on('data', d => { out += d; });
    child.stderr.on('data', d => { err += d; });
    child.on('error', reject);
    child.on('close', code => {
      if (code !== 0) reject(new Error(`exit ${code}: ${err.trim()}`));
      else resolve(out);
    });
  });
}

const times = [];
let first = null;
try {
  await SandboxManager.initialize(JSON.parse(readFileSync(settingsPath, 'utf8')));
  for (let i = 0; i < warmup + n; i++) {
    const t0 = process.hrtime.bigint();
    const wrapped = await SandboxManager.wrapWithSandbox(script);
    const out = await runOnce(wrapped);
    SandboxManager.cleanupAfterCommand();
    const dt = process.hrtime.bigint() - t0;
    if (first === null) first = out;
    if (i >= warmup) times.push(Number(dt));
  }
} catch (e) {
  console.error(`run ${times.length + 1 + (first === null ? 0 : warmup)}: ${e?.message ?? e}`);
  process.exit(1);
}
times.sort((a, b) => a - b);
const m = times.length % 2 ? times[(times.length - 1) / 2]
  : (times[times.length / 2 - 1] + times[times.length / 2]) / 2;
console.log(`median_ns ${Math.round(m)}`);
console.log(`min_ns ${times[0]}`);
console.log(`stdout ${JSON.stringify(first)}`);
await SandboxManager.reset();
process.exit(0);
EOF

# ----------------------------------------------------------------- commands

# Single-quote a word for the command strings (parsed by bash for the loop
# timer and by hyperfine's POSIX-style splitter).
q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

declare -A CMD LABEL MED MIN
NOTES=()
KEYS=()
add() { # key label command-string
	KEYS+=("$1")
	LABEL[$1]=$2
	CMD[$1]=$3
}

BWRAP_FLOOR='bwrap --ro-bind / / --unshare-all --die-with-parent'
for w in "${WORKLOADS[@]}"; do
	s=${SCRIPT[$w]}
	add "$w.bare" "bare exec: \`/bin/sh -c $(q "$s")\`" "/bin/sh -c $(q "$s")"
	if [ "$w" = true ]; then
		add "$w.bwrap" "bwrap floor: \`$BWRAP_FLOOR /bin/true\`" "$BWRAP_FLOOR /bin/true"
	else
		add "$w.bwrap" "bwrap floor: \`$BWRAP_FLOOR /bin/sh -c $(q "$s")\`" \
			"$BWRAP_FLOOR /bin/sh -c $(q "$s")"
	fi
	add "$w.srt" "srt CLI: \`srt --settings S -c $(q "$s")\`" \
		"$(q "$SRT") --settings $(q "$SETTINGS") -c $(q "$s")"
	add "$w.mb1" "modebox CLI: \`modebox run --config C\` of \`await sh($(q "$s"))\`" \
		"$(q "$MODEBOX") run --config $(q "$CONFIG") $(q "$TMP/$w-1.js")"
	add "$w.mb$LOOP" "modebox CLI, $LOOP × sh() in one run (whole run)" \
		"$(q "$MODEBOX") run --config $(q "$CONFIG") $(q "$TMP/$w-$LOOP.js")"
done

# ------------------------------------------------------------ sanity checks

cd "$WS"
log "== checks"
SRT_OK=1
SRT_ERR=
for w in "${WORKLOADS[@]}"; do
	s=${SCRIPT[$w]}
	want=$(/bin/sh -c "$s")
	got=$(eval "${CMD[$w.bwrap]}") || die "bwrap floor failed for $w"
	[ "$w" = true ] || [ "$got" = "$want" ] || die "bwrap floor: $w gave '$got', want '$want'"
	got=$("$MODEBOX" run --config "$CONFIG" "$TMP/$w-check.js") || die "modebox run failed for $w"
	[ "$got" = "\"$want\"" ] || die "modebox: $w gave $got, want \"$want\""
	for k in "$w.mb1" "$w.mb$LOOP"; do
		eval "${CMD[$k]}" >/dev/null || die "${LABEL[$k]} failed"
	done
	if [ "$SRT_OK" = 1 ]; then
		if got=$(eval "${CMD[$w.srt]}" 2>"$TMP/srt.err"); then
			if [ "$got" != "$want" ]; then
				SRT_OK=0
				SRT_ERR="srt -c '$s' printed '$got', want '$want'"
			fi
		else
			rc=$?
			SRT_OK=0
			SRT_ERR="srt -c '$s' exited $rc: $(cat "$TMP/srt.err")"
		fi
	fi
done
"$MODEBOX" run --config "$CONFIG" "$TMP/escape.js" >/dev/null || die "modebox escape probe failed to run"
[ ! -e "$TMP/outside-modebox" ] || die "modebox sh() wrote outside its workspace"
[ -e "$WS/inside-modebox" ] || die "modebox sh() could not write in its workspace"
if [ "$SRT_OK" = 1 ]; then
	"$SRT" --settings "$SETTINGS" -c "touch $TMP/outside-srt; touch $SRT_WS/inside-srt" >/dev/null 2>&1 || true
	if [ -e "$TMP/outside-srt" ]; then
		SRT_OK=0
		SRT_ERR="srt let a command write outside its workspace ($TMP/outside-srt)"
	elif [ ! -e "$SRT_WS/inside-srt" ]; then
		SRT_OK=0
		SRT_ERR="srt could not write in its workspace ($SRT_WS)"
	fi
fi
if [ "$SRT_OK" = 0 ]; then
	log "srt cannot run here: $SRT_ERR"
	log "(measuring everything else)"
	for w in "${WORKLOADS[@]}"; do
		unset "CMD[$w.srt]"
	done
fi

# ---------------------------------------------------------------- timing

median() { # numbers on stdin -> median
	sort -n | awk '{v[NR] = $1} END {
		if (NR == 0) exit 1
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

LOADAVG_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')

active=()
for k in "${KEYS[@]}"; do
	[ -n "${CMD[$k]+x}" ] && active+=("$k")
done

if [ "$TIMER" = hyperfine ]; then
	for w in "${WORKLOADS[@]}"; do
		args=()
		for k in "${active[@]}"; do
			[ "${k%%.*}" = "$w" ] && args+=(-n "$k" "${CMD[$k]}")
		done
		log "== hyperfine: $w"
		hyperfine -N --style basic --runs "$N" --warmup "$WARMUP" \
			--export-csv "$TMP/$w.csv" "${args[@]}" >&2
		# command,mean,stddev,median,user,system,min,max (seconds)
		while read -r k m lo; do
			MED[$k]=$(awk -v s="$m" 'BEGIN {printf "%.3f", s * 1000}')
			MIN[$k]=$(awk -v s="$lo" 'BEGIN {printf "%.3f", s * 1000}')
		done < <(awk -F, 'NR > 1 {print $1, $4, $7}' "$TMP/$w.csv")
	done
else
	log "== loop timer: $N rounds (+$WARMUP warm-up), each running every variant once"
	stamp() {
		if [ -n "${EPOCHREALTIME:-}" ]; then
			T=${EPOCHREALTIME/[.,]/}
			T=$((10#$T * 1000))
		else
			T=$(date +%s%N)
		fi
	}
	for ((r = 0; r < WARMUP + N; r++)); do
		for k in "${active[@]}"; do
			stamp
			t0=$T
			eval "${CMD[$k]}" >/dev/null 2>&1 </dev/null || die "${LABEL[$k]} failed"
			stamp
			[ "$r" -ge "$WARMUP" ] && echo $((T - t0)) >>"$TMP/$k.ns"
		done
	done
	for k in "${active[@]}"; do
		MED[$k]=$(median <"$TMP/$k.ns" | awk '{printf "%.3f", $1 / 1e6}')
		MIN[$k]=$(sort -n "$TMP/$k.ns" | awk 'NR == 1 {printf "%.3f", $1 / 1e6}')
	done
fi

if [ "$SRT_OK" = 1 ]; then
	for w in "${WORKLOADS[@]}"; do
		log "== srt library loop: $w"
		if out=$(node "$TMP/srt-lib.mjs" "$SRT_PKGDIR" "$SETTINGS" "${SCRIPT[$w]}" "$N" "$WARMUP" 2>"$TMP/srt-lib.err"); then
			MED[$w.srtlib]=$(printf '%s\n' "$out" | awk '$1 == "median_ns" {printf "%.3f", $2 / 1e6}')
			MIN[$w.srtlib]=$(printf '%s\n' "$out" | awk '$1 == "min_ns" {printf "%.3f", $2 / 1e6}')
			want=$(/bin/sh -c "${SCRIPT[$w]}")
			first=$(printf '%s\n' "$out" | sed -n 's/^stdout //p')
			if [ "$w" != true ] && [ "$first" != "\"$want\\n\"" ]; then
				log "warning: srt library printed $first for $w, want \"$want\\n\""
			fi
		else
			err=$(tr '\n' ' ' <"$TMP/srt-lib.err")
			log "warning: srt library loop failed for $w: $err"
			NOTES+=("srt library loop for \`${SCRIPT[$w]}\` failed: $err")
		fi
	done
fi

GOBENCH_OUT=
if [ "$COUNT" -gt 0 ]; then
	log "== go test -run '^\$' -bench 'BenchmarkRunTrue|BenchmarkExecTrue' -count $COUNT ./internal/sandbox/"
	GOBENCH_OUT=$(cd "$ROOT" && go test -run '^$' -bench 'BenchmarkRunTrue|BenchmarkExecTrue' \
		-count "$COUNT" ./internal/sandbox/ 2>&1) || { log "$GOBENCH_OUT"; die "go test -bench failed"; }
	log "$GOBENCH_OUT"
	for b in RunTrue ExecTrue; do
		printf '%s\n' "$GOBENCH_OUT" |
			awk -v b="Benchmark$b" '$1 == b || index($1, b "-") == 1 {print $3}' >"$TMP/go$b.ns"
		m=$(median <"$TMP/go$b.ns") || die "no Benchmark$b results"
		MED[true.go$b]=$(awk -v n="$m" 'BEGIN {printf "%.3f", n / 1e6}')
		MIN[true.go$b]=$(sort -n "$TMP/go$b.ns" | awk 'NR == 1 {printf "%.3f", $1 / 1e6}')
	done
fi

LOADAVG_AFTER=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')

# ---------------------------------------------------------------- report

for w in "${WORKLOADS[@]}"; do
	if [ -n "${MED[$w.mb1]:-}" ] && [ -n "${MED[$w.mb$LOOP]:-}" ]; then
		MED[$w.per]=$(awk -v t="${MED[$w.mb$LOOP]}" -v l="$LOOP" 'BEGIN {printf "%.3f", t / l}')
		MED[$w.marg]=$(awk -v t="${MED[$w.mb$LOOP]}" -v o="${MED[$w.mb1]}" -v l="$LOOP" \
			'BEGIN {printf "%.3f", (t - o) / (l - 1)}')
	fi
done

ratio() { # a b -> a/b with two decimals, or empty
	[ -n "$1" ] && [ -n "$2" ] || return 0
	awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f", a / b}'
}
cell() { # markdown-safe cell text
	printf '%s' "${1//|/\\|}"
}
row() { # workload key label srt-pair(cli|lib|)
	local w=$1 k=$2 label=$3 pair=$4 m=${MED[$2]:-} vs=
	case $pair in
	cli) vs=$(ratio "$m" "${MED[$w.srt]:-}") ;;
	lib) vs=$(ratio "$m" "${MED[$w.srtlib]:-}") ;;
	esac
	[ -n "$pair" ] && [ -z "$vs" ] && vs=n/a
	printf '| %s | %s | %s | %s | %s |\n' "$(cell "$label")" "${m:-n/a}" "${MIN[$k]:-}" \
		"$(ratio "$m" "${MED[$w.bare]:-}")" "$vs"
}

cat <<EOF

# modebox sh() vs srt $SRT_VERSION

Machine: $(nproc) cores, $(uname -sr), load average $LOADAVG_BEFORE before, $LOADAVG_AFTER after.
Tools: node $(node --version) (srt declares node $SRT_NODE_ENGINE), $(bwrap --version), $(go version | cut -d' ' -f3),
timer: $( [ "$TIMER" = hyperfine ] && hyperfine --version || echo "bash loop, round-robin") ($N runs + $WARMUP warm-up per variant; go test -count $COUNT).
EOF
if [ "$SRT_OK" = 0 ]; then
	printf '\n**srt could not run here:** %s\n' "$(cell "$SRT_ERR")"
fi

for w in "${WORKLOADS[@]}"; do
	cat <<EOF

## \`$(cell "${SCRIPT[$w]}")\`

| command | median ms | min ms | × bare exec | modebox / srt |
|---|---:|---:|---:|---:|
EOF
	row "$w" "$w.bare" "${LABEL[$w.bare]}" ""
	row "$w" "$w.bwrap" "${LABEL[$w.bwrap]}" ""
	row "$w" "$w.srt" "${LABEL[$w.srt]}" ""
	row "$w" "$w.mb1" "${LABEL[$w.mb1]}" cli
	row "$w" "$w.mb$LOOP" "${LABEL[$w.mb$LOOP]}" ""
	row "$w" "$w.per" "modebox: one sh() with the engine up = ($LOOP × run) ÷ $LOOP" lib
	row "$w" "$w.marg" "modebox: marginal sh() = ($LOOP × run − 1 × run) ÷ $((LOOP - 1))" lib
	row "$w" "$w.srtlib" "srt library: one command with node + proxies up (wrapWithSandbox + spawn + cleanup)" ""
	if [ "$w" = true ] && [ "$COUNT" -gt 0 ]; then
		row "$w" "$w.goExecTrue" "go bench BenchmarkExecTrue (in-process exec.Command, unconfined)" ""
		row "$w" "$w.goRunTrue" "go bench BenchmarkRunTrue (in-process sandbox.Run, what one sh() costs)" lib
	fi
done

cat <<EOF

"modebox / srt": the modebox CLI row is divided by the srt CLI row (both
start a runtime and run one sandboxed command); the per-command rows are
divided by the srt library row (both with the runtime already up).
srt runs its command with bash -c, modebox with /bin/sh -c. Ratios are of
medians; "min ms" is the fastest run (least disturbed by other load).
Derived rows (÷ $LOOP, marginal) have no minimum of their own.
EOF
load=${LOADAVG_AFTER%% *}
if awk -v l="${load:-0}" -v c="$(nproc)" 'BEGIN {exit !(l > c)}'; then
	NOTES+=("the load average ($LOADAVG_BEFORE → $LOADAVG_AFTER) exceeded the $(nproc) cores: other work shared the CPUs, so expect noise, most of all in CPU-heavy rows")
fi
if [ ${#NOTES[@]} -gt 0 ]; then
	printf '\nNotes:\n'
	printf -- '- %s\n' "${NOTES[@]}"
fi
