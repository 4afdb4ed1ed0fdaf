"""lru-ttl-cache: an LRU cache with per-entry TTLs (a prefix / KV-block cache in miniature),
driven by a timed operation log."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
An inference gateway caches responses (or prefix KV blocks) in a fixed number of slots.
Entries are evicted **least recently used** first, and each entry may also carry a
**time to live**. Implement the cache and replay an operation log against it.

Implement `run(capacity, ops)`. `capacity ≥ 0` is the number of entries the cache holds.
`ops` is a list of operations in non-decreasing time order; each is a list:

| operation | effect | result |
|---|---|---|
| `["put", t, key, value, ttl]` | store `key → value`; it expires at `t + ttl`, or never if `ttl = 0` | none |
| `["get", t, key]` | look `key` up | its value, or `null` |
| `["del", t, key]` | remove `key` | `true` if it was present, else `false` |
| `["size", t]` | — | the number of entries |

Keys are strings, values integers, `0 ≤ t ≤ 10^12`, `0 ≤ ttl ≤ 10^12`.

**Rules.**

1. **Expiry first.** Before an operation at time `t` is applied, every entry that
   expires at or before `t` is removed (each counts as one *expiration*).
2. **Recency.** A `put` (new key or update) and a `get` that finds its key make the key
   the most recently used. `del`, `size` and a missing `get` do not change recency.
3. `put` of a key that is present replaces its value and its expiry (no eviction).
4. `put` of a new key when the cache already holds `capacity` entries first evicts the
   least recently used entry (one *eviction*). With `capacity = 0`, `put` does nothing.
5. A `get` that finds its key is a *hit*, otherwise a *miss*.

Return `{"results": [...], "hits": h, "misses": m, "evictions": e, "expirations": x}`,
where `results` holds the results of the `get`, `del` and `size` operations, in order.

Up to `1.5·10^4` operations and `capacity ≤ 1.5·10^4`.

### Example

```
run(2, [["put", 0, "a", 1, 10], ["put", 1, "b", 2, 0], ["get", 2, "a"],
        ["put", 3, "c", 3, 0], ["get", 4, "b"], ["size", 10], ["get", 10, "a"]])
```

```
{"results": [1, null, 1, null], "hits": 1, "misses": 2, "evictions": 1,
 "expirations": 1}
```

`get a` at `2` makes `b` the least recently used, so `put c` at `3` evicts `b` and the
`get b` at `4` misses. `a` expires at `10`: it is removed before the `size` at `10`
is counted (only `c` is left), so the last `get` misses too.

**Limits.** 2 s CPU per test. The largest test has `1.5·10^4` operations with a capacity
of `1.3·10^4`: scanning all entries on each operation is too slow for it.
"""

SAMPLES = [
    Case(
        [
            2,
            [
                ["put", 0, "a", 1, 10],
                ["put", 1, "b", 2, 0],
                ["get", 2, "a"],
                ["put", 3, "c", 3, 0],
                ["get", 4, "b"],
                ["size", 10],
                ["get", 10, "a"],
            ],
        ],
        expect={
            "results": [1, None, 1, None],
            "hits": 1,
            "misses": 2,
            "evictions": 1,
            "expirations": 1,
        },
    ),
    Case(
        [0, [["put", 0, "x", 1, 0], ["get", 0, "x"], ["size", 0], ["del", 0, "x"]]],
        expect={
            "results": [None, 0, False],
            "hits": 0,
            "misses": 1,
            "evictions": 0,
            "expirations": 0,
        },
    ),
    Case(
        [
            3,
            [
                ["put", 5, "k", 1, 5],
                ["put", 6, "k", 2, 0],
                ["get", 100, "k"],
                ["del", 100, "k"],
                ["del", 100, "k"],
            ],
        ],
        expect={
            "results": [2, True, False],
            "hits": 1,
            "misses": 0,
            "evictions": 0,
            "expirations": 0,
        },
    ),
]

KEYS = ["a", "b", "c", "d", "e", "kv:1", "kv:2", "prefix/abc", "A", "B"]


def _ops(rng, n, *, keys, gap=2, ttl=(0, 10), weights=(5, 4, 1, 1), start=0):
    t = start
    ops = []
    for _ in range(n):
        t += rng.randint(0, gap)
        kind = rng.choices(["put", "get", "del", "size"], weights)[0]
        key = rng.choice(keys)
        if kind == "put":
            life = 0 if rng.random() < 0.3 else rng.randint(*ttl)
            ops.append(["put", t, key, rng.randint(-5, 99), life])
        elif kind == "size":
            ops.append(["size", t])
        else:
            ops.append([kind, t, key])
    return ops


