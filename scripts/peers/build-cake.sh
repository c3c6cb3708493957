#!/bin/sh
# Builds Cake 1.22 (Martin Fierz, C, GPL-2) as a CheckerBoard-API library
# from the `cake` directory of a hungerburg/capers checkout at $1 into $2
# (default: ./cake.so), for `zoo match --game english-checkers --b
# cb:PATH` (docs/cbapi.md). Modern gcc refuses its link on a multiple
# definition (`logging`) without -fcommon. Run the match with Cake's
# directory as the working directory if it is to find its book
# `xbook.bin`; on a 64-bit build its endgame database is off
# (`switches.h`).
set -eu
src=${1:?usage: build-cake.sh CAPERS-CHECKOUT [OUT]}
out=${2:-./cake.so}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/cake/." "$work/"
make -C "$work" -s clean >/dev/null 2>&1 || true
make -C "$work" -s cake.so CFLAGS='-O3 -fcommon $(DEFS) $(XDEFS)' >/dev/null
cp "$work/cake.so" "$out"
echo "built $out"
