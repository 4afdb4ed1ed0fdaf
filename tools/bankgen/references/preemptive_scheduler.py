import heapq
import sys


def main():
    data = sys.stdin.read().split("\n")
    header = [int(x) for x in data[0].split()]
    n = header[0]
    slots = header[1] if len(header) > 1 else 1
    rate = header[2] if len(header) > 2 else None  # checkpoint bandwidth, tokens per unit
    overhead = header[3] if len(header) > 3 else None  # incremental mode: cost per segment
    incremental = overhead is not None

    ids, arrival, prio, prompt, work = [], [], [], [], []
    for line in data[1 : 1 + n]:
        f = line.split()
        ids.append(f[0])
        arrival.append(int(f[1]))
        prio.append(int(f[2]))
        prompt.append(int(f[3]))
        work.append(int(f[4]))

    done = [0] * n  # work completed
    stored = [0] * n  # tokens on the host checkpoint (0: none)
    segments = [0] * n
    start = [-1] * n
    finish = [0] * n
    preemptions = [0] * n
    run_id = [0] * n  # bumps on each dispatch / pre-emption: invalidates stale entries
    dispatched_at = [0] * n
    restore_of = [0] * n

    waiting = []  # (priority, arrival, index)
    running = []  # (-priority, -dispatch time, -index, run id): worst first, lazy
    events = []  # (time, kind, index, run id); kind 0 = finish, 1 = save done
    idle = slots
    saving = 0
    save_time = restore_time = total_preemptions = 0

    def ceil_div(a, b):
        return -(-a // b)

    def dispatch(i, t):
        nonlocal idle, restore_time
        idle -= 1
        run_id[i] += 1
        if start[i] < 0:
            start[i] = t
        restore = 0
        if stored[i]:
            restore = ceil_div(stored[i], rate)
            if incremental:
                restore += overhead * segments[i]
        dispatched_at[i] = t
        restore_of[i] = restore
        restore_time += restore
        heapq.heappush(events, (t + restore + work[i] - done[i], 0, i, run_id[i]))
        heapq.heappush(running, (-prio[i], -t, -i, run_id[i]))

    def preempt(i, t):
        nonlocal idle, saving, save_time, restore_time, total_preemptions
        run_id[i] += 1
        preemptions[i] += 1
        total_preemptions += 1
        resumed = dispatched_at[i] + restore_of[i]
        if t < resumed:  # still restoring: the host copy is intact, nothing to save
            restore_time -= resumed - t
            idle += 1
            heapq.heappush(waiting, (prio[i], arrival[i], i))
            return
        done[i] += t - resumed
        kv = prompt[i] + done[i]
        if incremental:
            cost = overhead + ceil_div(kv - stored[i], rate)
            segments[i] += 1
        else:
            cost = ceil_div(kv, rate)
        stored[i] = kv
        save_time += cost
        saving += 1
        heapq.heappush(events, (t + cost, 1, i, run_id[i]))

    nxt = 0
    finished = 0
    while finished < n:
        t = events[0][0] if events else arrival[nxt]
        if nxt < n and arrival[nxt] < t:
            t = arrival[nxt]
        while events and events[0][0] == t:
            _, kind, i, rid = heapq.heappop(events)
            if rid != run_id[i]:
                continue
            if kind == 0:
                finish[i] = t
                finished += 1
                run_id[i] += 1
                idle += 1
            else:
                saving -= 1
                idle += 1
                heapq.heappush(waiting, (prio[i], arrival[i], i))
        while nxt < n and arrival[nxt] == t:
            heapq.heappush(waiting, (prio[nxt], arrival[nxt], nxt))
            nxt += 1
        while waiting:
            if idle:
                dispatch(heapq.heappop(waiting)[2], t)
                continue
            if rate is None or saving:
                break
            while running[0][3] != run_id[-running[0][2]]:
                heapq.heappop(running)
            victim = -running[0][2]
            if waiting[0][0] >= prio[victim]:
                break
            heapq.heappop(running)
            preempt(victim, t)

    out = []
    for i in range(n):
        line = f"{ids[i]} {start[i]} {finish[i]}"
        out.append(line if rate is None else f"{line} {preemptions[i]}")
    if rate is not None:
        out.append(
            f"preemptions {total_preemptions} save_time {save_time} restore_time {restore_time}"
        )
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


main()
