#!/usr/bin/env python3
"""Where zoo's lost games turned: each lost game of a `zoo match` games
file replayed, every position with zoo to move searched deep by zoo, and
the last position still judged level (score above -LEVEL) before the
scores stay below -LEVEL to the end reported with its piece count, the
move zoo played there and the one the deep search prefers.

    scripts/peers/turning-points.py GAMES.jsonl --zoo target/release/zoo \\
        --side A --depth 16 [--games 40] [--tb DIR] [--eval NAME]

The games file is `zoo match --out`'s (JSON lines); `--side` is the
engine zoo played (A or B). Prints one line per lost game, then how the
turning points spread over the number of pieces on the board.
"""

import argparse
import json
import subprocess
import sys
from collections import Counter


def search(zoo, game, fen, moves, depth, tb, ev):
    cmd = [zoo, "analyse", "--game", game, "--fen", fen, "--depth", str(depth), "--json"]
    if ev:
        cmd += ["--eval", ev]
    if moves:
        cmd += ["--moves", " ".join(moves)]
    if tb:
        cmd += ["--tb", tb]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    return result


def pieces(fen):
    # W:W..:B.. — every comma-separated square of both sides.
    n = 0
    for part in fen.split(":")[1:]:
        body = part[1:]
        if body:
            n += len(body.split(","))
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games_file", metavar="GAMES")
    ap.add_argument("--zoo", default="zoo")
    ap.add_argument("--side", default="A", choices=["A", "B"])
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--games", type=int, default=1000, help="lost games to replay at most")
    ap.add_argument("--level", type=int, default=60, help="a score below -LEVEL counts as lost ground")
    ap.add_argument("--tb", default=None)
    ap.add_argument("--eval", default=None, help="the evaluation of the deep searches (default: the game's)")
    a = ap.parse_args()

    spread = Counter()
    done = 0
    for line in open(a.games_file):
        g = json.loads(line)
        if g.get("type", "game") != "game" or "moves" not in g:
            continue
        zoo_white = g["white"] == a.side
        lost = (g["result"] == "0-1" and zoo_white) or (g["result"] == "1-0" and not zoo_white)
        if not lost:
            continue
        if done >= a.games:
            break
        done += 1
        opening = g["opening"]
        first_white = opening.startswith("W")
        # zoo's positions: plies where the side to move is zoo's colour.
        rows = []
        for ply in range(len(g["moves"])):
            white_to_move = first_white == (ply % 2 == 0)
            if white_to_move != zoo_white:
                continue
            r = search(a.zoo, g["game"], opening, g["moves"][:ply], a.depth, a.tb, a.eval)
            rows.append((ply, r["score"], r["bestmove"], g["moves"][ply], pieces(r["fen"])))
        turn = None
        for i in range(len(rows) - 1, -1, -1):
            if rows[i][1] > -a.level:
                turn = i
                break
        if turn is None:
            print(f"game {g['index']}: lost from the opening (first score {rows[0][1] if rows else '?'})")
            spread["opening"] += 1
            continue
        ply, score, best, played, n = rows[turn]
        after = rows[turn + 1][1] if turn + 1 < len(rows) else None
        print(
            f"game {g['index']}: ply {ply}, {n} pieces, score {score} then {after}; "
            f"played {played}, deep search {best}"
        )
        spread[n] += 1
        sys.stdout.flush()
    print("turning points by pieces on the board:")
    for k in sorted(spread, key=lambda k: (isinstance(k, str), k)):
        print(f"  {k}: {spread[k]}")


if __name__ == "__main__":
    main()
