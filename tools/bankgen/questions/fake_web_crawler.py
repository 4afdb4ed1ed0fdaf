"""fake-web-crawler: BFS over an in-memory web given as input, with RFC 3986 reference
resolution, URL normalisation, robots prefixes, depth and page budgets."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
The data team crawls documentation sites to build evaluation sets. Before pointing the
crawler at the real web, you test it against a **fake web given in the input**: a list
of pages and the links on each. Write the crawler.

### Input

```
N R D P
seed
host prefix          (R lines: robots rules)
url href href ...    (N lines: the pages of the fake web)
```

`N` pages, `R` robots rules, the maximum depth `D ≥ 0`, the page budget `P ≥ 1`, and the
absolute seed URL. Each page line holds the page's absolute URL and then the `href`s of
its links, in document order (possibly none), separated by single spaces. URLs and hrefs
contain no spaces; they use only letters, digits and `-._~:/?#=&%!$'()*+,;@`.
`N ≤ 2·10^4`, `R ≤ 10^4`, at most `2·10^5` links in total.

### URLs

An absolute URL is `scheme://authority path ?query #fragment` (path, query and fragment
optional). **Normalising** it:

- the scheme is lowercased; only `http` and `https` are crawlable — a link to any other
  scheme (`mailto:`, `ftp:`, …) or without an authority is **ignored**;
- the authority (`host` or `host:port`) is lowercased, and the port is dropped when it is
  the scheme's default (`80` for http, `443` for https);
- dot segments are removed from the path as in RFC 3986 §5.2.4 (`/a/./b/../c` → `/a/c`,
  and `..` never climbs above the root: `/../x` → `/x`); an empty path becomes `/`;
- the query is kept exactly as written; the fragment is dropped.

It is written back as `scheme://authority` + path + (`?` + query, if there was a `?`).

An `href` is resolved against the URL of the page it is on as in RFC 3986 §5.2.2:
absolute (`https://…`), network-path (`//host/x`, takes the page's scheme), absolute-path
(`/x`), query-only (`?q=1`: the page's path with the new query), fragment-only (`#top`:
the page itself), or relative-path (`x/y`, `../y`: merged with the directory of the
page's path, then dot segments removed). Then it is normalised as above.

Two page lines that normalise to the same URL: the first one counts.

### Robots

A rule `host prefix` (the host written as a normalised authority, the prefix starting
with `/`) forbids every URL of exactly that authority whose path — plus `?query` if it
has one — starts with `prefix`. Forbidden URLs are never fetched.

### Crawling

Breadth-first from the seed at depth `0`. A URL is **discovered** the first time it is
seen (the seed, or a normalised link); a URL is never discovered twice. On discovery
it is either forbidden by robots (counted as *blocked*) or appended to the queue.
Fetching a URL takes it from the front of the queue: it is `200` if it is a page of
the fake web, else `404`. The links of a `200` page at depth `d < D` are processed in
order; those at depth `D` are not followed. The crawl stops when the queue is empty or
`P` URLs have been fetched (404s count).

### Output

One line per fetched URL, in fetch order: `depth status url`. Then
`fetched F blocked B queued Q` — `Q` is the number of URLs left in the queue.

### Example

```
3 1 2 10
HTTP://Docs.Example.com:80/guide/
docs.example.com /private
http://docs.example.com/guide/ intro.html ./intro.html#part2 ../private/keys /guide/../api mailto:x@y.z
http://docs.example.com/guide/intro.html ?v=2 //other.org/
http://docs.example.com/api https://DOCS.example.com:443/guide/
```

```
0 200 http://docs.example.com/guide/
1 200 http://docs.example.com/guide/intro.html
1 200 http://docs.example.com/api
2 404 http://docs.example.com/guide/intro.html?v=2
2 404 http://other.org/
2 404 https://docs.example.com/guide/
fetched 6 blocked 1 queued 0
```

**Limits.** 2 s CPU per test. The large tests have thousands of pages and thousands of
robots rules: a list of discovered URLs, or trying every rule on every URL, is too slow.
"""

