#!/usr/bin/env bash
# fsf_mate_bench.sh — runs fairy-stockfish on an EPD mate file under the same rules as
# `chariot solve` (fresh hash per puzzle, `go mate N` with a time cap), for comparison.
#
# usage: tools/fsf_mate_bench.sh [FILE.epd] [MOVETIME_MS] [HASH_MB]
#        (defaults: tests/data/mate.epd, 5000, 64; FSF=/path overrides the binary)
# A puzzle counts as solved when the last proven score is a mate in <= N (the same
# definition chariot solve uses); its time-to-solve is the engine's `time` on the first
# info line with such a score. Upper-bound scores prove nothing and are ignored.
# Needs fairy-stockfish (Debian package fairy-stockfish); not used by any test.
# For the GUI way (go infinite, stop) use: chariot mate-bench FILE --engine fairy-stockfish --proto fsf
set -u

epd=${1:-tests/data/mate.epd}
movetime=${2:-5000}
hash=${3:-64}
fsf=${FSF:-/usr/games/fairy-stockfish}

if [[ ! -x $fsf ]]; then echo "fsf_mate_bench: '$fsf' not found (apt-get install fairy-stockfish)" >&2; exit 2; fi
if [[ ! -r $epd ]]; then echo "fsf_mate_bench: cannot read '$epd'" >&2; exit 2; fi
if ! [[ $movetime =~ ^[1-9][0-9]*$ && $hash =~ ^[1-9][0-9]*$ ]]; then
    echo "fsf_mate_bench: MOVETIME_MS and HASH_MB must be positive numbers" >&2; exit 2
fi

coproc FSF { exec "$fsf" 2>/dev/null; }
fsf_pid=$FSF_PID
send() { printf '%s\n' "$*" >&"${FSF[1]}"; }
# Reads engine lines until one starts with $1 (a stuck engine ends the run).
wait_for() {
    local l
    while IFS= read -r -t 60 l <&"${FSF[0]}"; do [[ $l == "$1"* ]] && return 0; done
    echo "fsf_mate_bench: no '$1' from the engine" >&2; kill "$fsf_pid" 2>/dev/null; exit 2
}

send uci; wait_for uciok
send "setoption name UCI_Variant value xiangqi"
send "setoption name Threads value 1"
send "setoption name Hash value $hash"
# From here on the engine talks UCCI: ranks 0..9 as in the EPD file.
send "setoption name Protocol value ucci"
send isready; wait_for readyok

times=()
total=0 solved=0 within=0 lineno=0
printf '%-24s %-8s %-16s %9s  %s\n' id expected found "solved at" result
while IFS= read -r line || [[ -n $line ]]; do
    lineno=$((lineno + 1))
    [[ -z ${line//[[:space:]]/} || $line =~ ^[[:space:]]*# ]] && continue
    if ! [[ $line =~ \;[[:space:]]*mate[[:space:]]+([0-9]+) ]]; then
        echo "fsf_mate_bench: line $lineno has no 'mate N'; skipped" >&2; continue
    fi
    n=${BASH_REMATCH[1]}
    id="line $lineno"
    [[ $line =~ id[[:space:]]+\"([^\"]*)\" ]] && id=${BASH_REMATCH[1]}
    fen=${line%%;*}
    fen=$(echo $fen)   # trims and squeezes blanks
    total=$((total + 1))

    send ucinewgame
    if [[ $fen == startpos ]]; then send "position startpos"; else send "position fen $fen"; fi
    send isready; wait_for readyok
    send "go mate $n movetime $movetime"
    first=-1 mate=0 best=""
    while IFS= read -r -t $((movetime / 1000 + 60)) out <&"${FSF[0]}"; do
        case $out in
        bestmove*) read -r _ best _ <<<"$out"; break ;;
        info*" score "*)
            [[ $out == *upperbound* ]] && continue
            if [[ $out =~ \ score\ mate\ (-?[0-9]+) ]]; then mate=${BASH_REMATCH[1]}; else mate=0; fi
            t=-1
            [[ $out =~ \ time\ ([0-9]+) ]] && t=${BASH_REMATCH[1]}
            if ((first < 0 && mate > 0 && mate <= n)); then first=$t; fi
            ;;
        esac
    done
    if [[ -z $best ]]; then echo "fsf_mate_bench: no bestmove for $id" >&2; kill "$fsf_pid" 2>/dev/null; exit 2; fi
    if ((mate > 0 && mate <= n)) && [[ $best != "(none)" ]]; then
        ((first < 0)) && first=0
        solved=$((solved + 1)); times+=("$first")
        ((first <= 1000)) && within=$((within + 1))
        at=$(awk -v t="$first" 'BEGIN { printf "%.3fs", t / 1000 }'); result=ok
    else
        at=-; result=FAIL
    fi
    found="mate $mate $best"; ((mate == 0)) && found="no mate $best"
    printf '%-24s %-8s %-16s %9s  %s\n' "$id" "mate $n" "$found" "$at" "$result"
    echo "[$total] solved $solved" >&2
done <"$epd"
send quit
wait "$fsf_pid" 2>/dev/null

median=- p90=-
if ((${#times[@]} > 0)); then
    median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 }
        END { m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2; printf "%.3fs", m / 1000 }')
    # Nearest rank, as chariot solve computes it.
    p90=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 }
        END { r = int((9 * NR + 9) / 10); printf "%.3fs", t[r] / 1000 }')
fi
echo
echo "fairy-stockfish: solved $solved/$total, within 1 s: $within, median time-to-solve $median, p90 $p90 (movetime $movetime ms, hash $hash MB, 1 thread)"
((solved == total))
