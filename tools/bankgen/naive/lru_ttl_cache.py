# Naive: scans every entry on every operation (expiry, least-recently-used, pinned bytes).
def run(capacity, ops):
    store = {}  # key -> [value, expires or None, last used, size, pins]
    clock = 0
    out = []
    stats = {"hits": 0, "misses": 0, "evictions": 0, "expirations": 0}
    for op in ops:
        clock += 1
        now = op[1]
        for key in list(store):
            exp = store[key][1]
            if exp is not None and exp <= now and store[key][4] == 0:
                del store[key]
                stats["expirations"] += 1
        if op[0] == "put":
            key, value, ttl = op[2], op[3], op[4]
            size = op[5] if len(op) == 6 else 1
            held = sum(e[3] for k, e in store.items() if k != key and e[4] > 0)
            if held + size > capacity:
                continue
            while sum(e[3] for k, e in store.items() if k != key) + size > capacity:
                free = [k for k in store if k != key and store[k][4] == 0]
                lru = min(free, key=lambda k: store[k][2])
                del store[lru]
                stats["evictions"] += 1
            pins = store[key][4] if key in store else 0
            store[key] = [value, now + ttl if ttl > 0 else None, clock, size, pins]
        elif op[0] == "get":
            if op[2] in store:
                store[op[2]][2] = clock
                stats["hits"] += 1
                out.append(store[op[2]][0])
            else:
                stats["misses"] += 1
                out.append(None)
        elif op[0] == "del":
            if op[2] in store and store[op[2]][4] == 0:
                del store[op[2]]
                out.append(True)
            else:
                out.append(False)
        elif op[0] == "pin":
            if op[2] in store:
                store[op[2]][4] += 1
            out.append(op[2] in store)
        elif op[0] == "unpin":
            ok = op[2] in store and store[op[2]][4] > 0
            if ok:
                store[op[2]][4] -= 1
            out.append(ok)
        elif op[0] == "bytes":
            out.append(sum(e[3] for e in store.values()))
        else:
            out.append(len(store))
    return {"results": out, **stats}
