"""preemptive-scheduler: the live-coding round. A priority scheduler, then K concurrent
slots, then pre-emption with a simulated KV-cache checkpoint, then incremental vs full
checkpoints. Each follow-up unlocks the next part."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
You are writing the request scheduler of an inference server. Requests arrive over time,
each with a **priority** (smaller number = more urgent), a **prompt** length in tokens
and an amount of **work** in decode steps (one step produces one token). Time is an
integer number of steps.

The interviewer starts with the simplest version and adds constraints as you go; each
follow-up unlocks a part with its own hidden tests. Write code you can extend: the same
program has to handle every part, and each part's input is recognisable from the number
of values on its first line.

**Request lines** (the same in every part): `id arrival priority prompt work` — a unique
id without spaces; `0 ≤ arrival ≤ 10^9`, non-decreasing down the input; `0 ≤ priority ≤
10^9`; `1 ≤ prompt ≤ 10^6`; `1 ≤ work ≤ 10^6`. `0 ≤ N ≤ 7·10^3`. The prompt length does
not matter until part 3.

**Order of events at one instant `t`.** First, everything that completes at `t`
completes (requests finishing, and from part 3 on, checkpoint saves and restores
finishing); then the requests arriving at `t` join the waiting queue; then the scheduler
makes its decisions.

**Choosing among waiting requests** (every part): the smallest
`(priority, arrival, position in the input)` goes first.

**Limits.** 2 s CPU per test. The largest test of each part has `6·10^3` to `7·10^3`
requests, and times are large: simulate from event to event, not step by step, and keep
the work per event logarithmic (a scan of every waiting or running request per event is
too slow).
"""

PART1 = """\
**One GPU, no pre-emption.** The GPU runs one request at a time. Whenever it is free and
requests are waiting, it starts the first waiting request in the order above; a request
started at `s` finishes at `s + work`. The GPU is never idle while a request waits.

**Input.** The first line holds `N`. Then `N` request lines.

**Output.** `N` lines in input order: `id start finish`.

**Example.**

```
3
a 0 5 10 4
b 1 1 10 2
c 1 0 10 3
```

`a` starts at once; at `4`, `c` (priority 0) goes before `b`.

```
a 0 4
b 7 9
c 4 7
```
"""

PART2 = """\
**K requests at once.** Memory now holds the KV caches of at most `K` requests: the
GPU has `K` **slots** and each running request occupies one (a running request still
finishes `work` steps after it starts). Whenever a slot is free and requests are
waiting, the first waiting request starts in it; repeat while both exist.

**Input.** The first line holds `N K` (`1 ≤ K ≤ 10^5`). Then `N` request lines.

**Output.** As in part 1: `id start finish`, in input order.
"""

