"""priority-scheduler: one GPU, priority classes with aging, chunked execution against
head-of-line blocking, per-class P50/P99 and an SLO verdict."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
A single GPU serves inference requests of several **priority classes**: class `0` is
interactive chat, larger numbers are less urgent (batch summarisation, evals, …). You are
given the scheduling policy; your job is to simulate it exactly and report the latency it
achieves, so the team can see whether the interactive class keeps its P99 within the SLO.

Two mechanisms keep the tail latency down:

- **Chunking** against head-of-line blocking: a request runs for at most `C` ms at a time
  (think chunked prefill). If it needs more, it goes back to the queue and competes again,
  so a huge low-priority request cannot hold the GPU while urgent work waits.
- **Aging** against starvation: for every full `A` ms that a request has been waiting in
  the queue, its effective priority improves by one.

### Input

The first line holds `N A C S`: the number of requests, the aging interval `A` (ms), the
chunk length `C` (ms) and the latency SLO `S` (ms) of class 0. Each of the next `N` lines
holds `id arrival priority cost`: a unique id without spaces, the arrival time in ms,
the priority class, and the GPU time the request needs in ms. Requests are listed by
non-decreasing arrival time.

Constraints: `0 ≤ N ≤ 10^5`; `1 ≤ A, C ≤ 10^9`; `0 ≤ S ≤ 10^15`; `0 ≤ arrival ≤ 10^12`;
`0 ≤ priority ≤ 9`; `1 ≤ cost ≤ 10^9`; the total number of chunks,
`Σ ⌈cost / C⌉`, is at most `3·10^5`.

### The policy

The GPU runs one chunk at a time and is never idle while a request waits. Each request
has an **enqueue time**: its arrival, and after each chunk that does not finish it, the
time that chunk ended. Whenever the GPU is free at time `t` (at the start, when a chunk
ends, or when a request arrives to an idle GPU):

1. every request with `arrival ≤ t` that has not been queued yet joins the queue;
2. the GPU picks the waiting request with the smallest key
   `(priority − ⌊(t − enqueue) / A⌋, enqueue, input position)` — effective priority first,
   then the longest-waiting, then the one listed first in the input (effective
   priorities may become negative);
3. it runs that request for `min(C, remaining)` ms. If the request is finished, its
   **finish** time is the chunk's end; otherwise it rejoins the queue with the chunk's end
   as its new enqueue time.

A request's **latency** is `finish − arrival`.

### Output

- `N` lines, in input order: `id finish latency`.
- For each priority class that occurs, in increasing order: `class P count P50 P99`.
  Percentiles use the nearest-rank method: sort the class's latencies ascending; the
  `q`-th percentile is the value at 1-based position `⌈q · count / 100⌉`.
- One final line `slo ok L` or `slo violated L`: `ok` when class 0's P99 is at most `S`
  (also when there is no class-0 request), and `L` is the number of class-0 requests whose
  latency exceeds `S`.

### Example

```
3 100 5 10
a 0 1 12
b 2 0 3
c 3 0 4
```

At `t = 0` only `a` waits: it runs `[0, 5)`. At `t = 5`, `b` (effective `0`, enqueued at
`2`) beats `c` (effective `0`, enqueued at `3`) and `a` (effective `1`): `b` runs
`[5, 8)` and finishes. `c` runs `[8, 12)`, then `a` runs `[12, 17)` and `[17, 19)`.

```
a 19 19
b 8 6
c 12 9
class 0 2 6 9
class 1 1 19 19
slo ok 0
```

**Limits.** 2 s CPU per test. The queue can hold many thousands of requests: a scan
over the whole queue at each decision is too slow for the largest tests.
"""


