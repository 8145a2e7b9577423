#!/usr/bin/env bash
# Side-by-side benchmark of modebox against two peers on the same programs
# (bench/programs/{empty,hostcalls100,fib27,json1mb}.js), on this machine:
#
#   modebox  go test -bench in ./internal/engine (whole Engine.Run), plus a
#            cold-start probe (bench/coldstart) in fresh processes.
#   native   QuickJS 2021-03-27, the same sources modebox compiles to wasm
#            (npm qjsc@0.3.0, deps/quickjs_2021_03_27/, integrity-checked),
#            built here with gcc -O2 and driven by bench/native/harness.c.
#            No sandbox and no host boundary: tools.add is a C function that
#            returns an already resolved promise. This is the "limit" figure.
#   goja, modernc  github.com/dop251/goja and modernc.org/quickjs, the
#            engines a Go user would pick instead, driven by bench/peers-go
#            (its own Go module, so modebox's go.mod does not depend on
#            them): same programs, results checked, medians of ROUNDS
#            interleaved rounds and ratios, printed as a second table. The
#            native harness is that table's fourth column, interleaved with
#            the Go engines (bench/peers-go -native), and the targets
#            against native are read from it: modebox and native measured
#            minutes apart (the first table) move apart with this kind of
#            machine's phases.
#   run      the npm package run@2.1.5 (vercel-labs/run: QuickJS in Node
#            worker threads), integrity-checked, installed into a temporary
#            directory and driven by bench/peer-run/driver.mjs.
#
# A second table compares pause → token → resume (continuations) between
# modebox (go test -bench PauseResume in ./integration/) and run
# (bench/peer-run/pause.mjs) on bench/programs/{pause2,pause10}.js; native
# QuickJS has no such mechanism.
#
# Usage (from anywhere; it works from the repo root):
#   bench/peers.sh
# Environment:
#   COUNT=8      go test -count for the modebox benchmarks
#   ROUNDS=16    interleaved rounds of bench/peers-go (modebox, goja, modernc)
#   KEEP=1       keep the temporary directory (its path is printed)
# Needs: go gcc node npm openssl tar awk. Network: the npm registry and the
# Go module proxy (benchstat, optional).
#
# Prints a Markdown table of medians and ratios on stdout; progress goes to
# stderr. Exits non-zero if any step fails or any program gives a wrong result.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROGRAMS=$ROOT/bench/programs
COUNT=${COUNT:-8}
ROUNDS=${ROUNDS:-16}

QJS_PKG=qjsc@0.3.0
QJS_INTEGRITY=sha512-a7+cU6/IVcZbIejffdt/wZVMX6LL2MDL3HQ9Zb5Gm23G9DvBMS/z9GHFxz39bAvp2PvMOM+ypSOAyokt2DdZ2w==
QJS_DIR=package/deps/quickjs_2021_03_27
RUN_PKG=run@2.1.5
RUN_INTEGRITY=sha512-cpq+C8bau0r9KSo2GofT7eCBV1re4mLqioC3ij2uvE8KA7H0HNM+7DNZKHEFyS7QFeji8aQT3sHNJ3nCoPRU4w==

# Iterations for the native harness (cheap) and cold-start processes.
NATIVE_N_EMPTY=2000
NATIVE_N_HOST=2000
NATIVE_N_FIB=30
NATIVE_N_JSON=15
COLD_NOCACHE=3
COLD_CACHED=5
COLD_RUN=5

die() { echo "peers.sh: FAILED: $*" >&2; exit 1; }
step() { echo "peers.sh: $*" >&2; }

for t in go gcc node npm openssl tar awk; do
	command -v "$t" >/dev/null 2>&1 || die "$t not found"
done
for p in empty hostcalls100 fib27 json1mb data10k pause2 pause10; do
	[ -f "$PROGRAMS/$p.js" ] || die "missing $PROGRAMS/$p.js"
done

