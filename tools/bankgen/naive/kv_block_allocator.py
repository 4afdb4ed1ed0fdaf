# Naive: one owner slot per block, scanned from block 0 for every block handed out, and
# every count (free blocks, live sequences, wasted slots) recomputed by a full scan.
def run(num_blocks, block_size, ops):
    owner = [None] * num_blocks
    length = {}  # live sequence -> tokens
    admitted = {}  # live sequence -> admission number
    clock = 0
    out = []
    preempted = 0

    def blocks_of(seq):
        return [b for b in range(num_blocks) if owner[b] == seq]

    def free_count():
        n = 0
        for b in range(num_blocks):
            if owner[b] is None:
                n += 1
        return n

    def grab(seq, count):
        for _ in range(count):
            b = 0
            while owner[b] is not None:
                b += 1
            owner[b] = seq

    def drop(seq):
        n = 0
        for b in range(num_blocks):
            if owner[b] == seq:
                owner[b] = None
                n += 1
        del length[seq]
        del admitted[seq]
        return n

    order = {}  # sequence -> its block ids in the order they were handed out
    for op in ops:
        if op[0] == "alloc":
            seq, n = op[1], op[2]
            blocks = (n + block_size - 1) // block_size
            if seq in length:
                out.append(None)
            elif blocks > free_count():
                out.append(False)
            else:
                before = set(blocks_of(seq))
                grab(seq, blocks)
                order[seq] = sorted(set(blocks_of(seq)) - before)
                length[seq] = n
                clock += 1
                admitted[seq] = clock
                out.append(True)
        elif op[0] == "append":
            seq, n = op[1], op[2]
            if seq not in length:
                out.append(None)
                continue
            have = len(blocks_of(seq))
            want = (length[seq] + n + block_size - 1) // block_size
            others = sum(len(blocks_of(s)) for s in length if s != seq)
            if want - have > free_count() + others:
                out.append(-1)
                continue
            count = 0
            while want - have > free_count():
                victim = max((s for s in length if s != seq), key=lambda s: admitted[s])
                drop(victim)
                del order[victim]
                count += 1
            preempted += count
            for _ in range(want - have):
                b = 0
                while owner[b] is not None:
                    b += 1
                owner[b] = seq
                order[seq].append(b)
            length[seq] += n
            out.append(count)
        elif op[0] == "free":
            seq = op[1]
            if seq in length:
                del order[seq]
                out.append(drop(seq))
            else:
                out.append(None)
        elif op[0] == "table":
            out.append(list(order[op[1]]) if op[1] in length else None)
        else:
            waste = 0
            for s in length:
                waste += len(blocks_of(s)) * block_size - length[s]
            out.append([free_count(), len(length), waste])
    return {"results": out, "preemptions": preempted}
