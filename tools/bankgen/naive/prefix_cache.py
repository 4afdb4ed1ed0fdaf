# Naive: a block is named by the whole prompt prefix it ends; eviction scans every cached
# block for the oldest release stamp, and stats count by a full scan.
def run(num_blocks, block_size, ops):
    cache = {}  # prefix tuple -> [references, release stamp]
    running = {}
    stamp = 0
    out = []
    total = {"hits": 0, "misses": 0, "evictions": 0}
    for op in ops:
        stamp += 1
        if op[0] == "start":
            req, tokens = op[1], op[2]
            if req in running:
                out.append(None)
                continue
            names = [
                tuple(tokens[: (j + 1) * block_size]) for j in range(len(tokens) // block_size)
            ]
            hit = [n for n in names if n in cache]
            miss = [n for n in names if n not in cache]
            free_slots = num_blocks - len(cache)
            reusable = 0
            for n, entry in cache.items():
                if entry[0] == 0 and n not in hit:
                    reusable += 1
            if len(miss) > free_slots + reusable:
                out.append(-1)
                continue
            for n in hit:
                cache[n][0] += 1
            for n in miss:
                if len(cache) == num_blocks:
                    victim = None
                    for m, entry in cache.items():
                        if entry[0] == 0 and (victim is None or entry[1] < cache[victim][1]):
                            victim = m
                    del cache[victim]
                    total["evictions"] += 1
                cache[n] = [1, 0]
            running[req] = names
            total["hits"] += len(hit)
            total["misses"] += len(miss)
            out.append(len(hit))
        elif op[0] == "finish":
            if op[1] not in running:
                out.append(None)
                continue
            names = running.pop(op[1])
            n_free = 0
            for n in names[::-1]:
                cache[n][0] -= 1
                if cache[n][0] == 0:
                    n_free += 1
                    cache[n][1] = stamp * 10**6 + n_free
            out.append(n_free)
        elif op[0] == "lookup":
            tokens = op[1]
            k = 0
            while (k + 1) * block_size <= len(tokens) and tuple(
                tokens[: (k + 1) * block_size]
            ) in cache:
                k += 1
            out.append(k)
        else:
            used = sum(1 for e in cache.values() if e[0] > 0)
            out.append([len(cache), used, len(cache) - used])
    return {"results": out, **total}
