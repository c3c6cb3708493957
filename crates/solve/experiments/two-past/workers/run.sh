#!/bin/bash
# The samples of docs/solve.md, "The manager's workers": the default
# manager on 2 workers, one run at a time on the 2 cores. The
# `-by-shares` CSVs are the first form's (every search dealt by its
# share, before `rounds::deal` gave the ply-bounded searches a worker of
# their own), the others this one's. The `-mirror` CSVs are of the
# search that merges a position with its mirror image: the draws
# f17512d7's (the strategy search), the others 2425058e's (the
# reachable graph too).
#   zoo tb build --game jungle-checkers --pieces 5 --dir JC5
#   ./run.sh zoo JC5 OUT
zoo=$1; tb=$2; out=$3
run() {
  name=$1; shift
  "$zoo" experiment decide --game jungle-checkers --tb "$tb" --pieces 5 --oracle-pieces 3 \
    --dfpn-only --workers 2 "$@" --out-dir "$out/$name"
}
run draws7 --longest 0 --draws 10 --positions 0 --seed 7 --seconds 60
run draws8 --longest 0 --draws 10 --positions 0 --seed 8 --seconds 60
run random40 --longest 0 --draws 0 --positions 40 --seed 7 --seconds 30
run issue --longest 2 --draws 3 --positions 8 --seconds 60
