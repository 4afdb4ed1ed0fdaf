"""token-batcher: static batching under a memory budget, a latency SLO, then continuous
batching with FIFO admission by KV reservation."""

import random

from ..common import Case, PartSpec, QuestionSpec
from ._token_batcher_legacy import LEGACY

PROMPT = """\
An inference server groups requests into **batches** before running them on the GPU.
Every request in a batch is padded to the length of the batch's longest request, so a
batch of `k` requests whose longest has `m` tokens occupies `k × m` token slots of GPU
memory. The memory budget is `B` token slots per batch.

The tokens added by padding are wasted work. Your batcher is judged on the batches it
forms and on the total **padding waste**: the sum over batches of
`k × m − (tokens of its requests)`.

Requests are batched strictly in arrival order (no reordering). Solve part 1 first; the
interviewer will add a latency constraint, and then ask you to replace static batches
with continuous batching.

Your program reads the whole test from standard input and writes to standard output.
One program should handle every part you have unlocked: each part's input format is
recognisable from its first line.
"""

PART1 = """\
**Input.** The first line holds `B N`: the budget in token slots and the number of
requests. Each of the next `N` lines holds `id tokens` (an id without spaces and
`1 ≤ tokens ≤ B`), in arrival order. `0 ≤ N ≤ 10^5`, `B ≤ 10^9`.

**Batching.** Put each request into the current batch if the batch, padded to its new
longest request, still fits: `(k + 1) × max(m, tokens) ≤ B`. Otherwise the current batch
is dispatched and the request starts a new one. The last batch is dispatched at the end
of the input.

**Output.** One line per batch, in dispatch order: the ids of its requests, separated by
single spaces. Then one final line `waste W`, the total padding waste. With no requests,
print only `waste 0`.

**Limits.** 2 s CPU per test; a batch may hold tens of thousands of requests.
"""

PART2 = """\
Requests now arrive over time, and no batch may wait for more requests longer than `D`
milliseconds after its first request arrived.

**Input.** The first line holds `B D N`. Each of the next `N` lines holds
`id arrival tokens`, with `arrival` in milliseconds, non-decreasing, and
`1 ≤ tokens ≤ B` as in part 1. `0 ≤ D, arrival ≤ 10^9`; `N` and `B` as in part 1.

**Batching.** A batch opens when its first request arrives, at time `t0`. For each
request, in order, arriving at `a`:

1. if a batch is open and `a > t0 + D`, that batch is dispatched at time `t0 + D`;
2. if a batch is (still) open and the request does not fit under the budget (as in
   part 1), that batch is dispatched at time `a`;
3. the request joins the open batch, or opens a new one at `t0 = a`.

After the last request, an open batch is dispatched at its `t0 + D`.

**Output.** One line per batch: `@T` (its dispatch time) followed by its ids, separated
by single spaces; then `waste W` as in part 1.
"""

PART3 = """\
Static batches idle the GPU while the slowest request of a batch finishes. Replace them
with **continuous (iteration-level) batching**: a request joins the running set at any
decode step and leaves as soon as it has produced its last token.

**Input.** The first line holds the word `continuous` and then `B N`. Each of the next
`N` lines holds `id arrival prompt output`: the step at which the request arrives
(non-decreasing), its prompt length and the number of tokens it will generate.
`1 ≤ prompt, output`, `0 ≤ arrival ≤ 10^9`, `output ≤ 10^6`, `B ≤ 10^12`, `N ≤ 10^5`.

**Model.** Time is counted in decode steps `t = 0, 1, 2, …`. To be sure it can finish,
a running request **reserves** `prompt + output` KV-cache slots for its whole life; the
reserved total never exceeds `B`. At the beginning of step `t`:

1. every request whose last token was produced in step `t − 1` finishes and releases its
   reservation;
2. the waiting queue (requests with `arrival ≤ t` that have not started, in input
   order) is served **strictly first-in first-out**: the head starts if its reservation
   fits into the free slots, and admission stops at the first head that does not fit
   (no skipping ahead). A request with `prompt + output > B` can never run: when it
   reaches the head of the queue it is rejected at once and does not block the queue;
3. every running request, including the ones that just started, produces one token.

A request that starts at step `s` produces its tokens in steps `s … s + output − 1` and
**finishes at** `s + output`.

**Output.** One line per request, in input order: `id start finish`, or `id rejected`.
Then `makespan M` (the largest finish time; `0` when nothing ran) and `peak P` (the
largest total reservation held during any step; `0` when nothing ran).

**Limits.** 2 s CPU per test. Arrival times and output lengths are large: simulating
every step one by one is far too slow.
"""

