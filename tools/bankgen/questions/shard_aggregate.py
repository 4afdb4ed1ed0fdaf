"""shard-aggregate: map-reduce style aggregation over shards (top-k keys with mode and
median), hash partitioning with FNV-1a, hot keys and salting against skew."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
Inference request logs are stored in **shards**. Each record is a `[key, value]` pair —
say `[tenant, output_tokens]`. Write the aggregation one map-reduce job would do, and
measure the **skew** its shuffle would suffer.

Implement `aggregate(shards, k, reducers)`:

- `shards`: a list of shards, each a list of records `[key, value]` (`key` a non-empty
  ASCII string, `value` an integer, `|value| ≤ 10^9`). Shards and records have an order:
  shard by shard, record by record — the **record order**.
- `k ≥ 0`: how many keys to report; `reducers ≥ 1`: the number of reducers `R`.

Return an object with these fields:

| field | value |
|---|---|
| `records` | the total number of records |
| `distinct` | the number of distinct keys |
| `top` | the `k` keys with the most records (fewer if there are fewer keys), most records first, equal counts by key in increasing byte order; each as `[key, count, mode, median]` |
| `loads` | a list of `R` integers: how many records each reducer receives when key `x` goes to reducer `fnv1a(x) mod R` |
| `hot` | the keys whose count `c` satisfies `c · R > records` (more than an even share), sorted by byte order |
| `salted_loads` | the reducer loads when the records of hot keys are **salted**: the `j`-th record (0-based, in record order) of hot key `x` goes to reducer `(fnv1a(x) + j) mod R`; other keys as in `loads` |

- `mode`: the value occurring most often among the key's records; ties → the smallest.
- `median`: the **lower median** — sort the key's values ascending; the element at
  0-based position `⌊(count − 1) / 2⌋`.
- `fnv1a` is 32-bit FNV-1a over the key's bytes: start with `h = 2166136261`; for each
  byte `b`: `h = ((h XOR b) × 16777619) mod 2^32`. For example `fnv1a("a") = 3826002220`
  and `fnv1a("tenant-1") = 1127395211`. (JavaScript: `Math.imul` and `>>> 0` keep it in
  32 bits.)

Up to `3·10^5` records and `10^5` distinct keys; `R ≤ 1000`, `k ≤ 1000`.

### Example

```
aggregate([[["a", 5], ["b", 1]], [["a", 7], ["a", 5]], []], 2, 2)
```

```
{"records": 4, "distinct": 2, "top": [["a", 3, 5, 5], ["b", 1, 1, 1]],
 "loads": [3, 1], "hot": ["a"], "salted_loads": [2, 2]}
```

`fnv1a("a") mod 2 = 0` and `fnv1a("b") mod 2 = 1`. `a` has 3 of 4 records (`3 · 2 > 4`):
salted, its records go to reducers 0, 1, 0.

**Limits.** 2 s CPU per test. Scanning all records once per key is too slow for the
largest tests.
"""


def _shards(rng, records, keys, *, shards=4, skew=0.0, values=(0, 20), empty=0.1):
    names = [rng.choice(["t", "tenant-", "k", "Z", "a_b."]) + str(i) for i in range(keys)]
    out = [[] for _ in range(shards)]
    for _ in range(records):
        key = names[0] if rng.random() < skew else rng.choice(names)
        shard = rng.randrange(shards)
        if rng.random() < empty:
            shard = 0
        out[shard].append([key, rng.randint(*values)])
    return out


SAMPLES = [
    Case(
        [[[["a", 5], ["b", 1]], [["a", 7], ["a", 5]], []], 2, 2],
        expect={
            "records": 4,
            "distinct": 2,
            "top": [["a", 3, 5, 5], ["b", 1, 1, 1]],
            "loads": [3, 1],
            "hot": ["a"],
            "salted_loads": [2, 2],
        },
    ),
    Case(
        [[], 3, 3],
        expect={
            "records": 0,
            "distinct": 0,
            "top": [],
            "loads": [0, 0, 0],
            "hot": [],
            "salted_loads": [0, 0, 0],
        },
    ),
    # ties: counts by key, mode by smallest value, lower median of an even count
    Case([[[["y", 4], ["x", 9], ["y", 2], ["x", 1]]], 5, 1]),
]


