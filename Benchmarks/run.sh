#!/usr/bin/env bash
# Benchmarks (not tests): fruitsite against Hugo on generated catalogs of 1,000, 10,000 and
# 100,000 entries, a visitor's first query with each kind of search index and with Pagefind,
# then the search client when Node.js is there, and what a returning visitor downloads again. `make bench` runs this.
#
#   BENCH_SIZES="1000 10000"   the catalog sizes (default "1000 10000 100000")
#   BENCH_RUNS=3               measured runs per size (default 5, or 3 from 100,000 entries)
#   BENCH_REBUILD_SIZES=10000  the sizes, among BENCH_SIZES, that also get the rebuild table
#                              (default "10000 100000"; "" for none)
#   BENCH_HUGO_PLAIN=0         leave the plain Hugo twin (Benchmarks/hugo-plain) out of the
#                              build tables: Hugo's twin of the default theme alone
#   BENCH_HUGO_REBUILD_BUDGET=300  seconds of Hugo rebuilds per size before it starts no more
#                              (default 300; 0 for none)
#   BENCH_MILLION=1            also build 1,000,000 entries, fruitsite alone (Hugo would need
#                              some 80 GB), once after a warm-up, and measure the first query
#                              there (no Pagefind): 40 to 60 minutes more
#   BENCH_DISK=/mnt/big        where the outputs that do not fit a tmpfs go (default /tmp, the
#                              disk): a tmpfs mounted with 6,000,000 inodes and 16 GB holds
#                              1,000,000 entries' output, for a time per page like 10,000's
#   BENCH_SEED=1               the generator's seed
#   BENCH_SEARCH=0             skip the search benchmarks: the first-query table and the
#                              search client's
#   BENCH_SEARCH_SIZES="10000" the sizes of the first-query table (default "10000 100000"),
#                              fruitsite's two kinds of index and Pagefind (up to 100,000)
#   BENCH_REVISIT=0            skip the returning visitors (search/revisit.py, at the search
#                              sizes): what a visitor downloads again after a deploy
#   BENCH_RENDER=0             skip the Mustache engine benchmark
#   BENCH_LANGUAGES=0          skip the catalog in one language against three (languages.py)
#   BENCH_LANGUAGES_COUNT=10000  its catalog's size
#   BENCH_PICTURES=1           also build a catalog of 12-megapixel camera photos with each
#                              generator (Benchmarks/pictures/sites.py): fruitsite's picture
#                              variants against Hugo's `.Resize`, cold and rebuilt
#   BENCH_PICTURE_COUNT=200    its photos (default 200: Hugo spends some 3 s of CPU a photo,
#                              so 1,000 would take 25 minutes or more); made once, kept in
#                              ~/.cache/fruitsite-bench
#   BENCH_SERVE=0              skip `fruitsite serve` (edit to screen against `hugo server`,
#                              throughput against nginx and Python's http.server, and what
#                              clients that hold connections cost it)
#   BENCH_SERVE_COUNT="10000"  the catalog sizes for edit to screen (default "10000 100000")
#
# Installs Hugo and GNU time from apt when they are missing. Prints tables; exits non-zero only
# when an install or a build fails, never because of slow numbers.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PYTHON=${PYTHON:-python3}
SWIFT=${SWIFT:-swift}

# MARK: - What the benchmark needs

apt_install() {
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        if ! command -v sudo >/dev/null; then
            echo "error: $* missing; run as root: apt-get install -y $*" >&2
            exit 1
        fi
        sudo=sudo
    fi
    echo "Installing $* (apt)…" >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null ||
        { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null; } ||
        { echo "error: could not install $*; run: sudo apt-get install -y $*" >&2; exit 1; }
}

missing=()
command -v hugo >/dev/null || missing+=(hugo)
[ -x /usr/bin/time ] || missing+=(time)
if [ "${BENCH_SERVE:-1}" != 0 ]; then
    command -v wrk >/dev/null || missing+=(wrk)
    command -v nginx >/dev/null || missing+=(nginx)
fi
if [ "${BENCH_PICTURES:-0}" != 0 ]; then
    command -v vips >/dev/null || missing+=(libvips-tools)
fi
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
if [ "${BENCH_SEARCH:-1}" != 0 ]; then
    # Pagefind, for the first-query table; Chromium and Selenium, for it and the search client.
    "$PYTHON" -c 'import pagefind' 2>/dev/null ||
        PIP_BREAK_SYSTEM_PACKAGES=1 PIP_ROOT_USER_ACTION=ignore "$PYTHON" -m pip install -q \
            'pagefind[extended]==1.5.2' >&2 ||
        echo "warning: could not install Pagefind (pip install 'pagefind[extended]')" >&2
    bash Tests/Browser/setup.sh >/dev/null || echo "warning: could not set up Chromium" >&2
fi

echo "Building fruitsite (release)…" >&2
# The same release build as `make release` (see RELEASE_FLAGS in the Makefile).
release_flags=()
if [ "$(uname)" = Linux ]; then release_flags+=(--static-swift-stdlib); fi
$SWIFT build -c release "${release_flags[@]}" --product fruitsite >&2

