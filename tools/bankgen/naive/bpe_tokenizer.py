# Naive: the definition, literally: scan every adjacent pair, merge the best one, repeat.
# Part 2 decodes by table look-up and re-encodes the text the same way.
import sys

lines = sys.stdin.read().split("\n")
decoding = lines[0].strip() == "decode"
if decoding:
    lines = lines[1:]
m = int(lines[0])
rules = {}
table = {}
for r in range(m):
    a, b = lines[1 + r].split()
    table[256 + r] = a + b
    if (a, b) not in rules:
        rules[(a, b)] = r
t = int(lines[1 + m])


def merge(word):
    toks = [(c, ord(c)) for c in word]
    while True:
        best = None
        for i in range(len(toks) - 1):
            r = rules.get((toks[i][0], toks[i + 1][0]))
            if r is not None and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            return toks
        r, i = best
        toks[i : i + 2] = [(toks[i][0] + toks[i + 1][0], 256 + r)]


for line in lines[2 + m : 2 + m + t]:
    if decoding:
        ids = [int(x) for x in line.split()]
        if not all(33 <= i <= 126 or i in table for i in ids):
            print("invalid")
            continue
        text = "".join(chr(i) if i < 256 else table[i] for i in ids)
        best = [i for _, i in merge(text)]
        if best == ids:
            print(text, "canonical")
        else:
            print(text, "noncanonical", len(best), *best)
        continue
    result = []
    for word in [w for w in line.split(" ") if w]:
        result += [s for s, _ in merge(word)]
    print(len(result), *result)