def _hidden():
    rng = random.Random(1212)
    cases = [
        # an entry expiring exactly at t is gone for the operation at t
        Case(
            [1, [["put", 0, "a", 7, 5], ["get", 4, "a"], ["get", 5, "a"]]],
            expect={"results": [7, None], "hits": 1, "misses": 1, "evictions": 0, "expirations": 1},
        ),
        # expired entries free their slots before an eviction is needed
        Case(
            [
                2,
                [
                    ["put", 0, "a", 1, 3],
                    ["put", 0, "b", 2, 0],
                    ["put", 3, "c", 3, 0],
                    ["get", 3, "b"],
                    ["size", 3],
                ],
            ],
            expect={"results": [2, 2], "hits": 1, "misses": 0, "evictions": 0, "expirations": 1},
        ),
        # updating a key refreshes its recency and replaces its ttl
        Case(
            [
                2,
                [
                    ["put", 0, "a", 1, 2],
                    ["put", 0, "b", 2, 0],
                    ["put", 1, "a", 3, 0],
                    ["put", 1, "c", 4, 0],
                    ["get", 9, "a"],
                    ["get", 9, "b"],
                ],
            ],
            expect={"results": [3, None], "hits": 1, "misses": 1, "evictions": 1, "expirations": 0},
        ),
        # del and size do not touch recency
        Case(
            [
                2,
                [
                    ["put", 0, "a", 1, 0],
                    ["put", 0, "b", 2, 0],
                    ["size", 1],
                    ["del", 1, "z"],
                    ["put", 2, "c", 3, 0],
                    ["get", 2, "a"],
                    ["get", 2, "b"],
                ],
            ],
            expect={
                "results": [2, False, None, 2],
                "hits": 1,
                "misses": 1,
                "evictions": 1,
                "expirations": 0,
            },
        ),
        Case(
            [1, []],
            expect={"results": [], "hits": 0, "misses": 0, "evictions": 0, "expirations": 0},
        ),
        Case([1, _ops(rng, 30, keys=KEYS[:3])]),
        Case([2, _ops(rng, 60, keys=KEYS, ttl=(1, 4))]),
        Case([3, _ops(rng, 100, keys=KEYS, gap=0)]),
        Case([5, _ops(rng, 200, keys=KEYS, ttl=(1, 30), weights=(3, 5, 1, 1))]),
        Case([10, _ops(rng, 400, keys=[f"k{i}" for i in range(30)], gap=3, ttl=(0, 50))]),
        Case(
            [
                50,
                _ops(
                    rng,
                    800,
                    keys=[f"k{i}" for i in range(80)],
                    gap=1,
                    ttl=(5, 200),
                    start=10**12 - 10_000,
                ),
            ]
        ),
        Case([4, _ops(rng, 1500, keys=KEYS, gap=5, ttl=(1, 8), weights=(6, 6, 2, 1))]),
    ]
    big = random.Random(1213)
    ops = []
    t = 0
    for _ in range(15000):
        t += 1 if big.random() < 0.05 else 0
        key = f"{big.randrange(15000):x}"
        x = big.random()
        if x < 0.75:
            ops.append(["put", t, key, big.randint(0, 9), 0 if big.random() < 0.9 else 400])
        elif x < 0.98:
            ops.append(["get", t, key])
        else:
            ops.append(["size", t])
    cases.append(Case([13000, ops], large=True))
    return cases