def _random(rng, n, *, aging, chunk, slo, gap, max_cost, classes=10, burst=0.0):
    t = rng.randint(0, 5)
    lines = []
    for i in range(n):
        if rng.random() >= burst:
            t += rng.randint(0, gap)
        p = min(rng.randint(0, classes - 1), rng.randint(0, classes - 1))
        cost = rng.choice([rng.randint(1, max_cost), rng.randint(1, max(1, max_cost // 10))])
        rid = f"{i:x}" if n > 2000 else f"r{i}"
        lines.append(f"{rid} {t} {p} {cost}")
    return f"{n} {aging} {chunk} {slo}\n" + "".join(line + "\n" for line in lines)


SAMPLES = [
    Case(
        "3 100 5 10\na 0 1 12\nb 2 0 3\nc 3 0 4\n",
        expect="a 19 19\nb 8 6\nc 12 9\nclass 0 2 6 9\nclass 1 1 19 19\nslo ok 0\n",
    ),
    # aging: after waiting 2 * A the class-2 request ties class 0 and wins on enqueue time
    Case(
        "3 10 100 50\nbusy 0 1 30\nlow 1 2 5\nhi 25 0 10\n",
        expect=(
            "busy 30 30\nlow 35 34\nhi 45 20\nclass 0 1 20 20\nclass 1 1 30 30\n"
            "class 2 1 34 34\nslo ok 0\n"
        ),
    ),
    Case("0 5 5 5\n", expect="slo ok 0\n"),
]


def _hidden():
    rng = random.Random(404)
    cases = [
        # one request, cost an exact multiple of C: it chunks but never waits
        Case("1 1 4 0\nsolo 7 0 12\n", expect="solo 19 12\nclass 0 1 12 12\nslo violated 1\n"),
        # an idle gap between arrivals; no class 0 at all
        Case(
            "2 3 3 0\nx 0 4 2\ny 1000000000000 9 1\n",
            expect=("x 2 2\ny 1000000000001 1\nclass 4 1 2 2\nclass 9 1 1 1\nslo ok 0\n"),
        ),
        # same arrival, same class: input order decides
        Case(
            "3 1000 10 100\nb 0 3 5\na 0 3 5\nc 0 3 5\n",
            expect="b 5 5\na 10 10\nc 15 15\nclass 3 3 10 15\nslo ok 0\n",
        ),
        # a request arriving exactly when a chunk ends competes at once
        Case("2 100 5 100\nlong 0 5 10\nurgent 5 0 1\n"),
        # aging far into negative effective priorities
        Case("4 1 2 1000\nz 0 9 40\ny 0 0 2\nx 30 0 2\nw 31 0 2\n"),
        _case(rng, 12, aging=7, chunk=3, slo=20, gap=3, max_cost=9),
        _case(rng, 40, aging=50, chunk=10, slo=60, gap=4, max_cost=40, classes=3),
        _case(rng, 80, aging=5, chunk=1, slo=100, gap=2, max_cost=6),
        _case(rng, 150, aging=1000, chunk=25, slo=300, gap=10, max_cost=200, burst=0.5),
        _case(rng, 300, aging=20, chunk=50, slo=500, gap=30, max_cost=300),
        _case(rng, 600, aging=10**9, chunk=10**9, slo=10**6, gap=100, max_cost=1000),
        _case(rng, 900, aging=3, chunk=8, slo=50, gap=1, max_cost=30, classes=2),
        # large: bursts keep thousands of requests queued
        Case(
            _random(
                random.Random(44),
                7000,
                aging=400,
                chunk=16,
                slo=2000,
                gap=4,
                max_cost=160,
                burst=0.6,
            ),
            large=True,
        ),
        Case(
            _random(
                random.Random(45),
                6000,
                aging=10**9,
                chunk=10**9,
                slo=10**9,
                gap=2,
                max_cost=50,
                burst=0.8,
                classes=10,
            ),
            large=True,
        ),
    ]
    return cases


def _case(rng, n, **kwargs):
    return Case(_random(rng, n, **kwargs))


STARTER_PY = """\
import sys


def main() -> None:
    data = sys.stdin.read().split()
    n, aging, chunk, slo = map(int, data[:4])
    # read the requests, simulate the policy, print the report


main()
"""

STARTER_JS = """\
const data = require("fs").readFileSync(0, "utf8").split(/\\s+/).filter(Boolean);
const [n, aging, chunk, slo] = data.slice(0, 4).map(Number);
// read the requests, simulate the policy, print the report
// (times reach 10^12: still exact as JavaScript numbers)
"""

STARTER_CPP = """\
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    long long n, aging, chunk, slo;
    cin >> n >> aging >> chunk >> slo;
    // read the requests, simulate the policy, print the report
    return 0;
}
"""

FOLLOW_UPS = [
    {
        "prompt": (
            "Class 0's P99 is over the SLO on a trace like the large test. Which knob do you\n"
            "turn first, C or A, and what does each cost?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Smaller C bounds how long urgent work waits behind a running chunk (at most C)\n"
            "but costs throughput: each chunk boundary is a scheduling decision and, on a\n"
            "real GPU, a smaller prefill chunk has lower arithmetic intensity. Larger A slows\n"
            "aging, favouring class 0 at the risk of starving low classes. Strong answers\n"
            "measure per-class P99 before and after, and mention admission control or\n"
            "shedding low classes under overload, since no ordering fixes sustained overload.\n"
        ),
    },
    {
        "prompt": (
            "Walk me through the data structure that picks the next request. What does it\n"
            "cost per decision?\n"
        ),
        "trigger": "after_minutes",
        "after_minutes": 30,
        "coach_notes": (
            "The key changes with time, so one global heap does not work directly. Within a\n"
            "class the oldest enqueue time always has the best key, so one heap (or deque,\n"
            "plus care for re-queued requests) per class and a comparison of at most ten\n"
            "heads gives O(10 + log n) per decision. A full scan is O(queue) and times out.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="priority-scheduler",
        name="priority_scheduler",
        title="Priority inference scheduler: P99 without head-of-line blocking",
        difficulty="hard",
        tags=["llm-serving", "scheduling", "simulation", "tail-latency", "challenge"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Simulate the policy and report the tail",
                "Implement the policy exactly as described above and print the report.\n",
                SAMPLES,
                _hidden(),
            )
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS, "cpp": STARTER_CPP},
        follow_ups=FOLLOW_UPS,
    )
