#!/usr/bin/env python3
"""N random 5-piece Jungle positions (seed S): each side two or three
animals of distinct kinds on random land squares (the rat on water too),
none on a den, either side to move. Usage: gen.py S N > fens.txt"""
import random
import sys

random.seed(int(sys.argv[1]))
n = int(sys.argv[2])
water = {(f, r) for r in (4, 5, 6) for f in (1, 2, 4, 5)}
dens = {(3, 1), (3, 9)}
kinds = "rcwdptle"
squares = [(f, r) for f in range(7) for r in range(1, 10)]
out = []
while len(out) < n:
    white = random.choice([2, 3])
    board = {}
    for upper, ks in ((True, random.sample(kinds, white)), (False, random.sample(kinds, 5 - white))):
        for p in ks:
            free = [s for s in squares if s not in board and s not in dens and (p == "r" or s not in water)]
            board[random.choice(free)] = p.upper() if upper else p
    rows = []
    for r in range(9, 0, -1):
        row, empty = "", 0
        for f in range(7):
            c = board.get((f, r))
            if c:
                row += (str(empty) if empty else "") + c
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    out.append("/".join(rows) + " " + random.choice("wb"))
print("\n".join(out))
