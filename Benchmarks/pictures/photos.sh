#!/usr/bin/env bash
# Writes four photo-like JPEGs into a folder, made from libvips's noise generators with fixed
# seeds, so every run encodes the same pixels:
#
#   bash Benchmarks/pictures/photos.sh DIR
#
# Each is a few octaves of Perlin noise (light and colour over large areas, shapes, texture)
# plus sensor grain, saved at camera quality: the mix of smooth areas and detail that decides
# how long an encoder works. Needs the `vips` command (Debian: libvips-tools).
set -euo pipefail

out=${1:?usage: photos.sh DIR}
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fruitsite-photos.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# photo NAME WIDTH HEIGHT SEED BASE LARGE MIDDLE FINE GRAIN: BASE is the mean colour ("R G B"),
# LARGE, MIDDLE and FINE the gain of each band for that octave, GRAIN the noise's deviation.
photo() {
    local name=$1 width=$2 height=$3 seed=$4 base=$5 grain=$9
    local -A gains=([large]=$6 [middle]=$7 [fine]=$8)
    local -A cells=([large]=$((width / 4)) [middle]=$((width / 24)) [fine]=6)
    local octave lit=()
    for octave in large middle fine; do
        vips perlin "$tmp/$octave.v" "$width" "$height" --cell-size "${cells[$octave]}" \
            --seed $((seed++))
        vips bandjoin "$tmp/$octave.v $tmp/$octave.v $tmp/$octave.v" "$tmp/$octave-3.v"
        vips linear "$tmp/$octave-3.v" "$tmp/$octave-lit.v" "${gains[$octave]}" "0 0 0"
        lit+=("$tmp/$octave-lit.v")
    done
    vips gaussnoise "$tmp/grain.v" "$width" "$height" --mean 0 --sigma "$grain" --seed "$seed"
    vips bandjoin "$tmp/grain.v $tmp/grain.v $tmp/grain.v" "$tmp/grain-3.v"
    vips sum "${lit[*]} $tmp/grain-3.v" "$tmp/sum.v"
    vips linear "$tmp/sum.v" "$tmp/photo.v" "1 1 1" "$base" --uchar
    vips jpegsave "$tmp/photo.v" "$out/$name.jpg" --Q 92
}

# A landscape: sky and field colours over large areas, some foliage texture.
photo orchard 4000 3000 11 "120 140 110" "60 50 90" "35 45 20" "12 14 8" 3
# A close-up of fruit: large smooth colour, little texture.
photo apple 3000 2000 23 "170 70 50" "110 60 30" "25 15 10" "4 3 2" 2
# Leaves, in portrait: detail everywhere.
photo leaves 2400 3200 37 "70 120 60" "40 60 30" "50 70 35" "30 40 20" 4
# A studio shot: smooth gradients on a plain background.
photo studio 2000 2000 41 "200 190 180" "50 50 50" "10 10 10" "2 2 2" 1.5