PART2 = """\
**Sizes and pinned blocks.** The cache now holds the prefix KV blocks of one GPU: blocks
have different sizes, and a block in use by a running sequence is **pinned** and must
stay. Extend `run(capacity, ops)`; everything of part 1 still holds except as follows.

- `capacity` is in bytes. `["put", t, key, value, ttl, size]` stores an entry of `size`
  bytes (`1 ≤ size ≤ 10^9`); a `put` with five elements has size `1`, so part 1's logs
  mean the same as before.
- `["pin", t, key]` → `true` and the entry's pin count goes up by one if `key` is
  present, else `false`. `["unpin", t, key]` → `true` and the count goes down by one if
  `key` is present with a count above `0`, else `false`. Neither changes recency.
- `["bytes", t]` → the total size of the entries.
- A **pinned** entry (count above `0`) is never evicted, never expires and is not
  deleted (`del` returns `false` and keeps it). If its expiry time passes while it is
  pinned, it expires just before the first operation after the `unpin` that brings its
  count to `0`.
- `put` of `size` bytes under `key`: if the pinned entries other than `key` plus `size`
  exceed `capacity`, the put is **refused** and changes nothing (an existing entry keeps
  its value, size, expiry and recency). Otherwise, while the entries other than `key`
  plus `size` exceed `capacity`, the least recently used unpinned entry other than `key`
  is evicted (one *eviction* each); then the entry is stored as in part 1 (an existing
  entry keeps its pin count).

The result is the same object as in part 1.

**Example.**

```
run(10, [["put", 0, "sys", 1, 0, 6], ["pin", 0, "sys"], ["put", 1, "a", 2, 0, 3],
         ["put", 2, "b", 3, 0, 3], ["get", 3, "a"], ["put", 4, "c", 4, 0, 5],
         ["bytes", 5], ["unpin", 5, "sys"], ["put", 6, "d", 5, 0, 8], ["get", 7, "sys"]])
```

```
{"results": [true, null, 9, true, null], "hits": 0, "misses": 2,
 "evictions": 3, "expirations": 0}
```

`b` does not fit next to `sys` and `a` (12 > 10): `a`, the least recently used unpinned
entry, is evicted, so the `get a` misses. `c` (5 bytes) can never fit beside the pinned
6 bytes of `sys`: refused. After the unpin, `d` (8 bytes) evicts `sys` (least recently
used), then `b`.

Up to `1.5·10^4` operations. **Limits.** 2 s CPU per test; the largest test has
`1.5·10^4` operations over thousands of entries: finding the victim or the pinned bytes
by a scan of every entry is too slow.
"""


def _sized_ops(rng, n, *, keys, gap=2, ttl=(0, 10), max_size=4, pin=0.15):
    t = 0
    ops = []
    for _ in range(n):
        t += rng.randint(0, gap)
        kind = rng.choices(
            ["put", "get", "del", "size", "bytes", "pin", "unpin"],
            (5, 4, 1, 0.5, 1, 10 * pin, 10 * pin),
        )[0]
        key = rng.choice(keys)
        if kind == "put":
            life = 0 if rng.random() < 0.4 else rng.randint(*ttl)
            op = ["put", t, key, rng.randint(-5, 99), life]
            if rng.random() < 0.9:
                op.append(rng.randint(1, max_size))
            ops.append(op)
        elif kind in ("size", "bytes"):
            ops.append([kind, t])
        else:
            ops.append([kind, t, key])
    return ops


P2_SAMPLES = [
    Case(
        [
            10,
            [
                ["put", 0, "sys", 1, 0, 6],
                ["pin", 0, "sys"],
                ["put", 1, "a", 2, 0, 3],
                ["put", 2, "b", 3, 0, 3],
                ["get", 3, "a"],
                ["put", 4, "c", 4, 0, 5],
                ["bytes", 5],
                ["unpin", 5, "sys"],
                ["put", 6, "d", 5, 0, 8],
                ["get", 7, "sys"],
            ],
        ],
        expect={
            "results": [True, None, 9, True, None],
            "hits": 0,
            "misses": 2,
            "evictions": 3,
            "expirations": 0,
        },
    ),
    # part 1's five-element puts are entries of size 1
    Case(
        [2, [["put", 0, "a", 1, 0], ["put", 0, "b", 2, 0], ["put", 0, "c", 3, 0], ["bytes", 0]]],
        expect={"results": [2], "hits": 0, "misses": 0, "evictions": 1, "expirations": 0},
    ),
    # pin and unpin of missing or unpinned keys
    Case(
        [5, [["pin", 0, "x"], ["put", 0, "x", 1, 0, 2], ["unpin", 0, "x"], ["pin", 1, "x"]]],
        expect={
            "results": [False, False, True],
            "hits": 0,
            "misses": 0,
            "evictions": 0,
            "expirations": 0,
        },
    ),
]


def _stats(results, hits=0, misses=0, evictions=0, expirations=0):
    return {
        "results": results,
        "hits": hits,
        "misses": misses,
        "evictions": evictions,
        "expirations": expirations,
    }


