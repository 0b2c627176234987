#!/usr/bin/env bash
# The picture encoder's speed and output sizes: generates four photo-like JPEGs (photos.sh),
# then encodes each with fruitsite's default widths as WebP and as AVIF at each effort
# (Sources/PictureBench/main.swift). Prints figures; fails only when something cannot run.
#
#   bash Benchmarks/pictures/bench.sh
#   PICTURE_EFFORTS=0,2,4 PICTURE_RUNS=3 bash Benchmarks/pictures/bench.sh
#   bash Benchmarks/pictures/bench.sh my-photo.jpg other.png    # your own pictures instead
set -euo pipefail

cd "$(dirname "$0")"
efforts=${PICTURE_EFFORTS:-0,1,2,3,4,5,6,7,8,9}
runs=${PICTURE_RUNS:-1}

if ! command -v vips >/dev/null && [ $# -eq 0 ]; then
    echo "error: photos.sh needs the vips command: apt-get install libvips-tools (brew install vips)" >&2
    exit 1
fi
echo "Building the benchmark (release)…"
swift build -c release --product PictureBench >/dev/null
bench=$(swift build -c release --show-bin-path)/PictureBench

if [ $# -gt 0 ]; then
    pictures=("$@")
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/fruitsite-pictures.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    echo "Generating the photos…"
    bash photos.sh "$work"
    pictures=("$work"/*.jpg)
fi
echo "Load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
"$bench" --efforts "$efforts" --runs "$runs" "${pictures[@]}"
