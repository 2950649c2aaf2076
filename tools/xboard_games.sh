#!/usr/bin/env bash
# xboard_games.sh — real XBoard (4.9, headless under Xvfb) drives Chariot
# natively over CECP, with no adapter.
#
#   games MODE:    a match against fairy-stockfish (CECP too), pondering on,
#                  then the tallies: games finished, stalls, time forfeits,
#                  false claims, "Illegal move" lines and Chariot's "Error" lines.
#   analyze MODE:  analysis sessions (XBoard's AnalyzeFile: analyze, one
#                  usermove per step, exit); every PV Chariot prints is then
#                  replayed through `chariot` (UCCI position ... moves) to
#                  check that it is legal on the board of the moment.
#
# Needs xboard, xvfb-run, python3 and, for games, fairy-stockfish
# (Debian: apt-get install xboard xvfb fairy-stockfish). Writes only to --out.
set -u

usage() {
    cat <<'EOF'
usage: tools/xboard_games.sh games   [--games N] [--tc M:SS] [--inc SEC] [--nice N] [--out DIR] [--engine PATH] [--opponent PATH]
       tools/xboard_games.sh analyze [--sessions N] [--step SEC] [--out DIR] [--engine PATH]
       tools/xboard_games.sh tally   --out DIR      (the tallies of a games run, again)
defaults: --games 2 --tc 0:20 --inc 0.2 --nice 10 --sessions 2 --step 2 --engine build/release/chariot
          --opponent fairy-stockfish --out /tmp/xboard_games
EOF
    exit 2
}

[ $# -ge 1 ] || usage
MODE=$1
shift
GAMES=2 TC=0:20 INC=0.2 SESSIONS=2 STEP=2
# Both engines run at this nice level, so that XBoard itself, which times
# the moves, reads them without delay on a busy machine (a starved XBoard
# charged 0.2 s of its own lag to an engine's clock).
NICE=10
OUT=/tmp/xboard_games
ENGINE=build/release/chariot
OPPONENT=fairy-stockfish
# A game at 20 s + 0.2 s a side lasts about a minute; this is the most one
# may take before it counts as a stall.
GAME_BUDGET_S=240
while [ $# -gt 0 ]; do
    case $1 in
    --games) GAMES=$2 ;;
    --tc) TC=$2 ;;
    --inc) INC=$2 ;;
    --sessions) SESSIONS=$2 ;;
    --step) STEP=$2 ;;
    --nice) NICE=$2 ;;
    --out) OUT=$2 ;;
    --engine) ENGINE=$2 ;;
    --opponent) OPPONENT=$2 ;;
    *) usage ;;
    esac
    shift 2 || usage
done
PATH=$PATH:/usr/games
mkdir -p "$OUT" || exit 1
OUT=$(cd "$OUT" && pwd)
ENGINE=$(cd "$(dirname "$ENGINE")" && pwd)/$(basename "$ENGINE")

# Runs XBoard (no settings file read or written, debug log on) in a process
# group of its own, until it exits, TIMEOUT_S passes, or DONE (a pattern,
# may be empty) shows in its log; prints its exit status (124: stopped).
xboard_run() { # LOG TIMEOUT_S DONE ARGS...
    local log=$1 limit=$2 done=$3 pid rc
    shift 3
    setsid timeout -k 10 "$limit" xvfb-run -a xboard -settingsFile /dev/null -saveSettingsOnExit false \
        -variant xiangqi -fcp "$ENGINE" -fd "$OUT" -xexit -popupMoveErrors false \
        -smpCores 1 -defaultHashSize 16 -niceEngines "$NICE" -debug -nameOfDebugFile "$log" "$@" \
        >"$log.stdout" 2>&1 &
    pid=$!
    while [ -n "$done" ] && kill -0 "$pid" 2>/dev/null; do
        if grep -q -- "$done" "$log" 2>/dev/null; then
            sleep 3
            kill -TERM -- "-$pid" 2>/dev/null
            break
        fi
        sleep 1
    done
    wait "$pid"
    rc=$?
    [ -n "$done" ] && grep -q -- "$done" "$log" 2>/dev/null && rc=124
    echo $rc
}

