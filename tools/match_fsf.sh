#!/bin/sh
# match_fsf.sh — Chariot against Debian's fairy-stockfish (proto=fsf), PGN and JSON kept out of the repo.
# Usage: tools/match_fsf.sh [CHARIOT] [GAMES] [TC] [CONCURRENCY]
#   defaults: build/release/chariot, 40 games, 10+0.1, concurrency 2; output in /tmp/chariot_vs_fsf.*
set -eu
chariot=${1:-build/release/chariot}
games=${2:-40}
tc=${3:-10+0.1}
conc=${4:-2}
fsf=${FSF:-/usr/games/fairy-stockfish}
out=${OUT:-/tmp/chariot_vs_fsf}
rm -f "$out.pgn"
exec "$chariot" match \
    -engine name=chariot cmd="$chariot" \
    -engine name=fairy-stockfish cmd="$fsf" proto=fsf \
    -each tc="$tc" -games "$games" -concurrency "$conc" \
    -pgnout "$out.pgn" -json "$out.json"
