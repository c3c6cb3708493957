#!/usr/bin/env python3
"""The odds starts' table for docs/solve.md from run.sh's OUT directory:
one row a position, its value, each question's answer, calls and seconds,
and the re-checked proof's size where a value was decided.

    table.py OUT
"""
import json
import pathlib
import re
import sys

START = "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1"
NAMES = {"r": "rat", "d": "dog", "t": "tiger", "e": "elephant"}


def squares(board):
    """The 49 squares of a FEN's board part, digits expanded to dots."""
    return "".join("." * int(c) if c.isdigit() else c
                   for c in board.replace("/", ""))


def removed(fen):
    """Which animal of the start `fen` lacks (upper case: White's)."""
    gone = [c for c, d in zip(squares(START), squares(fen.split()[0]))
            if c != "." and d == "."]
    if len(gone) != 1:
        sys.exit(f"table.py: {fen} is not the start less one animal")
    c = gone[0]
    return f"{'White' if c.isupper() else 'Black'}'s {NAMES[c.lower()]}"


def main(out):
    out = pathlib.Path(out)
    here = pathlib.Path(__file__).parent
    fens = [l.strip() for l in (here / "positions.txt").read_text().splitlines()
            if l.strip() and not l.startswith("#")]
    print("| removed | position | value | questions: answer, calls, seconds | proof re-checked |")
    print("|---|---|---|---|---|")
    for n, fen in enumerate(fens, 1):
        report = out / f"report-{n}.json"
        if not report.exists():
            print(f"| {removed(fen)} | `{fen}` | not run | | |")
            continue
        r = json.loads(report.read_text())
        asked = "; ".join(
            f"{a['goal']}: {a['answer']}, {a['nodes']:,}, {a['seconds']:.0f} s"
            for a in r["answers"])
        check = out / f"check-{n}.txt"
        proof = "—"
        if check.exists():
            m = re.search(r"\((\d+) nodes", check.read_text())
            proof = f"{int(m.group(1)):,} nodes" if m else check.read_text().strip()
        print(f"| {removed(fen)} | `{fen}` | {r['value'] or 'unknown'} | {asked} | {proof} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
