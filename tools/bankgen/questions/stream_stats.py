"""stream-stats: per-request streaming metrics (TTFT, TPOT, lost chunks) from a messy,
unsorted token-stream log, plus percentiles and a sliding-window peak."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
The streaming front-end of an inference service logs one line per event. The logs of
several collectors were concatenated, so **lines are not sorted by time**, some chunks
were retransmitted (duplicates), some were lost, and clocks are slightly skewed (an event
can appear *before* its request's `START`). Compute the streaming metrics the dashboard
shows.

### Input

The first line holds `N W`: the number of events and a window length in ms. Each of the
next `N` lines is one event, fields separated by single spaces:

| event | meaning |
|---|---|
| `time id START` | the request `id` was received |
| `time id CHUNK seq k` | chunk number `seq` (`≥ 1`) of the stream, carrying `k ≥ 0` tokens (`k = 0` is a keep-alive) |
| `time id END` | the stream completed normally |
| `time id ERROR code` | the stream failed with `code` (a word) |
| `time id CANCEL` | the client cancelled the stream |

`time` is an integer in ms (`0 ≤ time ≤ 10^12`); ids and codes are made of letters,
digits, `-` and `_`. A line with any other event type is ignored entirely. `0 ≤ N ≤ 2·10^4`,
`1 ≤ W ≤ 10^12`, `1 ≤ seq ≤ 10^9`, `k ≤ 10^6`.

### Processing rules

Process the events in order of `time`; events with equal times keep their order in the
input. For each request id:

1. Everything before the request's first `START` is ignored; a second `START` is ignored.
2. After a **terminal** event (`END`, `ERROR`, `CANCEL`) every later event of that
   request is ignored (the first terminal event wins).
3. A `CHUNK` whose `seq` was already seen for that request is a retransmission and is
   ignored, even if its `k` differs.
4. The other chunks are **counted**. The request's `tokens` is the sum of `k` over its
   counted chunks.

Per request that has a `START`:

- `status`: `ok` (ended with `END`), `error:<code>`, `cancelled`, or `incomplete` (no
  terminal event).
- `ttft` (time to first token): time of its first counted chunk with `k ≥ 1` minus the
  `START` time; `-` if there is none.
- `tpot` (time per output token): `(t_last − t_first) / (tokens − 1)` where `t_first` and
  `t_last` are the times of its first and last counted chunks with `k ≥ 1`; `-` if
  `tokens < 2`.
- `lost`: the largest counted `seq` minus the number of counted chunks (`0` without
  chunks) — chunks that were never logged.

### Output

One line per request with a `START`, sorted by id (plain byte order):
`id status tokens ttft tpot lost`. Then five lines:

```
ttft_p50 X
ttft_p99 Y
tpot_mean Z
peak_window P
orphans Q
```

- `X`, `Y`: nearest-rank percentiles of `ttft` over requests with status `ok` and a
  `ttft` (sort ascending, take the value at 1-based position `⌈q · count / 100⌉`); `-`
  when there is none.
- `Z`: the mean `tpot` over requests with status `ok` and a `tpot`; `-` when none.
- `P`: the largest number of tokens, over all requests, carried by counted chunks whose
  times fall inside one window `[x, x + W)`, over all `x`.
- `Q`: the number of distinct ids that appear in events (of the five types above) but
  never in a `START`.

Print `tpot` and `Z` with at least six digits after the decimal point, and every other
number as an integer. The checker compares **every** numeric token, the integer fields
included, within a tolerance of `10^-5` (absolute, or relative for values above 1:
`|got − expected| ≤ 10^-5 · max(1, |expected|)`); words and `-` must match exactly.

### Example

```
7 1000
120 b START
100 a START
250 a CHUNK 1 3
400 a CHUNK 2 2
400 a CHUNK 2 2
900 a END
90 a CHUNK 1 1
```

`a`: the chunk at `90` comes before its `START` and is ignored; the duplicate `seq 2` is
ignored; tokens `5`, ttft `150`, tpot `(400 − 250) / 4 = 37.5`. `b` never finishes.

```
a ok 5 150 37.500000 0
b incomplete 0 - - 0
ttft_p50 150
ttft_p99 150
tpot_mean 37.500000
peak_window 5
orphans 0
```

**Limits.** 2 s CPU per test. The largest test has `2·10^4` events from thousands of
requests: a pass over the whole log per request, or a scan of every window, is too slow.
"""