# The revision measured, taken before anything runs.
rev=$(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(cd "$ROOT" && git status --porcelain --untracked-files=no 2>/dev/null)" ]; then rev="$rev (with uncommitted changes)"; fi

work=$(mktemp -d)
if [ "${KEEP:-}" = 1 ]; then
	step "keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi

expected() {
	case $1 in
	empty) echo '1' ;;
	hostcalls100) echo '5050' ;;
	fib27) echo '196418' ;;
	json1mb) echo '{"bytes":947763,"same":true}' ;;
	pause2) echo 'true' ;;
	pause10) echo '[45,true]' ;;
	esac
}
check() { # engine program got
	local want
	want=$(expected "$2")
	[ "$3" = "$want" ] || die "$1 $2.js returned $3, want $want"
}

# npm_fetch SPEC INTEGRITY -> path of the verified tarball
npm_fetch() {
	local tb got
	tb=$(cd "$work" && npm pack "$1" --silent | tail -n 1) || die "npm pack $1"
	if [ -z "$tb" ] || [ ! -f "$work/$tb" ]; then die "npm pack $1 produced no tarball"; fi
	got="sha512-$(openssl dgst -sha512 -binary "$work/$tb" | openssl base64 -A)"
	[ "$got" = "$2" ] || die "integrity mismatch for $1: got $got"
	echo "$work/$tb"
}

# ---------------------------------------------------------------- setup ---

step "native: fetching $QJS_PKG"
qjs_tb=$(npm_fetch "$QJS_PKG" "$QJS_INTEGRITY")
tar -xzf "$qjs_tb" -C "$work" "$QJS_DIR"
nat=$work/native
mkdir "$nat"
cp "$work/$QJS_DIR"/*.c "$work/$QJS_DIR"/*.h "$nat/"
cp "$ROOT/bench/native/harness.c" "$nat/"
step "native: compiling QuickJS 2021-03-27 with gcc -O2"
QJS_CFLAGS=(-O2 -D_GNU_SOURCE '-DCONFIG_VERSION="2021-03-27"' -DCONFIG_BIGNUM)
pids=()
for f in quickjs libregexp libunicode cutils libbf; do
	(cd "$nat" && gcc "${QJS_CFLAGS[@]}" -w -c "$f.c" -o "$f.o") &
	pids+=($!)
done
(cd "$nat" && gcc "${QJS_CFLAGS[@]}" -Wall -Wextra -Wno-unused-parameter \
	-Wno-cast-function-type -c harness.c -o harness.o) || die "gcc harness.c"
for p in "${pids[@]}"; do
	wait "$p" || die "gcc of QuickJS sources"
done
(cd "$nat" && gcc -o harness harness.o quickjs.o libregexp.o libunicode.o \
	cutils.o libbf.o -lm -lpthread -ldl) || die "link harness"

step "run: fetching $RUN_PKG"
run_tb=$(npm_fetch "$RUN_PKG" "$RUN_INTEGRITY")
peer=$work/runpeer
mkdir "$peer"
echo '{"private":true,"type":"module"}' >"$peer/package.json"
(cd "$peer" && npm install --silent --no-audit --no-fund --ignore-scripts \
	--no-package-lock "$run_tb" >/dev/null) || die "npm install $RUN_PKG"

step "modebox: building bench/coldstart and bench/peers-go"
(cd "$ROOT/bench/peers-go" && go build -o "$work/peers-go" .) || die "go build ./bench/peers-go"
(cd "$ROOT" && go build -o "$work/coldstart" ./bench/coldstart) || die "go build ./bench/coldstart"

# --------------------------------------------------------------- native ---

declare -A NT NP
for p in empty hostcalls100 fib27 json1mb; do
	case $p in
	empty) n=$NATIVE_N_EMPTY ;; hostcalls100) n=$NATIVE_N_HOST ;;
	fib27) n=$NATIVE_N_FIB ;; json1mb) n=$NATIVE_N_JSON ;;
	esac
	step "native: $p.js x $n"
	"$nat/harness" "$n" "$PROGRAMS/$p.js" >"$work/native-$p.txt" || die "native harness on $p.js"
	check native "$p" "$(sed -n 's/^result //p' "$work/native-$p.txt")"
	NT[$p]=$(sed -n 's/^median total_ms=\([^ ]*\) .*/\1/p' "$work/native-$p.txt")
	NP[$p]=$(sed -n 's/^median .*program_ms=\([^ ]*\) .*/\1/p' "$work/native-$p.txt")
	if [ -z "${NT[$p]}" ] || [ -z "${NP[$p]}" ]; then die "no median from native harness on $p.js"; fi
