"""debug-sessionizer: read a production sessionizer, find its planted bugs against the
spec and fix it. The samples are chosen so the production code passes them: running the
samples does not replace reading the code (tests/tools/test_bankgen_code_reading.py)."""

import random
from pathlib import Path

from ..common import Case, PartSpec, QuestionSpec

PRODUCTION_CODE = (
    (Path(__file__).resolve().parent.parent / "wrong" / "debug_sessionizer" / "production_code.py")
    .read_text()
    .split('"""\n\n', 1)[1]
)

STARTER_OTHER = {
    "javascript": """\
// The production code is Python (see the statement). Port the *fixed* behaviour:
// sessions per user as specified.
const lines = require("fs").readFileSync(0, "utf8").split("\\n");
const [n, gap] = lines[0].trim().split(/\\s+/).map(Number);
""",
    "cpp": """\
#include <bits/stdc++.h>
using namespace std;

// The production code is Python (see the statement). Port the *fixed* behaviour:
// sessions per user as specified.
int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    long long n, gap;
    cin >> n >> gap;
    return 0;
}
""",
}

PROMPT = f"""\
The product-analytics job turns the playground's request log into user sessions. It
has run for months; this week the data team reported:

- *"Session counts for a few users do not match the warehouse."*
- *"Two runs on the same log produced the report in a different order."*
- *"On the big tenant's log it takes minutes."*

Your colleague ran the samples below against it, and they pass. Read the code, find
every way it departs from the **specification**, and fix it; then make it fast. Say
what kind of bottleneck the slowness is before you optimise it.

### The code in production

```python
{PRODUCTION_CODE}```

### Specification

**Input.** The first line holds `N G`; then `N` lines `time user` — a request by `user`
at `time` (ms). The lines are in the order the collectors flushed them, **not** sorted
by time. The same `(time, user)` pair may appear more than once (collectors retry): it
is one event. User names are case-sensitive, without spaces. `1 ≤ N ≤ 2·10^5`,
`0 ≤ G ≤ 10^12`, `0 ≤ time ≤ 10^12`.

**Sessions.** A user's events, by time, form sessions: an event starts a new session
when it comes **more than** `G` ms after the user's previous event (a gap of exactly
`G` continues the session). A session's *duration* is its last event's time minus its
first's.

**Output.** One line per user, sorted by name (byte order):
`user sessions events start duration` — the number of sessions, the number of distinct
events, and the start and duration of the user's longest session (the **earliest** of
equally long ones).

### Example

```
9 30
0 ann
12 ann
20 bob
35 bob
100 ann
125 ann
150 ann
170 bob
400 cat
```

```
ann 2 5 100 50
bob 2 3 20 15
cat 1 1 400 0
```

**Limits.** 2 s CPU per test; the largest tests have `2·10^4` events from `5000` users.
"""

EXAMPLE = "9 30\n0 ann\n12 ann\n20 bob\n35 bob\n100 ann\n125 ann\n150 ann\n170 bob\n400 cat\n"

SAMPLES = [
    Case(EXAMPLE, expect="ann 2 5 100 50\nbob 2 3 20 15\ncat 1 1 400 0\n"),
    Case("3 1000\n5 eve\n900 eve\n5000 eve\n", expect="eve 2 3 5 895\n"),
    Case("5 2\n1 a\n2 a\n3 b\n8 c\n9 c\n", expect="a 1 2 1 1\nb 1 1 3 0\nc 1 2 8 1\n"),
]


def _random(rng, n, users, *, gap, spread, dup=0.0, shuffle=True):
    names = [rng.choice(["u", "U", "team-", "x_"]) + str(i) for i in range(users)]
    events = []
    for _ in range(n):
        if events and rng.random() < dup:
            events.append(rng.choice(events))
        else:
            events.append((rng.randint(0, spread), rng.choice(names)))
    if not shuffle:
        events.sort()
    return Case(f"{len(events)} {gap}\n" + "".join(f"{t} {u}\n" for t, u in events))


