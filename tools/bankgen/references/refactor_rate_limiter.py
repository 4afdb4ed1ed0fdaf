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


def main():
    lines = sys.stdin.read().split("\n")
    t, n = (int(x) for x in lines[0].split())
    limits = {}
    for line in lines[1 : 1 + t]:
        tenant, limit, window = line.split()
        limits.setdefault(tenant, (int(limit), int(window)))
    windows = {}
    stats = {}
    out = []
    for line in lines[1 + t : 1 + t + n]:
        now, tenant, cost = line.split()
        now, cost = int(now), int(cost)
        window = windows.get(tenant)
        if window is None:
            config = limits.get(tenant, limits.get("*"))
            window = windows[tenant] = TenantWindow(*config) if config else None
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