PART3 = """\
**Pre-emption with a KV checkpoint.** An urgent request must not wait behind a batch
job. Once the scheduler has filled the free slots, if

- every slot holds a running request (none free, none busy saving a checkpoint), and
- the first waiting request has a strictly smaller priority number than the **victim**:
  the running request with the largest priority number (ties: the one that started its
  current run latest; then the one later in the input),

the victim is **pre-empted**, and the scheduler tries again (fill free slots, check
again) until nothing changes.

**The checkpoint.** A running request holds `prompt + done` tokens of KV cache, where
`done` is the work it has completed so far. Pre-empting it at `t` copies its KV cache to
host memory, which takes `⌈(prompt + done) / R⌉` steps; its slot stays busy until the
copy completes, and only then does the request rejoin the waiting queue (with its
original priority and arrival). When a request that has a checkpoint is started again,
it first **restores** it, which takes `⌈(prompt + done) / R⌉` steps in its new slot, and
then continues: it finishes `restore + (work − done)` steps after it starts.

A request pre-empted while it is still restoring (at a time `t` with
`start of this run ≤ t < start of this run + restore`) has nothing to save (its host
copy is intact): its slot is free at once, it rejoins the queue at once, and only the
restore steps it actually spent count in `restore_time`. At the very instant its
restore ends (`t = start of this run + restore`) the restore has completed: the request
is running, with no new progress yet, and pre-empting it then saves a checkpoint as
usual (all its restore steps count).

**Input.** The first line holds `N K R` (`1 ≤ R ≤ 10^6`, tokens copied per step). Then
`N` request lines.

**Output.** `N` lines in input order: `id start finish preemptions` (`start` is the time
it first started; `preemptions` how often it was pre-empted). Then one line
`preemptions P save_time S restore_time T`: the total number of pre-emptions, the total
steps slots spent saving checkpoints, and the total steps spent restoring.

**Example.**

```
3 1 4
a 0 5 4 6
b 2 1 8 3
c 3 0 2 2
```

At `2`, `b` pre-empts `a` (`done = 2`, KV `6` tokens, save `⌈6/4⌉ = 2` steps). At `3`,
`c` arrives but the slot is saving. At `4` the slot is free and `a` is waiting again:
`c` runs `[4, 6)`, `b` runs `[6, 9)`, and `a` restores for 2 steps and finishes its
last 4 steps at `15`.

```
a 0 15 1
b 6 9 0
c 4 6 0
preemptions 1 save_time 2 restore_time 2
```
"""

PART4 = """\
**Incremental checkpoints.** Copying the whole KV cache at every pre-emption is
wasteful: the host already holds what was saved the last time. With incremental
checkpoints a request's host copy is a chain of **segments**:

- pre-empting a request writes only the tokens not on the host yet — `prompt + done`
  minus the tokens already stored — as one new segment, which takes
  `H + ⌈new tokens / R⌉` steps (`H` is the fixed cost of a segment);
- restoring reads every segment: `⌈(prompt + done) / R⌉ + H × segments` steps.

Everything else is as in part 3: a request pre-empted while restoring writes no segment;
one pre-empted at the very instant its restore ends writes a segment with no new tokens,
which takes `H` steps.

**Input.** The first line holds `N K R H` (`0 ≤ H ≤ 10^6`). Then `N` request lines.

**Output.** As in part 3.
"""


def _requests(rng, n, *, gap, prio, prompt, work, burst=0.0, hex_ids=False):
    t = rng.randint(0, 3)
    lines = []
    for i in range(n):
        if rng.random() >= burst:
            t += rng.randint(0, gap)
        rid = f"{i:x}" if hex_ids else rng.choice(["r", "job", "q"]) + str(i)
        lines.append(
            f"{rid} {t} {rng.randint(0, prio)} {rng.randint(1, prompt)} {rng.randint(1, work)}"
        )
    return lines


def _case(rng, header, n, large=False, **kwargs):
    lines = _requests(rng, n, **kwargs)
    head = " ".join(str(x) for x in [n, *header])
    return Case(head + "\n" + "".join(line + "\n" for line in lines), large=large)


def _random_cases(seed, header_of, count):
    rng = random.Random(seed)
    cases = []
    shapes = [
        dict(n=6, gap=2, prio=2, prompt=8, work=5),
        dict(n=10, gap=1, prio=3, prompt=20, work=8, burst=0.5),
        dict(n=25, gap=3, prio=5, prompt=30, work=12),
        dict(n=40, gap=0, prio=1, prompt=10, work=6),
        dict(n=60, gap=4, prio=9, prompt=50, work=20, burst=0.3),
        dict(n=120, gap=2, prio=4, prompt=64, work=15),
        dict(n=200, gap=5, prio=20, prompt=100, work=30, burst=0.2),
    ]
    for k in range(count):
        shape = dict(shapes[k % len(shapes)])
        n = shape.pop("n")
        cases.append(_case(rng, header_of(rng), n, **shape))
    return cases


