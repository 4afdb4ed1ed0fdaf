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
    path = urlsplit(urljoin("http://x/", p.path or "/")).path if p.path else "/"
    if p.path.startswith("/") is False and p.path:
        path = urlsplit(urljoin("http://x/", "/" + p.path)).path
    q = ("?" + p.query) if "?" in url.split("#")[0] else ""
    return f"{p.scheme}://{host}{path}{q}"


lines = sys.stdin.read().split("\n")
n, r, D, P = map(int, lines[0].split())
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
