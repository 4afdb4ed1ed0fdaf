# Naive: urllib.parse does the URL work; lists for the queue and the seen set.
import sys
from urllib.parse import urljoin, urlsplit


def norm(url):
    p = urlsplit(url)
    if p.scheme not in ("http", "https") or not p.netloc or not p.hostname:
        return None
    host = p.hostname
    if p.port is not None and p.port != {"http": 80, "https": 443}[p.scheme]:
        host += ":%d" % p.port
    # "/." keeps a path that starts with "//" from reading as an authority
    path = urlsplit(urljoin("http://x/", "/." + p.path)).path if p.path else "/"
    if p.path.startswith("/") is False and p.path:
        path = urlsplit(urljoin("http://x/", "/" + p.path)).path
    q = ("?" + p.query) if "?" in url.split("#")[0] else ""
    return f"{p.scheme}://{host}{path}{q}"


lines = sys.stdin.read().split("\n")
n, r, D, P, *polite = map(int, lines[0].split())
seed = norm(lines[1].strip())
rob = [line.split() for line in lines[2 : 2 + r]]
pages = {}
for line in lines[2 + r : 2 + r + n]:
    f = line.split()
    u = norm(f[0])
    if u and u not in pages:
        pages[u] = f[1:]


def ok(u):
    p = urlsplit(u)
    target = p.path + ("?" + p.query if "?" in u else "")
    return not any(h == p.netloc and target.startswith(pre) for h, pre in rob)


def polite_crawl(C, F, G):
    """Part 2, literally: at every instant, scan the whole queue front to back."""
    out = []
    seen = []
    queue = []  # [url, depth]
    blocked = 0
    last_end = {}
    flights = []  # [end, order, url, depth]
    started = 0

    def add(v, d):
        nonlocal blocked
        if v is None or v in seen:
            return
        seen.append(v)
        if ok(v):
            queue.append([v, d])
        else:
            blocked += 1

    if seed:
        add(seed, 0)
    t = 0
    while True:
        for f in sorted(x for x in flights if x[0] == t):
            flights.remove(f)
            u, d = f[2], f[3]
            last_end[urlsplit(u).netloc] = t
            if u in pages and d < D:
                for href in pages[u]:
                    add(norm(urljoin(u, href)), d + 1)
        busy = {urlsplit(f[2]).netloc for f in flights}
        for item in list(queue):
            host = urlsplit(item[0]).netloc
            free = host not in busy and (host not in last_end or last_end[host] + G <= t)
            if len(flights) < C and started < P and free:
                queue.remove(item)
                busy.add(host)
                status = 200 if item[0] in pages else 404
                out.append("%d %d %d %d %s" % (t, t + F, item[1], status, item[0]))
                flights.append([t + F, started, item[0], item[1]])
                started += 1
        later = [f[0] for f in flights]
        if started < P:
            later += [
                last_end[urlsplit(q[0]).netloc] + G
                for q in queue
                if urlsplit(q[0]).netloc in last_end and last_end[urlsplit(q[0]).netloc] + G > t
            ]
        if not later:
            break
        t = min(later)
    out.append("fetched %d blocked %d queued %d" % (started, blocked, len(queue)))
    return out


if polite:
    print("\n".join(polite_crawl(*polite[:3])))
    sys.exit()

result = []
seen = []
queue = []
blocked = 0
if seed:
    seen.append(seed)
    if ok(seed):
        queue.append((seed, 0))
    else:
        blocked += 1
count = 0
while queue and count < P:
    u, d = queue.pop(0)
    count += 1
    result.append("%d %d %s" % (d, 200 if u in pages else 404, u))
    if u not in pages or d == D:
        continue
    for href in pages[u]:
        v = norm(urljoin(u, href))
        if v is None or v in seen:
            continue
        seen.append(v)
        if ok(v):
            queue.append((v, d + 1))
        else:
            blocked += 1
result.append("fetched %d blocked %d queued %d" % (count, blocked, len(queue)))
print("\n".join(result))
