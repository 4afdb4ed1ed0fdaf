"""Wrong: a rule listed twice takes the rank of its last occurrence (a dict built by
plain assignment), not its first."""

import heapq
import sys


def encode(word, ranks):
    syms = list(word)
    n = len(syms)
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    heap = []
    for i in range(n - 1):
        rank = ranks.get((syms[i], syms[i + 1]))
        if rank is not None:
            heap.append((rank, i, syms[i], syms[i + 1]))
    heapq.heapify(heap)
    while heap:
        _, i, a, b = heapq.heappop(heap)
        j = nxt[i]
        if j < 0 or syms[i] != a or syms[j] != b:
            continue
        merged = a + b
        syms[i] = merged
        syms[j] = None
        k = nxt[j]
        nxt[i] = k
        if k >= 0:
            prv[k] = i
            rank = ranks.get((merged, syms[k]))
            if rank is not None:
                heapq.heappush(heap, (rank, i, merged, syms[k]))
        p = prv[i]
        if p >= 0:
            rank = ranks.get((syms[p], merged))
            if rank is not None:
                heapq.heappush(heap, (rank, p, syms[p], merged))
    out = []
    i = 0
    while i >= 0:
        out.append(syms[i])
        i = nxt[i]
    return out


def main():
    lines = sys.stdin.read().split("\n")
    m = int(lines[0])
    ranks = {}
    for r in range(m):
        left, right = lines[1 + r].split()
        ranks[left, right] = r
    t = int(lines[1 + m])
    cache = {}
    out = []
    for line in lines[2 + m : 2 + m + t]:
        tokens = []
        for word in line.split(" "):
            if not word:
                continue
            if word not in cache:
                cache[word] = encode(word, ranks)
            tokens += cache[word]
        out.append(" ".join([str(len(tokens)), *tokens]))
    sys.stdout.write("".join(x + "\n" for x in out))


main()
