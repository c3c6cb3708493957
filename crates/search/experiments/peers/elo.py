#!/usr/bin/env python3
"""W/D/L, score and Elo of engine A (95% interval, the normal
approximation over the games' scores, as `zoo match` reports it) over
one or more `zoo match --out` files together; with --no-forfeits, the
games an engine lost by forfeit left out.

    elo.py [--no-forfeits] FILE...
"""
import json
import math
import sys


def main(args):
    drop = "--no-forfeits" in args
    files = [a for a in args if a != "--no-forfeits"]
    if not files:
        sys.exit(__doc__)
    points = []
    for name in files:
        with open(name) as f:
            for line in f:
                g = json.loads(line)
                if drop and "forfeit" in g["reason"]:
                    continue
                if g["result"] == "1/2-1/2":
                    points.append(0.5)
                else:
                    white_won = g["result"] == "1-0"
                    points.append(1.0 if white_won == (g["white"] == "A") else 0.0)
    n = len(points)
    mean = sum(points) / n
    sd = math.sqrt(sum((p - mean) ** 2 for p in points) / n / n)

    def elo(s):
        # A score of 0 or 1 (or an interval past them) has no finite Elo.
        if s <= 0:
            return -math.inf
        if s >= 1:
            return math.inf
        return -400 * math.log10(1 / s - 1)

    lo, hi = elo(mean - 1.96 * sd), elo(mean + 1.96 * sd)
    print(f"{n} games: A {points.count(1.0)} / {points.count(0.5)} / {points.count(0.0)}, "
          f"{100 * mean:.1f}%, Elo {elo(mean):+.0f} ({lo:+.0f} … {hi:+.0f})")


if __name__ == "__main__":
    main(sys.argv[1:])
