#!/bin/bash
# The front two plies below the 4-piece win in 65 (Black, the root's side
# to move, as prover, playing the engine's move at DEPTH, 6 when not
# given), solved into a store on 1 and 3 processes, then the root with
# that store:
#
#   front.sh ZOO TABLES-DIR OUT-DIR [DEPTH]
#
# docs/solve.md, "A front of positions".
set -eu
[ $# = 3 ] || [ $# = 4 ] || { sed -n 2,9p "$0"; exit 2; }
DEPTH=${4:-6}
ZOO=$(realpath "$1"); TB=$(realpath "$2"); mkdir -p "$3"; OUT=$(realpath "$3")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ROOT="re5/7/7/7/2T4/1E5/7 b"
A="--game jungle-checkers --tb $TB --search-only --time 120 --json"
"$ZOO" solve --game jungle-checkers --tb "$TB" --fen "$ROOT" --front 2 --front-prover mover --front-depth "$DEPTH" > "$OUT/front.txt"
for np in 1 3; do
  rm -f "$OUT/f$np.store"
  s=$(date +%s.%N)
  if [ "$np" = 1 ]; then
    "$ZOO" solve $A --positions "$OUT/front.txt" --store "$OUT/f$np.store" > "$OUT/fout$np.jsonl" 2> "$OUT/ferr$np.txt"
  else
    mpirun --oversubscribe -np "$np" "$ZOO" solve $A --positions "$OUT/front.txt" --store "$OUT/f$np.store" > "$OUT/fout$np.jsonl" 2> "$OUT/ferr$np.txt"
  fi
  m=$(date +%s.%N)
  "$ZOO" solve $A --fen "$ROOT" --store "$OUT/f$np.store" > "$OUT/root$np.json" 2> "$OUT/rerr$np.txt"
  e=$(date +%s.%N)
  echo "processes $np: front $(echo "$m - $s" | bc) s, root $(echo "$e - $m" | bc) s"
done