tally() {
    python3 - "$OUT" "$GAME_BUDGET_S" <<'EOF'
import re, sys
out, budget = sys.argv[1], int(sys.argv[2])
try:
    pgn = open(out + "/games.pgn", encoding="latin-1").read()
except OSError:
    pgn = ""
try:
    log = open(out + "/xboard.debug", encoding="latin-1").read().splitlines()
except OSError:
    log = []
games = re.findall(r'\[White "([^"]*)"\]\s*\[Black "([^"]*)"\].*?\[Result "([^"]*)"\]', pgn, re.S)
ends = [m.group(0) for m in re.finditer(r'\{[^}]*\}\s*(1-0|0-1|1/2-1/2|\*)\s*$', pgn, re.M)]
wins = draws = losses = unfinished = 0
for w, b, r in games:
    chariot_red = w.startswith("Chariot")
    if r == "1/2-1/2":
        draws += 1
    elif r in ("1-0", "0-1"):
        if (r == "1-0") == chariot_red:
            wins += 1
        else:
            losses += 1
    else:
        unfinished += 1
forfeits = sum(1 for e in ends if "on time" in e or "forfeit" in e.lower())
false_claims = sum(1 for e in ends if "False" in e and "claim" in e)
illegal = sum(1 for l in log if "llegal move" in l)
errors = sum(1 for l in log if re.search(r"<first\s*: Error", l))
# Game lengths from XBoard's own clock (ms since start) at each game end.
stamps, now = [], 0
for l in log:
    head = l.split(" ", 1)[0]
    if head.isdigit():
        now = int(head)
    elif l.startswith("GameEnds(") and not l.startswith("GameEnds(0,"):
        stamps.append(now)
slow, last = 0, 0
for t in stamps:
    if t - last > budget * 1000:
        slow += 1
    last = t
# Pondering: the reply Chariot announced (Hint:) against the one played.
hint, hits, misses = None, 0, 0
for l in log:
    m = re.match(r"\d+ <first\s*: Hint: (\S+)", l)
    if m:
        hint = m.group(1)
    elif re.match(r"\d+ >first\s*: (new|force|result)", l):
        hint = None
    elif re.match(r"\d+ >first\s*: usermove", l) and hint:
        hits, misses = hits + (l.split()[-1] == hint), misses + (l.split()[-1] != hint)
        hint = None
print(f"games finished {len(games) - unfinished}, Chariot +{wins} ={draws} -{losses}")
print(f"ponder hits {hits}, misses {misses}")
print(f"stalls {unfinished + slow} (unfinished {unfinished}, over {budget} s {slow})")
print(f"time forfeits {forfeits}")
print(f"false claims {false_claims}")
print(f"illegal-move lines {illegal}")
print(f"Chariot Error lines {errors}")
for e in ends:
    print("  end:", e)
EOF
}

games() {
    rm -f "$OUT/games.pgn" "$OUT/xboard.debug"
    echo "xboard: $GAMES games, $TC + $INC s, pondering, engines at nice $NICE, Chariot ($ENGINE) v $OPPONENT; output in $OUT"
    local rc
    rc=$(xboard_run "$OUT/xboard.debug" $((GAMES * GAME_BUDGET_S + 60)) "" \
        -scp "$OPPONENT" -sd "$OUT" -tc "$TC" -inc "$INC" -ponder -autoflag \
        -mg "$GAMES" -saveGameFile "$OUT/games.pgn")
    echo "xboard exit status $rc (124: killed at the time budget)"
    tally
}

