import heapq

P = (1 << 61) - 1


def run(n, m, docs):
    """Exact duplicates by their token tuple; then leader clustering of the first copies,
    with candidates from n - m + 1 bands of the signature: if at least m of n positions
    agree, at most n - m disagree, so some band agrees entirely (no candidate is missed).
    Every bucket lists its leaders in increasing order, so merging a document's buckets
    visits candidates smallest first and stops at the first match: a hot bucket (a
    boilerplate band shared by thousands) costs only up to its first near-duplicate."""
    hashes = [
        (pow(0x9E3779B97F4A7C15, h + 1, P), pow(0xBF58476D1CE4E5B9, h + 1, P)) for h in range(n)
    ]
    bands = n - m + 1
    cuts = [k * n // bands for k in range(bands + 1)]
    buckets = [{} for _ in range(bands)]
    first = {}
    exact = []
    near = []
    signatures = {}  # leader -> signature
    for index, tokens in enumerate(docs):
        key = tuple(tokens)
        rep = first.setdefault(key, index)
        exact.append(rep)
        if rep != index:
            near.append(near[rep])
            continue
        xs = {
            (tokens[j] << 40) | (tokens[j + 1] << 20) | tokens[j + 2]
            for j in range(len(tokens) - 2)
        }
        sig = tuple(min((a * x + b) % P for x in xs) for a, b in hashes)
        keys = [sig[cuts[k] : cuts[k + 1]] for k in range(bands)]
        leader = None
        last = -1
        lists = [buckets[k].get(keys[k], ()) for k in range(bands)]
        for candidate in heapq.merge(*lists):
            if candidate == last:
                continue
            last = candidate
            other = signatures[candidate]
            if sum(1 for u, v in zip(sig, other, strict=True) if u == v) >= m:
                leader = candidate
                break
        if leader is None:
            leader = index
            signatures[index] = sig
            for k in range(bands):
                buckets[k].setdefault(keys[k], []).append(index)
        near.append(leader)
    return {"exact": exact, "near": near}
