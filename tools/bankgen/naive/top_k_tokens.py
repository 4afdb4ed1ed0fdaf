# Naive: counts each distinct token with a full scan, then a selection by repeated max.
def top_k(tokens, k):
    distinct = []
    for t in tokens:
        if t not in distinct:
            distinct.append(t)
    pairs = [[t, tokens.count(t)] for t in distinct]
    out = []
    while pairs and len(out) < k:
        best = pairs[0]
        for p in pairs:
            if p[1] > best[1] or (p[1] == best[1] and p[0] < best[0]):
                best = p
        pairs.remove(best)
        out.append(best)
    return out
