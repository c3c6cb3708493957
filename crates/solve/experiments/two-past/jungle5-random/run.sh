#!/bin/bash
# Each position of FENS asked for its value: run.sh ZOO FENS TABLES SECONDS OUT [FLAGS...]
# (one JSON line a position; a position zoo refuses gets {"fen", "error"}).
set -u
zoo=$1 fens=$2 tables=$3 seconds=$4 out=$5
shift 5
while read -r f; do
  "$zoo" solve --game jungle --fen "$f" --tb "$tables" "$@" --time "$seconds" --json 2>/dev/null ||
    echo "{\"fen\":\"$f\",\"error\":true}"
done < "$fens" > "$out"
