#!/usr/bin/env bash
# Stress runs for the output folder's guarantees (docs/explanation/reliability.md): kill -9
# at random moments of clean and incremental builds, two builds at once, an output folder that
# is a mount point, and one that cannot be written. After each trial the output folder must be
# exactly one complete site: the one before the build or the one after, byte for byte. Then
# random sequences of edits, each rebuild compared with a clean build (edits.py, SEEDS).
#
#   bash Tests/Stress/run.sh            (or make stress)
#   TRIALS=100 ENTRIES=5000 SEEDS=8 FRUITSITE_BIN=.build/debug/fruitsite bash Tests/Stress/run.sh
#
# Prints one line of figures per scenario and exits non-zero if any trial saw a wrong site.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(cd "$ROOT" && realpath "${FRUITSITE_BIN:-.build/release/fruitsite}")
TRIALS=${TRIALS:-40}
ENTRIES=${ENTRIES:-2000}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fruitsite-stress.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FAILURES=0

[ -x "$BIN" ] || { echo "error: $BIN is not built (make release)" >&2; exit 1; }

cd "$WORK"
python3 "$ROOT/Benchmarks/generate.py" --count "$ENTRIES" --seed 1 --out Content >/dev/null
cp -R "$ROOT/Templates" Templates

# Two versions of the site that differ in every page (the title is on each), and one that
# differs from A in one entry's text.
version() {
    case $1 in
        A) printf 'title: Stress A\n' >fruitsite.yml ;;
        B) printf 'title: Stress B\n' >fruitsite.yml ;;
    esac
}
build() { "$BIN" build --quiet "$@"; }
for v in A B; do
    version $v
    build --output "Ref$v" --cache-dir ".ref-cache" --clean || exit 1
done

# Which reference the folder equals: A, B, or "mixed" (or "missing").
site_of() {
    local folder=$1
    [ -d "$folder" ] || { echo missing; return; }
    for v in A B; do
        if diff -rq "Ref$v" "$folder" >/dev/null 2>&1; then echo $v; return; fi
    done
    echo mixed
}

# How long one build takes, so kills land anywhere in it.
version A
start=$(date +%s%N); build --output Timing --cache-dir .timing-cache --clean; end=$(date +%s%N)
BUILD_MS=$(( (end - start) / 1000000 + 1 ))
rm -rf Timing .timing-cache
echo "stress: $ENTRIES entries, one clean build takes about $BUILD_MS ms, $TRIALS trials each"

# MARK: - kill -9 at a random moment

# A random delay in seconds, up to 1.3 times $1 milliseconds: kills land anywhere in a build
# that takes $1, its last steps included.
delay() {
    awk -v max="$1" -v seed="$RANDOM$RANDOM" 'BEGIN { srand(seed); printf "%.4f", rand() * max * 1.3 / 1000 }'
}

# Milliseconds one run of the command takes.
timed() {
    local start end
    start=$(date +%s%N); "$@" >/dev/null 2>&1; end=$(date +%s%N)
    echo $(( (end - start) / 1000000 + 1 ))
}

# kill_trials NAME BUILD-ARGS...: alternate the version, start a build, kill -9 it after a
# random delay; the folder must hold A or B. A build run afterwards must give the current
# version.
kill_trials() {
    local name=$1; shift
    local wrong=0 old=0 new=0 killed=0 current=B
    version A; rm -rf Output .fruitsite-cache; build || exit 1
    # How long this kind of build takes now, on this machine's load.
    version B; local took; took=$(timed build "$@")
    for ((trial = 0; trial < TRIALS; trial++)); do
        local before=$current
        if [ $current = A ]; then current=B; else current=A; fi
        version $current
        "$BIN" build --quiet "$@" >/dev/null 2>&1 &
        local pid=$!
        sleep "$(delay "$took")"
        kill -9 $pid 2>/dev/null && killed=$((killed + 1))
        wait $pid 2>/dev/null
        local seen; seen=$(site_of Output)
        if [ "$seen" = "$before" ]; then old=$((old + 1))
        elif [ "$seen" = "$current" ]; then new=$((new + 1))
        else wrong=$((wrong + 1)); echo "  trial $trial: $seen site after the kill" >&2; fi
        build >/dev/null 2>&1
        seen=$(site_of Output)
        if [ "$seen" != "$current" ]; then
            wrong=$((wrong + 1)); echo "  trial $trial: the next build gave $seen, not $current" >&2
        fi
    done
    echo "kill -9 during $name (a build takes about $took ms): $TRIALS trials, $killed killed mid-build, old site $old, new site $new, wrong or mixed $wrong"
    FAILURES=$((FAILURES + wrong))
}

