# Naive: recomputes every batch's size from scratch (quadratic) and simulates continuous
# batching one decode step at a time. Independent of the reference; correct but slow.
import sys


def fits(batch, budget):
    return len(batch) * max(tok for _, tok in batch) <= budget


def static(budget, deadline, requests):
    lines = []
    total_waste = 0
    batch = []
    t0 = None
    for rid, arrival, tok in requests:
        if batch and deadline is not None and arrival - t0 > deadline:
            lines.append((t0 + deadline, batch))
            batch = []
        if batch and not fits(batch + [(rid, tok)], budget):
            lines.append((arrival, batch))
            batch = []
        if not batch:
            t0 = arrival
        batch = batch + [(rid, tok)]
    if batch:
        lines.append((t0 + (deadline if deadline is not None else 0), batch))
    out = []
    for at, b in lines:
        longest = max(tok for _, tok in b)
        total_waste += sum(longest - tok for _, tok in b)
        ids = " ".join(rid for rid, _ in b)
        out.append(ids if deadline is None else "@%d %s" % (at, ids))
    out.append("waste %d" % total_waste)
    return out


def continuous(budget, requests):
    queue = list(range(len(requests)))
    running = []  # [index, finish]
    start = {}
    rejected = set()
    t = 0
    peak = 0
    while queue or running:
        running = [r for r in running if r[1] > t]
        while queue and requests[queue[0]][1] <= t:
            i = queue[0]
            need = requests[i][2] + requests[i][3]
            if need > budget:
                rejected.add(i)
                queue.pop(0)
                continue
            used = sum(requests[j][2] + requests[j][3] for j, _ in running)
            if used + need > budget:
                break
            start[i] = t
            running.append([i, t + requests[i][3]])
            queue.pop(0)
        peak = max(peak, sum(requests[j][2] + requests[j][3] for j, _ in running))
        t += 1
    out = []
    for i, r in enumerate(requests):
        if i in rejected:
            out.append(f"{r[0]} rejected")
        else:
            out.append("%s %d %d" % (r[0], start[i], start[i] + r[3]))
    finishes = [start[i] + requests[i][3] for i in start]
    out.append("makespan %d" % (max(finishes) if finishes else 0))
    out.append("peak %d" % peak)
    return out


tokens = sys.stdin.read().split("\n")
rows = [line.split() for line in tokens if line.strip()]
head = rows[0]
if head[0] == "continuous":
    n = int(head[2])
    reqs = [(r[0], int(r[1]), int(r[2]), int(r[3])) for r in rows[1 : 1 + n]]
    result = continuous(int(head[1]), reqs)
elif len(head) == 2:
    n = int(head[1])
    result = static(int(head[0]), None, [(r[0], 0, int(r[1])) for r in rows[1 : 1 + n]])
else:
    n = int(head[2])
    reqs = [(r[0], int(r[1]), int(r[2])) for r in rows[1 : 1 + n]]
    result = static(int(head[0]), int(head[1]), reqs)
print("\n".join(result))
