import heapq
import sys


def static_batches(budget, deadline, requests):
    """Parts 1 and 2: requests are (id, arrival, tokens); deadline is None in part 1."""
    out = []
    waste = 0
    batch = []
    batch_tokens = 0
    longest = 0
    opened = 0

    def dispatch(at):
        nonlocal batch, batch_tokens, longest, waste
        waste += len(batch) * longest - batch_tokens
        ids = " ".join(batch)
        out.append(ids if deadline is None else f"@{at} {ids}")
        batch = []
        batch_tokens = 0
        longest = 0

    for rid, arrival, tokens in requests:
        if batch and deadline is not None and arrival > opened + deadline:
            dispatch(opened + deadline)
        if batch and (len(batch) + 1) * max(longest, tokens) > budget:
            dispatch(arrival)
        if not batch:
            opened = arrival
        batch.append(rid)
        batch_tokens += tokens
        longest = max(longest, tokens)
    if batch:
        dispatch(opened + (deadline or 0))
    out.append(f"waste {waste}")
    return out


def continuous(budget, requests):
    """Part 3: requests are (id, arrival, prompt, output); event-driven, FIFO admission."""
    n = len(requests)
    result = [""] * n
    running = []  # (finish time, reserved slots)
    used = peak = makespan = 0
    head = 0
    t = 0
    while head < n:
        while running and running[0][0] <= t:
            used -= heapq.heappop(running)[1]
        while head < n and requests[head][1] <= t:
            rid, _, prompt, output = requests[head]
            need = prompt + output
            if need > budget:
                result[head] = f"{rid} rejected"
            elif used + need <= budget:
                finish = t + output
                result[head] = f"{rid} {t} {finish}"
                heapq.heappush(running, (finish, need))
                used += need
                makespan = max(makespan, finish)
            else:
                break
            head += 1
        peak = max(peak, used)
        if head == n:
            break
        arrival = requests[head][1]
        t = arrival if arrival > t else running[0][0]
        if running and running[0][0] < t:
            t = running[0][0]
    return result + [f"makespan {makespan}", f"peak {peak}"]


def main():
    rows = [line.split() for line in sys.stdin.read().splitlines() if line.strip()]
    if not rows:
        return
    header = rows[0]
    if header[0] == "continuous":
        budget, count = int(header[1]), int(header[2])
        requests = [(r[0], int(r[1]), int(r[2]), int(r[3])) for r in rows[1 : 1 + count]]
        out = continuous(budget, requests)
    elif len(header) == 2:
        budget, count = map(int, header)
        requests = [(r[0], 0, int(r[1])) for r in rows[1 : 1 + count]]
        out = static_batches(budget, None, requests)
    else:
        budget, deadline, count = map(int, header)
        requests = [(r[0], int(r[1]), int(r[2])) for r in rows[1 : 1 + count]]
        out = static_batches(budget, deadline, requests)
    sys.stdout.write("\n".join(out) + "\n")


main()
