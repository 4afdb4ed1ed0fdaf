import heapq
from collections import OrderedDict


def run(capacity, ops):
    entries = OrderedDict()  # key -> (value, expires_at or None); least recent first
    expiry = []  # (expires_at, seq, key): lazy, checked against entries
    version = {}  # key -> seq of its current entry
    seq = 0
    hits = misses = evictions = expirations = 0
    results = []
    for op in ops:
        kind, now = op[0], op[1]
        while expiry and expiry[0][0] <= now:
            _, s, key = heapq.heappop(expiry)
            if version.get(key) == s and key in entries:
                del entries[key]
                del version[key]
                expirations += 1
        if kind == "put":
            _, _, key, value, ttl = op
            if capacity == 0:
                continue
            if key in entries:
                entries.move_to_end(key)
            elif len(entries) >= capacity:
                old, _ = entries.popitem(last=False)
                del version[old]
                evictions += 1
            seq += 1
            version[key] = seq
            entries[key] = value
            if ttl:
                heapq.heappush(expiry, (now + ttl, seq, key))
        elif kind == "get":
            key = op[2]
            if key in entries:
                entries.move_to_end(key)
                hits += 1
                results.append(entries[key])
            else:
                misses += 1
                results.append(None)
        elif kind == "del":
            key = op[2]
            if key in entries:
                del entries[key]
                del version[key]
                results.append(True)
            else:
                results.append(False)
        elif kind == "size":
            results.append(len(entries))
    return {
        "results": results,
        "hits": hits,
        "misses": misses,
        "evictions": evictions,
        "expirations": expirations,
    }
