"""async-pipeline: simulate an async job runner (DAG dependencies, a global concurrency
limit, per-resource semaphores, retries with exponential backoff, failure propagation)."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
A model-release pipeline is a graph of async jobs — download shards, convert, quantise,
run evals, publish — executed by a runner with a global concurrency limit and
per-resource semaphores (only so many jobs may hold a GPU, or the network). Jobs fail and
are retried with exponential backoff. Before changing the runner, the team wants an exact
simulator of what it does today. Write it.

### Input

The first line holds `N K M B R`: the number of tasks, the global limit `K` on attempts
running at once, the number of resources, the backoff base `B` (ms) and the number of
retries `R` (a task makes at most `R + 1` attempts). The next `M` lines hold
`resource capacity`. The next `N` lines describe the tasks:

```
name duration resource fails deps
```

- `name`: unique, letters/digits/`-`/`_`; `duration ≥ 1` (ms) of every attempt;
- `resource`: one of the declared resources, or `-` for none (no resource limit);
- `fails`: the first `fails` attempts of this task fail (at the end of their duration);
  the attempt after them succeeds;
- `deps`: `-`, or the comma-separated names of the tasks it needs (no spaces).

`1 ≤ N ≤ 10^5`, `1 ≤ K ≤ 10^5`, `0 ≤ M ≤ 20`, `1 ≤ capacity ≤ 10^5`, `0 ≤ B ≤ 10^6`,
`0 ≤ R ≤ 20`, `duration ≤ 10^6`, `fails ≤ 30`.

### What the runner does

- **Blocked.** A task that depends on a name that is not a task, or that is on a
  dependency cycle, or that depends (directly or transitively) on a blocked task, is
  `blocked`: it never runs.
- **Ready time.** A task with no dependencies is ready at time `0`; otherwise at the
  moment its last dependency succeeds. After a failed attempt number `a` (1-based) that
  ends at `t`, the task is ready again at `t + B · 2^(a−1)` — unless that was attempt
  `R + 1`, in which case the task has **failed**; then every task that depends on it,
  directly or transitively, is `skipped` (blocked tasks stay blocked).
- **Starting attempts.** Whenever something changes, the runner goes through the tasks
  that are ready now (ready time `≤` now, not running), in order of **ready time, then
  position in the input**, and starts each one whose resource has a free unit, as long
  as fewer than `K` attempts are running. A task whose resource is full is passed over;
  it does not block the tasks behind it. A running attempt holds one unit of its
  resource and one of the `K` slots until it ends.
- **One instant.** At time `t`, first every attempt ending at `t` ends (freeing its
  slot and resource; successes make dependents ready at `t`, failures schedule the
  retry), then the runner starts attempts as above.

### Output

One line per task, in input order:

- `name ok start end attempts` — `start` is when its first attempt started, `end` when
  its successful attempt ended;
- `name failed start end attempts` — `end` is when its last attempt ended;
- `name skipped` or `name blocked`.

Then `makespan T` (the largest `end` of an `ok` or `failed` task, `0` if none) and
`peak P` (the largest number of attempts running at the same time).

### Example

```
5 2 1 10 2
gpu 1
load 5 - 0 -
train 10 gpu 1 load
eval 3 gpu 0 load
report 1 - 0 train,eval
flaky 2 - 5 -
```

`load` and `flaky` start at `0`. At `5`, `train` takes the only GPU unit and `eval`
waits; `train`'s first attempt fails at `15` (retry ready at `25`), so `eval` runs
`[15, 18)`. `flaky` fails at `2`, `14` and `36` (ready again at `12` and `34`) and gives
up after `R + 1 = 3` attempts.

```
load ok 0 5 1
train ok 5 35 2
eval ok 15 18 1
report ok 35 36 1
flaky failed 0 36 3
makespan 36
peak 2
```

**Limits.** 2 s CPU per test. The largest tests have tens of thousands of ready tasks
waiting for a scarce resource: scanning every waiting task at every event is too slow.
"""


