# Naive: the definition, literally: scan every adjacent pair, merge the best one, repeat.
import sys

lines = sys.stdin.read().split("\n")
m = int(lines[0])
rules = {}
for r in range(m):
    a, b = lines[1 + r].split()
    if (a, b) not in rules:
        rules[(a, b)] = r
t = int(lines[1 + m])
for line in lines[2 + m : 2 + m + t]:
    result = []
    for word in [w for w in line.split(" ") if w]:
        toks = list(word)
        while True:
            best = None
            for i in range(len(toks) - 1):
                r = rules.get((toks[i], toks[i + 1]))
                if r is not None and (best is None or r < best[0]):
                    best = (r, i)
            if best is None:
                break
            i = best[1]
            toks[i : i + 2] = [toks[i] + toks[i + 1]]
        result += toks
    print(len(result), *result)