done

# -------------------------------------------------------------- modebox ---

step "modebox: go test -bench (count $COUNT)"
(cd "$ROOT" && go test -run XXX -bench 'RunStart|HostCalls100|Fib27|JSON1MB' \
	-count "$COUNT" ./internal/engine/) >"$work/go-bench.txt" 2>&1 || {
	cat "$work/go-bench.txt" >&2
	die "go test -bench ./internal/engine/"
}
# go_median FILE NAME UNIT DIVISOR -> median over the -count samples of
# BenchmarkNAME's metric UNIT (ns/op, token-bytes, ...), divided by DIVISOR.
go_median() {
	awk -v b="Benchmark$2" -v u="$3" -v d="$4" '
		{ name = $1; sub(/-[0-9]+$/, "", name) }
		name == b { for (i = 4; i <= NF; i++) if ($i == u) v[n++] = $(i - 1) + 0 }
		END {
			if (n == 0) exit 1
			for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
				if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			m = (n % 2) ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2
			printf "%.6f\n", m / d
		}' "$1"
}
declare -A MB
for b in RunStart HostCalls100 Fib27 JSON1MB; do
	MB[$b]=$(go_median "$work/go-bench.txt" "$b" ns/op 1e6) || die "no Benchmark$b results in go test output"
done

step "modebox: go test -bench PauseResume ./integration/ (count $COUNT)"
(cd "$ROOT" && go test -run XXX -bench 'PauseResume' -count "$COUNT" ./integration/) >"$work/go-pause.txt" 2>&1 || {
	cat "$work/go-pause.txt" >&2
	die "go test -bench PauseResume ./integration/"
}
declare -A MBP
for b in PauseResume2 PauseResume10; do
	MBP[$b.cycle]=$(go_median "$work/go-pause.txt" "$b" ns/op 1e6) || die "no Benchmark$b ns/op in go test output"
	MBP[$b.token]=$(go_median "$work/go-pause.txt" "$b" token-bytes 1) || die "no Benchmark$b token-bytes in go test output"
done

cold_median() { # file -> median of first column
	sort -g "$1" | awk '{ v[n++] = $1 } END {
		if (n == 0) exit 1
		printf "%.6f\n", (n % 2) ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2 }'
}
step "modebox: cold start x $COLD_NOCACHE (empty compilation cache)"
: >"$work/cold-nocache.txt"
for i in $(seq "$COLD_NOCACHE"); do
	out=$(MODEBOX_CACHE_DIR="$work/cache-$i" "$work/coldstart" "$PROGRAMS") || die "coldstart"
	check modebox empty "${out#* }"
	echo "${out%% *}" >>"$work/cold-nocache.txt"
done
step "modebox: cold start x $COLD_CACHED (warm compilation cache)"
: >"$work/cold-cached.txt"
for i in $(seq "$COLD_CACHED"); do
	out=$(MODEBOX_CACHE_DIR="$work/cache-1" "$work/coldstart" "$PROGRAMS") || die "coldstart"
	check modebox empty "${out#* }"
	echo "${out%% *}" >>"$work/cold-cached.txt"
done
MB_COLD=$(cold_median "$work/cold-nocache.txt")
MB_COLD_CACHED=$(cold_median "$work/cold-cached.txt")

# -------------------------------------------------------- goja, modernc ---

step "peers-go: modebox, goja, modernc.org/quickjs, native x $ROUNDS interleaved rounds"
"$work/peers-go" -rounds "$ROUNDS" -programs "$PROGRAMS" -native "$nat/harness" \
	-medians "$work/peers-go-medians.txt" >"$work/peers-go.txt" || die "bench/peers-go"
