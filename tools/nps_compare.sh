#!/usr/bin/env bash
# nps_compare.sh — the node rate of two Chariot builds in one run, as issue 12's
# point 5 asks ("old vs new in one run, median of 3"): `chariot bench` of each
# build in turn, ROUNDS rounds, then the median of each build's rate and the
# median of the per-round ratios NEW / OLD. Alternating the two builds lets a
# machine whose speed drifts (a shared host) move both alike. A benchmark for
# the notes, not a test.
# usage: tools/nps_compare.sh OLD_BINARY NEW_BINARY [ROUNDS] [BENCH_DEPTH]
#   defaults: 3 rounds, the bench's own depth. A deeper bench (15) runs longer,
#   so the millisecond timer weighs less in its figure.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,10p' "$0" >&2; exit 2; }
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