SAMPLE1 = (
    "3 1 2 10\nHTTP://Docs.Example.com:80/guide/\ndocs.example.com /private\n"
    "http://docs.example.com/guide/ intro.html ./intro.html#part2 ../private/keys "
    "/guide/../api mailto:x@y.z\n"
    "http://docs.example.com/guide/intro.html ?v=2 //other.org/\n"
    "http://docs.example.com/api https://DOCS.example.com:443/guide/\n"
)

SAMPLES = [
    Case(
        SAMPLE1,
        expect=(
            "0 200 http://docs.example.com/guide/\n1 200 http://docs.example.com/guide/intro.html\n"
            "1 200 http://docs.example.com/api\n"
            "2 404 http://docs.example.com/guide/intro.html?v=2\n2 404 http://other.org/\n"
            "2 404 https://docs.example.com/guide/\nfetched 6 blocked 1 queued 0\n"
        ),
    ),
    # the budget stops the crawl; the rest stays queued
    Case(
        "1 0 5 2\nhttp://a.com\nhttp://a.com/ x y z\n",
        expect="0 200 http://a.com/\n1 404 http://a.com/x\nfetched 2 blocked 0 queued 2\n",
    ),
    # a forbidden seed
    Case("0 1 3 3\nhttp://a.com/admin/\na.com /admin\n", expect="fetched 0 blocked 1 queued 0\n"),
]

HOSTS = ["a.com", "B.org", "docs.a.com", "a.com:8080", "a.com:80"]
SEGMENTS = ["x", "y", "docs", "v1", "api", "index.html", "img", "%7Euser", "a-b", "q_"]


def _path(rng, depth=3):
    return "/" + "/".join(rng.choice(SEGMENTS) for _ in range(rng.randint(0, depth)))


def _href(rng, hosts):
    kind = rng.randint(0, 12)
    seg = rng.choice(SEGMENTS)
    if kind == 0:
        host = rng.choice(hosts)
        return f"{rng.choice(['http', 'HTTP', 'https', 'Https'])}://{host}{_path(rng)}"
    if kind == 1:
        return f"//{rng.choice(hosts)}{_path(rng)}"
    if kind == 2:
        return _path(rng)
    if kind == 3:
        return f"?{rng.choice(['p=1', 'p=2', 'q=a&b=c', 'x'])}"
    if kind == 4:
        return f"#{seg}"
    if kind == 5:
        return f"../{seg}"
    if kind == 6:
        return f"./{seg}/"
    if kind == 7:
        return f"{seg}/../{rng.choice(SEGMENTS)}"
    if kind == 8:
        return rng.choice(["mailto:a@b.c", "ftp://a.com/x", "javascript:void(0)"])
    if kind == 9:
        return f"{_path(rng)}/../../{seg}?{seg}#frag"
    if kind == 10:
        return f"{seg}#{seg}"
    return seg


def _web(rng, pages, *, links=(0, 5), hosts=None, robots=0, depth=3, budget=50):
    hosts = hosts or HOSTS
    urls = []
    for _ in range(pages):
        host = rng.choice(hosts)
        path = _path(rng)
        if rng.random() < 0.2:
            path += rng.choice(["/", "/./", "/../" + rng.choice(SEGMENTS)])
        if rng.random() < 0.15:
            path += f"?{rng.choice(['p=1', 'p=2', 'x'])}"
        urls.append(f"{rng.choice(['http', 'HTTP'])}://{host}{path}")
    lines = []
    for url in urls:
        refs = [_href(rng, hosts) for _ in range(rng.randint(*links))]
        lines.append(" ".join([url, *refs]))
    rules = []
    for _ in range(robots):
        host = rng.choice(hosts).lower().removesuffix(":80")
        rules.append(f"{host} {rng.choice(['/x', '/docs/', '/api', '/y/v1', '/?'])}")
    seed = urls[0] if urls else "http://a.com/"
    head = f"{len(lines)} {len(rules)} {depth} {budget}\n{seed}\n"
    return Case(head + "".join(r + "\n" for r in rules) + "".join(x + "\n" for x in lines))