# pg_median ROW ENGINE -> the interleaved median bench/peers-go wrote
pg_median() {
	awk -v r="$1" -v e="$2" '$1 == r && $2 == e { print $3; found = 1 } END { if (!found) exit 1 }' \
		"$work/peers-go-medians.txt"
}
declare -A PG
for k in fib27 json1mb; do
	for e in modebox native; do
		PG[$k.$e]=$(pg_median "$k" "$e") || die "bench/peers-go wrote no median for $k on $e"
	done
done

# ------------------------------------------------------------------ run ---

step "run: driver (cold start x $COLD_RUN, then warm runs)"
node "$ROOT/bench/peer-run/driver.mjs" --peer-dir "$peer" --programs "$PROGRAMS" \
	--cold "$COLD_RUN" >"$work/run.txt" || die "run peer driver"
declare -A RP RN
while read -r kind name ms n value; do
	case $kind in
	figure)
		RP[$name]=$ms
		RN[$name]=$n
		case $name in
		cold_start | warm_run) check run empty "$value" ;;
		*) check run "$name" "$value" ;;
		esac
		;;
	unsupported) RP[$name]="n/a" ;;
	esac
done <"$work/run.txt"
for k in cold_start warm_run hostcalls100 fib27 json1mb; do
	[ -n "${RP[$k]:-}" ] || die "run peer driver gave no figure for $k"
done

step "run: pause driver (pause → token → resume)"
node "$ROOT/bench/peer-run/pause.mjs" --peer-dir "$peer" --programs "$PROGRAMS" \
	>"$work/run-pause.txt" || die "run peer pause driver"
declare -A RPP RPD
while read -r kind name rest; do
	case $kind in
	pause)
		read -r n pms rms cms tok state value <<<"$rest"
		check run "$name" "$value"
		RPP[$name.n]=$n
		RPP[$name.pause]=$pms
		RPP[$name.resume]=$rms
		RPP[$name.cycle]=$cms
		RPP[$name.token]=$tok
		RPP[$name.state]=$state
		;;
	detail) RPD[$name]=$rest ;;
	unsupported)
		step "run: $name: unsupported: $rest"
		RPD[$name]="unsupported: $rest"
		for f in n pause resume cycle token state; do RPP[$name.$f]="n/a"; done
		;;
	esac
done <"$work/run-pause.txt"
for k in pause2 pause10; do
	[ -n "${RPP[$k.cycle]:-}" ] || die "run peer pause driver gave no figure for $k"
done

# ---------------------------------------------------------------- table ---

calc() { awk "BEGIN { printf \"%.${2:-3}f\", $1 }"; }
ratio() { # a b -> "a/b x" or n/a
	case "$1$2" in *n/a*) echo "n/a"; return ;; esac
	awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) print "n/a"; else printf "%.2f×\n", a / b }'
}
fmt() { case $1 in n/a) echo "n/a" ;; *) calc "$1" "${2:-3}" ;; esac; }

# host call round trip = (100-call run - empty run) / 100, in µs
MB_RTT=$(calc "(${MB[HostCalls100]} - ${MB[RunStart]}) * 10" 2)
NT_RTT=$(calc "(${NT[hostcalls100]} - ${NT[empty]}) * 10" 2)
NP_RTT=$(calc "(${NP[hostcalls100]} - ${NP[empty]}) * 10" 2)
RP_RTT=$(calc "(${RP[hostcalls100]} - ${RP[warm_run]}) * 10" 2)