def _random(
    rng,
    n,
    *,
    k,
    resources,
    backoff,
    retries,
    dep_p=0.3,
    fail_p=0.2,
    bad_p=0.0,
    max_dur=10,
    hex_names=False,
):
    head = [f"{n} {k} {len(resources)} {backoff} {retries}"]
    head += [f"{name} {cap}" for name, cap in resources]
    names = [
        f"{i:x}" if hex_names else rng.choice(["t", "job", "step-", "x_"]) + str(i)
        for i in range(n)
    ]
    lines = []
    for i, name in enumerate(names):
        res = rng.choice([r for r, _ in resources] + ["-"]) if resources else "-"
        fails = rng.choice([0, 0, 0, rng.randint(1, retries + 2)]) if rng.random() < fail_p else 0
        deps = []
        if i and rng.random() < dep_p:
            deps = sorted({names[rng.randrange(i)] for _ in range(rng.randint(1, 3))})
        if rng.random() < bad_p:
            deps.append(rng.choice([names[min(n - 1, i + rng.randint(0, 3))], "ghost"]))
        lines.append(
            f"{name} {rng.randint(1, max_dur)} {res} {fails} {','.join(deps) if deps else '-'}"
        )
    return Case("\n".join(head + lines) + "\n")


def _large(seed):
    rng = random.Random(seed)
    n = 9000
    lines = [f"{n} 48 3 5 2", "g 2", "n 16", "d 4"]
    for i in range(n):
        res = "g" if rng.random() < 0.8 else rng.choice(["n", "d", "-"])
        fails = 1 if rng.random() < 0.05 else 0
        dep = "-"
        if i > 100 and rng.random() < 0.1:
            dep = f"{rng.randrange(i - 100):x}"
        lines.append(f"{i:x} {rng.randint(1, 9)} {res} {fails} {dep}")
    return Case("\n".join(lines) + "\n", large=True)


SAMPLE1 = (
    "5 2 1 10 2\ngpu 1\nload 5 - 0 -\ntrain 10 gpu 1 load\neval 3 gpu 0 load\n"
    "report 1 - 0 train,eval\nflaky 2 - 5 -\n"
)

SAMPLES = [
    Case(
        SAMPLE1,
        expect=(
            "load ok 0 5 1\ntrain ok 5 35 2\neval ok 15 18 1\nreport ok 35 36 1\n"
            "flaky failed 0 36 3\nmakespan 36\npeak 2\n"
        ),
    ),
    # a cycle, an unknown dependency and what depends on them
    Case(
        "5 4 0 1 0\na 1 - 0 b\nb 1 - 0 a\nc 1 - 0 ghost\nd 2 - 0 c\ne 3 - 0 -\n",
        expect=("a blocked\nb blocked\nc blocked\nd blocked\ne ok 0 3 1\nmakespan 3\npeak 1\n"),
    ),
    # a failure skips its dependents transitively
    Case(
        "4 1 0 0 0\nroot 2 - 1 -\nmid 1 - 0 root\nleaf 1 - 0 mid\nfree 4 - 0 -\n",
        expect=(
            "root failed 0 2 1\nmid skipped\nleaf skipped\nfree ok 2 6 1\nmakespan 6\npeak 1\n"
        ),
    ),
]


