#!/usr/bin/env python3
"""pgn_timeuse.py — how an engine spent its clock in a `chariot match` PGN:
the clock left at the end of its games, and its median depth and mean time
per move by move number (from the `{score/depth time}` move comments).

usage: tools/pgn_timeuse.py GAMES.pgn [ENGINE] [BASE_S] [INC_S]
   defaults: chariot, 10, 0.1 (the clock of the games).
A tool for developers; no test uses it.
"""
import re
import statistics
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        pgn = f.read()
    engine = sys.argv[2] if len(sys.argv) > 2 else "chariot"
    base = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
    inc = float(sys.argv[4]) if len(sys.argv) > 4 else 0.1
    left, counts, by_band = [], [], {}
    for game in re.split(r"\n(?=\[Event )", pgn):
        red = re.search(r'\[Red "([^"]*)"\]', game)
        black = re.search(r'\[Black "([^"]*)"\]', game)
        if not red or not black or "\n\n" not in game:
            continue
        side = 0 if red.group(1) == engine else 1 if black.group(1) == engine else None
        if side is None:
            continue
        # An opening that leaves Black to move makes the first comment Black's.
        fen = re.search(r'\[FEN "([^"]*)"\]', game)
        first = 1 if fen and fen.group(1).split()[1:2] == ["b"] else 0
        # The PGN writer wraps lines inside comments too: any blank may be a newline.
        comments = re.findall(r"\{[^/{}]*/(\d+)\s+([\d.]+)s\}", game.split("\n\n", 1)[1])
        mine = comments[side ^ first::2]
        left.append(base + inc * len(mine) - sum(float(t) for _, t in mine))
        counts.append(len(mine))
        for i, (depth, secs) in enumerate(mine):
            by_band.setdefault(min(i // 10, 7), []).append((int(depth), float(secs)))
    if not left:
        sys.exit(f"pgn_timeuse: no game of {engine}")
    print(f"{engine}: {len(left)} games, {statistics.median(counts)} moves each (median); clock left at the end: "
          f"median {statistics.median(left):.2f} s, mean {statistics.mean(left):.2f} s")
    for band in sorted(by_band):
        depths = [d for d, _ in by_band[band]]
        times = [t for _, t in by_band[band]]
        last = f"{band * 10 + 10}" if band < 7 else "end"
        print(f"moves {band * 10 + 1:3d}-{last:>3}: {len(depths):5d} moves, median depth {statistics.median(depths):4.1f}, "
              f"mean time {statistics.mean(times):.3f} s")


if __name__ == "__main__":
    main()
