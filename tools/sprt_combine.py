#!/usr/bin/env python3
"""sprt_combine.py — one SPRT over several fixed-node runs of the same two
builds on different opening files.

A fixed-node run cannot play more than twice its file's lines (see
tools/sprt_nodes.sh), and a change worth +3 to +5 Elo needs about 7,000 game
pairs to decide at [0, 5]: more than one file of a few thousand lines holds.
The games of a second run on new openings are new, independent pairs, so the
test goes on by adding their pentanomial counts to the first run's. This
script reads the runs' journals (the `m.json.journal` next to each `m.json`),
counts each finished pair once from the side of the engine named NEW, and
prints each run's and the combined Elo and LLR, computed as `chariot match`
computes them (engine/match_stats.c: pentanomial pairs, the constrained
maximum-likelihood distributions at elo0 and elo1, logistic Elo).

usage: tools/sprt_combine.py [-new NAME] [-elo0 E0] [-elo1 E1] [-pairs P0,P1,P2,P3,P4]... [JOURNAL...]
   defaults: NAME new (as tools/sprt_nodes.sh names it), [0, 5].
   -pairs adds a run known only by its pentanomial counts (pairs scoring
   0, 0.5, 1, 1.5 and 2 points for NEW), as an earlier note gives them: a
   run whose journal was on another machine.
Runs of different builds must not be mixed: the script cannot tell, so
give it only runs of the same NEW and BASE binaries. Stop at the first
time the combined LLR leaves (log(b/(1-a)), log((1-b)/a)) = (-2.944, 2.944).
A tool for developers; no test uses it (python3, standard library).
"""
import argparse
import json
import math
import sys

EMPTY_CELL = 1e-3  # as MATCH_EMPTY_CELL: an empty cell must not zero a probability
SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def elo_to_score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(s):
    s = min(max(s, 1e-9), 1 - 1e-9)
    return -400.0 * math.log10(1.0 / s - 1.0)


def mle(phat, s):
    """The distribution nearest phat whose mean score is s (bisection on lambda)."""
    lo, hi = -1.0 / (SCORES[-1] - s), 1.0 / (s - SCORES[0])
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        f = sum(p * (a - s) / (1.0 + mid * (a - s)) for p, a in zip(phat, SCORES))
        if f > 0:
            lo = mid
        else:
            hi = mid
    lam = 0.5 * (lo + hi)
    return [p / (1.0 + lam * (a - s)) for p, a in zip(phat, SCORES)]


def summary(counts, elo0, elo1):
    real = sum(counts)
    if real == 0:
        return "no complete pairs"
    c = [x if x > 0 else EMPTY_CELL for x in counts]
    n = sum(c)
    phat = [x / n for x in c]
    p0, p1 = mle(phat, elo_to_score(elo0)), mle(phat, elo_to_score(elo1))
    llr = sum(x * math.log(b / a) for x, a, b in zip(c, p0, p1))
    mean = sum(p * a for p, a in zip(phat, SCORES))
    var = sum(p * (a - mean) ** 2 for p, a in zip(phat, SCORES))
    se = math.sqrt(var / n)
    elo = score_to_elo(mean)
    err = (score_to_elo(mean + 1.96 * se) - score_to_elo(mean - 1.96 * se)) / 2
    pent = " ".join(str(x) for x in counts)
    return f"{real} pairs [{pent}]: Elo {elo:+.1f} +/- {err:.1f}, LLR {llr:.3f}"


def pair_counts(path, new):
    pairs = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                g = json.loads(line)
            except json.JSONDecodeError:
                continue  # a torn last line of a killed run
            if "pair" in g and "result" in g:
                pairs.setdefault(g["pair"], {})[g["number"]] = g
    counts = [0] * 5
    for games in pairs.values():
        if len(games) != 2:
            continue
        points = 0.0
        for g in games.values():
            red = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
            if g["red"] == new:
                points += red
            elif g["black"] == new:
                points += 1.0 - red
            else:
                sys.exit(f"sprt_combine.py: {path}: no engine named {new}")
        counts[int(round(points * 2))] += 1
    return counts


def pentanomial(text):
    """-pairs' argument: five non-negative counts, comma-separated."""
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        counts = []
    if len(counts) != 5 or min(counts) < 0:
        raise argparse.ArgumentTypeError(f"not five counts P0,P1,P2,P3,P4: {text}")
    return counts


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("usage: ")[1].split("\n")[0])
    ap.add_argument("-new", default="new")
    ap.add_argument("-elo0", type=float, default=0.0)
    ap.add_argument("-elo1", type=float, default=5.0)
    ap.add_argument("-pairs", action="append", default=[], type=pentanomial)
    ap.add_argument("journals", nargs="*")
    a = ap.parse_args()
    new, elo0, elo1, args = a.new, a.elo0, a.elo1, a.journals
    if not args and not a.pairs:
        ap.error("no journal and no -pairs")
    if len(set(args)) != len(args):
        sys.exit("sprt_combine.py: a journal given twice")
    total = [0] * 5
    for counts in a.pairs:
        print(f"-pairs {','.join(str(x) for x in counts)}: {summary(counts, elo0, elo1)}")
        total = [a + b for a, b in zip(total, counts)]
    for path in args:
        counts = pair_counts(path, new)
        print(f"{path}: {summary(counts, elo0, elo1)}")
        total = [a + b for a, b in zip(total, counts)]
    lower, upper = math.log(0.05 / 0.95), math.log(0.95 / 0.05)
    print(f"combined: {summary(total, elo0, elo1)} (bounds {lower:.3f}, {upper:.3f}) [{elo0:g}, {elo1:g}]")


if __name__ == "__main__":
    main()
