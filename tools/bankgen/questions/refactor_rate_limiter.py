"""refactor-rate-limiter: read a production rate limiter, find its bugs against the
spec, and make it fast (it is quadratic)."""

import random

from ..common import Case, PartSpec, QuestionSpec

BUGGY_PY = '''\
import sys


class RateLimiter:
    """Per-tenant token budget over a sliding window."""

    def __init__(self, limits, history={}):
        self.limits = limits  # tenant -> (limit, window_ms)
        self.history = history  # tenant -> [(time, cost), ...]

    def allow(self, tenant, now, cost):
        limit, window = self.limits.get(tenant, self.limits.get("*"))
        events = self.history.setdefault(tenant, [])
        events.append((now, cost))
        used = sum(c for (t, c) in events if t >= now - window)
        return used <= limit


def main():
    lines = sys.stdin.read().split("\\n")
    t, n = map(int, lines[0].split())
    limits = {}
    for line in lines[1 : 1 + t]:
        tenant, limit, window = line.split()
        limits[tenant] = (int(limit), int(window))
    limiter = RateLimiter(limits)
    stats = {}
    for line in lines[1 + t : 1 + t + n]:
        now, tenant, cost = line.split()
        ok = limiter.allow(tenant, int(now), int(cost))
        accepted, rejected, tokens = stats.get(tenant, (0, 0, 0))
        if ok:
            stats[tenant] = (accepted + 1, rejected, tokens + int(cost))
        else:
            stats[tenant] = (accepted, rejected + 1, tokens)
        print("ok" if ok else "reject")
    for tenant, (accepted, rejected, tokens) in stats.items():
        print(tenant, accepted, rejected, tokens)


main()
'''

BUGGY_JS = """\
class RateLimiter {
  // Per-tenant token budget over a sliding window.
  constructor(limits) {
    this.limits = limits; // tenant -> [limit, windowMs]
    this.history = new Map(); // tenant -> [[time, cost], ...]
  }

  allow(tenant, now, cost) {
    const [limit, window] = this.limits.get(tenant) || this.limits.get("*");
    if (!this.history.has(tenant)) this.history.set(tenant, []);
    const events = this.history.get(tenant);
    events.push([now, cost]);
    let used = 0;
    for (const [t, c] of events) if (t >= now - window) used += c;
    return used <= limit;
  }
}

const lines = require("fs").readFileSync(0, "utf8").split("\\n");
const [t, n] = lines[0].trim().split(/\\s+/).map(Number);
const limits = new Map();
for (const line of lines.slice(1, 1 + t)) {
  const [tenant, limit, window] = line.trim().split(/\\s+/);
  limits.set(tenant, [Number(limit), Number(window)]);
}
const limiter = new RateLimiter(limits);
const stats = new Map();
const out = [];
for (const line of lines.slice(1 + t, 1 + t + n)) {
  const [now, tenant, cost] = line.trim().split(/\\s+/);
  const ok = limiter.allow(tenant, Number(now), Number(cost));
  const [a, r, tok] = stats.get(tenant) || [0, 0, 0];
  stats.set(tenant, ok ? [a + 1, r, tok + Number(cost)] : [a, r + 1, tok]);
  out.push(ok ? "ok" : "reject");
}
for (const [tenant, [a, r, tok]] of stats) out.push(`${tenant} ${a} ${r} ${tok}`);
console.log(out.join("\\n"));
"""

STARTER_CPP = """\
#include <bits/stdc++.h>
using namespace std;

// The production code is Python (see the statement). Port the *fixed* behaviour:
// per-tenant sliding-window budgets as specified.
int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    long long t, n;
    cin >> t >> n;
    return 0;
}
"""

