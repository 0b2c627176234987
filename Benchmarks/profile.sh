#!/usr/bin/env bash
# Profiles one release build of a generated catalog under callgrind and prints the functions
# with the most instructions, inclusive and self, names demangled, after the shares of
# reference counting and allocation (Benchmarks/profile_shares.py).
#
#   bash Benchmarks/profile.sh [N]     N entries (default 10000); takes a few minutes
#
# Catalog, output and callgrind's file go to a folder in /dev/shm that is removed at the end;
# set PROFILE_KEEP=1 to keep the callgrind file (its path is printed) for callgrind_annotate or
# KCachegrind.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

count=${1:-10000}
lines=${PROFILE_LINES:-40}
command -v valgrind >/dev/null || { echo "error: valgrind missing: apt-get install -y valgrind" >&2; exit 1; }

# The same release build as `make release` (see RELEASE_FLAGS in the Makefile).
release_flags=()
if [ "$(uname)" = Linux ]; then release_flags+=(--static-swift-stdlib); fi
swift build -c release "${release_flags[@]}" --product fruitsite >&2
work=$(mktemp -d /dev/shm/fruitsite-profile-XXXXXX)
[ "${PROFILE_KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

python3 Benchmarks/generate.py --count "$count" --seed 1 --out "$work/content"
echo "Profiling a build of $count entries (callgrind is about 50 times slower)…" >&2
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    .build/release/fruitsite build --content "$work/content" --templates Templates \
    --output "$work/output" --quiet 2>"$work/valgrind.log" ||
    { cat "$work/valgrind.log" >&2; exit 1; }

# Swift symbols are mangled; `swift demangle` reads them from text. Library paths are dropped.
summary() {
    callgrind_annotate --inclusive="$1" "$work/callgrind.out" 2>/dev/null |
        sed -n -e '/PROGRAM TOTALS/p' -e '/file:function/,$p' | grep -v -e '^-' -e file:function |
        sed -n "1,$((lines + 1))p" |
        swift demangle --simplified | sed -E 's/ \[[^]]*\]$//' | cut -c1-160
}
echo "== Shares (each function's own instructions, summed) =="
callgrind_annotate --inclusive=no --threshold=100 "$work/callgrind.out" 2>/dev/null |
    swift demangle --simplified | python3 Benchmarks/profile_shares.py
echo
echo "== Inclusive (a function and everything it calls) =="
summary yes
echo
echo "== Self (instructions in the function itself) =="
summary no
[ "${PROFILE_KEEP:-0}" != 1 ] || echo "kept: $work/callgrind.out"
