"""Wrong: in part 2 only a running task can be cancelled; a task waiting for a slot, a
dependency or its retry ignores the cancellation."""

import heapq
import sys
from collections import deque


def main():
    lines = sys.stdin.read().split("\n")
    header = [int(x) for x in lines[0].split()]
    n, k, m, backoff, retries = header[:5]
    c = header[5] if len(header) > 5 else 0  # part 2: cancellations
    capacity = {}
    for line in lines[1 : 1 + m]:
        name, cap = line.split()
        capacity[name] = int(cap)
    names, duration, resource, fails, deps = [], [], [], [], []
    for line in lines[1 + m : 1 + m + n]:
        f = line.split()
        names.append(f[0])
        duration.append(int(f[1]))
        resource.append(f[2])
        fails.append(int(f[3]))
        deps.append([] if f[4] == "-" else f[4].split(","))
    index = {name: i for i, name in enumerate(names)}
    cancels = []  # (time, task index or None), by non-decreasing time
    for line in lines[1 + m + n : 1 + m + n + c]:
        at, name = line.split()
        cancels.append((int(at), index.get(name)))
    next_cancel = 0

    # Blocked: depends on an unknown task or (transitively) on a cycle. Kahn's algorithm.
    dependents = [[] for _ in range(n)]
    waiting_on = [0] * n
    for i in range(n):
        for d in deps[i]:
            if d not in index:
                waiting_on[i] += n + 1  # never reaches zero
            else:
                dependents[index[d]].append(i)
                waiting_on[i] += 1
    indeg = waiting_on[:]
    order = deque(i for i in range(n) if indeg[i] == 0)
    blocked = [True] * n
    while order:
        i = order.popleft()
        blocked[i] = False
        for j in dependents[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                order.append(j)

    status = ["blocked" if b else "" for b in blocked]
    attempts = [0] * n
    is_running = [False] * n
    first_start = [0] * n
    end = [0] * n
    queues = {}  # resource -> heap of (ready, position)
    used = dict.fromkeys(capacity, 0)
    wakeups = []  # times at which a retry becomes ready
    completions = []  # (time, position)
    running = peak = 0
    unfinished = 0

    def make_ready(i, at):
        heapq.heappush(queues.setdefault(resource[i], []), (at, i))
        heapq.heappush(wakeups, at)

    for i in range(n):
        if not blocked[i]:
            unfinished += 1
            if waiting_on[i] == 0:
                make_ready(i, 0)

    def skip_dependents(i):
        nonlocal unfinished
        stack = [i]
        while stack:
            for j in dependents[stack.pop()]:
                if not blocked[j] and not status[j]:
                    status[j] = "skipped"
                    unfinished -= 1
                    stack.append(j)

    t = 0
    first = True
    while unfinished:
        if not first:
            while wakeups and wakeups[0] <= t:
                heapq.heappop(wakeups)
            candidates = [heap[0] for heap in (wakeups,) if heap]
            if completions:
                candidates.append(completions[0][0])
            if next_cancel < c:
                candidates.append(cancels[next_cancel][0])
            if not candidates:
                break
            t = min(candidates)
        first = False
        while completions and completions[0][0] == t:
            _, i = heapq.heappop(completions)
            if status[i] == "cancelled":
                continue  # its attempt was stopped when it was cancelled
            is_running[i] = False
            running -= 1
            if resource[i] in used:
                used[resource[i]] -= 1
            if attempts[i] > fails[i]:
                status[i] = "ok"
                end[i] = t
                unfinished -= 1
                for j in dependents[i]:
                    waiting_on[j] -= 1
                    if waiting_on[j] == 0 and not status[j]:
                        make_ready(j, t)
            elif attempts[i] > retries:
                status[i] = "failed"
                end[i] = t
                unfinished -= 1
                skip_dependents(i)
            else:
                make_ready(i, t + backoff * (1 << (attempts[i] - 1)))
        while next_cancel < c and cancels[next_cancel][0] == t:
            i = cancels[next_cancel][1]
            next_cancel += 1
            if i is None or status[i] or not is_running[i]:
                continue
            if is_running[i]:
                is_running[i] = False
                running -= 1
                if resource[i] in used:
                    used[resource[i]] -= 1
            status[i] = "cancelled"
            end[i] = t
            unfinished -= 1
            skip_dependents(i)
        while running < k:
            best = None
            for res, heap in queues.items():
                while heap and status[heap[0][1]]:
                    heapq.heappop(heap)  # cancelled while waiting
                free = res not in used or used[res] < capacity[res]
                ready = heap and heap[0][0] <= t
                if free and ready and (best is None or heap[0] < queues[best][0]):
                    best = res
            if best is None:
                break
            _, i = heapq.heappop(queues[best])
            if best in used:
                used[best] += 1
            if attempts[i] == 0:
                first_start[i] = t
            attempts[i] += 1
            is_running[i] = True
            running += 1
            heapq.heappush(completions, (t + duration[i], i))
        peak = max(peak, running)

    out = []
    makespan = 0
    for i in range(n):
        if status[i] in ("ok", "failed"):
            out.append(f"{names[i]} {status[i]} {first_start[i]} {end[i]} {attempts[i]}")
            makespan = max(makespan, end[i])
        elif status[i] == "cancelled":
            start = first_start[i] if attempts[i] else "-"
            out.append(f"{names[i]} cancelled {start} {end[i]} {attempts[i]}")
        else:
            out.append(f"{names[i]} {status[i]}")
    out.append(f"makespan {makespan}")
    out.append(f"peak {peak}")
    sys.stdout.write("\n".join(out) + "\n")


main()