kill_trials "clean builds" --clean
kill_trials "incremental builds changing every page"

# One-edit builds: the changes go into the spare copy, which is swapped in whole. After a kill
# the folder must hold the site before the edit or the one after it; the next build must
# equal a clean one.
few_changes() {
    local wrong=0 old=0 new=0 trial
    version A; rm -rf Output .fruitsite-cache; build || exit 1
    cp -R Content Content.orig
    printf '\nFirst edit.\n' >>"Content/$(ls Content | head -1)"
    local took; took=$(timed build)
    for ((trial = 0; trial < TRIALS; trial++)); do
        rm -rf Before; cp -R Output Before
        local file="Content/$(ls Content | sed -n "$((trial % 20 + 1))p")"
        printf '\nEdit %s.\n' "$trial" >>"$file"
        "$BIN" build --quiet >/dev/null 2>&1 &
        local pid=$!
        sleep "$(delay "$took")"
        kill -9 $pid 2>/dev/null
        wait $pid 2>/dev/null
        "$BIN" build --quiet --clean --output Check --cache-dir .check-cache >/dev/null 2>&1
        if diff -rq Before Output >/dev/null; then old=$((old + 1))
        elif diff -rq Check Output >/dev/null; then new=$((new + 1))
        else wrong=$((wrong + 1)); echo "  trial $trial: a mixed site after the kill" >&2; fi
        build >/dev/null 2>&1
        if ! diff -rq Output Check >/dev/null; then
            wrong=$((wrong + 1)); echo "  trial $trial: the build after the kill differs from a clean one" >&2
        fi
        rm -rf Check .check-cache
    done
    rm -rf Content Before; mv Content.orig Content
    echo "kill -9 during incremental builds of one edit (one takes about $took ms): $TRIALS trials, old site $old, new site $new, wrong or mixed $wrong"
    FAILURES=$((FAILURES + wrong))
}
few_changes

# MARK: - Two builds at once

concurrent() {
    local wrong=0 refused=0 trial
    version A; rm -rf Output .fruitsite-cache; build || exit 1
    for ((trial = 0; trial < TRIALS; trial++)); do
        local first=B second=A
        [ $((trial % 2)) = 0 ] || { first=A; second=B; }
        # Both start from the same config file; each reads it before taking the lock, so
        # each build gets its own copy of the config.
        mkdir -p cfg; printf 'title: Stress %s\n' $first >cfg/1.yml; printf 'title: Stress %s\n' $second >cfg/2.yml
        "$BIN" build --quiet --config cfg/1.yml >/dev/null 2>first.err &
        local one=$!
        "$BIN" build --quiet --config cfg/2.yml --wait >/dev/null 2>second.err &
        local two=$!
        wait $one; local code1=$?
        wait $two; local code2=$?
        if [ $code1 != 0 ]; then
            if grep -q "another build is writing this output folder" first.err; then
                refused=$((refused + 1))
            else
                wrong=$((wrong + 1)); cat first.err >&2
            fi
        fi
        [ $code2 = 0 ] || { wrong=$((wrong + 1)); cat second.err >&2; }
        local seen; seen=$(site_of Output)
        # The build that waited finished last: its site is the one left.
        if [ "$seen" != "$second" ]; then
            wrong=$((wrong + 1)); echo "  trial $trial: $seen site, expected $second" >&2
        fi
        # And the cache agrees with the folder: a rebuild changes nothing.
        local again; again=$("$BIN" build --config cfg/2.yml 2>&1)
        case $again in *"0 files changed, 0 removed"*) ;; *) wrong=$((wrong + 1)); echo "  trial $trial: $again" >&2 ;; esac
    done
    echo "two builds at once (one without --wait, one with): $TRIALS trials, first refused $refused, wrong or mixed $wrong"
    FAILURES=$((FAILURES + wrong))
}
concurrent

# MARK: - Mount points and unwritable folders (need unshare: a user and mount namespace)