P3_SAMPLES = [
    Case(
        "continuous 10 3\na 0 2 3\nb 0 2 2\nc 1 5 1\n",
        expect="a 0 3\nb 0 2\nc 3 4\nmakespan 4\npeak 9\n",
    ),
    Case(
        "continuous 8 4\nbig 0 6 3\nhuge 0 9 1\nsmall 1 1 1\nlate 10 1 1\n",
        expect="big rejected\nhuge rejected\nsmall 1 2\nlate 10 11\nmakespan 11\npeak 2\n",
    ),
    Case("continuous 5 0\n", expect="makespan 0\npeak 0\n"),
]


def _ids(rng, n, prefix="r"):
    if n > 2000:
        return [f"{i:x}" for i in range(n)]
    return [f"{prefix}{i}" for i in range(n)]


def _static_random(rng, n, budget, max_tok, *, deadline=None, gap=5):
    lines = []
    t = rng.randint(0, 10)
    for rid in _ids(rng, n, rng.choice(["r", "q", "req-"])):
        tok = rng.randint(1, min(max_tok, budget))
        if deadline is None:
            lines.append(f"{rid} {tok}")
        else:
            if n > 2000:
                t += 1 if rng.random() < 0.01 else 0
            else:
                t += rng.choice([0, 0, rng.randint(0, gap), rng.randint(0, 3 * gap)])
            lines.append(f"{rid} {t} {tok}")
    head = f"{budget} {n}" if deadline is None else f"{budget} {deadline} {n}"
    return head + "\n" + "".join(line + "\n" for line in lines)


def _continuous_random(rng, n, budget, *, max_prompt, max_out, gap, oversize=0.0):
    lines = []
    t = rng.randint(0, 3)
    for rid in _ids(rng, n):
        t += rng.choice([0, rng.randint(0, gap)])
        prompt = rng.randint(1, max_prompt)
        out = rng.randint(1, max_out)
        if rng.random() < oversize:
            prompt = budget  # can never run
        lines.append(f"{rid} {t} {prompt} {out}")
    return f"continuous {budget} {n}\n" + "".join(line + "\n" for line in lines)


def part1_cases():
    rng = random.Random(101)
    legacy = LEGACY[0]
    samples = [Case(i, expect=o) for i, o in legacy["samples"]]
    hidden = [Case(i, expect=o) for i, o in legacy["hidden"]]
    hidden += [
        # every request exactly fills the budget: one batch each
        Case("7 3\na 7\nb 7\nc 7\n", expect="a\nb\nc\nwaste 0\n"),
        # a long request arriving late grows the padded size of an open batch past B
        Case("30 4\na 5\nb 5\nc 5\nd 9\n", expect="a b c\nd\nwaste 0\n"),
        # equality is allowed: (k+1) * max == B
        Case("12 4\na 4\nb 3\nc 1\nd 2\n", expect="a b c\nd\nwaste 4\n"),
        _static_random_case(rng, 200, 500, 120),
        _static_random_case(rng, 500, 10_000, 3_000),
        # one batch holding everything: a quadratic batcher times out
        Case(_static_random(random.Random(7), 17_000, 10**9, 64), large=True),
    ]
    return samples, hidden