def _large(seed, header, n, prompt=999):
    rng = random.Random(seed)
    return _case(
        rng,
        header,
        n,
        large=True,
        gap=40,
        prio=6,
        prompt=prompt,
        work=3000,
        burst=0.5,
        hex_ids=True,
    )


def part1():
    samples = [
        Case("3\na 0 5 10 4\nb 1 1 10 2\nc 1 0 10 3\n", expect="a 0 4\nb 7 9\nc 4 7\n"),
        Case("2\nx 5 0 1 1\ny 100 0 1 1\n", expect="x 5 6\ny 100 101\n"),
        Case("0\n", expect=""),
    ]
    hidden = [
        # equal priority: earlier arrival, then input order
        Case("3\nb 0 1 1 5\na 0 1 1 5\nc 0 1 1 5\n", expect="b 0 5\na 5 10\nc 10 15\n"),
        # an arrival exactly at a finish competes with the queue
        Case("3\na 0 9 1 4\nb 1 5 1 1\nc 4 0 1 1\n", expect="a 0 4\nb 5 6\nc 4 5\n"),
        # huge values
        Case(
            "2\nbig 1000000000 1000000000 1000000 1000000\nsmall 1000000000 0 1 1\n",
            expect="big 1000000001 1001000001\nsmall 1000000000 1000000001\n",
            large=True,
        ),
        *_random_cases(11, lambda rng: [], 9),
        _large(12, [], 7_000, prompt=9),
    ]
    return samples, hidden


def part2():
    samples = [
        Case(
            "4 2\na 0 3 5 4\nb 0 1 5 2\nc 1 0 5 2\nd 2 2 5 1\n",
            expect="a 0 4\nb 0 2\nc 2 4\nd 4 5\n",
        ),
        Case("2 5\nx 0 0 1 3\ny 0 0 1 3\n", expect="x 0 3\ny 0 3\n"),
        Case("3 1\na 0 0 1 2\nb 0 0 1 2\nc 0 0 1 2\n", expect="a 0 2\nb 2 4\nc 4 6\n"),
    ]
    hidden = [
        Case("0 3\n", expect=""),
        # two slots free up at the same instant
        Case(
            "4 2\na 0 5 1 3\nb 0 5 1 3\nc 1 9 1 1\nd 2 0 1 1\n",
            expect="a 0 3\nb 0 3\nc 3 4\nd 3 4\n",
        ),
        # K larger than N
        Case("2 100000\nx 3 7 1 1\ny 3 7 1 1\n", expect="x 3 4\ny 3 4\n"),
        *_random_cases(21, lambda rng: [rng.choice([1, 2, 3, 4, 8])], 9),
        _large(22, [16], 7_000, prompt=9),
    ]
    return samples, hidden


def part3():
    samples = [
        Case(
            "3 1 4\na 0 5 4 6\nb 2 1 8 3\nc 3 0 2 2\n",
            expect="a 0 15 1\nb 6 9 0\nc 4 6 0\npreemptions 1 save_time 2 restore_time 2\n",
        ),
        # equal priority never pre-empts
        Case(
            "2 1 10\na 0 1 5 5\nb 1 1 5 5\n",
            expect="a 0 5 0\nb 5 10 0\npreemptions 0 save_time 0 restore_time 0\n",
        ),
        # the victim is the latest-started among the worst
        Case(
            "3 2 100\nx 0 4 50 10\ny 1 4 50 10\nz 2 0 1 1\n",
            expect="x 0 10 0\ny 1 14 1\nz 3 4 0\npreemptions 1 save_time 1 restore_time 1\n",
        ),
    ]
    hidden = [
        # pre-empted while restoring: no save, only the spent restore steps count
        Case(
            "4 1 1\nlow 0 9 3 10\nmid 1 5 1 1\nhi 8 0 1 1\nlow2 20 9 1 1\n",
            expect=(
                "low 0 22 2\nmid 5 6 0\nhi 8 9 0\nlow2 22 23 0\n"
                "preemptions 2 save_time 4 restore_time 6\n"
            ),
        ),
        # a pre-empted request pre-empts a lower one in turn after its save
        Case("4 1 1\nlow 0 9 3 10\nmid 1 5 1 2\nhi 6 0 1 1\nlow2 20 9 1 1\n"),
        # a chain of pre-emptions of one request
        Case("4 1 2\nj 0 9 4 8\nu1 1 1 1 1\nu2 5 1 1 1\nu3 12 1 1 1\n"),
        # nothing to pre-empt while a slot is still saving
        Case("4 2 1\na 0 5 3 10\nb 0 5 3 10\nc 2 0 1 1\nd 2 0 1 1\n"),
        *_random_cases(31, lambda rng: [rng.choice([1, 1, 2, 3, 5]), rng.choice([1, 2, 4, 16])], 9),
        _large(32, [8, 64], 6_000),
    ]
    return samples, hidden


