#!/bin/bash
# The positions of LIST (CSV lines `fen,kind,value` from a decide report)
# asked for their value by proof search alone, one at a time:
#   run.sh ZOO GAME TABLES SECONDS WORKERS LIST OUT
# appends a JSON line a position to OUT (with the tables' value and the
# kind added), so that a stopped run goes on with `tail -n +K LIST`.
set -u
zoo=$1 game=$2 tables=$3 seconds=$4 workers=$5 list=$6 out=$7
while IFS=, read -r fen kind value; do
  [ "$fen" = fen ] && continue
  line=$("$zoo" solve --game "$game" --fen "$fen" --tb "$tables" --goal value --search-only \
    --time "$seconds" --workers "$workers" --json 2>/dev/null) ||
    line="{\"fen\":\"$fen\",\"error\":true}"
  echo "$line" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
r["tables_value"], r["kind"] = sys.argv[1], sys.argv[2]
print(json.dumps(r))' "$value" "$kind" >> "$out"
done < "$list"
