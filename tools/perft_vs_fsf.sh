#!/usr/bin/env bash
# perft_vs_fsf.sh — times `chariot perft startpos 5` against Debian's
# fairy-stockfish (`go perft 5` in xiangqi mode) in the same run, 3 times each,
# and prints the medians. A benchmark for the notes, not a test.
# usage: tools/perft_vs_fsf.sh [CHARIOT_BINARY] [DEPTH]
set -euo pipefail
CHARIOT=${1:-./build/release/chariot}
DEPTH=${2:-5}
FSF=${FSF:-/usr/games/fairy-stockfish}
[ -x "$CHARIOT" ] || { echo "no chariot binary at $CHARIOT (build with: cmake --preset release && cmake --build --preset release)" >&2; exit 2; }
[ -x "$FSF" ] || { echo "fairy-stockfish not found at $FSF (apt-get install fairy-stockfish)" >&2; exit 2; }

now() { date +%s.%N; }
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }


# fairy-stockfish needs its stdin kept open until it answers, so use a fifo.
fsf_time() {
  local dir fifo out t0 t1
  dir=$(mktemp -d); fifo=$dir/in; out=$dir/out
  mkfifo "$fifo"
  "$FSF" <"$fifo" >"$out" 2>&1 &
  local pid=$!
  exec 3>"$fifo"
  printf 'uci\nsetoption name UCI_Variant value xiangqi\nisready\n' >&3
  until grep -q readyok "$out"; do sleep 0.05; done
  t0=$(now)
  printf 'position startpos\ngo perft %s\n' "$DEPTH" >&3
  until grep -q "Nodes searched" "$out"; do sleep 0.01; done
  t1=$(now)
  printf 'quit\n' >&3; exec 3>&-
  wait $pid 2>/dev/null || true
  grep "Nodes searched" "$out" | awk '{print $3}' >"$dir/nodes"
  echo "$(awk -v a="$t0" -v b="$t1" "BEGIN{printf \"%.3f\", b-a}") $(cat "$dir/nodes")"
  rm -rf "$dir"
}

chariot_time() {
  "$CHARIOT" perft startpos "$DEPTH" | awk '/^Nodes:/{n=$2} /^Time:/{t=$2} END{print t, n}'
}

c=(); f=()
for i in 1 2 3; do
  read -r tc nc < <(chariot_time); c+=("$tc")
  read -r tf nf < <(fsf_time); f+=("$tf")
  echo "run $i: chariot ${tc}s ($nc nodes)  fairy-stockfish ${tf}s ($nf nodes)"
done
mc=$(median "${c[@]}"); mf=$(median "${f[@]}")
echo "median: chariot ${mc}s  fairy-stockfish ${mf}s  ratio $(awk -v a="$mf" -v b="$mc" "BEGIN{printf \"%.1f\", a/b}")x"
