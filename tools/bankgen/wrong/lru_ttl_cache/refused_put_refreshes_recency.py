"""Wrong: in part 2 a refused update of an existing entry still makes it the most recently
used."""

import heapq


def run(capacity, ops):
    """Part 1 is part 2 with every entry of size 1 and nothing pinned."""
    entries = {}  # key -> [value, size, pins, stamp, expires_at or None, version]
    recency = []  # (stamp, key): lazy min-heap of evictable entries, least recent first
    expiry = []  # (expires_at, version, key): lazy, checked against entries
    overdue = set()  # pinned keys whose expiry passed
    stamp = 0
    used = pinned = 0  # bytes of all entries, of pinned entries
    hits = misses = evictions = expirations = 0
    results = []

    def remove(key):
        nonlocal used
        used -= entries.pop(key)[1]

    for op in ops:
        kind, now = op[0], op[1]
        while expiry and expiry[0][0] <= now:
            _, s, key = heapq.heappop(expiry)
            entry = entries.get(key)
            if entry is None or entry[5] != s:
                continue
            if entry[2]:
                overdue.add(key)
            else:
                remove(key)
                expirations += 1
        if kind == "put":
            key, value, ttl = op[2], op[3], op[4]
            size = op[5] if len(op) > 5 else 1
            entry = entries.get(key)
            mine = entry[1] if entry else 0
            if pinned - (mine if entry and entry[2] else 0) + size > capacity:
                if entry:
                    stamp += 1
                    entry[3] = stamp
                    heapq.heappush(recency, (stamp, key))
                continue
            while used - mine + size > capacity:
                s, victim = heapq.heappop(recency)
                other = entries.get(victim)
                if victim == key or other is None or other[3] != s or other[2]:
                    continue
                remove(victim)
                overdue.discard(victim)
                evictions += 1
            stamp += 1
            expires = now + ttl if ttl else None
            if entry:
                if entry[2]:
                    pinned += size - mine
                entry[0], entry[1], entry[3], entry[4], entry[5] = (
                    value,
                    size,
                    stamp,
                    expires,
                    stamp,
                )
                overdue.discard(key)
            else:
                entries[key] = [value, size, 0, stamp, expires, stamp]
            used += size - mine
            heapq.heappush(recency, (stamp, key))
            if expires is not None:
                heapq.heappush(expiry, (expires, stamp, key))
        elif kind == "get":
            entry = entries.get(op[2])
            if entry is None:
                misses += 1
                results.append(None)
                continue
            hits += 1
            results.append(entry[0])
            stamp += 1
            entry[3] = stamp
            heapq.heappush(recency, (stamp, op[2]))
        elif kind == "del":
            entry = entries.get(op[2])
            if entry is None or entry[2]:
                results.append(False)
            else:
                remove(op[2])
                results.append(True)
        elif kind == "size":
            results.append(len(entries))
        elif kind == "bytes":
            results.append(used)
        elif kind == "pin":
            entry = entries.get(op[2])
            results.append(entry is not None)
            if entry is not None:
                if not entry[2]:
                    pinned += entry[1]
                entry[2] += 1
        elif kind == "unpin":
            entry = entries.get(op[2])
            if entry is None or not entry[2]:
                results.append(False)
                continue
            results.append(True)
            entry[2] -= 1
            if not entry[2]:
                pinned -= entry[1]
                heapq.heappush(recency, (entry[3], op[2]))
                if op[2] in overdue:
                    overdue.discard(op[2])
                    heapq.heappush(expiry, (entry[4], entry[5], op[2]))
    return {
        "results": results,
        "hits": hits,
        "misses": misses,
        "evictions": evictions,
        "expirations": expirations,
    }