# MARK: - fruitsite against Hugo

read -r -a sizes <<<"${BENCH_SIZES:-1000 10000 100000}"
args=(--fruitsite .build/release/fruitsite --templates Templates --sizes "${sizes[@]}")
args+=(--seed "${BENCH_SEED:-1}" --disk "${BENCH_DISK:-/tmp}")
read -r -a rebuild_sizes <<<"${BENCH_REBUILD_SIZES-10000 100000}"
args+=(--rebuild-sizes "${rebuild_sizes[@]}")
args+=(--hugo-rebuild-budget "${BENCH_HUGO_REBUILD_BUDGET:-300}")
[ "${BENCH_HUGO_PLAIN:-1}" != 0 ] || args+=(--no-hugo-plain)
[ -z "${BENCH_RUNS:-}" ] || args+=(--runs "$BENCH_RUNS")
[ "${BENCH_MILLION:-0}" = 0 ] || args+=(--alone-sizes 1000000)
read -r -a search_sizes <<<"${BENCH_SEARCH_SIZES-10000 100000}"
if [ "${BENCH_SEARCH:-1}" = 0 ]; then
    search_sizes=()
elif [ "${BENCH_MILLION:-0}" != 0 ]; then
    args+=(--million)
fi
args+=(--search-sizes "${search_sizes[@]}")
"$PYTHON" Benchmarks/bench.py "${args[@]}"

# MARK: - Pictures against Hugo

if [ "${BENCH_PICTURES:-0}" != 0 ]; then
    echo
    picture_args=(--fruitsite .build/release/fruitsite --count "${BENCH_PICTURE_COUNT:-200}")
    picture_args+=(--seed "${BENCH_SEED:-1}")
    [ -z "${BENCH_RUNS:-}" ] || picture_args+=(--runs "$BENCH_RUNS")
    "$PYTHON" Benchmarks/pictures/sites.py "${picture_args[@]}"
fi

# MARK: - The search client

if [ "${BENCH_SEARCH:-1}" != 0 ] && [ -f Benchmarks/search/bench.mjs ]; then
    if command -v node >/dev/null; then
        echo
        echo "Search client (node Benchmarks/search/bench.mjs):"
        node Benchmarks/search/bench.mjs || echo "warning: the search benchmark failed" >&2
    else
        echo "(no node: skipping the search client benchmark)" >&2
    fi
fi

if [ "${BENCH_SEARCH:-1}" != 0 ]; then
    echo
    echo "Search client in headless Chromium (Benchmarks/search/chromium.py):"
    if bash Tests/Browser/setup.sh >/dev/null; then
        "$PYTHON" Benchmarks/search/chromium.py "${BENCH_SEARCH_COUNT:-100000}" \
            || echo "warning: the Chromium search benchmark failed" >&2
    else
        echo "warning: could not set up Chromium; skipping" >&2
    fi
fi

# MARK: - Returning visitors

if [ "${BENCH_SEARCH:-1}" != 0 ] && [ "${BENCH_REVISIT:-1}" != 0 ] && [ ${#search_sizes[@]} -gt 0 ]; then
    echo
    echo "Returning visitors (Benchmarks/search/revisit.py):"
    if bash Tests/Browser/setup.sh >/dev/null; then
        "$PYTHON" Benchmarks/search/revisit.py --fruitsite .build/release/fruitsite \
            "${search_sizes[@]}" || echo "warning: the returning visitors' benchmark failed" >&2
    else
        echo "warning: could not set up Chromium and nginx; skipping" >&2
    fi
fi

# MARK: - fruitsite serve

if [ "${BENCH_SERVE:-1}" != 0 ]; then
    echo
    echo "fruitsite serve (Benchmarks/serve/bench.py):"
    if bash Tests/Browser/setup.sh >/dev/null; then
        "$PYTHON" Benchmarks/serve/bench.py --fruitsite .build/release/fruitsite \
            --count ${BENCH_SERVE_COUNT:-10000 100000} || echo "warning: the serve benchmark failed" >&2
        echo
        "$PYTHON" Benchmarks/serve/clients.py --fruitsite .build/release/fruitsite ||
            echo "warning: the serve clients benchmark failed" >&2
    else
        echo "warning: could not set up Chromium; skipping" >&2
    fi
fi

# MARK: - The Mustache engine alone

if [ "${BENCH_RENDER:-1}" != 0 ]; then
    echo
    $SWIFT run -c release --package-path Benchmarks/render 2>/dev/null \
        || echo "warning: the render benchmark failed" >&2
fi

# MARK: - Several languages

if [ "${BENCH_LANGUAGES:-1}" != 0 ]; then
    echo
    "$PYTHON" Benchmarks/languages.py --binary .build/release/fruitsite \
        --count "${BENCH_LANGUAGES_COUNT:-10000}" --runs "${BENCH_RUNS:-5}" \
        || echo "warning: the languages benchmark failed" >&2
fi
