#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for a bounded time; `make fuzz` runs this.
#
#   FUZZ_SECONDS=120   how long each target runs (default 120)
#   FUZZ_TARGETS       which targets, default "FuzzContent FuzzMustache FuzzRequest"
#   FUZZ_JOBS=1        parallel libFuzzer workers per target (-fork), default 1
#
# Each target starts from a copy of its seed corpus in a temporary folder, so the committed
# corpus never grows. Crash, timeout and out-of-memory inputs are kept in Fuzz/.findings/.
# Exits 1 when any target finds one, 2 when the build fails.
set -uo pipefail

cd "$(dirname "$0")"
fuzz_dir=$(pwd)
seconds=${FUZZ_SECONDS:-120}
targets=${FUZZ_TARGETS:-FuzzContent FuzzMustache FuzzRequest}
jobs=${FUZZ_JOBS:-1}

# MARK: - Build

# -sanitize=fuzzer adds libFuzzer and coverage instrumentation to every Swift module of the
# build, the fruitsite targets included; libcmark and libyaml are not instrumented.
# ld.gold fails on these executables (an internal error in its DWARF reader), so link with
# lld, which the Swift toolchain ships.
build_flags=(
    -c release
    -Xswiftc -sanitize=fuzzer,address
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
)
echo "Building the fuzzers: swift build ${build_flags[*]}"
if ! swift build "${build_flags[@]}"; then
    echo "error: the fuzzers did not build" >&2
    exit 2
fi
bin_dir=$(swift build "${build_flags[@]}" --show-bin-path)

# MARK: - Run

work=$(mktemp -d "${TMPDIR:-/tmp}/fruitsite-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
findings="$fuzz_dir/.findings"
mkdir -p "$findings"

corpus_of() {
    case "$1" in
    FuzzContent) echo content ;;
    FuzzMustache) echo mustache ;;
    FuzzRequest) echo request ;;
    *) echo "error: unknown target $1" >&2; return 1 ;;
    esac
}

status=0
summary=()
for target in $targets; do
    corpus_name=$(corpus_of "$target") || exit 2
    corpus="$work/$corpus_name"
    mkdir -p "$corpus" "$findings/$target"
    cp "Corpus/$corpus_name"/* "$corpus"/
    log="$work/$target.log"
    echo
    echo "== $target: $seconds s, corpus $corpus_name ($(ls "$corpus" | wc -l) seeds)"
    # ASan's default leak check runs at exit; keep it on, since a leak is a finding too.
    fork=()
    if [ "$jobs" -gt 1 ]; then fork=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1); fi
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
        "$bin_dir/$target" "$corpus" \
        -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$findings/$target/" "${fork[@]}" \
        >"$log" 2>&1
    code=$?

    # libFuzzer's final stats and its last status line give the numbers.
    runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
    speed=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | grep -oE '[0-9]+')
    ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | grep -oE '[0-9]+')
    if [ -z "$runs" ]; then runs=$(grep -oE '^#[0-9]+' <<<"$last" | tr -d '#'); fi
    artifacts=$(grep -oE "Test unit written to [^ ]+" "$log" | awk '{print $5}' | sort -u)
    crashes=$(grep -c . <<<"$artifacts")
    [ -z "$artifacts" ] && crashes=0

    echo "   executions: ${runs:-?}   exec/s: ${speed:-?}   cov: ${cov:-?}   ft: ${ft:-?}"
    echo "   crashes, timeouts, out-of-memory: $crashes"
    if [ "$crashes" -gt 0 ] || [ "$code" -ne 0 ]; then
        status=1
        grep -E '^==[0-9]+==ERROR|^SUMMARY|ALARM|out-of-memory|deadly signal' "$log" | head -10 |
            sed 's/^/   /'
        for artifact in $artifacts; do echo "   $artifact"; done
        cp "$log" "$findings/$target/last-run.log"
        echo "   log: $findings/$target/last-run.log"
        echo "   minimize: $bin_dir/$target -minimize_crash=1 -runs=10000 <file>"
    fi
    summary+=("$target: ${runs:-?} executions, ${speed:-?} exec/s, cov ${cov:-?}, $crashes findings")
done

echo
printf '%s\n' "${summary[@]}"
exit $status