def _hidden():
    rng = random.Random(707)
    return [
        # a full resource does not block tasks behind it that need something else
        Case(
            "4 3 1 0 0\ng 1\na 5 g 0 -\nb 5 g 0 -\nc 1 - 0 -\nd 1 - 0 -\n",
            expect="a ok 0 5 1\nb ok 5 10 1\nc ok 0 1 1\nd ok 0 1 1\nmakespan 10\npeak 3\n",
        ),
        # ready time ordering beats input order; a retry competes with its ready time
        Case(
            "3 1 0 1 1\nlate 1 - 0 early\nearly 3 - 1 -\nother 10 - 0 -\n",
        ),
        # self-dependency
        Case(
            "2 1 0 0 0\nme 1 - 0 me\nyou 1 - 0 -\n",
            expect="me blocked\nyou ok 0 1 1\nmakespan 1\npeak 1\n",
        ),
        # a task with both a failed and a blocked dependency is blocked
        Case(
            "3 2 0 0 0\nf 1 - 1 -\ncyc 1 - 0 cyc\nboth 1 - 0 f,cyc\n",
            expect="f failed 0 1 1\ncyc blocked\nboth blocked\nmakespan 1\npeak 1\n",
        ),
        # zero backoff: the retry is ready the instant it fails
        Case("2 1 0 0 3\nx 2 - 2 -\ny 1 - 0 -\n"),
        _random(rng, 8, k=2, resources=[("g", 1)], backoff=2, retries=1),
        _random(rng, 15, k=3, resources=[("g", 1), ("net", 2)], backoff=5, retries=2, bad_p=0.1),
        _random(rng, 30, k=1, resources=[], backoff=1, retries=0, fail_p=0.3),
        _random(rng, 50, k=10, resources=[("g", 2), ("d", 1)], backoff=3, retries=3, dep_p=0.6),
        _random(
            rng, 80, k=4, resources=[("a", 1), ("b", 1), ("c", 3)], backoff=7, retries=1, bad_p=0.05
        ),
        _random(rng, 150, k=100, resources=[("g", 5)], backoff=0, retries=2, max_dur=50),
        _random(
            rng,
            300,
            k=6,
            resources=[("g", 2), ("n", 4)],
            backoff=10,
            retries=4,
            dep_p=0.4,
            fail_p=0.3,
            max_dur=30,
        ),
        _large(77),
    ]


PART2 = """\
**Cancellation.** Operators can now cancel a task (a bad checkpoint, a superseded
release). Cancelling must stop its running attempt at once and take everything
downstream with it.

**Input.** The first line holds `N K M B R C`: `C` more values than part 1 (`0 ≤ C ≤
10^5`). After the tasks come `C` lines `time name`, by non-decreasing `time`: at `time`,
the task `name` is cancelled.

**Rules.** At an instant `t`, first every attempt ending at `t` ends (as in part 1), then
the cancellations at `t` apply in input order, then the runner starts attempts. A
cancellation of a name that is not a task, or of a task that is already `ok`, `failed`,
`skipped`, `blocked` or `cancelled`, does nothing. Otherwise the task is **cancelled** at
`t`: a running attempt stops at once (it frees its slot and its resource, and is neither
a success nor a failure: no retry), a waiting task never starts, and every task that
depends on it, directly or transitively, is `skipped` (blocked tasks stay blocked).

**Output.** As in part 1, with one more kind of line: `name cancelled start t attempts`
(`start` as in part 1, or `-` if it never started; `attempts` started so far).
`makespan` still counts only `ok` and `failed` tasks.

**Example.**

```
3 2 0 10 0 2
long 10 - 0 -
after 1 - 0 long
side 4 - 0 -
3 long
3 ghost
```

```
long cancelled 0 3 1
after skipped
side ok 0 4 1
makespan 4
peak 2
```
"""


def _cancels(rng, case: Case, count: int, horizon: int) -> Case:
    """Part 2's version of a part 1 test: the same tasks, plus `count` cancellations."""
    lines = case.input.split("\n")
    head = lines[0].split()
    n, m = int(head[0]), int(head[2])
    names = [line.split()[0] for line in lines[1 + m : 1 + m + n]]
    times = sorted(rng.randint(0, horizon) for _ in range(count))
    picks = [rng.choice([*names, "ghost"]) for _ in range(count)]
    body = "\n".join(lines[1 : 1 + m + n])
    extra = "".join(f"{at} {name}\n" for at, name in zip(times, picks, strict=True))
    return Case(" ".join([*head, str(count)]) + "\n" + body + "\n" + extra, large=case.large)