def _hidden():
    rng = random.Random(2051)
    cases = [
        # a gap of exactly G continues the session; G + 1 does not
        Case("3 10\n0 a\n10 a\n21 a\n", expect="a 2 3 0 10\n"),
        Case("2 0\n7 a\n7 a\n", expect="a 1 1 7 0\n"),
        # the report is sorted by name, whatever order users first appear in
        Case("3 5\n1 zed\n2 Zed\n3 amy\n", expect="Zed 1 1 2 0\namy 1 1 3 0\nzed 1 1 1 0\n"),
        # equally long sessions: the earliest
        Case("4 5\n0 a\n3 a\n100 a\n103 a\n", expect="a 2 4 0 3\n"),
        Case("6 1\n50 b\n51 b\n10 b\n11 b\n30 b\n31 b\n", expect="b 3 6 10 1\n"),
        # times out of order
        Case("4 10\n100 a\n0 a\n105 a\n5 a\n", expect="a 2 4 0 5\n"),
        Case("3 50\n90 a\n10 a\n50 a\n", expect="a 1 3 10 80\n"),
        # repeated (time, user) pairs are one event
        Case("5 10\n0 a\n0 a\n5 a\n5 a\n5 b\n", expect="a 1 2 0 5\nb 1 1 5 0\n"),
        Case("3 1000000000000\n0 a\n1000000000000 a\n0 a\n", expect="a 1 2 0 1000000000000\n"),
        _random(rng, 12, 2, gap=5, spread=40),
        _random(rng, 40, 4, gap=10, spread=200, dup=0.2),
        _random(rng, 100, 6, gap=0, spread=50, dup=0.3),
        _random(rng, 300, 10, gap=7, spread=500, dup=0.1, shuffle=False),
        _random(rng, 800, 30, gap=20, spread=5000, dup=0.05),
        _random(rng, 1500, 3, gap=3, spread=3000),
    ]
    big = random.Random(2052)
    cases.append(_random(big, 20000, 5000, gap=60000, spread=10**9, dup=0.05))
    cases[-1].large = True
    return cases


FOLLOW_UPS = [
    {
        "prompt": "List the bugs you found, most severe first, and how each one showed up.",
        "trigger": "after_minutes",
        "after_minutes": 15,
        "coach_notes": (
            "Model answer — planted: (1) `< gap` splits at a gap of exactly G (spec: more\n"
            "than G starts a session); (2) users in first-seen order, not sorted (the\n"
            "'different order' complaint: collectors flush in any order); (3) `>=` picks the\n"
            "latest of equally long sessions, not the earliest; (4) times used in arrival\n"
            "order, never sorted (a late flush glues or splits sessions wrongly; the count\n"
            "mismatch); (5) repeated (time, user) pairs counted as events — with G = 0 they\n"
            "even start new sessions; (6) the user lookup scans a list: O(N·U), the\n"
            "'minutes' complaint, CPU-bound in the interpreter, fixed by a dict. None of the\n"
            "three samples exercises any of them: strong candidates read the code against\n"
            "the spec line by line and write a failing test per bug before fixing it.\n"
        ),
        "key_points": [
            {
                "point": "Finds the boundary bug (a gap of exactly G) and the tie rule.",
                "patterns": {"en": ["exactly g", "boundary", "<=", "off[- ]by[- ]one", "tie"]},
                "dimension": "Correctness and edge cases",
            },
            {
                "point": "Notices unsorted input and repeated events from retrying collectors.",
                "patterns": {"en": ["unsorted", "not sorted", "duplicate", "repeated", "retr"]},
                "dimension": "Correctness and edge cases",
            },
            {
                "point": "Names the slowness as CPU in an O(N·U) list scan before fixing it.",
                "patterns": {
                    "en": ["o\\(n ?[·*x]? ?u\\)", "linear scan", "quadratic", "dict", "hash ?map"]
                },
                "dimension": "Performance reasoning",
            },
        ],
    },
    {
        "prompt": (
            "The log grows to a billion events a day across 40 machines. How would you\n"
            "compute the same report, and what about events that arrive a day late?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Partition by user (hash shuffle) so each user's events meet on one reducer, sort\n"
            "by time within the partition (secondary sort), sessionize in one pass. Hot users\n"
            "(bots, load tests) skew a partition: split by (user, day) and stitch sessions\n"
            "that cross the boundary. Late events: a streaming sessionizer with watermarks\n"
            "(Flink/Beam session windows with allowed lateness) re-opens and merges sessions;\n"
            "a batch job reruns the affected days. Dedup by (user, time) or an event id.\n"
        ),
        "key_points": [
            {
                "point": "Partition by user with a secondary sort by time; handle hot users.",
                "patterns": {"en": ["partition", "shuffle", "secondary sort", "hot user", "skew"]},
                "dimension": "Adapting to follow-ups",
            },
        ],
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="debug-sessionizer",
        name="debug_sessionizer",
        title="Debug a production sessionizer",
        difficulty="medium",
        tags=["code-reading", "debugging", "sessions", "performance", "practice"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Fix it and make it fast",
                "Your program must follow the specification exactly (not the old code).\n",
                SAMPLES,
                _hidden(),
            )
        ],
        starter={"python": PRODUCTION_CODE, **STARTER_OTHER},
        follow_ups=FOLLOW_UPS,
    )