def _static_random_case(rng, n, budget, max_tok):
    return Case(_static_random(rng, n, budget, max_tok))


def part2_cases():
    rng = random.Random(202)
    legacy = LEGACY[1]
    samples = [Case(i, expect=o) for i, o in legacy["samples"]]
    hidden = [Case(i, expect=o) for i, o in legacy["hidden"]]
    hidden += [
        # the deadline check comes before the budget check
        Case("10 5 3\na 0 6\nb 6 6\nc 6 4\n", expect="@5 a\n@6 b\n@11 c\nwaste 0\n"),
        # a request arriving exactly at t0 + D still joins
        Case("100 10 3\na 0 1\nb 10 1\nc 21 1\n", expect="@10 a b\n@31 c\nwaste 0\n"),
        # huge gaps and huge times
        Case(
            "1000000000 1000000000 3\na 0 1000000000\nb 1000000000 1\nc 1000000000 1\n",
            expect="@1000000000 a\n@2000000000 b c\nwaste 0\n",
        ),
        Case(_static_random(rng, 300, 256, 64, deadline=15, gap=6)),
        Case(_static_random(rng, 400, 5000, 900, deadline=0, gap=3)),
        Case(_static_random(rng, 800, 40_000, 4096, deadline=120, gap=40)),
        Case(
            _static_random(random.Random(9), 17_000, 10**9, 64, deadline=10**9, gap=2), large=True
        ),
    ]
    return samples, hidden


def part3_cases():
    rng = random.Random(303)
    hidden = [
        # two requests exactly fill the budget; a release and an admission in one step
        Case(
            "continuous 10 3\na 0 4 1\nb 0 4 1\nc 0 9 1\n",
            expect="a 0 1\nb 0 1\nc 1 2\nmakespan 2\npeak 10\n",
        ),
        # strict FIFO: a small request that would fit waits behind the head
        Case(
            "continuous 12 3\na 0 5 5\nb 0 5 1\nc 0 1 1\n",
            expect="a 0 5\nb 5 6\nc 5 6\nmakespan 6\npeak 10\n",
        ),
        # a rejected request at the head does not block the queue
        Case(
            "continuous 4 3\na 0 4 1\nb 0 1 1\nc 0 2 1\n",
            expect="a rejected\nb 0 1\nc 1 2\nmakespan 2\npeak 3\n",
        ),
        # an idle gap of a billion steps (step-by-step simulation times out)
        Case(
            "continuous 2000000 2\na 0 1 1\nb 1000000000 1 1000000\n",
            expect="a 0 1\nb 1000000000 1001000000\nmakespan 1001000000\npeak 1000001\n",
            large=True,
        ),
        # only rejected requests
        Case(
            "continuous 3 2\nx 0 3 1\ny 5 2 2\n",
            expect="x rejected\ny rejected\nmakespan 0\npeak 0\n",
        ),
        Case(_continuous_random(rng, 30, 40, max_prompt=12, max_out=6, gap=3, oversize=0.1)),
        Case(_continuous_random(rng, 60, 100, max_prompt=40, max_out=20, gap=5)),
        Case(_continuous_random(rng, 120, 64, max_prompt=30, max_out=30, gap=2, oversize=0.05)),
        Case(_continuous_random(rng, 200, 500, max_prompt=200, max_out=50, gap=1)),
        Case(_continuous_random(rng, 300, 2048, max_prompt=900, max_out=300, gap=40)),
        Case(_continuous_random(rng, 300, 10**6, max_prompt=4000, max_out=500, gap=0)),
        Case(
            _continuous_random(rng, 500, 4096, max_prompt=2048, max_out=100, gap=30, oversize=0.02)
        ),
        # large: long outputs and sparse arrivals; step-by-step simulation is hopeless
        Case(
            _continuous_random(
                random.Random(33), 6000, 200_000, max_prompt=8000, max_out=90_000, gap=4000
            ),
            large=True,
        ),
    ]
    return P3_SAMPLES, hidden


