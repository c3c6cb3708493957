#!/bin/bash
# A batch of six long 4-piece Jungle Checkers lines (the <= 2-piece tables
# as the oracle) on 1, 2 and 3 processes, each run with a fresh store:
#
#   run.sh ZOO TABLES-DIR OUT-DIR
#
# ZOO built with `--features mpi`; docs/solve.md, "A batch over MPI".
set -eu
[ $# = 3 ] || { sed -n 2,7p "$0"; exit 2; }
ZOO=$(realpath "$1"); TB=$(realpath "$2"); mkdir -p "$3"; OUT=$(realpath "$3")
HERE=$(dirname "$(realpath "$0")")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
A="--game jungle-checkers --tb $TB --positions $HERE/jc4-longest.txt --search-only --time 120 --json"
for np in 1 2 3; do
  rm -f "$OUT/s$np.store"
  s=$(date +%s.%N)
  if [ "$np" = 1 ]; then
    "$ZOO" solve $A --store "$OUT/s$np.store" > "$OUT/out$np.jsonl" 2> "$OUT/err$np.txt"
  else
    mpirun --oversubscribe -np "$np" "$ZOO" solve $A --store "$OUT/s$np.store" > "$OUT/out$np.jsonl" 2> "$OUT/err$np.txt"
  fi
  e=$(date +%s.%N)
  echo "processes $np: $(echo "$e - $s" | bc) s, $(wc -l < "$OUT/out$np.jsonl") reports"
done
