#!/usr/bin/env python3
"""depth_probe.py — the mean completed depth of fixed-node searches from the
first N openings of tests/data/openings.fen: how much a pruning change
narrows the tree, before a match says whether it plays better.

usage: tools/depth_probe.py CHARIOT [NODES] [N]   (defaults 800000, 40)
One thread, 64 MB hash, a fresh process per position, so the figure is
deterministic for a given binary. A tool for developers; no test uses it.
"""
import os
import subprocess
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 800000
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    book = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "openings.fen")
    with open(book) as f:
        fens = [l.strip() for l in f if l.strip() and not l.startswith("#")][:count]
    total = 0
    for fen in fens:
        p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        p.stdin.write(f"ucci\nsetoption hashsize 64\nposition fen {fen}\ngo nodes {nodes}\n")
        p.stdin.flush()
        depth = 0
        for line in p.stdout:
            t = line.split()
            if t[:2] == ["info", "depth"] and "pv" in t:
                depth = int(t[2])
            if t and t[0] == "bestmove":
                break
        p.stdin.write("quit\n")
        p.stdin.close()
        p.wait()
        total += depth
    print(f"mean depth {total / len(fens):.2f} over {len(fens)} positions at {nodes} nodes")


if __name__ == "__main__":
    main()
