#!/usr/bin/env python3
"""wide_openings.py — widens an opening file for fixed-node self-play matches.

At fixed nodes a fresh single-thread engine plays the same game from the same
opening every time, so a match of more than 2 x (number of openings) games
only repeats itself and its statistics lie. This script grows the 60 openings
of tests/data/openings.fen into thousands: from each position it plays PLIES
moves, each chosen at random among the MultiPV lines within MARGIN cp of the
best line of a depth-DEPTH search, and keeps the line when it is new and the
last search's score is within MAXABS cp (a balanced start).

usage: tools/wide_openings.py CHARIOT BASE.fen OUT.fen COUNT [SEED]
   env: PLIES (4), MARGIN (45), DEPTH (7), MULTIPV (8), MAXABS (120)
Output lines are `FEN moves m1 m2 ...`, which `chariot match -openings file=`
reads; such lines may also serve as BASE, to widen a set further. The
choices from a small BASE run out: the script gives up after 10 x COUNT
tries, so it may write fewer than COUNT lines, and it prints how many. The same
binary, arguments and seed give the same file. A tool for developers; no test
and no build step uses it (python3, standard library).
"""
import os
import random
import subprocess
import sys


def env_int(name, default):
    return int(os.environ.get(name, default))


PLIES = env_int("PLIES", 4)
MARGIN = env_int("MARGIN", 45)
DEPTH = env_int("DEPTH", 7)
MULTIPV = env_int("MULTIPV", 8)
MAXABS = env_int("MAXABS", 120)


class Engine:
    """Chariot in its UCI dialect, driven line by line."""

    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name MultiPV value %d" % MULTIPV)
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("wide_openings: the engine exited")
            lines.append(line.split())
            if line.startswith(token):
                return lines

    def lines(self, fen, moves):
        """(score, first move) of each exact MultiPV line of the last depth."""
        self.send("position fen %s%s" % (fen, " moves " + " ".join(moves) if moves else ""))
        self.send("go depth %d" % DEPTH)
        found = {}
        for t in self.wait("bestmove"):
            if "multipv" not in t or "pv" not in t or "score" not in t or "cp" not in t:
                continue
            if "lowerbound" in t or "upperbound" in t or int(t[t.index("depth") + 1]) != DEPTH:
                continue
            i = t.index("score")
            found[t[t.index("multipv") + 1]] = (int(t[i + 2]), t[t.index("pv") + 1])
        return list(found.values())


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    chariot, base_file, out_file, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    rng = random.Random(seed)
    bases = [l.strip() for l in open(base_file) if l.strip() and not l.lstrip().startswith("#")]
    eng = Engine(chariot)
    seen = set()
    tries = 0
    with open(out_file, "w") as out:
        out.write("# %s: %d plies from %s, margin %d cp, depth %d, MultiPV %d, |score| <= %d, seed %d\n"
                  % (os.path.basename(out_file), PLIES, os.path.basename(base_file), MARGIN, DEPTH, MULTIPV,
                     MAXABS, seed))
        # Lines repeat once the choices run out; stop after a generous number of tries.
        while len(seen) < count and tries < count * 10:
            # A base line may carry moves of its own (this tool's output fed
            # back in): the new plies extend them, after a single "moves".
            fen, _, played = bases[tries % len(bases)].partition(" moves ")
            tries += 1
            moves, score = played.split(), 0
            for _ in range(PLIES):
                lines = eng.lines(fen, moves)
                if not lines:
                    break
                score = max(s for s, _ in lines)
                moves.append(rng.choice([m for s, m in lines if s >= score - MARGIN]))
            else:
                key = fen + " moves " + " ".join(moves)
                if key in seen or abs(score) > MAXABS:
                    continue
                seen.add(key)
                out.write(key + "\n")
                out.flush()
                eng.send("ucinewgame")
                if len(seen) % 100 == 0:
                    print("%d openings, %d tries" % (len(seen), tries), file=sys.stderr)
    print("%d openings written to %s (%d tries)" % (len(seen), out_file, tries))


if __name__ == "__main__":
    main()