def part4():
    samples = [
        Case(
            "3 1 4 1\na 0 5 4 6\nb 2 1 8 3\nc 3 0 2 2\n",
            expect="a 0 17 1\nb 7 10 0\nc 5 7 0\npreemptions 1 save_time 3 restore_time 3\n",
        ),
        # with H = 0 the first checkpoint costs the same as a full one
        Case(
            "2 1 3 0\na 0 2 3 4\nb 1 0 1 1\n",
            expect="a 0 9 1\nb 3 4 0\npreemptions 1 save_time 2 restore_time 2\n",
        ),
        Case("0 4 5 6\n", expect="preemptions 0 save_time 0 restore_time 0\n"),
    ]
    hidden = [
        # second pre-emption writes only the new tokens; restore pays H per segment
        Case("3 1 10 5\nj 0 9 40 30\nu1 3 0 1 2\nu2 20 0 1 2\n"),
        # pre-empted twice while restoring: no segments written
        Case("4 1 1 2\nj 0 9 2 5\nu1 1 1 1 1\nu2 10 0 1 1\nu3 14 0 1 1\n"),
        # pre-empted exactly when its restore ends, with no new progress: an empty segment
        Case(
            "4 1 1 2\nj 0 9 2 5\nu1 1 1 1 1\nu2 12 0 1 1\nu3 30 0 1 1\n",
            expect=(
                "j 0 26 2\nu1 6 7 0\nu2 14 15 0\nu3 30 31 0\n"
                "preemptions 2 save_time 7 restore_time 12\n"
            ),
        ),
        Case("4 2 1 0\na 0 5 3 10\nb 0 5 3 10\nc 2 0 1 1\nd 2 0 1 1\n"),
        *_random_cases(
            41,
            lambda rng: [
                rng.choice([1, 1, 2, 3]),
                rng.choice([1, 2, 8]),
                rng.choice([0, 1, 3, 10]),
            ],
            9,
        ),
        _large(42, [8, 64, 20], 6_000),
    ]
    return samples, hidden


STARTER_PY = """\
import sys


def main() -> None:
    lines = sys.stdin.read().split("\\n")
    header = [int(x) for x in lines[0].split()]
    # part 1: N; part 2: N K; part 3: N K R; part 4: N K R H
    n = header[0]
    requests = [lines[1 + i].split() for i in range(n)]
    # simulate from event to event and print the schedule


main()
"""

STARTER_JS = """\
const lines = require("fs").readFileSync(0, "utf8").split("\\n");
const header = lines[0].trim().split(/\\s+/).map(Number);
// part 1: N; part 2: N K; part 3: N K R; part 4: N K R H
const n = header[0];
const requests = lines.slice(1, 1 + n).map((l) => l.trim().split(/\\s+/));
// simulate from event to event and print the schedule
"""

