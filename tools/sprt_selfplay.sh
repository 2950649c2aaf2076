#!/bin/sh
# sprt_selfplay.sh — a self-play SPRT of Chariot against itself with one option changed.
# Usage: tools/sprt_selfplay.sh [CHARIOT] [OPTION=VALUE] [TC] [ELO0] [ELO1]
#   defaults: build/release/chariot, pruning=none (null move off) for the baseline,
#   tc 2+0.02, [0, 10]; -concurrency 2, at most 2000 games; output in /tmp/chariot_sprt.*
set -eu
chariot=${1:-build/release/chariot}
opt=${2:-pruning=none}
tc=${3:-2+0.02}
elo0=${4:-0}
elo1=${5:-10}
out=${OUT:-/tmp/chariot_sprt}
rm -f "$out.pgn"
exec "$chariot" match \
    -engine name=default cmd="$chariot" \
    -engine name="$opt" cmd="$chariot" "option.$opt" \
    -each tc="$tc" -games 2000 -concurrency 2 -openings order=random seed=1 \
    -sprt elo0="$elo0" elo1="$elo1" alpha=0.05 beta=0.05 \
    -pgnout "$out.pgn" -json "$out.json"
