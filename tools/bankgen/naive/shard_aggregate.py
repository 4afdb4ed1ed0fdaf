# Naive: one scan over all records per key; statistics by their definitions.
from collections import Counter


def h(s):
    x = 0x811C9DC5
    for c in s.encode():
        x ^= c
        x = (x * 0x01000193) % (1 << 32)
    return x


def aggregate(shards, k, reducers):
    records = [r for shard in shards for r in shard]
    keys = []
    for key, _ in records:
        if key not in keys:
            keys.append(key)
    stats = []
    for key in keys:
        vals = [v for kk, v in records if kk == key]
        c = Counter(vals)
        mode = min(v for v in c if c[v] == max(c.values()))
        below = sorted(vals)
        median = below[(len(below) - 1) // 2]
        stats.append((key, len(vals), mode, median))
    stats.sort(key=lambda s: (-s[1], s[0]))
    loads = [0] * reducers
    for key, _ in records:
        loads[h(key) % reducers] += 1
    hot = sorted(s[0] for s in stats if s[1] > len(records) / reducers)
    salted = [0] * reducers
    for i, (key, _) in enumerate(records):
        if key in hot:
            j = sum(1 for kk, _ in records[:i] if kk == key)
            salted[(h(key) + j) % reducers] += 1
        else:
            salted[h(key) % reducers] += 1
    return {
        "records": len(records),
        "distinct": len(keys),
        "top": [list(s) for s in stats[:k]],
        "loads": loads,
        "hot": hot,
        "salted_loads": salted,
    }