def _sized_hidden():
    rng = random.Random(1414)
    cases = [
        # a pinned entry does not expire; it expires right after its last unpin
        Case(
            [
                9,
                [
                    ["put", 0, "a", 7, 5, 2],
                    ["pin", 0, "a"],
                    ["pin", 1, "a"],
                    ["get", 9, "a"],
                    ["unpin", 10, "a"],
                    ["get", 11, "a"],
                    ["unpin", 12, "a"],
                    ["size", 12],
                    ["get", 12, "a"],
                ],
            ],
            expect=_stats([True, True, 7, True, 7, True, 0, None], 2, 1, 0, 1),
        ),
        # a pinned entry is not deleted
        Case(
            [4, [["put", 0, "k", 1, 0, 4], ["pin", 1, "k"], ["del", 2, "k"], ["bytes", 3]]],
            expect=_stats([True, False, 4]),
        ),
        # a refused update keeps the old entry as it was, recency included
        Case(
            [
                10,
                [
                    ["put", 0, "p", 1, 0, 7],
                    ["pin", 0, "p"],
                    ["put", 1, "a", 2, 0, 1],
                    ["put", 2, "b", 3, 0, 1],
                    ["put", 3, "a", 9, 0, 4],
                    ["put", 5, "c", 4, 0, 2],
                    ["get", 6, "b"],
                    ["get", 6, "a"],
                ],
            ],
            expect=_stats([True, 3, None], 1, 1, 1, 0),
        ),
        # growing an entry in place evicts others, never itself; its pin count stays
        Case(
            [
                6,
                [
                    ["put", 0, "a", 1, 0, 2],
                    ["put", 1, "b", 2, 0, 2],
                    ["pin", 1, "b"],
                    ["put", 2, "b", 3, 0, 5],
                    ["bytes", 3],
                    ["del", 3, "b"],
                    ["get", 3, "a"],
                ],
            ],
            expect=_stats([True, 5, False, None], 0, 1, 1, 0),
        ),
        # an entry larger than the whole cache is refused
        Case(
            [3, [["put", 0, "big", 1, 0, 4], ["size", 0], ["put", 0, "ok", 1, 0, 3], ["bytes", 0]]],
            expect=_stats([0, 3]),
        ),
        # eviction skips pinned entries, however old
        Case(
            [
                4,
                [
                    ["put", 0, "old", 1, 0, 2],
                    ["pin", 0, "old"],
                    ["put", 1, "x", 2, 0, 1],
                    ["put", 2, "y", 3, 0, 1],
                    ["put", 3, "z", 4, 0, 1],
                    ["get", 4, "old"],
                    ["get", 4, "x"],
                    ["get", 4, "y"],
                ],
            ],
            expect=_stats([True, 1, None, 3], 2, 1, 1, 0),
        ),
        Case([6, _sized_ops(rng, 30, keys=KEYS[:4])]),
        Case([8, _sized_ops(rng, 80, keys=KEYS, ttl=(1, 6))]),
        Case([10, _sized_ops(rng, 150, keys=KEYS, gap=0, pin=0.3)]),
        Case([20, _sized_ops(rng, 300, keys=[f"k{i}" for i in range(25)], ttl=(0, 40))]),
        Case([40, _sized_ops(rng, 600, keys=[f"b{i}" for i in range(60)], max_size=9)]),
        Case([5, _sized_ops(rng, 1500, keys=KEYS, gap=5, ttl=(1, 8), pin=0.25)]),
    ]
    big = random.Random(1415)
    ops = []
    t = 0
    for _ in range(15000):
        t += 1 if big.random() < 0.05 else 0
        key = f"{big.randrange(9000):x}"
        x = big.random()
        if x < 0.6:
            ops.append(
                [
                    "put",
                    t,
                    key,
                    big.randint(0, 9),
                    0 if big.random() < 0.9 else 400,
                    big.randint(1, 8),
                ]
            )
        elif x < 0.85:
            ops.append(["get", t, key])
        elif x < 0.93:
            ops.append(["pin", t, key])
        elif x < 0.99:
            ops.append(["unpin", t, key])
        else:
            ops.append(["bytes", t])
    cases.append(Case([30000, ops], large=True))
    return cases


STARTER_PY = """\
def run(capacity: int, ops: list) -> dict:
    results = []
    hits = misses = evictions = expirations = 0
    for op in ops:
        kind, now = op[0], op[1]
        # apply the rules
    return {
        "results": results,
        "hits": hits,
        "misses": misses,
        "evictions": evictions,
        "expirations": expirations,
    }
"""

STARTER_JS = """\
function run(capacity, ops) {
  const results = [];
  let hits = 0, misses = 0, evictions = 0, expirations = 0;
  for (const op of ops) {
    const [kind, now] = op;
    // apply the rules (a Map iterates in insertion order: useful for LRU)
  }
  return { results, hits, misses, evictions, expirations };
}

module.exports = { run };
"""

