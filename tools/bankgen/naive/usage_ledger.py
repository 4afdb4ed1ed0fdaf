"""Naive: a plain list; every sum and find walks it from the start."""

import sys

lines = sys.stdin.read().split("\n")
n, q = map(int, lines[0].split())
tokens = [int(x) for x in lines[1].split()]
for line in lines[2 : 2 + q]:
    parts = line.split()
    if parts[0] == "sum":
        lo, hi = int(parts[1]), int(parts[2])
        total = 0
        for i in range(lo - 1, hi):
            total += tokens[i]
        print(total)
    elif parts[0] == "set":
        tokens[int(parts[1]) - 1] = int(parts[2])
    else:
        x = int(parts[1])
        total = 0
        answer = -1
        for i in range(n):
            total += tokens[i]
            if total >= x:
                answer = i + 1
                break
        print(answer)
