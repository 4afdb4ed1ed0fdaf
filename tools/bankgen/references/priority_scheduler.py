import heapq
import sys


def main():
    data = sys.stdin.read().split()
    n, aging, chunk, slo = (int(x) for x in data[:4])
    ids, arrival, prio, cost = [], [], [], []
    for k in range(n):
        rid, a, p, c = data[4 + 4 * k : 8 + 4 * k]
        ids.append(rid)
        arrival.append(int(a))
        prio.append(int(p))
        cost.append(int(c))
    remaining = cost[:]
    finish = [0] * n
    levels = {}  # priority -> heap of (enqueued, index)
    waiting = 0
    t = 0
    nxt = 0
    done = 0
    while done < n:
        if waiting == 0 and arrival[nxt] > t:
            t = arrival[nxt]
        while nxt < n and arrival[nxt] <= t:
            heapq.heappush(levels.setdefault(prio[nxt], []), (arrival[nxt], nxt))
            waiting += 1
            nxt += 1
        best = None
        for p, heap in levels.items():
            if heap:
                enq, i = heap[0]
                key = (p - (t - enq) // aging, enq, i)
                if best is None or key < best:
                    best = key
        _, _, i = best
        heapq.heappop(levels[prio[i]])
        waiting -= 1
        run = min(chunk, remaining[i])
        t += run
        remaining[i] -= run
        if remaining[i] == 0:
            finish[i] = t
            done += 1
        else:
            heapq.heappush(levels[prio[i]], (t, i))
            waiting += 1
    out = [f"{ids[i]} {finish[i]} {finish[i] - arrival[i]}" for i in range(n)]
    by_class = {}
    for i in range(n):
        by_class.setdefault(prio[i], []).append(finish[i] - arrival[i])
    for p in sorted(by_class):
        lat = sorted(by_class[p])
        count = len(lat)
        p50 = lat[(count * 50 + 99) // 100 - 1]
        p99 = lat[(count * 99 + 99) // 100 - 1]
        out.append(f"class {p} {count} {p50} {p99}")
    urgent = sorted(by_class.get(0, []))
    late = sum(1 for x in urgent if x > slo)
    met = not urgent or urgent[(len(urgent) * 99 + 99) // 100 - 1] <= slo
    out.append(f"slo {'ok' if met else 'violated'} {late}")
    sys.stdout.write("\n".join(out) + "\n")


main()
