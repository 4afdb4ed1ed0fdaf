"""Wrong: a finish releases the first block first, so the shared root is evicted first."""

from collections import OrderedDict


def run(num_blocks, block_size, ops):
    ids = {}  # (id of the previous block or -1, its tokens) -> block id: a hash chain
    ref = {}  # cached block -> reference count
    evictable = OrderedDict()  # unreferenced cached blocks, least recently released first
    active = {}  # running request -> its block ids, first to last
    hits = misses = evictions = 0
    results = []

    def chain(tokens, create):
        blocks = []
        parent = -1
        for j in range(len(tokens) // block_size):
            key = (parent, tuple(tokens[j * block_size : (j + 1) * block_size]))
            parent = ids.get(key)
            if parent is None:
                if not create:
                    break
                parent = ids[key] = len(ids)
            blocks.append(parent)
        return blocks

    for op in ops:
        kind = op[0]
        if kind == "start":
            _, req, tokens = op
            if req in active:
                results.append(None)
                continue
            blocks = chain(tokens, True)
            found = [b for b in blocks if b in ref]
            new = [b for b in blocks if b not in ref]
            spare = sum(1 for b in found if b in evictable)
            if len(new) > num_blocks - len(ref) + len(evictable) - spare:
                results.append(-1)
                continue
            for b in found:
                ref[b] += 1
                evictable.pop(b, None)
            for b in new:
                if len(ref) >= num_blocks:
                    old, _ = evictable.popitem(last=False)
                    del ref[old]
                    evictions += 1
                ref[b] = 1
            active[req] = blocks
            hits += len(found)
            misses += len(new)
            results.append(len(found))
        elif kind == "finish":
            req = op[1]
            if req not in active:
                results.append(None)
                continue
            released = 0
            for b in active.pop(req):
                ref[b] -= 1
                if ref[b] == 0:
                    evictable[b] = True
                    released += 1
            results.append(released)
        elif kind == "lookup":
            count = 0
            for b in chain(op[1], False):
                if b not in ref:
                    break
                count += 1
            results.append(count)
        else:
            results.append([len(ref), len(ref) - len(evictable), len(evictable)])
    return {"results": results, "hits": hits, "misses": misses, "evictions": evictions}
