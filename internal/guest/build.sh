#!/bin/sh
# Builds the modebox engine image (modebox.wasm) from QuickJS 2021-03-27.
#
# The QuickJS sources come from the npm package qjsc@0.3.0
# (deps/quickjs_2021_03_27/), pinned by the tarball's integrity hash. They are
# fetched at build time and never committed. Our patches (patches/) and glue
# (src/glue.c) are applied and compiled with Debian's clang-19, lld-19 and
# wasi-libc into a wasm32 reactor module that imports only env.host_event and
# env.host_clock, then optimised by binaryen's wasm-opt -O3 (Debian's
# binaryen 108; measured: fib(27) 5% faster, the image 11% smaller).
# memcpy, memmove, memset and memcmp are ours (src/memfast.c, the one file
# built with bulk memory), not wasi-libc's byte and word loops.
#
# Usage: internal/guest/build.sh [OUTPUT]   (default: internal/guest/modebox.wasm)
# Needs: clang-19 lld-19 libclang-rt-19-dev-wasm32 wasi-libc binaryen npm patch openssl
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/modebox.wasm"}

PKG=qjsc@0.3.0
INTEGRITY=sha512-a7+cU6/IVcZbIejffdt/wZVMX6LL2MDL3HQ9Zb5Gm23G9DvBMS/z9GHFxz39bAvp2PvMOM+ypSOAyokt2DdZ2w==
SRCDIR=package/deps/quickjs_2021_03_27
STACK_SIZE=524288
# pages the heap needs after init, so a restored run does not grow memory
INITIAL_MEMORY=851968

CC=${CC:-clang-19}
LD=${LD:-wasm-ld-19}
WASM_OPT=${WASM_OPT:-wasm-opt}
SYSROOT=${WASI_SYSROOT:-/usr}
BUILTINS=${WASM_BUILTINS:-/usr/lib/llvm-19/lib/clang/19/lib/wasi/libclang_rt.builtins-wasm32.a}

for tool in "$CC" "$LD" "$WASM_OPT" npm patch openssl tar; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "build.sh: $tool not found (apt-get install clang-19 lld-19 libclang-rt-19-dev-wasm32 wasi-libc binaryen patch openssl; npm from Node.js)" >&2
		exit 1
	}
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Fetch the tarball through npm (registry and proxy settings apply) and check
# its integrity before anything reads it.
tarball=$(cd "$work" && npm pack "$PKG" --silent 2>/dev/null | tail -n 1)
got="sha512-$(openssl dgst -sha512 -binary "$work/$tarball" | openssl base64 -A)"
if [ "$got" != "$INTEGRITY" ]; then
	echo "build.sh: integrity mismatch for $PKG: got $got" >&2
	exit 1
fi
tar -xzf "$work/$tarball" -C "$work" "$SRCDIR"
src="$work/src"
mv "$work/$SRCDIR" "$src"
for p in "$here"/patches/*.patch; do
	patch -s -p1 -d "$src" <"$p"
done
cp "$here/src/glue.c" "$src/glue.c"
# included into quickjs.c by the patches
cp "$here/src/json_fast.c" "$here/src/numfmt.c" "$here/src/pow10.h" "$src/"

CFLAGS="--target=wasm32-wasi -nostdlibinc -isystem $SYSROOT/include/wasm32-wasi
 -O2 -funsigned-char -D_GNU_SOURCE -DCONFIG_VERSION=\"2021-03-27\" -DCONFIG_BIGNUM
 -fno-ident -ffile-prefix-map=$src=quickjs -fmacro-prefix-map=$src=quickjs
"

objs=""
for f in quickjs libregexp libunicode cutils libbf glue; do
	# shellcheck disable=SC2086
	warn=-Wno-everything
	[ "$f" = glue ] && warn="-Wall -Wextra -Werror -Wno-unused-parameter -Wno-cast-function-type-mismatch"
	(cd "$src" && $CC $CFLAGS $warn -c "$f.c" -o "$f.o")
	objs="$objs $src/$f.o"
done
# memcpy, memmove, memset, memcmp in place of wasi-libc's (see the file)
cp "$here/src/memfast.c" "$src/memfast.c"
# shellcheck disable=SC2086
(cd "$src" && $CC $CFLAGS -mbulk-memory -fno-builtin -Wall -Wextra -Werror -c memfast.c -o memfast.o)
objs="$src/memfast.o $objs"

libdir="$SYSROOT/lib/wasm32-wasi"
# shellcheck disable=SC2086
$LD -o "$work/modebox.wasm" \
	"$libdir/crt1-reactor.o" $objs \
	-L"$libdir" -lc-printscan-long-double -lc "$BUILTINS" \
	--entry _initialize --stack-first -z stack-size=$STACK_SIZE \
	--initial-memory=$INITIAL_MEMORY \
	--strip-all --export=_initialize --export=mb_alloc --export=mb_free \
	--export=mb_init --export=mb_setup --export=mb_run --export=mb_settle

# The features are those the linked module uses (sign-ext, mutable
# globals) plus what wazero runs and -O3 may use instead of loops (bulk
# memory, non-trapping float-to-int).
"$WASM_OPT" -O3 --enable-sign-ext --enable-mutable-globals --enable-bulk-memory \
	--enable-nontrapping-float-to-int "$work/modebox.wasm" -o "$work/modebox-opt.wasm"

cp "$work/modebox-opt.wasm" "$out"
echo "build.sh: wrote $out ($(wc -c <"$out") bytes)"