def _large(seed):
    rng = random.Random(seed)
    n = 9500
    lines = []
    for i in range(n):
        refs = []
        for _ in range(4):
            j = rng.randrange(n + n // 10)
            refs.append(rng.choice([f"{j:x}", f"{j:x}", f"/{j:x}", f"./{j:x}", f"{j:x}#a"]))
        lines.append(" ".join([f"http://w/{i:x}", *refs]))
    # many robots rules: checking every rule for every URL is quadratic too
    rules = ["w /ff"] + [f"w /{rng.randrange(16**4, 16**5):x}" for _ in range(2999)]
    head = f"{n} {len(rules)} 30 {n + 500}\nhttp://w/0\n" + "\n".join(rules) + "\n"
    return Case(head + "\n".join(lines) + "\n", large=True)


def _hidden():
    rng = random.Random(909)
    return [
        # default ports, case, empty path, fragments, dot segments above the root
        Case(
            "2 0 3 10\nhttps://A.com:443\nhttps://a.com/ /../../x/./y/.. #top HTTPS://a.COM:443/#z "
            "http://a.com:80 http://a.com:8080/\nhttps://a.com/x/ ..\n",
            expect=(
                "0 200 https://a.com/\n1 200 https://a.com/x/\n1 404 http://a.com/\n"
                "1 404 http://a.com:8080/\nfetched 4 blocked 0 queued 0\n"
            ),
        ),
        # depth limit: links of pages at depth D are not followed
        Case(
            "3 0 1 10\nhttp://h/a\nhttp://h/a b\nhttp://h/b c\nhttp://h/c a\n",
            expect="0 200 http://h/a\n1 200 http://h/b\nfetched 2 blocked 0 queued 0\n",
        ),
        # duplicate page definitions: the first counts; robots prefix with a query
        Case(
            "3 1 2 10\nhttp://h/\nh /s?q=\nhttp://h/ s s?q=1 s?r=1\nhttp://H/ zzz\n"
            "http://h/s ?q=2\n",
            expect=(
                "0 200 http://h/\n1 200 http://h/s\n1 404 http://h/s?r=1\n"
                "fetched 3 blocked 2 queued 0\n"
            ),
        ),
        # dot segments go from absolute and network-path hrefs too
        Case(
            "1 0 1 10\nhttp://h/\nhttp://h/ http://h/a/../b //h/./c/ HTTP://h/x/..\n",
            expect=(
                "0 200 http://h/\n1 404 http://h/b\n1 404 http://h/c/\n"
                "fetched 3 blocked 0 queued 0\n"
            ),
        ),
        # a forbidden URL is discovered once, however many links point at it
        Case(
            "2 1 2 10\nhttp://h/\nh /p\nhttp://h/ p p ./p q\nhttp://h/q p\n",
            expect="0 200 http://h/\n1 200 http://h/q\nfetched 2 blocked 1 queued 0\n",
        ),
        # D = 0: only the seed is fetched
        Case(
            "2 0 0 10\nhttp://h/\nhttp://h/ a\nhttp://h/a\n",
            expect="0 200 http://h/\nfetched 1 blocked 0 queued 0\n",
        ),
        # a fragment-only href is the page itself, query included
        Case(
            "1 0 1 10\nhttp://h/p?x=1\nhttp://h/p?x=1 #top ?y=2#f\n",
            expect="0 200 http://h/p?x=1\n1 404 http://h/p?y=2\nfetched 2 blocked 0 queued 0\n",
        ),
        # robots prefixes that end in or contain a query
        Case(
            "1 2 1 10\nhttp://h/\nh /s?\nh /t?a\nhttp://h/ s s?b t?a=1 t?b\n",
            expect=(
                "0 200 http://h/\n1 404 http://h/s\n1 404 http://h/t?b\n"
                "fetched 3 blocked 2 queued 0\n"
            ),
        ),
        # relative references from a page whose path has no slash-terminated directory
        Case("1 0 2 10\nhttp://h/a/b?x=1\nhttp://h/a/b?x=1 c ./ . .. ?y #f\n"),
        _web(rng, 5, robots=1, depth=2, budget=10),
        _web(rng, 12, robots=2, depth=3, budget=8),
        _web(rng, 25, links=(1, 6), robots=1, depth=4, budget=40),
        _web(rng, 40, links=(0, 8), hosts=["a.com", "A.COM:80", "b.org"], depth=2, budget=100),
        _web(rng, 60, links=(2, 6), robots=3, depth=10, budget=200),
        _web(rng, 120, links=(0, 4), robots=2, depth=0, budget=5),
        _web(rng, 200, links=(1, 9), robots=4, depth=6, budget=150),
        _web(rng, 300, links=(1, 5), hosts=["x.io"], depth=20, budget=1000),
        _large(99),
    ]


PART2 = """\
**Politeness.** Pointed at real sites, a breadth-first crawler that fetches as fast as it
can gets banned. Fetches now take time, run concurrently, and each site is treated
politely.

**Input.** The first line holds `N R D P C F G`: part 1's four values, then the number
of fetches `C ≥ 1` that may be in flight at once, the duration `F ≥ 1` of every fetch (ms,
`200` or `404` alike), and the per-host delay `G ≥ 0` (ms). The rest is as in part 1.

**Hosts.** A URL's host is its normalised authority (with its port, if one is kept);
`http` and `https` URLs of one authority share a host. A host has at most **one** fetch
in flight, and its next fetch starts at least `G` ms after its previous fetch ended.

**Crawling.** Discovery, robots, depth and the queue are as in part 1 (a URL discovered
from a page at depth `d` has depth `d + 1`). Time starts at `0` with the seed queued. At
each instant `t`:

1. every fetch ending at `t` ends, in the order the fetches started: if it is a `200`
   page at depth `d < D`, its links are discovered in order (and queued or blocked);
2. then the queue is scanned from the front, and every URL whose host may start a fetch
   at `t` starts one — taken out of the queue — as long as fewer than `C` fetches are in
   flight and fewer than `P` have started. URLs of other hosts are passed over and keep
   their place.

The crawl stops when nothing is in flight and no further fetch can start (the queue is
empty, or `P` fetches have started). Fetches in flight when the `P`-th starts still end,
and their links are still discovered.

**Output.** One line per fetch, in start order (equal starts: scan order):
`start end depth status url`. Then `fetched F blocked B queued Q` as in part 1. With
`C = 1` and `G = 0`, the fetch order is part 1's.

**Example.** Part 1's example with `C = 4`, `F = 3`, `G = 2`:

```
3 1 2 10 4 3 2
HTTP://Docs.Example.com:80/guide/
docs.example.com /private
http://docs.example.com/guide/ intro.html ./intro.html#part2 ../private/keys /guide/../api mailto:x@y.z
http://docs.example.com/guide/intro.html ?v=2 //other.org/
http://docs.example.com/api https://DOCS.example.com:443/guide/
```

```
0 3 0 200 http://docs.example.com/guide/
5 8 1 200 http://docs.example.com/guide/intro.html
8 11 2 404 http://other.org/
10 13 1 200 http://docs.example.com/api
15 18 2 404 http://docs.example.com/guide/intro.html?v=2
20 23 2 404 https://docs.example.com/guide/
fetched 6 blocked 1 queued 0
```

`other.org` starts at `8`, while `docs.example.com` waits until `10`; the `https` URL
waits for the same host.

**Limits.** 2 s CPU per test. The largest test has hundreds of hosts and thousands of
queued URLs: scanning the whole queue at every instant is too slow.
"""


def _polite(case: Case, slots: int, fetch_ms: int, delay_ms: int, large: bool = False) -> Case:
    """A part 1 web crawled politely: the same input with `C F G` on the first line."""
    first, rest = case.input.split("\n", 1)
    return Case(f"{first} {slots} {fetch_ms} {delay_ms}\n{rest}", large=large or case.large)


def _large_polite(seed: int) -> Case:
    rng = random.Random(seed)
    hosts = [f"h{k}.io" for k in range(300)]
    n = 3000
    urls = [f"http://{hosts[i % len(hosts)]}/{i:x}" for i in range(n)]
    lines = []
    for i in range(n):
        refs = []
        for _ in range(4):
            j = rng.randrange(n + n // 10)
            refs.append(f"//{hosts[j % len(hosts)]}/{j:x}" if rng.random() < 0.7 else f"{j:x}")
        lines.append(" ".join([urls[i], *refs]))
    rules = [f"{hosts[k]} /f" for k in range(0, len(hosts), 7)]
    head = f"{n} {len(rules)} 40 {n + 300} 16 5 20\n{urls[0]}\n"
    return Case(head + "".join(r + "\n" for r in rules) + "\n".join(lines) + "\n", large=True)


P2_SAMPLES = [
    Case(
        SAMPLE1.replace("3 1 2 10\n", "3 1 2 10 4 3 2\n", 1),
        expect=(
            "0 3 0 200 http://docs.example.com/guide/\n"
            "5 8 1 200 http://docs.example.com/guide/intro.html\n"
            "8 11 2 404 http://other.org/\n10 13 1 200 http://docs.example.com/api\n"
            "15 18 2 404 http://docs.example.com/guide/intro.html?v=2\n"
            "20 23 2 404 https://docs.example.com/guide/\nfetched 6 blocked 1 queued 0\n"
        ),
    ),
    # C = 1, G = 0 is part 1's order; the budget leaves the rest queued
    Case(
        "1 0 5 2 1 4 0\nhttp://a.com\nhttp://a.com/ x y z\n",
        expect="0 4 0 200 http://a.com/\n4 8 1 404 http://a.com/x\nfetched 2 blocked 0 queued 2\n",
    ),
    # two hosts in parallel, each one fetch at a time
    Case(
        "1 0 1 10 8 2 0\nhttp://a.com/\nhttp://a.com/ /1 //b.com/1 /2 //b.com/2\n",
        expect=(
            "0 2 0 200 http://a.com/\n2 4 1 404 http://a.com/1\n2 4 1 404 http://b.com/1\n"
            "4 6 1 404 http://a.com/2\n4 6 1 404 http://b.com/2\nfetched 5 blocked 0 queued 0\n"
        ),
    ),
]


def _polite_hidden():
    rng = random.Random(919)
    cases = [
        # the delay counts from the end of the host's previous fetch
        Case(
            "1 0 1 10 4 3 5\nhttp://h/\nhttp://h/ a b //o/c\n",
            expect=(
                "0 3 0 200 http://h/\n3 6 1 404 http://o/c\n8 11 1 404 http://h/a\n"
                "16 19 1 404 http://h/b\nfetched 4 blocked 0 queued 0\n"
            ),
        ),
        # at most C at once: the scan stops taking URLs when the slots are full
        Case(
            "1 0 1 10 2 1 0\nhttp://a/\nhttp://a/ //b/ //c/ //d/ //e/\n",
            expect=(
                "0 1 0 200 http://a/\n1 2 1 404 http://b/\n1 2 1 404 http://c/\n"
                "2 3 1 404 http://d/\n2 3 1 404 http://e/\nfetched 5 blocked 0 queued 0\n"
            ),
        ),
        # http and https of one authority are one host; ports make different hosts
        Case(
            "1 0 1 10 4 2 0\nhttp://h/\nhttp://h/ https://h/x http://h:8080/y http://h/z\n",
            expect=(
                "0 2 0 200 http://h/\n2 4 1 404 https://h/x\n2 4 1 404 http://h:8080/y\n"
                "4 6 1 404 http://h/z\nfetched 4 blocked 0 queued 0\n"
            ),
        ),
        # links of fetches still in flight when the budget runs out are discovered
        Case(
            "3 1 2 2 2 3 0\nhttp://a/\nb /no\nhttp://a/ //b/ //c/\nhttp://b/ /no /yes\n"
            "http://c/ /z\n",
        ),
        # completions at one instant are handled in start order
        Case(
            "3 0 2 10 2 2 0\nhttp://r/\nhttp://r/ //q/ //p/\nhttp://p/ //s/1\nhttp://q/ //s/2\n",
            expect=(
                "0 2 0 200 http://r/\n2 4 1 200 http://q/\n2 4 1 200 http://p/\n"
                "4 6 2 404 http://s/2\n6 8 2 404 http://s/1\nfetched 5 blocked 0 queued 0\n"
            ),
        ),
        _polite(_web(rng, 5, robots=1, depth=2, budget=10), 2, 1, 1),
        _polite(_web(rng, 12, robots=2, depth=3, budget=8), 1, 3, 0),
        _polite(_web(rng, 25, links=(1, 6), robots=1, depth=4, budget=40), 3, 2, 4),
        _polite(
            _web(rng, 40, links=(0, 8), hosts=["a.com", "A.COM:80", "b.org"], depth=2, budget=100),
            4,
            5,
            2,
        ),
        _polite(_web(rng, 60, links=(2, 6), robots=3, depth=10, budget=200), 8, 1, 0),
        _polite(_web(rng, 120, links=(0, 4), robots=2, depth=0, budget=5), 2, 2, 2),
        _polite(_web(rng, 200, links=(1, 9), robots=4, depth=6, budget=150), 5, 3, 7),
        _polite(
            _web(rng, 300, links=(1, 5), hosts=["x.io", "y.io", "z.io"], depth=20, budget=1000),
            2,
            4,
            1,
        ),
        _large_polite(98),
    ]
    return cases


STARTER_PY = """\
import sys


def main() -> None:
    lines = sys.stdin.read().split("\\n")
    n, r, max_depth, budget, *polite = map(int, lines[0].split())  # part 2: polite = [C, F, G]
    seed = lines[1].strip()
    robots = [lines[2 + i].split() for i in range(r)]
    pages = [lines[2 + r + i].split() for i in range(n)]
    # normalise, resolve, crawl breadth-first, print the fetch log


main()
"""

STARTER_JS = """\
const lines = require("fs").readFileSync(0, "utf8").split("\\n");
const [n, r, maxDepth, budget, ...polite] = lines[0].trim().split(/\\s+/).map(Number); // part 2: [C, F, G]
const seed = lines[1].trim();
const robots = lines.slice(2, 2 + r).map((l) => l.trim().split(" "));
const pages = lines.slice(2 + r, 2 + r + n).map((l) => l.trim().split(" "));
// normalise, resolve, crawl breadth-first, print the fetch log
// (the URL class does not follow these rules exactly: read the statement)
"""

STARTER_CPP = """\
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    string line;
    getline(cin, line);
    // N R D P (part 2: then C F G), the seed, R robots lines, N page lines
    return 0;
}
"""

FOLLOW_UPS = [
    {
        "prompt": (
            "Now the web is real: fetches take 50-500 ms and some hosts are slow. How do you\n"
            "crawl 10M pages a day politely?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "The crawl is IO-bound: async fetches with a global concurrency limit and a\n"
            "per-host limit plus crawl delay (a queue per host, a scheduler over hosts),\n"
            "timeouts and retries with backoff, robots.txt cached per host, URL dedup in a\n"
            "Bloom filter or a sharded set, content dedup by hash, a frontier persisted so a\n"
            "crash does not restart the crawl, and partitioning the frontier by host across\n"
            "workers so politeness needs no coordination.\n"
        ),
    },
    {
        "prompt": "Which normalisation rule was hardest to get right, and how did you test it?",
        "trigger": "after_minutes",
        "after_minutes": 25,
        "coach_notes": (
            "Good answers mention dot segments above the root, query-only and fragment-only\n"
            "references, default ports, and comparing against RFC 3986's own examples.\n"
        ),
    },
    {
        "prompt": (
            "Before we point this at real sites: fetches take time, several run at once, and\n"
            "we must be polite to each host (part 2).\n"
        ),
        "unlocks_part": 2,
        "trigger": "on_part_passed",
        "coach_notes": (
            "The queue becomes one FIFO per host plus a heap of the hosts that may start now,\n"
            "keyed by the discovery number of their head (that is exactly the front-to-back\n"
            "scan), a heap of fetch completions and a heap of host wake-ups at end + G.\n"
            "Watch for: the delay counted from the previous start instead of its end, http\n"
            "and https of one authority treated as two hosts, completions at one instant\n"
            "handled out of start order, links of in-flight fetches dropped once the budget\n"
            "is spent. Real crawlers add robots.txt Crawl-delay, per-host token buckets,\n"
            "backoff on 429/503, and DNS or IP-level politeness (many hosts on one server).\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="fake-web-crawler",
        name="fake_web_crawler",
        title="Crawler over a fake in-memory web",
        difficulty="medium",
        tags=["crawler", "parsing", "bfs", "urls", "practice"],
        prompt=PROMPT,
        parts=[
            PartSpec("Crawl the fake web", "Implement the crawler.\n", SAMPLES, _hidden()),
            PartSpec(
                "Politeness: concurrency and per-host delays", PART2, P2_SAMPLES, _polite_hidden()
            ),
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS, "cpp": STARTER_CPP},
        follow_ups=FOLLOW_UPS,
    )
