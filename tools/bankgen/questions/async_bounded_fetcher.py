"""async-bounded-fetcher: real asyncio code (a semaphore-bounded fetcher with per-request
timeouts and cancellation) run against a virtual clock the harness supplies, so the
judge's verdict is deterministic: the output is the fake network's log."""

import random
from pathlib import Path

from ..common import Case, PartSpec, QuestionSpec

_REFERENCE = Path(__file__).resolve().parent.parent / "references" / "async_bounded_fetcher.py"
HARNESS = (
    _REFERENCE.read_text().split("# --- your code ---")[0] + "# --- your code ---" + "-" * 75 + "\n"
)

PROMPT = """\
The evaluation service downloads thousands of model cards and dataset manifests before a
run. The current code awaits them one by one; the new code must fetch concurrently, but
politely and safely. Write the coroutine, in real `asyncio`:

```python
async def fetch_all(urls, fetch, limit, timeout):
    ...
```

`await fetch(url)` returns the body (a string) or raises `FetchError`. `fetch_all`
returns one result per url, **in the order of `urls`**: the body, `"error"` if `fetch`
raised `FetchError`, or `"timeout"`.

**Rules.**

1. **Bounded.** At most `limit` fetches are in flight at once. Fetches start in the
   order of `urls`: url `i` starts as soon as fewer than `limit` fetches are in flight
   and every url before it has started — at that same instant, not later.
2. **Timeouts.** Each fetch may take `timeout` ms **from its own start** (time spent
   waiting for a slot does not count). A fetch still running at that moment is
   cancelled; its result is `"timeout"` and its slot is free at that instant.
3. **Cancellation** (part 2). The caller may cancel `fetch_all` while it runs. Then
   every fetch in flight is cancelled at that instant, no other fetch starts, and
   `fetch_all` ends by raising `CancelledError` (do not swallow it, do not return
   partial results), after its fetches have finished cancelling.

**The harness** (given in the starter, do not change it) runs your coroutine on an
event loop with a **virtual clock** in milliseconds: `loop.time()` is virtual, and
`asyncio.sleep`, `asyncio.timeout`, `asyncio.wait_for` and every other timer of asyncio
follow it. When every task is waiting, the clock jumps to the next timer, so the tests
run in milliseconds of real time. The fake `fetch(url)` waits for the url's latency
(from the test) and logs what happens to it: `start`, `done`, `error` (it raised
`FetchError`) or `cancel` (it was cancelled). The harness cancels the task running
`fetch_all` at `cancel_at` ms if the test has one, waits for every task left over, and
returns what the judge compares:

```
{"results": [...] or "cancelled", "log": ["<ms> <event> <url>", ...]}
```

The log is sorted by time, then by the url's position. Use only asyncio's own timers
(no threads, no `time.sleep`, no real clock).

**In JavaScript** the same harness drives `async function fetchAll(urls, fetch, limit,
timeout, signal)` with Promises: `fetch(url, {signal})` resolves with the body, rejects
with a `FetchError`, or — when the `AbortSignal` you pass aborts — logs `cancel` and
rejects with the signal's reason. `setTimeout` and `clearTimeout` follow the virtual
clock (when every promise has settled, the clock jumps to the next timer). The caller
cancels by aborting `signal`: then `fetchAll` must abort its fetches in flight, start no
other, and reject with `signal.reason` (an `AbortError`). The tests never make two things that
matter coincide: no latency equals the timeout, and the cancellation never falls on an
instant when a fetch starts or ends.

`0 ≤ len(urls) ≤ 5000` (distinct), `1 ≤ limit ≤ 5000`, `1 ≤ latency, timeout ≤ 10^6`.

### Example

`limit = 2`, `timeout = 10`, urls `a b c d e` with latencies `4 12 3 6 2`, where `c`
answers with an error:

```
{"results": ["body of a", "timeout", "error", "body of d", "body of e"],
 "log": ["0 start a", "0 start b", "4 done a", "4 start c", "7 error c", "7 start d",
         "10 cancel b", "10 start e", "12 done e", "13 done d"]}
```

`b` is cut off 10 ms after it started, which frees its slot for `e`. Had the caller
cancelled at 11 ms, the results would be `"cancelled"` and the log would end with
`"11 cancel d", "11 cancel e"`.

**Limits.** 2 s CPU per test (virtual time is free: a few hundred thousand asyncio steps
are). The largest tests have 5000 urls with latencies up to `10^6` ms.
"""