STARTER_PY = """\
import sys


def main() -> None:
    lines = sys.stdin.read().splitlines()
    header = lines[0].split()
    # part 1: "B N"; part 2: "B D N"; part 3: "continuous B N"
    # parse the requests, form the batches, print them


main()
"""

STARTER_JS = """\
const lines = require("fs").readFileSync(0, "utf8").split("\\n").filter((l) => l.trim());
const header = lines[0].trim().split(/\\s+/);
// part 1: "B N"; part 2: "B D N"; part 3: "continuous B N"
// parse the requests, form the batches, print them
"""

STARTER_CPP = """\
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    string first;
    getline(cin, first);
    // part 1: "B N"; part 2: "B D N"; part 3: "continuous B N"
    // parse the requests, form the batches, print them
    return 0;
}
"""

FOLLOW_UPS = [
    {
        "prompt": (
            "Good. Now requests arrive over time and the service has a latency SLO: a batch\n"
            "may wait at most D ms for more requests. Part 2 describes the exact rules.\n"
        ),
        "unlocks_part": 2,
        "trigger": "on_part_passed",
        "coach_notes": (
            "Look for: the deadline check happening *before* the budget check, dispatch time\n"
            "t0 + D (not the arrival time) on a timeout, and the final batch dispatched at its\n"
            "own deadline. Strong candidates ask about equal arrivals and D = 0 unprompted, and\n"
            "keep the running max and token sum instead of rescanning the batch (the large\n"
            "test holds one batch of 15k requests).\n"
        ),
    },
    {
        "prompt": (
            "Static batches leave the GPU idle while a batch's slowest request finishes.\n"
            "Part 3 replaces them with continuous batching.\n"
        ),
        "unlocks_part": 3,
        "trigger": "on_part_passed",
        "coach_notes": (
            "Expect an event-driven simulation: a min-heap of finish times, the FIFO queue as\n"
            "a pointer into the input (arrivals are sorted), and time jumping to the next\n"
            "finish or arrival. Edge cases: release before admission in the same step, a\n"
            "rejected head that must not block, idle gaps, nothing runnable (makespan 0).\n"
            "Ask why reserving prompt + output is wasteful (outputs are unknown in practice).\n"
        ),
    },
    {
        "prompt": "If you are still on part 1, say out loud the invariant your batch keeps.",
        "trigger": "after_minutes",
        "after_minutes": 25,
        "coach_notes": "The invariant is size × longest ≤ B after every insertion.",
    },
    {
        "prompt": (
            "Real servers do not know the output length in advance. How would you admit\n"
            "requests without reserving prompt + output, and what happens when the KV cache\n"
            "fills up mid-generation?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Expect: a paged KV cache allocating blocks on demand (vLLM), admission by\n"
            "current footprint plus a watermark, and on exhaustion pre-empting the newest or\n"
            "lowest-priority sequence by swapping its KV to host memory or dropping and\n"
            "recomputing it; chunked prefill so long prompts do not stall decode; the\n"
            "trade-off between head-of-line blocking (strict FIFO) and starvation (skipping).\n"
        ),
    },
]


def spec() -> QuestionSpec:
    parts = []
    for title, prompt, cases in (
        ("Greedy batches under the budget", PART1, part1_cases),
        ("A latency SLO on top of the budget", PART2, part2_cases),
        ("Continuous batching with KV reservations", PART3, part3_cases),
    ):
        samples, hidden = cases()
        parts.append(PartSpec(title, prompt, samples, hidden))
    return QuestionSpec(
        slug="token-batcher",
        name="token_batcher",
        title="Token batching under a memory budget",
        difficulty="medium",
        tags=["llm-serving", "batching", "simulation", "challenge"],
        prompt=PROMPT,
        parts=parts,
        starter={"python": STARTER_PY, "javascript": STARTER_JS, "cpp": STARTER_CPP},
        follow_ups=FOLLOW_UPS,
    )