row() { # label modebox native native_prog run
	printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5" \
		"$(ratio "$2" "$3")" "$(ratio "$2" "$5")"
}

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
echo "## bench/peers.sh results"
echo
echo "modebox revision: $rev."
echo "Machine: $(nproc) cores${cpu:+, $cpu}, $(uname -sr); go $(go env GOVERSION), node $(node --version), gcc $(gcc -dumpfullversion)."
echo "modebox: go test -count $COUNT, median ns/op. native: median of N runs (fresh runtime+context each)."
echo "run: $RUN_PKG, median of up to N runs after warm-up; N per row below."
echo
echo "| figure (median) | modebox | native QuickJS whole run | native program only | run@2.1.5 | modebox / native | modebox / run |"
echo "|---|---:|---:|---:|---:|---:|---:|"
row "start of a run, empty.js (ms)" "$(fmt "${MB[RunStart]}")" "$(fmt "${NT[empty]}")" "$(fmt "${NP[empty]}")" "$(fmt "${RP[warm_run]}")"
row "cold start, first run in a new process, no compile cache (ms)" "$(fmt "$MB_COLD" 1)" "n/a" "n/a" "$(fmt "${RP[cold_start]}" 1)"
row "cold start, first run in a new process, warm compile cache (ms)" "$(fmt "$MB_COLD_CACHED" 1)" "n/a" "n/a" "n/a"
row "100 awaited host calls, whole run (ms)" "$(fmt "${MB[HostCalls100]}")" "$(fmt "${NT[hostcalls100]}")" "$(fmt "${NP[hostcalls100]}")" "$(fmt "${RP[hostcalls100]}")"
row "host call round trip (µs)" "$MB_RTT" "$NT_RTT" "$NP_RTT" "$RP_RTT"
row "fib(27), whole run (ms)" "$(fmt "${MB[Fib27]}" 2)" "$(fmt "${NT[fib27]}" 2)" "$(fmt "${NP[fib27]}" 2)" "$(fmt "${RP[fib27]}" 2)"
row "1 MB JSON parse+stringify, whole run (ms)" "$(fmt "${MB[JSON1MB]}" 2)" "$(fmt "${NT[json1mb]}" 2)" "$(fmt "${NP[json1mb]}" 2)" "$(fmt "${RP[json1mb]}" 2)"
echo
echo "Samples: modebox go test -count $COUNT; cold start $COLD_NOCACHE (no cache) / $COLD_CACHED (cached) processes;" \
	"native N = $NATIVE_N_EMPTY / $NATIVE_N_HOST / $NATIVE_N_FIB / $NATIVE_N_JSON (empty / hostcalls100 / fib27 / json1mb);" \
	"run N = ${RN[warm_run]} / ${RN[hostcalls100]} / ${RN[fib27]} / ${RN[json1mb]}, cold ${RN[cold_start]} processes."
echo "Ratios use native's whole run (fresh runtime+context, same scope as Engine.Run)."
echo "Host call round trip = (100-call run - empty run) / 100. Native has no host boundary:"
echo "its tools.add is a C function returning an already resolved promise."
echo

echo "### Go engines side by side: modebox, goja, modernc.org/quickjs"
echo
echo "bench/peers-go: modebox through its public API (modebox.New, Engine.Run with a Go tool),"
echo "a new goja.Runtime and a new quickjs.VM per run; the same sources, every result checked;"
echo "native is the harness of the first table, a child process per row and round timing its own runs"
echo "(200 untimed warm-up runs first on rows of 10 runs or more, one on the others)."
echo "Memory per live run: the process's Pss growth with 64 runs started at once and each waiting"
echo "in its host call (a modebox Go tool blocked on a channel; a pending promise in goja/modernc), / 64."
echo
cat "$work/peers-go.txt"
echo

echo "### pause → token → resume"
echo
echo "| figure (median) | modebox | run@2.1.5 | modebox / run |"
echo "|---|---:|---:|---:|"
prow() { # label modebox run
	printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"
}
for p in pause2 pause10; do
	case $p in pause2) b=PauseResume2 ;; pause10) b=PauseResume10 ;; esac
	prow "$p.js: continuation token (bytes)" "$(fmt "${MBP[$b.token]}" 0)" "$(fmt "${RPP[$p.token]}" 0)"
	prow "$p.js: pause, start → paused result with token (ms)" "n/a" "$(fmt "${RPP[$p.pause]}" 2)"
	prow "$p.js: resume, token → final result (ms)" "n/a" "$(fmt "${RPP[$p.resume]}" 2)"
	prow "$p.js: whole cycle, pause + resume (ms)" "$(fmt "${MBP[$b.cycle]}" 2)" "$(fmt "${RPP[$p.cycle]}" 2)"
