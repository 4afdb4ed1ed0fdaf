"""Wrong: a fragment-only href (`#top`) resolves to the page without its query."""

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
        return b_scheme, b_auth, b_path, query
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


def main():
    lines = sys.stdin.read().split("\n")
    n, r, max_depth, max_pages = (int(x) for x in lines[0].split())
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