STARTER_CPP = """\
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    string first;
    getline(cin, first);
    vector<long long> header;
    {
        istringstream in(first);
        long long x;
        while (in >> x) header.push_back(x);
    }
    // part 1: N; part 2: N K; part 3: N K R; part 4: N K R H
    // read the requests, simulate from event to event and print the schedule
    return 0;
}
"""

FOLLOW_UPS = [
    {
        "prompt": (
            "GPU memory now holds the KV caches of at most K requests at once. Part 2 has\n"
            "the details.\n"
        ),
        "unlocks_part": 2,
        "trigger": "on_part_passed",
        "coach_notes": (
            "A good part 1 already has a heap of waiting requests and an event loop that\n"
            "jumps in time; part 2 is then a counter of free slots plus a heap of finish\n"
            "times. Watch for: several slots freeing at one instant, arrivals at exactly a\n"
            "finish time (completions first), K > N. A candidate who stepped time one unit\n"
            "at a time should be asked what the largest test costs (times up to 10^9).\n"
        ),
    },
    {
        "prompt": (
            "An interactive request is stuck behind batch jobs. Allow pre-emption of the\n"
            "lowest-priority running request, with a simulated KV-cache checkpoint.\n"
            "Part 3 has the exact rules.\n"
        ),
        "unlocks_part": 3,
        "trigger": "on_part_passed",
        "coach_notes": (
            "Needs a second heap (worst running first) with lazy deletion, per-run ids to\n"
            "invalidate stale finish events, and the 'saving' slot state. Edge cases worth\n"
            "probing: equal priority never pre-empts; the victim tie-break (latest start);\n"
            "a victim pre-empted while restoring (no save, free slot at once); no second\n"
            "pre-emption while a save is in flight; progress accounting after a restore.\n"
            "Ask what real systems do instead: vLLM swaps KV blocks to CPU or drops and\n"
            "recomputes them; recompute wins for short contexts, swap for long ones.\n"
        ),
    },
    {
        "prompt": (
            "Full checkpoints rewrite the whole KV cache at every pre-emption. Make them\n"
            "incremental (part 4) and tell me when incremental is actually cheaper.\n"
        ),
        "unlocks_part": 4,
        "trigger": "on_part_passed",
        "coach_notes": (
            "Incremental saves cost H + new/R instead of kv/R but every restore pays\n"
            "H × segments, so it wins when requests are pre-empted repeatedly with long\n"
            "contexts and little progress in between, and loses with large H, short\n"
            "contexts or one pre-emption each. Strong candidates compute both totals on the\n"
            "samples, note the empty-segment case (pre-empted right after a restore), and\n"
            "suggest compacting segments, or with paged KV, copying only dirty pages.\n"
        ),
    },
    {
        "prompt": "What is the complexity of your scheduler per event, and what dominates?",
        "trigger": "after_minutes",
        "after_minutes": 40,
        "coach_notes": (
            "O(log n) per arrival, dispatch, pre-emption and completion with heaps; stale\n"
            "heap entries are bounded by the number of pushes. Credit candidates who say\n"
            "the simulation is CPU-bound on heap operations and parsing, not on I/O.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    parts = []
    for title, prompt, cases in (
        ("Priority scheduling on one GPU", PART1, part1),
        ("At most K requests at once", PART2, part2),
        ("Pre-emption with a KV checkpoint", PART3, part3),
        ("Incremental vs full checkpoints", PART4, part4),
    ):
        samples, hidden = cases()
        parts.append(PartSpec(title, prompt, samples, hidden))
    return QuestionSpec(
        slug="preemptive-scheduler",
        name="preemptive_scheduler",
        title="Inference scheduler: K slots, pre-emption and KV checkpoints",
        difficulty="hard",
        tags=["llm-serving", "scheduling", "kv-cache", "simulation", "live-coding"],
        prompt=PROMPT,
        parts=parts,
        starter={"python": STARTER_PY, "javascript": STARTER_JS, "cpp": STARTER_CPP},
        follow_ups=FOLLOW_UPS,
    )
