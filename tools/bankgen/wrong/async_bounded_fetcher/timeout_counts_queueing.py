"""Wrong: the timeout is wrapped around the semaphore, so time spent waiting for a slot counts."""

import asyncio
import selectors

# --- the harness: a virtual clock and a fake network (the judge runs this part as is) ---


class FetchError(Exception):
    """What `fetch` raises when the server answers with an error."""


class _Stuck(Exception):
    pass


class _VirtualSelector(selectors.DefaultSelector):
    # Nothing here waits for real I/O: when every task is waiting, the clock jumps to the
    # next timer instead of sleeping, so a test of minutes of virtual time takes
    # milliseconds and comes out the same on every run.
    def __init__(self):
        super().__init__()
        self.now = 0

    def select(self, timeout=None):
        if timeout is None:
            raise _Stuck
        self.now += timeout
        return super().select(0)


class _VirtualLoop(asyncio.SelectorEventLoop):
    def __init__(self):
        super().__init__(_VirtualSelector())
        # Times are whole milliseconds; the default resolution (1 ns) vanishes in float
        # rounding once the clock passes ~10^7 ms, and the loop would spin.
        self._clock_resolution = 0.5

    def time(self):
        return self._selector.now


def run(limit, timeout, requests, cancel_at=None):
    loop = _VirtualLoop()
    log = []
    table = {url: (i, latency, ok) for i, (url, latency, ok) in enumerate(requests)}

    async def fetch(url):
        i, latency, ok = table[url]
        log.append((loop.time(), i, "start"))
        try:
            await asyncio.sleep(latency)
        except asyncio.CancelledError:
            log.append((loop.time(), i, "cancel"))
            raise
        log.append((loop.time(), i, "done" if ok else "error"))
        if not ok:
            raise FetchError(url)
        return "body of " + url

    async def caller():
        task = asyncio.ensure_future(fetch_all([r[0] for r in requests], fetch, limit, timeout))
        if cancel_at is not None:
            loop.call_at(cancel_at, task.cancel)
        try:
            return await task
        except asyncio.CancelledError:
            return "cancelled"

    try:
        outcome = loop.run_until_complete(caller())
        while pending := [t for t in asyncio.all_tasks(loop) if not t.done()]:
            loop.run_until_complete(asyncio.wait(pending))
    except _Stuck:
        outcome = "stuck"
    finally:
        loop.close()
    events = sorted(log, key=lambda e: (e[0], e[1]))
    return {
        "results": outcome,
        "log": [f"{int(t)} {kind} {requests[i][0]}" for t, i, kind in events],
    }


# --- your code ---------------------------------------------------------------------------


async def fetch_all(urls, fetch, limit, timeout):
    slots = asyncio.Semaphore(limit)

    async def one(url):
        try:
            async with asyncio.timeout(timeout):
                async with slots:
                    return await fetch(url)
        except TimeoutError:
            return "timeout"
        except FetchError:
            return "error"

    return list(await asyncio.gather(*(one(url) for url in urls)))
