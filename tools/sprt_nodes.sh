#!/bin/sh
# sprt_nodes.sh — an SPRT of one Chariot build against another at fixed nodes (or a time control), as
# the search and eval changes in the commit log were measured.
# Usage: tools/sprt_nodes.sh NEW BASE OPENINGS.fen OUTDIR [LIMIT] [ELO0] [ELO1] [GAMES]
#   LIMIT: a node count a move, or a time control as tc=2+0.02 (for changes
#   whose effect grows with depth: 10k nodes reach depth 8 or so, a game at
#   10+0.1 depth 15).
#   defaults: 10000 nodes a move, [0, 5], at most 8000 games; env SEED (1).
#   16 MB hash each, concurrency 2, fishtest-style adjudication, pentanomial SPRT.
#   OPENINGS should hold thousands of lines (tools/wide_openings.py): a fixed-node
#   match repeats itself after two games an opening, so at fixed nodes GAMES is
#   capped at twice the file's lines.
# Output: OUTDIR/out.log (live score and the final table), OUTDIR/m.pgn, OUTDIR/m.json.
# Ctrl-C (or kill -INT) prints the table so far; running it again resumes.
set -eu
new=$1
base=$2
openings=$3
out=$4
limit=${5:-10000}
case $limit in
tc=*) ;;
*) limit="nodes=$limit" ;;
esac
elo0=${6:-0}
elo1=${7:-5}
games=${8:-8000}
# A fixed-node game is decided by its opening and colours alone, so past two
# games an opening line the match replays games it has already counted, and
# the SPRT's LLR grows on copies. Cap the games there (a time control varies
# its games, so it keeps its count).
case $limit in
nodes=*)
    lines=$(grep -c -v -e '^#' -e '^[[:space:]]*$' "$openings" || true)
    if [ "$games" -gt $((2 * lines)) ]; then
        echo "sprt_nodes.sh: $openings has $lines lines; capping $games games at $((2 * lines))" >&2
        games=$((2 * lines))
    fi
    ;;
esac
mkdir -p "$out"
exec "$base" match \
    -engine name=new cmd="$new" option.hashsize=16 \
    -engine name=base cmd="$base" option.hashsize=16 \
    -each "$limit" -games "$games" -concurrency 2 \
    -openings file="$openings" order=random seed="${SEED:-1}" \
    -resign movecount=3 score=600 twosided=true -draw movenumber=34 movecount=8 score=20 \
    -sprt elo0="$elo0" elo1="$elo1" alpha=0.05 beta=0.05 \
    -pgnout "$out/m.pgn" -json "$out/m.json" >"$out/out.log" 2>&1
