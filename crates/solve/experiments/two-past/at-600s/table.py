#!/usr/bin/env python3
"""The runs of run.sh as a table: each position's kind, the tables' value,
proof search's value, each question's answer, method and seconds; then
how many were decided and how many differ from the tables.
Usage: table.py OUT.jsonl..."""
import json
import sys



def method(a):
    """The setting that answered: the ply-bounded search reports `dfpn`
    with its bound."""
    if a["answer"] == "unknown":
        return "open"
    if a.get("ply_bound") is not None:
        return f"ply-bounded (bound {a['ply_bound']})"
    return a.get("method") or "—"


decided = wrong = n = 0
print("| position | kind | tables | found | questions (answer, method, seconds) | seconds in all |")
print("|---|---|---|---|---|---|")
for path in sys.argv[1:]:
    for line in open(path):
        if not line.strip():
            continue
        r = json.loads(line)
        n += 1
        found = r.get("value")
        decided += found is not None
        wrong += found is not None and found != r["tables_value"]
        qs = "; ".join(f"{a['goal']}: {a['answer']}, {method(a)}, {a['seconds']:.1f} s"
                       for a in r.get("answers", []))
        total = sum(a["seconds"] for a in r.get("answers", []))
        print(f"| `{r['fen']}` | {r['kind']} | {r['tables_value']} | {found or 'unknown'} | {qs} | {total:.1f} |")
print(f"\ndecided {decided} of {n}, differing from the tables {wrong}")
