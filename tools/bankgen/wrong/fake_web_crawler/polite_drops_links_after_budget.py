"""Wrong: in part 2 the links of fetches still in flight when the budget runs out are
never discovered."""

import heapq
import re
import sys
from collections import deque

URI = re.compile(r"^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$")
DEFAULT_PORT = {"http": "80", "https": "443"}


def remove_dot_segments(path):
    out = []
    i = 0
    n = len(path)
    while i < n:
        rest = path[i:]
        if rest.startswith("../"):
            i += 3
        elif rest.startswith("./") or rest.startswith("/./"):
            i += 2
        elif rest == "/.":
            path = path[:i] + "/"
            n = len(path)
        elif rest.startswith("/../"):
            i += 3
            if out:
                out.pop()
        elif rest == "/..":
            path = path[:i] + "/"
            n = len(path)
            if out:
                out.pop()
        elif rest in (".", ".."):
            i = n
        else:
            j = path.find("/", i + 1 if rest.startswith("/") else i)
            if j < 0:
                j = n
            out.append(path[i:j])
            i = j
    return "".join(out)


def resolve(base, ref):
    """RFC 3986 5.2.2 (strict). base is a normalised (scheme, authority, path, query)."""
    m = URI.match(ref)
    scheme, authority, path, query, _ = m.groups()
    if scheme is not None:
        return scheme, authority, remove_dot_segments(path), query
    b_scheme, b_auth, b_path, b_query = base
    if authority is not None:
        return b_scheme, authority, remove_dot_segments(path), query
    if path == "":
        return b_scheme, b_auth, b_path, query if query is not None else b_query
    if not path.startswith("/"):
        if b_auth is not None and b_path == "":
            path = "/" + path
        else:
            path = b_path[: b_path.rfind("/") + 1] + path
    return b_scheme, b_auth, remove_dot_segments(path), query


def normalise(parts):
    scheme, authority, path, query = parts
    if scheme is None:
        return None
    scheme = scheme.lower()
    if scheme not in DEFAULT_PORT or not authority:
        return None
    host, colon, port = authority.lower().partition(":")
    if not host:
        return None
    if colon and port != DEFAULT_PORT[scheme]:
        host = f"{host}:{port}"
    return scheme, host, path or "/", query


def text(url):
    scheme, host, path, query = url
    return f"{scheme}://{host}{path}" + ("" if query is None else "?" + query)


def absolute(ref):
    m = URI.match(ref)
    scheme, authority, path, query, _ = m.groups()
    return normalise((scheme, authority, remove_dot_segments(path), query))


def polite_crawl(seed, web, allowed, max_depth, max_pages, slots, fetch_ms, delay_ms):
    """Part 2: at most `slots` fetches at once, one per host, and `delay_ms` between the
    end of a host's fetch and the start of its next one. Each host keeps its own FIFO of
    queued URLs; the hosts that may start now sit in a heap keyed by their head's
    discovery number, so the earliest-discovered startable URL goes first."""
    out = []
    seen = set()
    blocked = 0
    number = 0  # discovery order of queued URLs
    queues = {}  # host -> deque of (number, url, depth)
    busy = set()
    ready_at = {}  # host -> earliest start of its next fetch
    startable = []  # (head number, host), lazy
    wakeups = []  # (time, host)
    flights = []  # (end, start order, url, depth)
    queued = started = 0

    def discover(url, depth, now):
        nonlocal blocked, number, queued
        if url in seen:
            return
        seen.add(url)
        if not allowed(url):
            blocked += 1
            return
        host = url[1]
        queue = queues.setdefault(host, deque())
        queue.append((number, url, depth))
        number += 1
        queued += 1
        if len(queue) == 1 and host not in busy and ready_at.get(host, 0) <= now:
            heapq.heappush(startable, (queue[0][0], host))

    if seed is not None:
        discover(seed, 0, 0)
    t = 0
    while True:
        while flights and flights[0][0] == t:
            _, _, url, depth = heapq.heappop(flights)
            host = url[1]
            busy.discard(host)
            ready_at[host] = t + delay_ms
            links = web.get(url)
            if links is not None and depth < max_depth and started < max_pages:
                base = (url[0], url[1], url[2], url[3])
                for href in links:
                    target = normalise(resolve(base, href))
                    if target is not None:
                        discover(target, depth + 1, t)
            heapq.heappush(wakeups, (t + delay_ms, host))
        while wakeups and wakeups[0][0] <= t:
            _, host = heapq.heappop(wakeups)
            queue = queues.get(host)
            if queue and host not in busy and ready_at[host] <= t:
                heapq.heappush(startable, (queue[0][0], host))
        while startable and len(flights) < slots and started < max_pages:
            head, host = heapq.heappop(startable)
            queue = queues[host]
            if host in busy or not queue or queue[0][0] != head:
                continue
            _, url, depth = queue.popleft()
            queued -= 1
            busy.add(host)
            status = 200 if url in web else 404
            out.append(f"{t} {t + fetch_ms} {depth} {status} {text(url)}")
            heapq.heappush(flights, (t + fetch_ms, started, url, depth))
            started += 1
        if not flights and (started >= max_pages or not wakeups):
            break
        times = [flights[0][0]] if flights else []
        if wakeups and started < max_pages:
            times.append(wakeups[0][0])
        t = min(times)
    out.append(f"fetched {started} blocked {blocked} queued {queued}")
    return out


def main():
    lines = sys.stdin.read().split("\n")
    header = [int(x) for x in lines[0].split()]
    n, r, max_depth, max_pages = header[:4]
    seed = absolute(lines[1].strip())
    robots = {}  # host -> set of forbidden prefixes
    longest = {}  # host -> length of its longest prefix
    for line in lines[2 : 2 + r]:
        host, prefix = line.split()
        robots.setdefault(host, set()).add(prefix)
        longest[host] = max(longest.get(host, 0), len(prefix))
    web = {}
    for line in lines[2 + r : 2 + r + n]:
        fields = line.split()
        url = absolute(fields[0])
        if url is not None and url not in web:
            web[url] = fields[1:]

    def allowed(url):
        prefixes = robots.get(url[1])
        if not prefixes:
            return True
        target = url[2] + ("" if url[3] is None else "?" + url[3])
        for end in range(1, min(len(target), longest[url[1]]) + 1):
            if target[:end] in prefixes:
                return False
        return True

    if len(header) > 4:
        slots, fetch_ms, delay_ms = header[4:7]
        out = polite_crawl(seed, web, allowed, max_depth, max_pages, slots, fetch_ms, delay_ms)
        sys.stdout.write("\n".join(out) + "\n")
        return
    out = []
    seen = set()
    blocked = 0
    queue = deque()
    if seed is not None:
        seen.add(seed)
        if allowed(seed):
            queue.append((seed, 0))
        else:
            blocked += 1
    fetched = 0
    while queue and fetched < max_pages:
        url, depth = queue.popleft()
        fetched += 1
        links = web.get(url)
        out.append(f"{depth} {404 if links is None else 200} {text(url)}")
        if links is None or depth == max_depth:
            continue
        base = (url[0], url[1], url[2], url[3])
        for href in links:
            target = normalise(resolve(base, href))
            if target is None or target in seen:
                continue
            seen.add(target)
            if allowed(target):
                queue.append((target, depth + 1))
            else:
                blocked += 1
    out.append(f"fetched {fetched} blocked {blocked} queued {len(queue)}")
    sys.stdout.write("\n".join(out) + "\n")


main()