# Replays every PV Chariot printed in the analysis log through chariot's own
# move legality (UCCI `position ... moves`), on the board of the moment; a PV
# that arrives just after a board change may still be about the board before.
check_pvs() { # LOG
    python3 - "$1" "$ENGINE" <<'EOF'
import re, subprocess, sys
log, engine = sys.argv[1], sys.argv[2]
states, cur = [], None     # (fen or None, moves) per board change
checks = []                # (pv, current state, previous state)
for line in open(log, encoding="latin-1"):
    m = re.match(r"\d+ >first\s*: (.*)", line)
    if m:
        cmd = m.group(1).strip()
        prev = cur
        if cmd == "new":
            cur = (None, [])
        elif cmd.startswith("setboard "):
            cur = (cmd[9:], [])
        elif cmd.startswith("usermove ") and cur is not None:
            # XBoard logs the command word and the move as two writes.
            cur = (cur[0], cur[1] + [cmd.split()[-1]])
        elif cmd == "undo" and cur is not None and cur[1]:
            cur = (cur[0], cur[1][:-1])
        if cur is not prev:
            states.append(prev)
        continue
    m = re.match(r"\d+ <first\s*: (-?\d+) (-?\d+) (\d+) (\d+) (.*)", line)
    if m and cur is not None and not m.group(5).startswith("("):
        pv = m.group(5).rstrip("?! ").split()
        checks.append((pv, cur, states[-1] if states else None))
def position(state, pv):
    fen, moves = state
    head = "position startpos" if fen is None else "position fen " + fen
    return head + " moves " + " ".join(moves + pv)
lines = ["ucci"]
for pv, now, before in checks:
    lines.append(position(now, pv))
    lines.append("isready")
    if before is not None:
        lines.append(position(before, pv))
    lines.append("isready")
lines.append("quit")
res = subprocess.run([engine], input="\n".join(lines) + "\n", capture_output=True, text=True).stdout.splitlines()
# One verdict per position command: an error line before its readyok.
verdicts, bad = [], False
for l in res:
    if l.startswith("info string error"):
        bad = True
    elif l == "readyok":
        verdicts.append(not bad)
        bad = False
ok_now = ok_before = illegal = 0
for i, (pv, now, before) in enumerate(checks):
    if verdicts[2 * i]:
        ok_now += 1
    elif before is not None and verdicts[2 * i + 1]:
        ok_before += 1
    else:
        illegal += 1
        print("  illegal PV:", " ".join(pv), "after", now)
print(f"PV lines {len(checks)}: legal on the board {ok_now}, "
      f"on the board just before a change (in flight) {ok_before}, illegal {illegal}")
sys.exit(1 if illegal else 0)
EOF
}

analyze() {
    # Two openings, given as coordinate moves (XBoard reads them in PGN).
    local openings=("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9 a0b0 c6c5 b2b6 b7a7 g3g4 g6g5 b6c6"
        "c3c4 b9c7 b0c2 g6g5 h0g2 h9g7 i0h0 i9h9 b2b6 h7h3 c2d4 c9e7 a0a1 a9a8 a1d1")
    local status=0 i
    for i in $(seq 1 "$SESSIONS"); do
        local moves=${openings[$(((i - 1) % ${#openings[@]}))]} pgn="$OUT/analysis$i.pgn" n=0 text="" m
        for m in $moves; do
            [ $((n % 2)) -eq 0 ] && text="$text $((n / 2 + 1))."
            text="$text $m"
            n=$((n + 1))
        done
        printf '[Event "analysis %d"]\n[Variant "xiangqi"]\n[Result "*"]\n\n%s *\n' "$i" "$text" >"$pgn"
        echo "analysis session $i: $n moves, $STEP s each"
        local rc
        rc=$(xboard_run "$OUT/analysis$i.debug" $((n * STEP + 60)) ">first *: exit" -initialMode AnalyzeFile \
            -loadGameFile "$pgn" -timeDelay "$STEP")
        echo "xboard exit status $rc (124: stopped after the analysis ended)"
        grep -c ">first *: usermove" "$OUT/analysis$i.debug" | sed 's/^/  usermoves sent: /'
        grep -c ">first *: exit" "$OUT/analysis$i.debug" | sed 's/^/  exit sent: /'
        check_pvs "$OUT/analysis$i.debug" || status=1
    done
    return $status
}

case $MODE in
games) games ;;
analyze) analyze ;;
tally) tally ;;
*) usage ;;
esac