STARTER_CPP = """\
#include <nlohmann/json.hpp>

using json = nlohmann::json;

// The JSON arguments convert to these parameter types (nlohmann::json); return anything
// nlohmann::json holds: numbers, strings, std::vector, std::map, json itself.
json run(int capacity, const json& ops) {
  json results = json::array();
  long long hits = 0, misses = 0, evictions = 0, expirations = 0;
  for (const json& op : ops) {
    const std::string kind = op[0].get<std::string>();
    const long long now = op[1].get<long long>();
    // apply the rules
  }
  return {{"results", results}, {"hits", hits}, {"misses", misses},
          {"evictions", evictions}, {"expirations", expirations}};
}
"""

STARTER_GO = """\
package main

// The JSON arguments decode into these parameter types (encoding/json; a JSON number
// in an interface{} is a float64); the return value is encoded back to JSON.
func run(capacity int, ops [][]interface{}) map[string]interface{} {
\tresults := []interface{}{}
\thits, misses, evictions, expirations := 0, 0, 0, 0
\tfor _, op := range ops {
\t\tkind, now := op[0].(string), int64(op[1].(float64))
\t\t_, _ = kind, now // apply the rules
\t}
\treturn map[string]interface{}{
\t\t"results": results, "hits": hits, "misses": misses,
\t\t"evictions": evictions, "expirations": expirations,
\t}
}
"""

FOLLOW_UPS = [
    {
        "prompt": "What data structures give O(log n) or better per operation here?",
        "trigger": "after_minutes",
        "after_minutes": 20,
        "coach_notes": (
            "A hash map plus a doubly linked list (OrderedDict / insertion-ordered Map) for\n"
            "LRU, and a min-heap of (expiry, version, key) with lazy deletion for TTLs;\n"
            "versions matter because a key can be re-put with a new ttl. Watch for the\n"
            "ordering rule: expiry before the operation, so an expired entry never counts\n"
            "as an eviction.\n"
        ),
    },
    {
        "prompt": (
            "This is now the prefix cache of KV blocks on one GPU, shared by all tenants.\n"
            "What changes?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Entries have different sizes (blocks), so evict by bytes, not count; blocks in\n"
            "use by running sequences are pinned (reference counts) and cannot be evicted;\n"
            "a prefix tree (radix tree, as in SGLang) shares common prefixes; per-tenant\n"
            "namespaces or salting the hash prevent cross-tenant prefix reuse (timing side\n"
            "channels, data leaks); LRU can be scan-polluted by one tenant: per-tenant\n"
            "quotas or ARC/2Q.\n"
        ),
    },
    {
        "prompt": (
            "This cache now holds the prefix KV blocks of one GPU: blocks have sizes, and\n"
            "blocks in use by running sequences are pinned. Part 2 has the rules.\n"
        ),
        "unlocks_part": 2,
        "trigger": "on_part_passed",
        "coach_notes": (
            "A count-based LRU list no longer works as is: pinned entries must be skipped\n"
            "without scanning them (take them out of the list while pinned and put them\n"
            "back at their recency on the last unpin, e.g. a heap keyed by last use with\n"
            "lazy deletion), and the refusal check needs the pinned bytes kept as a running\n"
            "sum. Watch for: evicting before checking feasibility (a refused put must change\n"
            "nothing), evicting the entry being updated, pinned entries expiring, and what\n"
            "happens to an entry whose TTL passed while pinned. vLLM's block manager and\n"
            "SGLang's radix cache both keep reference counts for exactly this.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="lru-ttl-cache",
        name="lru_ttl_cache",
        title="LRU cache with TTLs",
        difficulty="medium",
        tags=["cache", "lru", "ttl", "heap", "practice"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Replay the log",
                "Arguments arrive as a JSON array `[capacity, ops]`; return the object.\n",
                SAMPLES,
                _hidden(),
            ),
            PartSpec("Sizes and pinned blocks", PART2, P2_SAMPLES, _sized_hidden()),
        ],
        starter={
            "python": STARTER_PY,
            "javascript": STARTER_JS,
            "cpp": STARTER_CPP,
            "go": STARTER_GO,
        },
        follow_ups=FOLLOW_UPS,
        languages=["python", "javascript", "cpp", "go"],
        io="function",
        entrypoint="run",
    )
