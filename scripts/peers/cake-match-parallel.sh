#!/bin/bash
# Many games at once against Cake 1.22: the openings of BALLOTS dealt
# round-robin to N processes, each a `zoo match` playing one game at a time
# (each opening with colours swapped) against its own copy of CAKE-DIR
# (Cake times itself by process CPU time, so it may not share a process,
# and it writes into its working directory). Every process is stopped after
# SECONDS; the games it finished are kept. Then, in OUT-DIR: b<i>.txt (the
# openings of process i), g<i>.jsonl (its games), log<i>.txt, games.tgz.
# zoo plays with EVAL (default `nnue`, the net shipped; e.g.
# EVAL=nnue:/abs/path/to/other.nnue for a net not yet shipped).
#
#   [EVAL=...] cake-match-parallel.sh ZOO CAKE-DIR BALLOTS N SECONDS MOVETIME-MS OUT-DIR
#
# docs/cbapi.md ("At 1 s a move") ran it with N = 15 on a 16-core machine.
set -u
[ $# = 7 ] || { sed -n 2,14p "$0"; exit 2; }
EVAL=${EVAL:-nnue}
ZOO=$(realpath "$1"); CAKE=$(realpath "$2"); B=$(realpath "$3")
N=$4; T=$5; MS=$6; W=$7
mkdir -p "$W" && W=$(realpath "$W")
echo "$(nproc) cores; $("$ZOO" --version); zoo plays --eval $EVAL"
for i in $(seq 0 $((N-1))); do
  grep -v '^#' "$B" | awk -v n="$N" -v i="$i" 'NR % n == (i+1) % n' > "$W/b$i.txt"
  rm -rf "$W/cake$i" && cp -r "$CAKE" "$W/cake$i"
  k=$(wc -l < "$W/b$i.txt")
  (cd "$W/cake$i" && exec timeout "$T" "$ZOO" match --game english-checkers \
     --a "--eval $EVAL" --b "cb:./cake.so" --games $((2*k)) --movetime "$MS" \
     --openings "../b$i.txt" --out "../g$i.jsonl" --force > "../log$i.txt" 2>&1) &
done
# A process that ends at once (no library, a bad opening) stops the run.
sleep 20
for i in $(seq 1 "$N"); do
  kill -0 %"$i" 2>/dev/null || { echo "process $((i-1)) ended early:"; tail -5 "$W/log$((i-1)).txt"; kill $(jobs -p) 2>/dev/null; exit 1; }
done
wait
cd "$W" && tar czf games.tgz b*.txt g*.jsonl log*.txt
for i in $(seq 0 $((N-1))); do echo "process $i: $(wc -l < "g$i.jsonl" 2>/dev/null || echo 0) games"; done
