"""Wrong: pre-empts the least recently admitted sequence first."""

import heapq


def run(num_blocks, block_size, ops):
    free = list(range(num_blocks))  # a min-heap of free block ids (sorted = a valid heap)
    tables = {}  # live sequence -> its block ids, in order; insertion order = admission order
    tokens = {}  # live sequence -> its number of tokens
    wasted = 0  # sum over live sequences of block slots they hold but do not fill
    preemptions = 0
    results = []

    def take(seq, count):
        table = tables[seq]
        for _ in range(count):
            table.append(heapq.heappop(free))

    def release(seq):
        nonlocal wasted
        table = tables.pop(seq)
        wasted -= len(table) * block_size - tokens.pop(seq)
        for block in table:
            heapq.heappush(free, block)
        return len(table)

    for op in ops:
        kind = op[0]
        if kind == "alloc":
            _, seq, n = op
            need = -(-n // block_size)
            if seq in tables:
                results.append(None)
            elif need > len(free):
                results.append(False)
            else:
                tables[seq] = []
                tokens[seq] = n
                take(seq, need)
                wasted += need * block_size - n
                results.append(True)
        elif kind == "append":
            _, seq, n = op
            if seq not in tables:
                results.append(None)
                continue
            held = len(tables[seq])
            need = -(-(tokens[seq] + n) // block_size) - held
            if need > num_blocks - held:
                results.append(-1)
                continue
            evicted = 0
            while need > len(free):
                victim = next(iter(tables))
                if victim == seq:
                    victim = list(tables)[1]
                release(victim)
                evicted += 1
            preemptions += evicted
            take(seq, need)
            wasted += need * block_size - n
            tokens[seq] += n
            results.append(evicted)
        elif kind == "free":
            seq = op[1]
            results.append(release(seq) if seq in tables else None)
        elif kind == "table":
            seq = op[1]
            results.append(list(tables[seq]) if seq in tables else None)
        else:
            results.append([len(free), len(tables), wasted])
    return {"results": results, "preemptions": preemptions}