SAMPLES = [
    Case(
        "7 1000\n120 b START\n100 a START\n250 a CHUNK 1 3\n400 a CHUNK 2 2\n"
        "400 a CHUNK 2 2\n900 a END\n90 a CHUNK 1 1\n",
        expect=(
            "a ok 5 150 37.500000 0\nb incomplete 0 - - 0\nttft_p50 150\nttft_p99 150\n"
            "tpot_mean 37.500000\npeak_window 5\norphans 0\n"
        ),
    ),
    Case(
        "9 10\n0 x START\n5 x CHUNK 3 4\n5 x ERROR oom\n5 x CHUNK 4 1\n7 y CHUNK 1 2\n"
        "8 z START\n9 z CHUNK 1 0\n12 z CHUNK 2 1\n30 z CANCEL\n",
        expect=(
            "x error:oom 4 5 0.000000 2\nz cancelled 1 4 - 0\nttft_p50 -\nttft_p99 -\n"
            "tpot_mean -\npeak_window 5\norphans 1\n"
        ),
    ),
    Case("0 5\n", expect="ttft_p50 -\nttft_p99 -\ntpot_mean -\npeak_window 0\norphans 0\n"),
]

KINDS_RARE = ["ERROR timeout", "ERROR oom", "CANCEL", "HEARTBEAT", "RETRY 3"]


def _log(
    rng,
    requests,
    *,
    window,
    chunks=(0, 8),
    dup=0.1,
    lose=0.05,
    skew=0.05,
    shuffle=True,
    terminal=(0.8, 0.1, 0.05),
    orphan=0.03,
    zero=0.1,
    id_style="short",
):
    events = []
    t = rng.randint(0, 50)
    for r in range(requests):
        rid = f"{r:x}" if id_style == "hex" else rng.choice(["req", "r", "s-", "A_"]) + str(r)
        t += rng.randint(0, 40)
        start = t
        has_start = rng.random() >= orphan
        if has_start:
            events.append((start, f"{rid} START"))
            if rng.random() < 0.03:
                events.append((start + rng.randint(0, 5), f"{rid} START"))
        now = start + rng.randint(1, 300)
        n_chunks = rng.randint(*chunks)
        seq = 0
        for _ in range(n_chunks):
            seq += 1
            k = 0 if rng.random() < zero else rng.randint(1, 6)
            if rng.random() < lose:
                continue
            ct = now - rng.randint(1, 400) if rng.random() < skew else now
            events.append((max(ct, 0), f"{rid} CHUNK {seq} {k}"))
            if rng.random() < dup:
                events.append((now + rng.randint(0, 30), f"{rid} CHUNK {seq} {rng.randint(0, 6)}"))
            now += rng.randint(0, 60)
        x = rng.random()
        end = now + rng.randint(0, 20)
        if x < terminal[0]:
            events.append((end, f"{rid} END"))
        elif x < terminal[0] + terminal[1]:
            events.append((end, f"{rid} {rng.choice(KINDS_RARE)}"))
        elif x < sum(terminal):
            events.append((end, f"{rid} CANCEL"))
        if rng.random() < 0.05:
            events.append((end + rng.randint(0, 10), f"{rid} CHUNK {seq + 1} 3"))
    if shuffle:
        rng.shuffle(events)
    else:
        events.sort(key=lambda e: e[0])
    body = "".join(f"{time} {text}\n" for time, text in events)
    return f"{len(events)} {window}\n" + body