PROMPT = f"""\
This rate limiter guards the inference API: every tenant has a budget of tokens per
sliding window. It has been in production for a year. Three complaints landed this week:

- *"Tenants get rejected far below their budget once they have been throttled."*
- *"A tenant without its own limits crashed the service."*
- *"At peak the limiter itself adds seconds of latency."*

Read the code, find every way it departs from the **specification** below, and fix it
— keep what is right, make it fast. Say what kind of bottleneck the slowness is before
you optimise it.

### The code in production

```python
{BUGGY_PY}```

### Specification

**Input.** The first line holds `T N`. The next `T` lines hold `tenant limit window`:
a tenant's budget in tokens per window of `window` ms. The tenant name `*` gives the
limits of every tenant without its own line (each such tenant has its **own** budget
with those limits). If a tenant appears on several lines, the **first** one counts.
Then `N` lines `time tenant cost` — the requests, by non-decreasing `time` (ms).
Tenant names are case-sensitive and contain no spaces. `0 ≤ T ≤ 10^4`,
`0 ≤ N ≤ 2·10^5`, `0 ≤ cost, limit ≤ 10^12`, `1 ≤ window ≤ 10^12`,
`0 ≤ time ≤ 10^12`; the costs of all requests add up to at most `10^15`.

**Rule.** A request of tenant `x` with `cost` at time `now` is **accepted** if `cost`
plus the total cost of `x`'s *accepted* requests with time in `(now − window, now]` is
at most `limit` (a request exactly `window` ms old no longer counts). Rejected requests
consume nothing. A tenant with no line and no `*` line is always rejected.

**Output.** One line per request, `ok` or `reject`. Then one line per tenant that made
requests, sorted by name (byte order): `tenant accepted rejected tokens` (`tokens`: the
total cost of its accepted requests).

### Example

```
2 5
free 10 1000
* 100 60000
0 acme 60
200 free 6
700 free 6
1500 free 4
1600 acme 50
```

```
ok
ok
reject
ok
reject
acme 1 1 60
free 2 1 10
```

At `700`, `free` would hold `6 + 6 > 10` tokens in its window: rejected. At `1500` the
window is `(500, 1500]`: the request from `200` has left it and the rejected one never
counted, so `4 ≤ 10` is accepted. `acme` has no line of its own and gets its own budget
from `*` (`60 + 50 > 100`).

The examples are deliberately small and do not exercise every rule: running them is no
substitute for reading the code against the specification.

**Limits.** 2 s CPU per test; the largest test has `2.2·10^4` requests from two tenants.
"""

SAMPLE1 = (
    "2 5\nfree 10 1000\n* 100 60000\n0 acme 60\n200 free 6\n700 free 6\n1500 free 4\n1600 acme 50\n"
)

# The samples follow the specification, and the production code happens to pass them:
# its bugs show only when the code is read against the specification (and in the hidden
# tests).
SAMPLES = [
    Case(SAMPLE1, expect="ok\nok\nreject\nok\nreject\nacme 1 1 60\nfree 2 1 10\n"),
    # tenants without a line of their own each get the `*` budget; a zero cost
    Case(
        "1 5\n* 5 10\n0 a 5\n3 b 2\n9 a 0\n15 a 5\n20 b 4\n",
        expect="ok\nok\nok\nok\nok\na 3 0 10\nb 2 0 6\n",
    ),
    # large budgets
    Case(
        "1 3\npro 1000000000000 1000000000000\n0 pro 999999999999\n5 pro 1\n6 pro 1\n",
        expect="ok\nok\nreject\npro 2 1 1000000000000\n",
    ),
]


