#!/bin/bash
# The strategy search alone on the 20 draws of draws20.txt (seeds 7 and 8
# of `zoo experiment decide --draws 10`), each side the keeper:
#   cargo build --profile ci -p zoo-lab --example fortress_alone
#   ./run.sh ../../../../../../target/ci/examples/fortress_alone JC3 30 > OUT.log
# (JC3: `zoo tb build --game jungle-checkers --pieces 3 --dir JC3`;
# `rechoose-30s.log` is this commit's search; `before-30s.log` the same
# build with no positions kept by the pass, a temporary switch, which is
# b9eba22c's search; the two ran at once on the 2 cores, 6,000 MB a run.)
# `me-rechoose-30s.log` and `me-mirror-30s.log` are the `me` lines only,
# SIDES=me, of f01cca5b's search and of the one that merges a position
# with its mirror image, the two at once.
bin=$1; tables=$2; secs=$3
here=$(dirname "$0")
while read -r fen; do
  for side in ${SIDES:-me other}; do
    echo -n "$side "
    "$bin" "$tables" "$fen" "$side" "$secs" 6000 2>&1 | grep keeper
  done
done < "$here/draws20.txt"
