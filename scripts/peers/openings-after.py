#!/usr/bin/env python3
"""Every distinct English checkers position PLIES plies from the start
(through `zoo show --json`), then COUNT of them drawn with SEED, one FEN a
line for `zoo match --openings`.

    openings-after.py ZOO PLIES COUNT SEED > FILE
"""
import json
import random
import subprocess
import sys


def show(zoo, fen, move=None):
    args = [zoo, "show", "--game", "english-checkers", "--fen", fen, "--json"]
    if move:
        args += ["--moves", move]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    d = json.loads(out.strip().splitlines()[-1])
    return d["fen"], [m["short"] for m in d["legal"]]


def main(args):
    if len(args) != 4:
        sys.exit(__doc__)
    zoo, plies, count, seed = args[0], int(args[1]), int(args[2]), int(args[3])
    start = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    level = dict([show(zoo, start)])
    for _ in range(plies):
        nxt = {}
        for fen, moves in level.items():
            for m in moves:
                f, legal = show(zoo, fen, m)
                if legal:
                    nxt[f] = legal
        level = nxt
    fens = sorted(level)
    random.seed(seed)
    print(f"# {count} positions {plies} plies from the English start, drawn with seed {seed} "
          f"from the {len(fens)} distinct ones: scripts/peers/openings-after.py zoo {plies} {count} {seed}")
    for f in random.sample(fens, count):
        print(f)


if __name__ == "__main__":
    main(sys.argv[1:])
