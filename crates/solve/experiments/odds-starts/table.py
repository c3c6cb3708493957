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

REMOVED = ["White's elephant", "White's rat", "White's dog", "White's tiger",
           "Black's elephant", "Black's rat", "Black's tiger", "Black's dog"]


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
            print(f"| {REMOVED[n - 1]} | `{fen}` | not run | | |")
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
        print(f"| {REMOVED[n - 1]} | `{fen}` | {r['value'] or 'unknown'} | {asked} | {proof} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