P2_SAMPLES = [
    Case(
        "3 2 0 10 0 2\nlong 10 - 0 -\nafter 1 - 0 long\nside 4 - 0 -\n3 long\n3 ghost\n",
        expect="long cancelled 0 3 1\nafter skipped\nside ok 0 4 1\nmakespan 4\npeak 2\n",
    ),
    # a cancelled attempt frees its resource for the next task at once
    Case(
        "2 2 1 0 0 1\ng 1\na 10 g 0 -\nb 2 g 0 -\n4 a\n",
        expect="a cancelled 0 4 1\nb ok 4 6 1\nmakespan 6\npeak 1\n",
    ),
    Case("1 1 0 0 0 0\nonly 3 - 0 -\n", expect="only ok 0 3 1\nmakespan 3\npeak 1\n"),
]


def _cancel_hidden():
    rng = random.Random(717)
    cases = [
        # an attempt ending at t ends before a cancellation at t: the task is ok
        Case(
            "2 1 0 0 0 2\na 5 - 0 -\nb 5 - 0 a\n5 a\n5 b\n",
            expect="a ok 0 5 1\nb cancelled - 5 0\nmakespan 5\npeak 1\n",
        ),
        # cancelled while waiting for its retry: no further attempt
        Case(
            "2 1 0 10 3 1\nflaky 2 - 5 -\nnext 1 - 0 flaky\n6 flaky\n",
            expect="flaky cancelled 0 6 1\nnext skipped\nmakespan 0\npeak 1\n",
        ),
        # a cancelled task waiting for a slot frees nothing and never starts
        Case(
            "3 1 0 0 0 1\nbusy 10 - 0 -\nqueued 1 - 0 -\nlast 1 - 0 -\n2 queued\n",
            expect="busy ok 0 10 1\nqueued cancelled - 2 0\nlast ok 10 11 1\nmakespan 11\npeak 1\n",
        ),
        # cancelling twice, cancelling a blocked or skipped task, or a finished one
        Case(
            "4 2 0 0 0 5\nroot 3 - 0 -\nkid 1 - 0 root\ncyc 1 - 0 cyc\ndone 1 - 0 -\n"
            "1 root\n1 root\n2 kid\n2 cyc\n9 done\n",
            expect=(
                "root cancelled 0 1 1\nkid skipped\ncyc blocked\ndone ok 0 1 1\n"
                "makespan 1\npeak 2\n"
            ),
        ),
        # cancelling at time 0, before anything starts
        Case(
            "2 2 0 0 0 1\nx 4 - 0 -\ny 4 - 0 -\n0 x\n",
            expect="x cancelled - 0 0\ny ok 0 4 1\nmakespan 4\npeak 1\n",
        ),
        # a stopped attempt gives back its resource and its slot at once
        Case(
            "2 2 1 0 0 1\ng 1\na 10 g 0 -\nb 2 g 0 -\n3 a\n",
            expect="a cancelled 0 3 1\nb ok 3 5 1\nmakespan 5\npeak 1\n",
        ),
        Case(
            "2 1 0 0 0 1\na 10 - 0 -\nb 2 - 0 -\n3 a\n",
            expect="a cancelled 0 3 1\nb ok 3 5 1\nmakespan 5\npeak 1\n",
        ),
        # a failed task's dependents are skipped before a later cancellation reaches them
        Case(
            "3 1 0 0 0 1\nf 1 - 1 -\ng 1 - 0 f\nh 1 - 0 g\n5 h\n",
            expect="f failed 0 1 1\ng skipped\nh skipped\nmakespan 1\npeak 1\n",
        ),
    ]
    base = _hidden()
    for case, count, horizon in (
        (base[5], 2, 20),
        (base[6], 4, 40),
        (base[7], 6, 60),
        (base[8], 8, 60),
        (base[9], 10, 120),
        (base[10], 20, 100),
        (base[11], 40, 400),
    ):
        cases.append(_cancels(rng, case, count, horizon))
    cases.append(_cancels(rng, _large(78), 300, 3000))
    return cases


