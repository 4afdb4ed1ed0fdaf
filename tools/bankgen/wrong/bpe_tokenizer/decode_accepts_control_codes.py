"""Wrong: part 2 accepts every code below 256 as a character id (space, DEL, 255)."""

import heapq
import sys


def encode(word, ranks):
    """The symbols of `word` and their ids: a character's code, or 256 + the rank of the
    rule that made the symbol."""
    syms = list(word)
    ids = [ord(c) for c in word]
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
        ids[i] = 256 + ranks[a, b]
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
    out_ids = []
    i = 0
    while i >= 0:
        out.append(syms[i])
        out_ids.append(ids[i])
        i = nxt[i]
    return out, out_ids


def decode(lines, m, rules):
    """Part 2: each line of ids back to text, and whether it is the canonical encoding."""
    ranks = {}
    vocab = {code: chr(code) for code in range(256)}
    for r, (left, right) in enumerate(rules):
        ranks.setdefault((left, right), r)
        vocab[256 + r] = left + right
    out = []
    for line in lines:
        ids = [int(x) for x in line.split()]
        if any(i not in vocab for i in ids):
            out.append("invalid")
            continue
        text = "".join(vocab[i] for i in ids)
        _, canonical = encode(text, ranks)
        if canonical == ids:
            out.append(f"{text} canonical")
        else:
            out.append(" ".join([text, "noncanonical", str(len(canonical)), *map(str, canonical)]))
    return out


def main():
    lines = sys.stdin.read().split("\n")
    if lines[0].strip() == "decode":
        m = int(lines[1])
        rules = [tuple(lines[2 + r].split()) for r in range(m)]
        t = int(lines[2 + m])
        out = decode(lines[3 + m : 3 + m + t], m, rules)
        sys.stdout.write("".join(x + "\n" for x in out))
        return
    m = int(lines[0])
    ranks = {}
    for r in range(m):
        left, right = lines[1 + r].split()
        ranks.setdefault((left, right), r)
    t = int(lines[1 + m])
    cache = {}
    out = []
    for line in lines[2 + m : 2 + m + t]:
        tokens = []
        for word in line.split(" "):
            if not word:
                continue
            if word not in cache:
                cache[word] = encode(word, ranks)[0]
            tokens += cache[word]
        out.append(" ".join([str(len(tokens)), *tokens]))
    sys.stdout.write("".join(x + "\n" for x in out))


main()
