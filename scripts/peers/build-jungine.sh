#!/bin/sh
# Builds jungine (notune/jungine, C++17, MIT) from a checkout at $1 into
# $2 (default: ./jungine), for `zoo match --b jcei:PATH` (docs/search.md,
# "Against jungine"). With --capped as $3, its den-danger and capture
# extensions stop at twice the iteration's depth: as published the
# den-danger extension has no cap, and where both sides stand near the
# other's den the draft never falls and the search runs to its ply limit,
# which ends some games with `bestmove 0000` (issue #55). The cap is for
# measurement only.
set -eu
src=${1:?usage: build-jungine.sh JUNGINE-CHECKOUT [OUT] [--capped]}
out=${2:-./jungine}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/engine/." "$work/"
if [ "${3:-}" = "--capped" ]; then
    # One global for the iteration's depth, set where each iteration starts,
    # and both extensions only while ply < 2 × that depth.
    sed -i 's/^int Search::alphaBeta(/static int capRootDepth = 64;\nint Search::alphaBeta(/' "$work/search.cpp"
    sed -i 's/for (int depth = 1; depth <= maxDepth; depth++) {/for (int depth = 1; depth <= maxDepth; depth++) { capRootDepth = depth;/' "$work/search.cpp"
    sed -i 's/if (inDanger) extension = 1;/if (inDanger \&\& ply < 2 * capRootDepth) extension = 1;/' "$work/search.cpp"
    sed -i 's/if (isCapture \&\& abs(board.squares\[to\]) >= TIGER) extension = std::max(extension, 1);/if (isCapture \&\& abs(board.squares[to]) >= TIGER \&\& ply < 2 * capRootDepth) extension = std::max(extension, 1);/' "$work/search.cpp"
    grep -q 'ply < 2 \* capRootDepth) extension = 1' "$work/search.cpp" || { echo "the cap did not apply" >&2; exit 1; }
fi
# -march=native as its Makefile builds it.
make -C "$work" -s >/dev/null
cp "$work/jungle" "$out"
echo "built $out"