def _req(names, latencies, errors=()):
    return [[name, lat, name not in errors] for name, lat in zip(names, latencies, strict=True)]


def _random(rng, n, *, limit, timeout, lat=(2, 40), err=0.15, cancel=False):
    reqs = []
    for i in range(n):
        latency = rng.randrange(lat[0], lat[1] + 1, 2)
        if latency == timeout:
            latency += 2
        reqs.append([f"https://hub.example/m{i}", latency, rng.random() >= err])
    cancel_at = None
    if cancel:
        span = max(3, (n // limit + 1) * (lat[0] + lat[1]) // 2)
        cancel_at = rng.randrange(1, span, 2)
    return Case([limit, timeout, reqs, cancel_at])


EXAMPLE = [2, 10, _req("abcde", [4, 12, 3, 6, 2], errors="c"), None]

SAMPLES_1 = [
    Case(
        EXAMPLE,
        expect={
            "results": ["body of a", "timeout", "error", "body of d", "body of e"],
            "log": [
                "0 start a",
                "0 start b",
                "4 done a",
                "4 start c",
                "7 error c",
                "7 start d",
                "10 cancel b",
                "10 start e",
                "12 done e",
                "13 done d",
            ],
        },
    ),
    # more slots than urls: all start at once
    Case([5, 100, _req(["x", "y"], [30, 10]), None]),
    Case([1, 50, _req(["p", "q", "r"], [20, 60, 4], errors="r"), None]),
]

SAMPLES_2 = [
    Case([*EXAMPLE[:3], 11]),
    # the caller cancels after everything finished: nothing to cancel
    Case([2, 10, _req("ab", [4, 6]), 21]),
    Case([1, 100, _req("abc", [10, 10, 10]), 15]),
]


def _hidden_1():
    rng = random.Random(1971)
    cases = [
        # the timeout counts from the fetch's start, not from when it was queued
        Case([1, 10, _req("ab", [8, 8]), None]),
        Case([2, 30, _req("abcd", [20, 20, 20, 20]), None]),
        # a timed-out fetch frees its slot at the timeout
        Case([1, 10, _req("ab", [100, 4]), None]),
        # results in the order of urls, not of completion
        Case([4, 100, _req("abcd", [40, 30, 20, 10]), None]),
        # one slow fetch must not hold back the others (no fixed batches)
        Case([2, 1000, _req("abcde", [90, 2, 2, 2, 2]), None]),
        # just under and just over the timeout
        Case([3, 10, _req("abc", [8, 12, 10 - 2]), None]),
        # errors free their slot too, and are not timeouts
        Case([1, 6, _req("abc", [2, 8, 4], errors="ac"), None]),
        # several slots free at the same instant: the next urls all start then
        Case([3, 50, _req("abcdef", [10, 10, 10, 6, 6, 6]), None]),
        Case([3, 1, _req(["a"], [2]), None]),
        Case([1, 100, [], None]),
        _random(rng, 8, limit=2, timeout=20),
        _random(rng, 20, limit=3, timeout=30),
        _random(rng, 40, limit=5, timeout=24, err=0.3),
        _random(rng, 60, limit=1, timeout=30),
        _random(rng, 80, limit=7, timeout=16),
        _random(rng, 120, limit=12, timeout=36, lat=(2, 60)),
    ]
    return cases


def _large(seed, *, cancel):
    big = random.Random(seed)
    timeout = 800_000
    reqs = []
    for i in range(5000):
        latency = big.randrange(2, 10**6 + 1, 2)
        if latency == timeout:
            latency += 2
        reqs.append([f"m{i}", latency, big.random() >= 0.05])
    cancel_at = 30_000_001 if cancel else None
    return Case([60, timeout, reqs, cancel_at], large=True)


def _hidden_2():
    rng = random.Random(1972)
    return [
        # cancelled while fetches are queued: the queued ones never start
        Case([1, 100, _req("abc", [10, 10, 10]), 5]),
        Case([2, 100, _req("abcde", [10, 20, 30, 40, 50]), 25]),
        # cancelled before any fetch ends
        Case([3, 100, _req("abc", [10, 20, 30]), 1]),
        # cancelled after a timeout: the timed-out fetch was already cancelled once
        Case([2, 10, _req("abc", [50, 4, 50]), 13]),
        # cancelled just before the last fetch ends
        Case([2, 100, _req("ab", [4, 40]), 39]),
        # after the end: the results come back normally
        Case([2, 100, _req("ab", [4, 40], errors="a"), 41]),
        Case([5, 14, _req("abcdef", [2, 4, 6, 8, 10, 12], errors="b"), 9]),
        _random(rng, 10, limit=2, timeout=20, cancel=True),
        _random(rng, 25, limit=3, timeout=30, cancel=True),
        _random(rng, 50, limit=4, timeout=22, err=0.3, cancel=True),
        _random(rng, 80, limit=9, timeout=26, cancel=True),
        _random(rng, 150, limit=15, timeout=40, lat=(2, 70), cancel=True),
        _large(1974, cancel=True),
    ]


STARTER_PY = (
    HARNESS
    + """

async def fetch_all(urls, fetch, limit, timeout):
    results = []
    for url in urls:  # one at a time, no timeout: make it concurrent, bounded and cancellable
        try:
            results.append(await fetch(url))
        except FetchError:
            results.append("error")
    return results
"""
)

HARNESS_JS = """\
// --- the harness: a virtual clock and a fake network (the judge runs this part as is) ---
class FetchError extends Error {}

function run(limit, timeout, requests, cancelAt) {
  // A binary heap of timers by (time, creation order). setTimeout and clearTimeout follow
  // the virtual clock: when every promise has settled, the clock jumps to the next timer.
  const heap = [];
  let now = 0;
  let created = 0;
  const before = (a, b) => a.when < b.when || (a.when === b.when && a.seq < b.seq);
  const push = (timer) => {
    heap.push(timer);
    for (let i = heap.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (!before(heap[i], heap[up])) break;
      [heap[i], heap[up]] = [heap[up], heap[i]];
      i = up;
    }
  };
  const pop = () => {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && before(heap[l], heap[m])) m = l;
        if (r < heap.length && before(heap[r], heap[m])) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    }
    return top;
  };
  const realSetImmediate = setImmediate;
  globalThis.setTimeout = (fn, ms = 0, ...args) => {
    const timer = { when: now + Math.max(0, Number(ms) || 0), seq: created++, fn: () => fn(...args), live: true };
    push(timer);
    return timer;
  };
  globalThis.clearTimeout = (timer) => {
    if (timer) timer.live = false;
  };

  const log = [];
  const table = new Map(requests.map(([url, latency, ok], i) => [url, [i, latency, ok]]));
  const fetch = (url, options = {}) =>
    new Promise((resolve, reject) => {
      const [i, latency, ok] = table.get(url);
      const signal = options.signal;
      log.push([now, i, "start"]);
      let timer = null;
      const abort = () => {
        clearTimeout(timer);
        log.push([now, i, "cancel"]);
        reject(signal.reason);
      };
      if (signal && signal.aborted) return abort();
      timer = setTimeout(() => {
        if (signal) signal.removeEventListener("abort", abort);
        log.push([now, i, ok ? "done" : "error"]);
        if (ok) resolve("body of " + url);
        else reject(new FetchError(url));
      }, latency);
      if (signal) signal.addEventListener("abort", abort, { once: true });
    });

  const caller = new AbortController();
  require("events").setMaxListeners(0, caller.signal); // one listener per fetch in flight
  let outcome = "stuck";
  let failure = null;
  fetchAll(requests.map((r) => r[0]), fetch, limit, timeout, caller.signal).then(
    (results) => (outcome = results),
    (err) => {
      if (err && err.name === "AbortError") outcome = "cancelled";
      else failure = err;
    },
  );
  if (cancelAt !== null && cancelAt !== undefined) setTimeout(() => caller.abort(), cancelAt);

  const settle = () => new Promise((resolve) => realSetImmediate(resolve));
  return (async () => {
    for (;;) {
      await settle();
      let timer = pop();
      while (timer && !timer.live) timer = pop();
      if (!timer) break;
      now = timer.when;
      timer.fn();
    }
    if (failure) throw failure;
    log.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return { results: outcome, log: log.map(([t, i, kind]) => `${t} ${kind} ${requests[i][0]}`) };
  })();
}

// --- your code ---------------------------------------------------------------------------
"""

STARTER_JS = (
    HARNESS_JS
    + """
async function fetchAll(urls, fetch, limit, timeout, signal) {
  const results = [];
  for (const url of urls) {
    // one at a time, no timeout: make it concurrent, bounded and cancellable
    try {
      results.push(await fetch(url));
    } catch (err) {
      if (!(err instanceof FetchError)) throw err;
      results.push("error");
    }
  }
  return results;
}

module.exports = { run };
"""
)

FOLLOW_UPS = [
    {
        "prompt": (
            "The caller may now cancel `fetch_all` (a user aborts the run). What must happen\n"
            "to the fetches in flight, and to the ones still queued?\n"
        ),
        "unlocks_part": 2,
        "trigger": "on_part_passed",
        "coach_notes": (
            "Model answer: asyncio.Semaphore(limit) around each fetch (its waiters are woken\n"
            "first come, first served, so urls start in order), asyncio.timeout(timeout)\n"
            "*inside* the semaphore so queueing time does not count, TimeoutError ->\n"
            "'timeout', FetchError -> 'error', and asyncio.gather over one coroutine per url\n"
            "(results in input order). gather already gives part 2: cancelling it cancels\n"
            "every child, waits for them and re-raises CancelledError; a TaskGroup does the\n"
            "same. Wrong patterns the hidden tests target: the timeout wrapped around the\n"
            "semaphore acquire (queue time counted), fixed batches of `limit` (one slow\n"
            "fetch holds back the batch), results in completion order (as_completed),\n"
            "`except Exception` turning timeouts into errors, tasks awaited with\n"
            "asyncio.wait (cancelling the waiter leaves them running: fetches finish after\n"
            "the cancel), and catching CancelledError to return partial results (the\n"
            "caller then thinks the run finished).\n"
        ),
        "key_points": [
            {
                "point": "The per-request timeout starts when the fetch starts, inside the slot.",
                "patterns": {
                    "en": ["inside the semaphore", "queue(d|ing)? time", "from (its|the) start"]
                },
                "dimension": "Correctness and edge cases",
            },
            {
                "point": "Cancellation propagates: in-flight children are cancelled and awaited, CancelledError is re-raised.",
                "patterns": {"en": ["re-?raise", "propagat", "gather", "taskgroup", "task group"]},
                "dimension": "Correctness and edge cases",
            },
        ],
    },
    {
        "prompt": (
            "This runs against real servers tomorrow. What would you add for production,\n"
            "and how do you test concurrency code like this without real time?\n"
        ),
        "trigger": "after_minutes",
        "after_minutes": 25,
        "coach_notes": (
            "Strong answers: per-host limits as well as a global one (politeness), retries\n"
            "with jittered exponential backoff only for idempotent GETs and retryable errors\n"
            "(timeouts, 429/503 with Retry-After), an overall deadline, connection pooling\n"
            "(one aiohttp/httpx client), streaming large bodies instead of holding them,\n"
            "metrics on in-flight count, queue wait and latency percentiles. Testing: inject\n"
            "the clock and the network (as this harness does: a virtual-time loop), assert\n"
            "on the event log; test cancellation explicitly, since a leaked task shows up\n"
            "only as a later log line or a 'Task was destroyed but it is pending' warning.\n"
        ),
        "key_points": [
            {
                "point": "Per-host limits and retries with jittered backoff for retryable errors only.",
                "patterns": {"en": ["per[- ]host", "jitter", "backoff", "retry-after", "idempot"]},
                "dimension": "Communication",
            },
            {
                "point": "Inject the clock and the network to test deterministically.",
                "patterns": {"en": ["virtual (time|clock)", "fake clock", "inject", "determinis"]},
                "dimension": "Adapting to follow-ups",
            },
        ],
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="async-bounded-fetcher",
        name="async_bounded_fetcher",
        title="Bounded async fetcher with timeouts and cancellation",
        difficulty="medium",
        tags=["concurrency", "asyncio", "timeouts", "cancellation", "practice"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Bounded, with timeouts",
                "The harness calls `run(limit, timeout, requests, cancel_at)`; write `fetch_all`.\n"
                "Part 1's tests never cancel (`cancel_at` is `null`).\n",
                SAMPLES_1,
                [*_hidden_1(), _large(1973, cancel=False)],
            ),
            PartSpec(
                "The caller cancels",
                "Now `cancel_at` is set: the harness cancels your `fetch_all` at that instant\n"
                "(rule 3). Everything from part 1 still holds.\n",
                SAMPLES_2,
                _hidden_2(),
            ),
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS},
        follow_ups=FOLLOW_UPS,
        languages=["python", "javascript"],
        io="function",
        entrypoint="run",
    )
