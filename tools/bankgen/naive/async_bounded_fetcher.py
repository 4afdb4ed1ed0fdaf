"""Naive: no asyncio at all. Step the clock one millisecond at a time and apply the
statement's rules at every tick (endings, then the caller's cancellation, then starts)."""


def run(limit, timeout, requests, cancel_at=None):
    n = len(requests)
    results = [None] * n
    started = {}  # index -> start time, for fetches in flight
    log = []
    nxt = 0
    t = 0
    cancelled = False
    while True:
        for i in sorted(started):
            start = started[i]
            url, latency, ok = requests[i]
            if start + latency == t and latency < timeout:
                log.append((t, i, "done" if ok else "error"))
                results[i] = "body of " + url if ok else "error"
                del started[i]
            elif start + timeout == t and latency > timeout:
                log.append((t, i, "cancel"))
                results[i] = "timeout"
                del started[i]
        if cancel_at is not None and t == cancel_at and (started or nxt < n):
            for i in sorted(started):
                log.append((t, i, "cancel"))
            started = {}
            cancelled = True
            break
        while nxt < n and len(started) < limit:
            started[nxt] = t
            log.append((t, nxt, "start"))
            nxt += 1
        if nxt == n and not started:
            break
        t += 1
    log.sort(key=lambda e: (e[0], e[1]))
    return {
        "results": "cancelled" if cancelled else results,
        "log": ["%d %s %s" % (tt, kind, requests[i][0]) for tt, i, kind in log],
    }
