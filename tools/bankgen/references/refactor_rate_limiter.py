import sys
from collections import deque


class TenantWindow:
    """Accepted requests of one tenant inside its sliding window, with their sum."""

    def __init__(self, limit, window):
        self.limit = limit
        self.window = window
        self.events = deque()
        self.used = 0

    def allow(self, now, cost):
        events = self.events
        while events and events[0][0] <= now - self.window:
            self.used -= events.popleft()[1]
        if self.used + cost > self.limit:
            return False
        events.append((now, cost))
        self.used += cost
        return True


class TokenBucket:
    """Part 2: a bucket of `capacity` tokens, full at the tenant's first request, refilled
    by `rate` tokens per ms up to its capacity."""

    def __init__(self, capacity, rate):
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.last = None

    def allow(self, now, cost):
        if self.last is not None:
            self.tokens = min(self.capacity, self.tokens + self.rate * (now - self.last))
        self.last = now
        if cost > self.tokens:
            return False
        self.tokens -= cost
        return True


def main():
    lines = sys.stdin.read().split("\n")
    header = lines[0].split()
    limiter = TenantWindow
    if header[0] == "bucket":
        limiter = TokenBucket
        header = header[1:]
    t, n = (int(x) for x in header)
    limits = {}
    for line in lines[1 : 1 + t]:
        tenant, first, second = line.split()
        limits.setdefault(tenant, (int(first), int(second)))
    windows = {}
    stats = {}
    out = []
    for line in lines[1 + t : 1 + t + n]:
        now, tenant, cost = line.split()
        now, cost = int(now), int(cost)
        window = windows.get(tenant)
        if window is None:
            config = limits.get(tenant, limits.get("*"))
            window = windows[tenant] = limiter(*config) if config else None
        ok = window is not None and window.allow(now, cost)
        entry = stats.setdefault(tenant, [0, 0, 0])
        if ok:
            entry[0] += 1
            entry[2] += cost
        else:
            entry[1] += 1
        out.append("ok" if ok else "reject")
    for tenant in sorted(stats):
        accepted, rejected, tokens = stats[tenant]
        out.append(f"{tenant} {accepted} {rejected} {tokens}")
    sys.stdout.write("".join(line + "\n" for line in out))


main()