if unshare -rm true 2>/dev/null; then
    export BIN WORK TRIALS
    version A; rm -rf Output .fruitsite-cache; build
    version B; MOUNT_MS=$(timed build --clean --output Timing --cache-dir .timing-cache)
    rm -rf Timing .timing-cache
    export MOUNT_MS
    mount_result=$(unshare -rm bash -c '
        set -u
        cd "$WORK"
        site_of() {
            for v in A B; do diff -rq "Ref$v" "$1" >/dev/null 2>&1 && { echo $v; return; }; done
            echo mixed
        }
        rm -rf Output .fruitsite-cache; mkdir Output; mount -t tmpfs stress Output
        printf "title: Stress A\n" >fruitsite.yml
        "$BIN" build --quiet || exit 1
        current=A wrong=0 midway=0
        for ((trial = 0; trial < TRIALS; trial++)); do
            before=$current
            if [ $current = A ]; then current=B; else current=A; fi
            printf "title: Stress %s\n" $current >fruitsite.yml
            flag=""; [ $((trial % 2)) = 0 ] && flag=--clean
            "$BIN" build --quiet $flag >/dev/null 2>&1 &
            pid=$!
            sleep "$(awk -v max="$MOUNT_MS" -v seed="$RANDOM$RANDOM" "BEGIN { srand(seed); printf \"%.4f\", rand() * max * 1.3 / 1000 }")"
            kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
            # Replacing contents is not atomic: a kill in it leaves a mix, which the next
            # build finishes. Counted, not failed.
            [ "$(site_of Output)" = mixed ] && midway=$((midway + 1))
            "$BIN" build --quiet >/dev/null 2>&1
            seen=$(site_of Output)
            [ "$seen" = "$current" ] || { wrong=$((wrong + 1)); echo "  mount trial $trial: $seen" >&2; }
        done
        echo "$wrong $midway"
        umount Output
    ')
    read -r mount_wrong mount_midway <<<"${mount_result:-1 ?}"
    echo "kill -9 into a mount point (tmpfs), then a build: $TRIALS trials, mixed right after the kill $mount_midway, wrong or mixed after the next build $mount_wrong"
    FAILURES=$((FAILURES + mount_wrong))

    # A text edit whose page sits in a read-only folder (the issue's chmod 555 as another
    # user; root ignores modes). The build writes into the spare copy and swaps it in, so it
    # may succeed; what it must not do is fail and still change the site. Either exit 0 with
    # the site a clean build gives, or exit 1 with the site as it was.
    readonly_result=$(unshare -rm bash -c '
        set -u
        cd "$WORK"
        rm -rf Output .fruitsite-cache .Output.fruitsite-*
        printf "title: Stress A\n" >fruitsite.yml
        "$BIN" build --quiet || exit 1
        cp -R Output Before
        mount --bind Output/fruits Output/fruits && mount -o remount,ro,bind Output/fruits
        first=$(ls Content | head -1)
        cp "Content/$first" saved.md
        printf "\nOne more line.\n" >>"Content/$first"
        "$BIN" build --quiet 2>err.txt; code=$?
        "$BIN" build --quiet --clean --output Check --cache-dir .check-cache >/dev/null 2>&1
        if diff -rq Before Output >/dev/null; then seen=old
        elif diff -rq Check Output >/dev/null; then seen=new
        else seen=mixed; fi
        echo "$code $seen $(head -1 err.txt)"
        mv saved.md "Content/$first"
        rm -rf Before Check .check-cache
    ')
    echo "a build into a folder with a read-only part: exit status, site left (old or new), message: $readonly_result"
    case $readonly_result in "0 new"* | "1 old"*) ;; *) FAILURES=$((FAILURES + 1)) ;; esac
else
    echo "mount point and read-only checks skipped: unshare -rm is not allowed here"
fi

# Random sequences of every kind of edit (Tests/Stress/edits.py): after each rebuild the output
# must equal a clean build. Half the seeds start with a sharded search index.
SEEDS=${SEEDS:-4}
edits_wrong=0
for ((seed = 1; seed <= SEEDS; seed++)); do
    search="{index: single}"; [ $((seed % 2)) = 0 ] && search="{index: sharded}"
    python3 "$ROOT/Tests/Stress/edits.py" --bin "$BIN" --seed "$seed" --search "$search" \
        || edits_wrong=$((edits_wrong + 1))
done
echo "random edit sequences: $SEEDS seeds of 60 rebuilds, $edits_wrong with a rebuild unlike a clean build"
FAILURES=$((FAILURES + edits_wrong))

if [ "$FAILURES" -gt 0 ]; then
    echo "stress: $FAILURES wrong results" >&2
    exit 1
fi
echo "stress: no wrong or mixed site"