STARTER_PY = """\
import sys


def main() -> None:
    lines = sys.stdin.read().split("\\n")
    header = [int(x) for x in lines[0].split()]
    n, k, m, backoff, retries = header[:5]
    c = header[5] if len(header) > 5 else 0  # part 2: the number of cancellations
    resources = [lines[1 + i].split() for i in range(m)]
    tasks = [lines[1 + m + i].split() for i in range(n)]
    cancels = [lines[1 + m + n + i].split() for i in range(c)]
    # find blocked tasks, then simulate the runner event by event


main()
"""

STARTER_JS = """\
const lines = require("fs").readFileSync(0, "utf8").split("\\n");
const [n, k, m, backoff, retries, c = 0] = lines[0].trim().split(/\\s+/).map(Number); // c: part 2
const resources = lines.slice(1, 1 + m).map((l) => l.trim().split(/\\s+/));
const tasks = lines.slice(1 + m, 1 + m + n).map((l) => l.trim().split(/\\s+/));
// find blocked tasks, then simulate the runner event by event
"""

STARTER_CPP = """\
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    string first;
    getline(cin, first);
    istringstream header(first);
    long long n, k, m, backoff, retries, c = 0;  // c: part 2's cancellations
    header >> n >> k >> m >> backoff >> retries >> c;
    // read m resources and n tasks, find blocked tasks, simulate the runner
    return 0;
}
"""

FOLLOW_UPS = [
    {
        "prompt": (
            "Before you optimise anything: on the largest test, is your simulator CPU-,\n"
            "memory-, IO- or synchronisation-bound, and how do you know?\n"
        ),
        "trigger": "after_minutes",
        "after_minutes": 20,
        "coach_notes": (
            "The simulation is CPU-bound on choosing the next task; parsing is linear.\n"
            "Strong candidates measure (a profiler, or timing the phases) before changing\n"
            "code, then replace the scan over all ready tasks with one heap per resource\n"
            "(at most 20 heads to compare) and a heap of wake-up times.\n"
        ),
    },
    {
        "prompt": (
            "The real runner is asyncio code with a global semaphore and one semaphore per\n"
            "resource. Where can it deadlock or starve, and how would you structure it?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Acquiring the global slot before the resource semaphore lets tasks hold slots\n"
            "while waiting for a GPU (the simulator passes them over instead); acquiring in\n"
            "inconsistent orders across two resources deadlocks. Expect: acquire in one\n"
            "global order or all-or-nothing, timeouts on acquisition, cancellation that\n"
            "releases permits (async with), retries with jitter, idempotent tasks so a\n"
            "retry after a lost response is safe, and a bounded queue for back-pressure.\n"
        ),
    },
    {
        "prompt": (
            "A release was bad: operators need to cancel a task, stop its running attempt\n"
            "and everything downstream (part 2).\n"
        ),
        "unlocks_part": 2,
        "trigger": "on_part_passed",
        "coach_notes": (
            "Cancellation is a third event kind in the same loop, ordered after the\n"
            "completions of the instant and before the starts. Stale completion events and\n"
            "stale heap entries of cancelled tasks must be skipped lazily (a flag per task),\n"
            "and the stopped attempt must give back its slot and its resource. Probe: a\n"
            "cancel at the very instant an attempt ends (the attempt wins), a cancel during\n"
            "a retry backoff, cancelling twice. In real asyncio: task.cancel() raises\n"
            "CancelledError at the next await, so cleanup belongs in finally / async with;\n"
            "shielding and TaskGroup semantics decide what else is cancelled.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="async-pipeline",
        name="async_pipeline",
        title="Async job runner: dependencies, semaphores and retries",
        difficulty="hard",
        tags=["concurrency", "async", "simulation", "dag", "retries", "practice"],
        prompt=PROMPT,
        parts=[
            PartSpec("Simulate the runner", "Implement the rules above.\n", SAMPLES, _hidden()),
            PartSpec("Cancellation", PART2, P2_SAMPLES, _cancel_hidden()),
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS, "cpp": STARTER_CPP},
        follow_ups=FOLLOW_UPS,
    )