def _hidden():
    rng = random.Random(1001)
    cases = [
        # k = 0; one reducer: every key is hot only if it is the only key
        Case([[[["solo", -3], ["solo", -3], ["solo", 8]]], 0, 1]),
        # negative values; a mode tie between negatives
        Case([[[["n", -5], ["n", -2], ["n", -5], ["n", -2], ["n", 0]]], 1, 4]),
        # keys that differ only in case; byte order puts uppercase first
        Case([[[["B", 1]], [["a", 1]], [["b", 1]], [["A", 1]]], 4, 3]),
        # everything on one key: extreme skew
        Case([[[["hot", i % 3] for i in range(50)]], 1, 8]),
        # exactly an even share is not hot
        Case([[[["p", 1], ["q", 1], ["p", 1], ["q", 1]]], 2, 2]),
        Case([_shards(rng, 20, 5), 3, 3]),
        Case([_shards(rng, 60, 12, skew=0.3), 5, 4]),
        Case([_shards(rng, 100, 40, shards=7, values=(-100, 100)), 10, 16]),
        Case([_shards(rng, 200, 8, skew=0.6, values=(0, 3)), 8, 5]),
        Case([_shards(rng, 400, 150, shards=1), 1000, 7]),
        Case([_shards(rng, 800, 30, shards=12, skew=0.1, values=(-(10**9), 10**9)), 30, 64]),
        Case([_shards(rng, 1500, 600, shards=3, skew=0.02), 25, 1000]),
    ]
    big = random.Random(111)
    keys = [f"{i:x}" for i in range(10000)]
    shards = [[] for _ in range(8)]
    for _ in range(22000):
        key = keys[0] if big.random() < 0.15 else keys[min(int(big.expovariate(1 / 3500)), 9999)]
        shards[big.randrange(8)].append([key, big.randint(0, 99)])
    cases.append(Case([shards, 20, 32], large=True))
    return cases


STARTER_PY = """\
def aggregate(shards: list, k: int, reducers: int) -> dict:
    return {
        "records": 0,
        "distinct": 0,
        "top": [],
        "loads": [0] * reducers,
        "hot": [],
        "salted_loads": [0] * reducers,
    }
"""

STARTER_JS = """\
function aggregate(shards, k, reducers) {
  return {
    records: 0,
    distinct: 0,
    top: [],
    loads: new Array(reducers).fill(0),
    hot: [],
    salted_loads: new Array(reducers).fill(0),
  };
}

module.exports = { aggregate };
"""

STARTER_CPP = """\
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

using json = nlohmann::json;
using Record = std::pair<std::string, long long>;  // [key, value]

// The JSON arguments convert to these parameter types (nlohmann::json); return anything
// nlohmann::json holds: numbers, strings, std::vector, std::map, json itself.
json aggregate(const std::vector<std::vector<Record>>& shards, int k, int reducers) {
  return {{"records", 0}, {"distinct", 0}, {"top", json::array()},
          {"loads", std::vector<long long>(reducers, 0)}, {"hot", json::array()},
          {"salted_loads", std::vector<long long>(reducers, 0)}};
}
"""

STARTER_GO = """\
package main

// The JSON arguments decode into these parameter types (encoding/json; a JSON number
// in an interface{} is a float64); the return value is encoded back to JSON.
// A record [key, value] arrives as []interface{}{string, float64}.
func aggregate(shards [][][]interface{}, k int, reducers int) map[string]interface{} {
\treturn map[string]interface{}{
\t\t"records": 0, "distinct": 0, "top": []interface{}{},
\t\t"loads": make([]int, reducers), "hot": []string{},
\t\t"salted_loads": make([]int, reducers),
\t}
}
"""

FOLLOW_UPS = [
    {
        "prompt": (
            "Salting fixed the loads, but the reducers of a salted key now each hold part of\n"
            "its values. How do you still get its exact mode and median?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Mode: reducers emit per-value counts for the salted key and a second stage\n"
            "merges them (counts are mergeable). Median: not mergeable from partial medians;\n"
            "ship value histograms (when the value range is small), or sorted runs and a\n"
            "k-way selection, or accept a sketch (t-digest, KLL) with an error bound. Strong\n"
            "candidates note the second stage is itself small because only hot keys need it.\n"
        ),
    },
    {
        "prompt": "Where is the time going in your solution on the largest test?",
        "trigger": "after_minutes",
        "after_minutes": 20,
        "coach_notes": (
            "CPU-bound: one pass to group (hash map), sorting only the top-k keys' values,\n"
            "one pass for loads. Hashing 300k keys with FNV in pure Python is noticeable;\n"
            "computing it once per distinct key is the easy win.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="shard-aggregate",
        name="shard_aggregate",
        title="Map-reduce aggregation with skewed keys",
        difficulty="medium",
        tags=["map-reduce", "aggregation", "top-k", "median", "skew", "practice"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Aggregate and measure the skew",
                "Arguments arrive as a JSON array `[shards, k, reducers]`; return the object.\n",
                SAMPLES,
                _hidden(),
            )
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
        entrypoint="aggregate",
    )
