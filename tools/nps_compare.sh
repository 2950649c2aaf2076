#!/usr/bin/env bash
# nps_compare.sh — the node rate of two Chariot builds in one run (old
# against new, median of 3 by default): `chariot bench` of each
# build in turn, ROUNDS rounds, then the median of each build's rate and the
# median of the per-round ratios NEW / OLD. Alternating the two builds lets a
# machine whose speed drifts (a shared host) move both alike. A benchmark for
# the notes, not a test.
# usage: tools/nps_compare.sh OLD_BINARY NEW_BINARY [ROUNDS] [BENCH_DEPTH]
#        tools/nps_compare.sh --callgrind OLD_BINARY NEW_BINARY [BENCH_DEPTH]
#   defaults: 3 rounds, the bench's own depth. A deeper bench (15) runs longer,
#   so the millisecond timer weighs less in its figure.
#   --callgrind counts instructions instead of time (valgrind's callgrind, one
#   bench each, about 50 times slower): instructions a node, exact on any
#   machine and under any load, so a change of 0.5% shows. It does not see
#   cache misses, which the timed mode does. Like the timed mode, it counts
#   only the search (searcher_run and what it calls): bench clears the tables
#   before each position, which is no part of the node rate (11.8% of a whole
#   bench run in December 2026). So the binaries must keep their symbols.
set -euo pipefail
# The header above is the usage text.
usage() { sed -n '2,18p' "$0" >&2; exit 2; }
[ $# -ge 2 ] || usage
if [ "$1" = --callgrind ]; then
    shift
    [ $# -ge 2 ] || usage
    command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
    for bin in "$1" "$2"; do
        [ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }
    done
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    # Writes "NODES INSTRUCTIONS" of one bench run under callgrind to
    # $tmp/NAME. The instruction total is callgrind's own summary line
    # ("Collected : N"). Not run in a command substitution, so that its
    # exit ends the script.
    count() {
        valgrind --tool=callgrind --toggle-collect=searcher_run --callgrind-out-file="$tmp/cg.out" "$1" bench ${3:-} >"$tmp/out" 2>"$tmp/err" || {
            echo "the bench of $1 failed under valgrind" >&2
            exit 1
        }
        local nodes ir
        nodes=$(awk '/^Nodes searched:/ { print $3 }' "$tmp/out")
        ir=$(awk -F'[: ]+' '/Collected/ { print $NF }' "$tmp/err" | tr -d ,)
        [ -n "$nodes" ] && [ -n "$ir" ] || { echo "no node or instruction count for $1" >&2; exit 1; }
        [ "$ir" != 0 ] || { echo "no instructions counted in searcher_run: is $1 stripped?" >&2; exit 1; }
        echo "$nodes $ir" >"$tmp/$2"
    }
    count "$1" old "${3:-}"
    count "$2" new "${3:-}"
    read -r on oi <"$tmp/old"
    read -r nn ni <"$tmp/new"
    # %.0f, not %d, for the instruction counts: mawk caps %d at 2^31 - 1,
    # and a bench at its own depth runs billions of instructions.
    awk -v on="$on" -v oi="$oi" -v nn="$nn" -v ni="$ni" 'BEGIN {
        printf "old: %d nodes, %.0f instructions, %.1f a node\n", on, oi, oi / on
        printf "new: %d nodes, %.0f instructions, %.1f a node\n", nn, ni, ni / nn
        printf "instructions a node new/old: %.4f (%+.2f%%)\n", (ni / nn) / (oi / on), 100 * ((ni / nn) / (oi / on) - 1)
    }'
    exit 0
fi
OLD=$1
NEW=$2
ROUNDS=${3:-3}
DEPTH=${4:-}
for bin in "$OLD" "$NEW"; do
    [ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }
done

# A failing bench prints no rate: the check in the loop says so, rather than
# set -e ending the script without a word.
rate() { "$1" bench $DEPTH 2>&1 | awk '/^Nodes\/second:/ { print $2 }' || true; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

olds=() news=() ratios=()
for i in $(seq 1 "$ROUNDS"); do
    o=$(rate "$OLD")
    n=$(rate "$NEW")
    [ -n "$o" ] && [ -n "$n" ] || { echo "a bench printed no Nodes/second line" >&2; exit 1; }
    r=$(awk -v a="$o" -v b="$n" 'BEGIN { printf "%.3f", b / a }')
    olds+=("$o") news+=("$n") ratios+=("$r")
    echo "round $i: old $o  new $n  new/old $r"
done
echo "median nodes/s: old $(median "${olds[@]}")  new $(median "${news[@]}")"
echo "median ratio new/old: $(median "${ratios[@]}")"