def _hidden():
    rng = random.Random(505)
    cases = [
        # equal times keep input order: END before CHUNK drops the chunk; CHUNK before END counts
        Case(
            "6 100\n0 a START\n0 b START\n10 a END\n10 a CHUNK 1 5\n10 b CHUNK 1 5\n10 b END\n",
            expect=(
                "a ok 0 - - 0\nb ok 5 10 0.000000 0\nttft_p50 10\nttft_p99 10\n"
                "tpot_mean 0.000000\n"
                "peak_window 5\norphans 0\n"
            ),
        ),
        # a CHUNK at the very time of its START: input order decides, as for every tie
        Case(
            "6 100\n5 a CHUNK 1 3\n5 a START\n5 b START\n5 b CHUNK 1 2\n9 a CHUNK 2 4\n9 b END\n",
            expect=(
                "a incomplete 4 4 0.000000 1\nb ok 2 0 0.000000 0\nttft_p50 0\nttft_p99 0\n"
                "tpot_mean 0.000000\n"
                "peak_window 6\norphans 0\n"
            ),
        ),
        # keep-alives only; lost chunks; unknown event types
        Case(
            "5 50\n3 k START\n4 k CHUNK 2 0\n5 k CHUNK 5 0\n6 k PING\n7 k END\n",
            expect=(
                "k ok 0 - - 3\nttft_p50 -\nttft_p99 -\ntpot_mean -\npeak_window 0\norphans 0\n"
            ),
        ),
        # an id that only has unknown events is not an orphan
        Case(
            "3 10\n1 ghost PING\n2 ghost RETRY 2\n3 real CHUNK 1 1\n",
            expect="ttft_p50 -\nttft_p99 -\ntpot_mean -\npeak_window 0\norphans 1\n",
        ),
        # the window is half-open: tokens at 0 and at W are never in one window
        Case(
            "4 10\n0 a START\n0 a CHUNK 1 4\n10 a CHUNK 2 4\n11 a END\n",
            expect=(
                "a ok 8 0 1.428571 0\nttft_p50 0\nttft_p99 0\ntpot_mean 1.428571\n"
                "peak_window 4\norphans 0\n"
            ),
        ),
        # huge times; all chunks at the same instant (tpot 0)
        Case(
            "4 1000000000000\n1000000000000 q START\n1000000000000 q CHUNK 1 3\n"
            "1000000000000 q CHUNK 2 3\n1000000000000 q END\n",
        ),
        Case(_log(rng, 5, window=100)),
        Case(_log(rng, 12, window=1, dup=0.3, skew=0.2)),
        Case(_log(rng, 30, window=500, orphan=0.2, terminal=(0.5, 0.2, 0.2))),
        Case(_log(rng, 60, window=60, chunks=(0, 3), zero=0.4)),
        Case(_log(rng, 100, window=10**12, lose=0.3)),
        Case(_log(rng, 150, window=250, shuffle=False)),
        Case(_log(rng, 200, window=37, dup=0.5, skew=0.3)),
        Case(_log(rng, 400, window=1000, chunks=(1, 12))),
        # large: thousands of requests, shuffled
        Case(
            _log(random.Random(55), 3200, window=2000, chunks=(2, 6), id_style="hex"),
            large=True,
        ),
    ]
    return cases


STARTER_PY = """\
import sys


def main() -> None:
    lines = sys.stdin.read().split("\\n")
    n, window = map(int, lines[0].split())
    events = [lines[i].split() for i in range(1, n + 1)]
    # sort by time (stable), apply the rules, print the report


main()
"""

STARTER_JS = """\
const lines = require("fs").readFileSync(0, "utf8").split("\\n");
const [n, window] = lines[0].trim().split(/\\s+/).map(Number);
const events = lines.slice(1, n + 1).map((l) => l.trim().split(" "));
// sort by time (stable), apply the rules, print the report
"""

STARTER_CPP = """\
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    long long n, window;
    cin >> n >> window;
    string rest;
    getline(cin, rest);
    // read n event lines, sort by time (stable), apply the rules, print the report
    return 0;
}
"""

FOLLOW_UPS = [
    {
        "prompt": (
            "The log is now an unbounded stream and you may keep only O(active requests)\n"
            "memory. Which of these metrics can you still compute exactly, and how?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Exact percentiles need all values: use a mergeable sketch (t-digest, HDR\n"
            "histogram, DDSketch) with a stated error. Out-of-order events need a watermark\n"
            "and a bounded lateness; per-request state is evicted after the terminal event\n"
            "plus the lateness bound; the sliding-window peak needs only the window's chunks\n"
            "(or time buckets). Strong candidates say which answers become approximate.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="stream-stats",
        name="stream_stats",
        title="Streaming metrics from a messy token-stream log",
        difficulty="medium",
        tags=["streaming", "metrics", "percentiles", "edge-cases", "challenge"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "TTFT, TPOT, percentiles and the peak window",
                "Implement the rules above and print the report.\n",
                SAMPLES,
                _hidden(),
            )
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS, "cpp": STARTER_CPP},
        follow_ups=FOLLOW_UPS,
        checker="float:1e-5",
    )
