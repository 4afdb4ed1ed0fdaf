# Naive: scans every entry on every operation (expiry and least-recently-used).
def run(capacity, ops):
    store = {}  # key -> [value, expires or None, last used]
    clock = 0
    out = []
    stats = {"hits": 0, "misses": 0, "evictions": 0, "expirations": 0}
    for op in ops:
        clock += 1
        now = op[1]
        for key in list(store):
            exp = store[key][1]
            if exp is not None and exp <= now:
                del store[key]
                stats["expirations"] += 1
        if op[0] == "put":
            if capacity <= 0:
                continue
            key, value, ttl = op[2], op[3], op[4]
            if key not in store and len(store) == capacity:
                lru = min(store, key=lambda k: store[k][2])
                del store[lru]
                stats["evictions"] += 1
            store[key] = [value, now + ttl if ttl > 0 else None, clock]
        elif op[0] == "get":
            if op[2] in store:
                store[op[2]][2] = clock
                stats["hits"] += 1
                out.append(store[op[2]][0])
            else:
                stats["misses"] += 1
                out.append(None)
        elif op[0] == "del":
            out.append(store.pop(op[2], None) is not None)
        else:
            out.append(len(store))
    return {"results": out, **stats}