done
echo
echo "pause2.js: two tools.fetchData calls with ~1 KB arguments each, then tools.approveMe pauses the run;"
echo "pause10.js: ten tools.fetchData calls, then tools.approveMe (the program of BenchmarkPauseResume10)."
echo "The resume approves the call and the run finishes (pause2.js returns true, pause10.js [45,true])."
echo "modebox: BenchmarkPauseResume2 / BenchmarkPauseResume10 in ./integration/, go test -count $COUNT,"
echo "median ns/op of one Run to the pause plus one Resume of its token; token = its reported token-bytes."
echo "run: bench/peer-run/pause.mjs, createRunner({continuationSecret}) with the package's default signed codec;"
echo "approveMe calls getHostFunctionContext().interrupt(), the resume is runner.run({continuation, resolutions})."
echo "Token = byte length of result.continuation as returned. Pause, resume and cycle are medians of"
echo "N = ${RPP[pause2.n]} / ${RPP[pause10.n]} cycles (pause2 / pause10) after 3 warm-up cycles; the driver checks that a resume"
echo "answers the recorded fetchData calls from the token (none is invoked again)."
echo "run token contents: pause2.js ${RPD[pause2]:-}; pause10.js ${RPD[pause10]:-}."
echo

verdict() { # value op limit
	awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN { ok = (op == "<=") ? (v <= l) : 0; print ok ? "MET" : "MISSED" }'
}
# the ratios to native from bench/peers-go's interleaved rounds, with the
# table's rounding; the first table's (minutes apart) in brackets
FIB_X=$(ratio "$(fmt "${PG[fib27.modebox]}" 2)" "$(fmt "${PG[fib27.native]}" 2)")
FIB_X=${FIB_X%×}
JSON_X=$(ratio "$(fmt "${PG[json1mb.modebox]}" 2)" "$(fmt "${PG[json1mb.native]}" 2)")
JSON_X=${JSON_X%×}
echo "### Targets"
echo
echo "Start and host call: the first table (go test -bench). Against native: bench/peers-go's"
echo "interleaved medians (modebox through its public API, native's harness in the same rounds);"
echo "in brackets the first table's ratio, modebox and native measured minutes apart."
echo
echo "| target | measured | verdict |"
echo "|---|---:|---|"
echo "| start of a run ≤ 0.25 ms median | $(fmt "${MB[RunStart]}") ms | $(verdict "${MB[RunStart]}" "<=" 0.25) |"
echo "| awaited host call round trip ≤ 10 µs | $MB_RTT µs | $(verdict "$MB_RTT" "<=" 10) |"
echo "| fib(27) ≤ 2.5× native | ${FIB_X}× ($(fmt "${PG[fib27.modebox]}" 2) against $(fmt "${PG[fib27.native]}" 2) ms; [$(ratio "$(fmt "${MB[Fib27]}" 2)" "$(fmt "${NT[fib27]}" 2)")]) | $(verdict "$FIB_X" "<=" 2.5) |"
echo "| 1 MB JSON ≤ 2× native | ${JSON_X}× ($(fmt "${PG[json1mb.modebox]}" 2) against $(fmt "${PG[json1mb.native]}" 2) ms; [$(ratio "$(fmt "${MB[JSON1MB]}" 2)" "$(fmt "${NT[json1mb]}" 2)")]) | $(verdict "$JSON_X" "<=" 2) |"
echo

echo "### go test -bench ./internal/engine and -bench PauseResume ./integration/ (count $COUNT)"
echo
echo '```'
# benchstat labels the column with the file name, so give it a short one.
cat "$work/go-bench.txt" "$work/go-pause.txt" >"$work/modebox.txt"
if (cd "$work" && go run golang.org/x/perf/cmd/benchstat@latest modebox.txt) >"$work/benchstat.txt" 2>"$work/benchstat.err"; then
	cat "$work/benchstat.txt"
else
	step "benchstat unavailable ($(tail -n 1 "$work/benchstat.err")); raw go test output follows"
	grep -E '^(Benchmark|goos|goarch|pkg|cpu)' "$work/modebox.txt"
fi
echo '```'
