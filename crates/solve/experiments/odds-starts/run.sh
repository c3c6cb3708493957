#!/bin/sh
# The seven-piece odds starts of Jungle Checkers (issue #52), each asked
# for its value by proof search alone (`--search-only`: no table built in
# memory, no reachable graph) with the tables in TABLES as the oracle,
# SECONDS a question (two questions at most a position), JOBS positions
# at once (default 1). A decided value's proof is written beside its
# report and re-checked by `zoo solve --check` (the independent checker,
# zoo-proofcheck). Every decided answer also goes into a proof store in
# OUT (store-N; with --proof a store is only added to, never read), for
# later runs without --proof to start from.
#
#   run.sh ZOO TABLES SECONDS OUT [JOBS]
#
# docs/solve.md, "The seven-piece odds starts", has the table this made.
set -eu
usage="usage: run.sh ZOO TABLES SECONDS OUT [JOBS]"
zoo=${1:?$usage}
tables=${2:?$usage}
seconds=${3:?$usage}
out=${4:?$usage}
jobs=${5:-1}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export zoo tables seconds out
grep -v -e '^#' -e '^[[:space:]]*$' "$here/positions.txt" | awk '{ print NR "|" $0 }' |
    xargs -P "$jobs" -I{} sh -c '
        n=${1%%|*}; fen=${1#*|}
        "$zoo" solve --game jungle-checkers --fen "$fen" --tb "$tables" --goal value \
            --search-only --time "$seconds" --store "$out/store-$n" \
            --proof "$out/proof-$n.txt" --json >"$out/report-$n.json"
        if [ -f "$out/proof-$n.txt" ]; then
            "$zoo" solve --check "$out/proof-$n.txt" --tb "$tables" >"$out/check-$n.txt"
        fi
        echo "$n done: $fen"
    ' sh {}