def _random(rng, n, tenants, *, default=True, gap=5, max_cost=10, dup=False):
    lines = []
    names = [rng.choice(["t", "T", "team-", "org_"]) + str(i) for i in range(tenants)]
    configured = names[: max(1, tenants // 2)]
    for name in configured:
        lines.append(f"{name} {rng.randint(0, 3 * max_cost)} {rng.randint(1, 6 * gap + 1)}")
        if dup and rng.random() < 0.3:
            lines.append(f"{name} {rng.randint(0, 3 * max_cost)} {rng.randint(1, 6 * gap + 1)}")
    if default:
        lines.append(f"* {rng.randint(0, 3 * max_cost)} {rng.randint(1, 6 * gap + 1)}")
    rng.shuffle(lines)
    t = rng.randint(0, 3)
    reqs = []
    for _ in range(n):
        t += rng.randint(0, gap)
        reqs.append(f"{t} {rng.choice(names)} {rng.randint(0, max_cost)}")
    return Case(f"{len(lines)} {n}\n" + "".join(x + "\n" for x in lines + reqs))


def _hidden():
    rng = random.Random(1111)
    cases = [
        # the window is half-open, rejected requests consume nothing, summary sorted
        Case(
            "2 6\nfree 10 1000\n* 100 60000\n0 free 6\n500 free 6\n999 free 4\n1000 free 6\n"
            "1000 acme 100\n1001 acme 1\n",
            expect="ok\nreject\nok\nok\nok\nreject\nacme 1 1 100\nfree 3 1 16\n",
        ),
        # no default: unknown tenants are rejected, not a crash
        Case(
            "1 3\npro 5 10\n0 pro 5\n0 guest 1\n10 pro 5\n",
            expect="ok\nreject\nok\nguest 0 1 0\npro 2 0 10\n",
        ),
        # the first line of a tenant counts; names are case-sensitive
        Case(
            "3 3\na 1 10\na 100 10\n* 0 5\n0 a 1\n1 a 1\n2 A 0\n",
            expect="ok\nreject\nok\nA 1 0 0\na 1 1 1\n",
        ),
        # cost equal to the limit, cost zero, cost above the limit
        Case(
            "1 4\n* 5 100\n0 x 5\n0 x 0\n1 x 1\n1 y 6\n",
            expect="ok\nok\nreject\nreject\nx 2 1 5\ny 0 1 0\n",
        ),
        # window of 1 ms: only requests at the same instant share it
        Case(
            "1 4\nz 3 1\n7 z 3\n7 z 1\n8 z 3\n8 z 1\n", expect="ok\nreject\nok\nreject\nz 2 2 6\n"
        ),
        # huge numbers
        Case(
            "1 3\nbig 1000000000000 1000000000000\n0 big 999999999999\n"
            "999999999999 big 2\n1000000000000 big 1000000000000\n",
            expect="ok\nreject\nok\nbig 2 1 1999999999999\n",
        ),
        # no requests at all
        Case("1 0\n* 1 1\n", expect=""),
        _random(rng, 10, 2),
        _random(rng, 30, 4, default=False),
        _random(rng, 60, 3, dup=True),
        _random(rng, 120, 10, gap=1, max_cost=5),
        _random(rng, 300, 6, gap=20, max_cost=50, dup=True),
        _random(rng, 600, 30, default=False, gap=2),
        _random(rng, 1000, 5, gap=0, max_cost=3),
        _random(rng, 2000, 50, gap=10, max_cost=100, dup=True),
    ]
    big = random.Random(112)
    reqs = []
    t = 0
    for _ in range(22000):
        t += big.randint(0, 3)
        reqs.append(f"{t} {big.choice('ab')} {big.randint(0, 9)}")
    cases.append(
        Case(
            "2 22000\na 120000 40000\n* 45000 50000\n" + "\n".join(reqs) + "\n",
            large=True,
        )
    )
    return cases


PART2 = """\
**From a sliding window to a token bucket.** Product wants tenants to be able to burst:
replace each tenant's sliding window with a **token bucket**. Keep everything else of the
specification (first line of a tenant counts, `*`, unknown tenants, the output).

**Input.** The first line holds the word `bucket`, then `T N`. The next `T` lines hold
`tenant capacity rate`: a bucket of `capacity` tokens refilled by `rate` tokens per ms
(`0 ≤ capacity ≤ 10^12`, `0 ≤ rate ≤ 10^3`). Then the `N` requests `time tenant cost`,
as in part 1.

**Rule.** A tenant's bucket is **full** (`capacity` tokens) at its first request. At each
later request of that tenant at `now`, first the bucket refills:
`tokens = min(capacity, tokens + rate × (now − time of the tenant's previous request))`.
Then the request is accepted if `cost ≤ tokens`, which takes `cost` tokens out of the
bucket; a rejected request takes nothing.

**Output.** As in part 1.

**Example.**

```
bucket 1 5
* 10 1
0 a 8
1 a 4
3 a 4
3 b 10
20 a 10
```

```
ok
reject
ok
ok
ok
a 3 1 22
b 1 0 10
```

`a` starts with 10 tokens and takes 8; at `1` it has `3` (< 4); at `3`, `5`, so 4 go and
1 remains; `b` has its own full bucket; at `20`, `a` has refilled to its capacity of 10.

**Limits.** 2 s CPU per test; the largest test has `2.2·10^4` requests from two tenants.
"""

P2_SAMPLES = [
    Case(
        "bucket 1 5\n* 10 1\n0 a 8\n1 a 4\n3 a 4\n3 b 10\n20 a 10\n",
        expect="ok\nreject\nok\nok\nok\na 3 1 22\nb 1 0 10\n",
    ),
    # rate 0: the bucket never refills; requests at one instant share it
    Case(
        "bucket 1 4\nfixed 5 0\n0 fixed 3\n0 fixed 3\n0 fixed 2\n99 fixed 1\n",
        expect="ok\nreject\nok\nreject\nfixed 2 2 5\n",
    ),
    Case("bucket 0 2\n0 x 0\n1 x 1\n", expect="reject\nreject\nx 0 2 0\n"),
]


def _bucket(rng, n, tenants, *, default=True, gap=5, max_cost=10, dup=False, max_rate=3):
    lines = []
    names = [rng.choice(["t", "T", "team-", "org_"]) + str(i) for i in range(tenants)]
    configured = names[: max(1, tenants // 2)]

    def config() -> str:
        return f"{rng.randint(0, 3 * max_cost)} {rng.randint(0, max_rate)}"

    for name in configured:
        lines.append(f"{name} {config()}")
        if dup and rng.random() < 0.3:
            lines.append(f"{name} {config()}")
    if default:
        lines.append(f"* {config()}")
    rng.shuffle(lines)
    t = rng.randint(0, 3)
    reqs = []
    for _ in range(n):
        t += rng.randint(0, gap)
        reqs.append(f"{t} {rng.choice(names)} {rng.randint(0, max_cost)}")
    return Case(f"bucket {len(lines)} {n}\n" + "".join(x + "\n" for x in lines + reqs))


def _bucket_hidden():
    rng = random.Random(2222)
    cases = [
        # the bucket starts full and never holds more than its capacity
        Case(
            "bucket 1 4\na 6 2\n0 a 6\n1000 a 6\n1000 a 1\n1001 a 2\n",
            expect="ok\nok\nreject\nok\na 3 1 14\n",
        ),
        # a rejected request takes nothing out of the bucket
        Case(
            "bucket 1 4\n* 10 1\n0 a 7\n0 a 5\n0 a 3\n2 a 2\n",
            expect="ok\nreject\nok\nok\na 3 1 12\n",
        ),
        # refill counts from the previous request, rejected ones included
        Case(
            "bucket 1 4\n* 4 1\n0 a 4\n2 a 3\n3 a 3\n4 a 1\n",
            expect="ok\nreject\nok\nok\na 3 1 8\n",
        ),
        # no default: unknown tenants are rejected; the first line of a tenant counts
        Case(
            "bucket 2 3\npro 5 1\npro 100 100\n0 pro 5\n0 guest 0\n0 pro 1\n",
            expect="ok\nreject\nreject\nguest 0 1 0\npro 1 1 5\n",
        ),
        # each tenant under `*` has its own bucket; a cost above the capacity never passes
        Case(
            "bucket 1 4\n* 3 1000\n0 a 3\n0 b 3\n5 a 4\n5 b 0\n",
            expect="ok\nok\nreject\nok\na 1 1 3\nb 2 0 3\n",
        ),
        # huge numbers
        Case(
            "bucket 1 3\nbig 1000000000000 1000\n0 big 1000000000000\n"
            "999999999 big 999999999000\n1000000000000 big 1000000000000\n",
            expect="ok\nok\nok\nbig 3 0 2999999999000\n",
        ),
        _bucket(rng, 10, 2),
        _bucket(rng, 30, 4, default=False),
        _bucket(rng, 60, 3, dup=True),
        _bucket(rng, 120, 10, gap=1, max_cost=5),
        _bucket(rng, 300, 6, gap=20, max_cost=50, dup=True, max_rate=10),
        _bucket(rng, 1000, 5, gap=0, max_cost=3, max_rate=1),
        _bucket(rng, 2000, 50, gap=10, max_cost=100, dup=True),
    ]
    big = random.Random(223)
    reqs = []
    t = 0
    for _ in range(22000):
        t += big.randint(0, 3)
        reqs.append(f"{t} {big.choice('ab')} {big.randint(0, 9)}")
    cases.append(
        Case(
            "bucket 2 22000\na 120000 2\n* 45000 3\n" + "\n".join(reqs) + "\n",
            large=True,
        )
    )
    return cases


FOLLOW_UPS = [
    {
        "prompt": "List the bugs you found, most severe first, and how each one showed up.",
        "trigger": "after_minutes",
        "after_minutes": 15,
        "coach_notes": (
            "Planted: (1) rejected requests are appended before the check, so they consume\n"
            "budget (the 'rejected far below budget' complaint); (2) `t >= now - window`\n"
            "keeps requests exactly one window old; (3) `limits.get('*')` is None without a\n"
            "default -> TypeError (the crash); (4) the last config line wins, the spec says\n"
            "the first; (5) the summary is in first-seen order, not sorted; (6) history never\n"
            "shrinks and is summed on every request: O(n) per call, O(n^2) overall and\n"
            "unbounded memory; (7) the mutable default `history={}` is shared by every\n"
            "limiter instance (harmless here, a real bug in a long-running service with\n"
            "config reloads). Strong candidates write a failing test for each before fixing.\n"
        ),
    },
    {
        "prompt": (
            "We run 32 API servers behind a load balancer. Where does this limiter's state\n"
            "live now, and what do you give up?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Options: a shared store (Redis sorted set or a Lua script doing the sliding\n"
            "window atomically; or a token bucket per tenant), local limiters with budget\n"
            "leases split across servers, or sticky routing by tenant. Trade-offs: an extra\n"
            "network hop on the hot path (add a timeout and a fail-open/fail-closed policy),\n"
            "exactness vs. approximate windows (sliding-window counter), hot tenants on one\n"
            "Redis shard. Token-based limits need the output length, known only at the end:\n"
            "reserve an estimate and reconcile.\n"
        ),
    },
    {
        "prompt": (
            "Tenants complain the window punishes bursts. Replace it with a token bucket\n"
            "per tenant (part 2), and tell me what a burst costs under each scheme.\n"
        ),
        "unlocks_part": 2,
        "trigger": "on_part_passed",
        "coach_notes": (
            "A bucket needs O(1) state per tenant (level and last update time), no history:\n"
            "refill lazily on each request from the elapsed time, capped at the capacity.\n"
            "Watch for: starting the bucket empty, forgetting the cap, draining it on a\n"
            "rejected request, refilling from the last accepted request only (equivalent\n"
            "here, because refills are capped only at the capacity — ask them why). A window\n"
            "lets a tenant spend its limit twice across a window boundary; a bucket bounds\n"
            "any burst by its capacity and the long-run rate by its refill rate.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="refactor-rate-limiter",
        name="refactor_rate_limiter",
        title="Debug and speed up a production rate limiter",
        difficulty="medium",
        tags=["code-reading", "refactoring", "debugging", "performance", "practice"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Fix it and make it fast",
                "Your program must follow the specification exactly (not the old code).\n",
                SAMPLES,
                _hidden(),
            ),
            PartSpec("Token bucket", PART2, P2_SAMPLES, _bucket_hidden()),
        ],
        starter={"python": BUGGY_PY, "javascript": BUGGY_JS, "cpp": STARTER_CPP},
        follow_ups=FOLLOW_UPS,
    )
