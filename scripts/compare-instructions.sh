#!/usr/bin/env bash
# Instructions executed (callgrind's Ir) by the same commands in two zoo
# binaries: a measure of the work done that, unlike time, load on the machine
# does not change (this VM exposes no hardware counters to `perf`). Needs
# valgrind. Usage:
#   git worktree add /tmp/old REV && (cd /tmp/old && cargo build --release -p zoo)
#   cargo build --release -p zoo
#   scripts/compare-instructions.sh /tmp/old/target/release/zoo target/release/zoo
# Prints per command: old Ir, new Ir, change.
set -uo pipefail
OLD=$1 NEW=$2
OLD=$(realpath "$OLD") NEW=$(realpath "$NEW")
cd "${TMPDIR:-/tmp}"
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
while IFS= read -r args; do
  [ -z "$args" ] && continue
  o=$(ir $OLD $args); n=$(ir $NEW $args)
  awk -v a="$args" -v o="$o" -v n="$n" 'BEGIN{printf "%-60s %15d %15d %+7.2f%%\n", a, o, n, (n-o)*100/o}'
done <<'LIST'
perft --game jungle --depth 5
perft --game jungle-checkers --depth 6
perft --game classical-checkers --depth 8
perft --game english-checkers --depth 8
analyse --game jungle --depth 10
analyse --game jungle-checkers --depth 12
analyse --game classical-checkers --depth 10
analyse --game english-checkers --depth 10
LIST
