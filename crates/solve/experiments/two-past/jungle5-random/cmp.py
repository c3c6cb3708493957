#!/usr/bin/env python3
"""Proof search's values (SEARCH) against the reference's (REF), a line a
position, then how many were decided and how many differ.
Usage: cmp.py SEARCH.jsonl REF.jsonl"""
import json
import sys


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


search, ref = load(sys.argv[1]), load(sys.argv[2])
decided = wrong = 0
for a, b in zip(search, ref):
    assert a["fen"] == b["fen"], (a["fen"], b["fen"])
    va, vb = a.get("value"), b.get("value")
    seconds = sum(x["seconds"] for x in a.get("answers", []))
    methods = ",".join(x.get("method") or "" for x in a.get("answers", []))
    decided += va is not None
    wrong += va is not None and vb is not None and va != vb
    print(f"{a['fen']:40} search {va or 'unknown':8} reference {vb or 'unknown':8} {seconds:8.2f} s  {methods}")
print(f"decided {decided} of {len(search)}, differing from the reference {wrong}, "
      f"reference undecided {sum(1 for b in ref if b.get('value') is None)}")
