"""prefix-cache: an automatic prefix cache of KV blocks with reference counts (vLLM's
prefix caching in miniature): shared prompt prefixes hit, running requests pin their
blocks, unreferenced blocks are evicted least recently released first."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
Many requests to a serving engine start with the same system prompt. Their KV blocks can
be shared: the engine caches blocks by the prompt prefix they end, running requests hold
a **reference** on each of their blocks, and only unreferenced blocks may be evicted.
Implement the cache and replay an operation log against it.

Implement `run(num_blocks, block_size, ops)`. The cache holds at most `num_blocks`
blocks. A prompt is a list of token ids; its *full blocks* are its first
`floor(len / block_size)` chunks of `block_size` tokens, and block `j` is identified by
the whole prefix `tokens[0 : (j + 1) · block_size]` (two prompts share block `j` only if
they agree on every token up to its end). Each operation is a list:

| operation | effect | result |
|---|---|---|
| `["start", req, tokens]` | request `req` starts with prompt `tokens` | the number of its full blocks that were cached, or `-1` |
| `["finish", req]` | request `req` finished: release its blocks | the number of blocks that became unreferenced |
| `["lookup", tokens]` | — | how many leading full blocks of `tokens` are cached |
| `["stats"]` | — | `[cached_blocks, referenced_blocks, evictable_blocks]` |

**Rules.**

1. **Start.** Each full block of the prompt is a *hit* if it is cached (referenced or
   not) and a *miss* otherwise. The request is **refused** (`-1`, nothing changes, no
   hit or miss counted) if the misses need more blocks than are free plus evictable,
   not counting as evictable the unreferenced blocks it hits. Otherwise every hit gains
   one reference (an unreferenced hit stops being evictable), then the misses are
   inserted in prompt order with one reference each; each insertion into a full cache
   first **evicts** the evictable block released least recently. The result is the
   number of hits. A prompt with no full block starts with `0`.
2. **Finish** drops one reference from each of the request's blocks, **from its last
   block to its first**; a block whose count reaches `0` becomes evictable at that
   moment (so of one request's blocks, the last is released first and goes first).
3. **Lookup** counts the leading full blocks of `tokens` that are cached, stopping at the
   first that is not; it changes nothing (no references, no recency).
4. **Not running.** `start` of a request that is running and `finish` of one that is not
   (never started, refused, or finished) return `null` and change nothing; a finished
   request's id may start again.

Return `{"results": [...], "hits": h, "misses": m, "evictions": e}`: one result per
operation, the total hits and misses of the admitted starts, and the evictions.

`0 ≤ num_blocks ≤ 10^5`, `1 ≤ block_size ≤ 64`, up to `10^4` operations,
`0 ≤ req < 10^9`, token ids `0 ≤ t < 100`; the prompts of all `start` and `lookup`
operations hold at most `7·10^4` tokens in total.

### Example

```
run(4, 2, [["start", 1, [1, 2, 3, 4, 5]], ["start", 2, [1, 2, 3, 4, 9, 9]],
           ["lookup", [1, 2, 3, 4, 9]], ["finish", 1], ["stats"], ["finish", 2],
           ["start", 3, [7, 7, 8, 8]], ["lookup", [1, 2, 3, 4, 9, 9]], ["stats"]])
```

```
{"results": [0, 2, 2, 0, [3, 3, 0], 3, 0, 2, [4, 2, 2]], "hits": 2, "misses": 5,
 "evictions": 1}
```

Request 1 caches blocks `[1, 2]` and `[1, 2, 3, 4]` (the `5` is not a full block).
Request 2 hits both and adds `[1, 2, 3, 4, 9, 9]`. When request 2 finishes, its three
blocks become evictable, last first; request 3 takes the free block and evicts
`[1, 2, 3, 4, 9, 9]`.

**Limits.** 2 s CPU per test. Scanning every cached block to find the one to evict, or
hashing each block's whole prefix again, is too slow for the largest tests.
"""

SAMPLES = [
    Case(
        [
            4,
            2,
            [
                ["start", 1, [1, 2, 3, 4, 5]],
                ["start", 2, [1, 2, 3, 4, 9, 9]],
                ["lookup", [1, 2, 3, 4, 9]],
                ["finish", 1],
                ["stats"],
                ["finish", 2],
                ["start", 3, [7, 7, 8, 8]],
                ["lookup", [1, 2, 3, 4, 9, 9]],
                ["stats"],
            ],
        ],
        expect={
            "results": [0, 2, 2, 0, [3, 3, 0], 3, 0, 2, [4, 2, 2]],
            "hits": 2,
            "misses": 5,
            "evictions": 1,
        },
    ),
    # a refusal changes nothing; a hit on an evictable block pins it
    Case(
        [
            2,
            1,
            [
                ["start", 1, [5, 6]],
                ["start", 2, [7]],
                ["stats"],
                ["finish", 2],
                ["finish", 1],
                ["start", 2, [5, 7]],
                ["stats"],
            ],
        ],
        expect={
            "results": [0, -1, [2, 2, 0], None, 2, 1, [2, 2, 0]],
            "hits": 1,
            "misses": 3,
            "evictions": 1,
        },
    ),
    # partial blocks, running and finished requests, a block is its whole prefix
    Case(
        [
            3,
            3,
            [
                ["start", 1, [1, 2]],
                ["start", 1, [1]],
                ["finish", 1],
                ["finish", 1],
                ["lookup", []],
                ["start", 2, [1, 2, 3, 1, 2, 3]],
                ["lookup", [1, 2, 3]],
                ["lookup", [4, 5, 6, 1, 2, 3]],
                ["stats"],
            ],
        ],
        expect={
            "results": [0, None, 0, None, 0, 0, 1, 0, [2, 2, 0]],
            "hits": 0,
            "misses": 2,
            "evictions": 0,
        },
    ),
]


def _ops(rng, n, *, reqs, systems, suffix=(0, 12), weights=(5, 4, 2, 1), alphabet=4):
    """Prompts are one of a few shared system prompts plus a short random suffix."""
    prefixes = [
        [rng.randrange(alphabet) for _ in range(rng.randint(0, systems[1]))]
        for _ in range(systems[0])
    ]
    ops = []
    running = []
    for _ in range(n):
        kind = rng.choices(["start", "finish", "lookup", "stats"], weights)[0]
        prompt = rng.choice(prefixes) + [
            rng.randrange(alphabet) for _ in range(rng.randint(*suffix))
        ]
        if kind == "start":
            req = rng.choice(reqs)
            running.append(req)
            ops.append(["start", req, prompt])
        elif kind == "finish":
            req = rng.choice(running) if running and rng.random() < 0.85 else rng.choice(reqs)
            ops.append(["finish", req])
        elif kind == "lookup":
            ops.append(["lookup", prompt])
        else:
            ops.append(["stats"])
    return ops


def _hidden():
    rng = random.Random(1951)
    cases = [
        # one request's blocks are released last first: the leaf is evicted, not the root
        Case(
            [
                3,
                1,
                [["start", 1, [1, 2, 3]], ["finish", 1], ["start", 2, [9]], ["lookup", [1, 2, 3]]],
            ],
            expect={"results": [0, 3, 0, 2], "hits": 0, "misses": 4, "evictions": 1},
        ),
        # least recently released goes first, not least recently inserted
        Case(
            [
                2,
                1,
                [
                    ["start", 1, [1]],
                    ["start", 2, [2]],
                    ["finish", 2],
                    ["finish", 1],
                    ["start", 3, [3]],
                    ["lookup", [1]],
                    ["lookup", [2]],
                ],
            ],
            expect={"results": [0, 0, 1, 1, 0, 1, 0], "hits": 0, "misses": 3, "evictions": 1},
        ),
        # a hit on an evictable block takes it off the eviction order
        Case(
            [
                2,
                1,
                [
                    ["start", 1, [1]],
                    ["finish", 1],
                    ["start", 2, [1]],
                    ["start", 3, [5]],
                    ["start", 4, [6]],
                    ["lookup", [1]],
                    ["stats"],
                ],
            ],
            expect={
                "results": [0, 1, 1, 0, -1, 1, [2, 2, 0]],
                "hits": 1,
                "misses": 2,
                "evictions": 0,
            },
        ),
        # a block released again goes to the back of the eviction order
        Case(
            [
                2,
                1,
                [
                    ["start", 1, [1]],
                    ["start", 2, [2]],
                    ["finish", 1],
                    ["finish", 2],
                    ["start", 3, [1]],
                    ["finish", 3],
                    ["start", 4, [5]],
                    ["lookup", [1]],
                    ["lookup", [2]],
                ],
            ],
            expect={
                "results": [0, 0, 1, 1, 1, 1, 0, 1, 0],
                "hits": 1,
                "misses": 3,
                "evictions": 1,
            },
        ),
        # the request's own evictable hits do not count as room for its misses
        Case(
            [
                2,
                1,
                [
                    ["start", 1, [1]],
                    ["finish", 1],
                    ["start", 2, [1, 2, 3]],
                    ["stats"],
                    ["lookup", [1]],
                ],
            ],
            expect={"results": [0, 1, -1, [1, 0, 1], 1], "hits": 0, "misses": 1, "evictions": 0},
        ),
        # lookup changes no recency
        Case(
            [
                3,
                1,
                [
                    ["start", 1, [1, 2]],
                    ["finish", 1],
                    ["lookup", [1, 2]],
                    ["start", 2, [3]],
                    ["start", 3, [4]],
                    ["lookup", [1, 2]],
                ],
            ],
            expect={"results": [0, 2, 2, 0, 0, 1], "hits": 0, "misses": 4, "evictions": 1},
        ),
        # a shared block stays referenced until its last request finishes
        Case(
            [
                4,
                2,
                [
                    ["start", 1, [1, 1, 2, 2]],
                    ["start", 2, [1, 1, 3, 3]],
                    ["start", 3, [1, 1]],
                    ["finish", 1],
                    ["finish", 3],
                    ["stats"],
                    ["finish", 2],
                    ["stats"],
                ],
            ],
            expect={
                "results": [0, 1, 1, 1, 0, [3, 2, 1], 2, [3, 0, 3]],
                "hits": 2,
                "misses": 3,
                "evictions": 0,
            },
        ),
        # a refused request is not running; the same id may start again later
        Case(
            [
                1,
                1,
                [
                    ["start", 1, [1]],
                    ["start", 2, [2]],
                    ["finish", 2],
                    ["finish", 1],
                    ["start", 2, [2]],
                    ["start", 1, [2]],
                    ["stats"],
                ],
            ],
            expect={
                "results": [0, -1, None, 1, 0, 1, [1, 1, 0]],
                "hits": 1,
                "misses": 2,
                "evictions": 1,
            },
        ),
        # no room at all
        Case(
            [0, 4, [["start", 1, [1, 2, 3]], ["start", 2, [1, 2, 3, 4]], ["finish", 1], ["stats"]]],
            expect={"results": [0, -1, 0, [0, 0, 0]], "hits": 0, "misses": 0, "evictions": 0},
        ),
        Case([1, 1, []], expect={"results": [], "hits": 0, "misses": 0, "evictions": 0}),
        Case([6, 2, _ops(rng, 40, reqs=list(range(5)), systems=(2, 6))]),
        Case([10, 1, _ops(rng, 150, reqs=list(range(8)), systems=(3, 8), suffix=(0, 4))]),
        Case([20, 3, _ops(rng, 300, reqs=list(range(15)), systems=(4, 20))]),
        Case([40, 2, _ops(rng, 600, reqs=list(range(30)), systems=(6, 30), alphabet=2)]),
        Case(
            [
                100,
                4,
                _ops(
                    rng,
                    800,
                    reqs=[rng.randrange(10**9) for _ in range(60)],
                    systems=(8, 60),
                    suffix=(0, 30),
                ),
            ]
        ),
        Case([3, 8, _ops(rng, 300, reqs=list(range(4)), systems=(2, 24), suffix=(0, 20))]),
    ]
    big = random.Random(1952)
    # the largest test: 10^4 operations whose prompts hold 7·10^4 tokens in all (ids 0..9
    # keep it under 400 KB), mostly unique suffixes: a cache too small for the working set
    systems = [[big.randrange(10) for _ in range(big.randint(4, 10))] for _ in range(30)]
    ops = []
    running = []
    budget = 7 * 10**4
    while len(ops) < 10**4:
        x = big.random()
        left = 10**4 - len(ops)
        if len(running) > 40 or (x < 0.47 and running):
            req = running.pop(big.randrange(len(running))) if big.random() < 0.95 else 7
            ops.append(["finish", req])
        elif x < 0.95:
            size = max(0, min(budget // max(1, left // 2), 60))
            prompt = (big.choice(systems) + [big.randrange(10) for _ in range(20)])[:size]
            budget -= len(prompt)
            req = big.randrange(10**4)
            if req not in running:
                running.append(req)
            ops.append(["start", req, prompt])
        elif x < 0.98:
            prompt = big.choice(systems)[: min(budget, big.randint(0, 26))]
            budget -= len(prompt)
            ops.append(["lookup", prompt])
        else:
            ops.append(["stats"])
    cases.append(Case([10**4, 1, ops], large=True))
    return cases


STARTER_PY = """\
def run(num_blocks: int, block_size: int, ops: list) -> dict:
    results = []
    hits = misses = evictions = 0
    for op in ops:
        kind = op[0]
        # apply the rules
    return {"results": results, "hits": hits, "misses": misses, "evictions": evictions}
"""

STARTER_JS = """\
function run(numBlocks, blockSize, ops) {
  const results = [];
  let hits = 0, misses = 0, evictions = 0;
  for (const op of ops) {
    const kind = op[0];
    // apply the rules (a Map iterates in insertion order: useful for eviction order)
  }
  return { results, hits, misses, evictions };
}

module.exports = { run };
"""

FOLLOW_UPS = [
    {
        "prompt": "How do you name a block without hashing its whole prefix, and what does each operation cost?",
        "trigger": "after_minutes",
        "after_minutes": 20,
        "coach_notes": (
            "Model answer: a hash chain: block j's key is (key of block j-1, its tokens),\n"
            "interned to an integer, so a prompt of L tokens costs O(L); reference counts in\n"
            "a map; the evictable blocks in an insertion-ordered map (pop the oldest, delete a\n"
            "hit in O(1)). Releasing last block first means a parent is never evicted\n"
            "before its children, so cached blocks always form whole prefixes (vLLM frees\n"
            "in reverse for this reason). Wrong patterns the hidden tests target: releasing\n"
            "first block first (evicts the shared root), evicting by insertion time, leaving\n"
            "a hit in the eviction order (a referenced block gets evicted), counting the\n"
            "request's own evictable hits as room, taking references before the refusal\n"
            "check, lookups that refresh recency; scanning for the victim or re-hashing the\n"
            "prefix per block times out on the largest test.\n"
        ),
    },
    {
        "prompt": (
            "Tenants share this cache. What can one tenant learn about another, and what\n"
            "would you change?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Timing side channel: a hit makes the first token faster, so a tenant can probe\n"
            "whether some prefix (another tenant's prompt) is cached. Salt the block hash\n"
            "with a tenant (or cache-isolation) key, share only public system prompts.\n"
            "Also: one tenant's scan of long unique prompts flushes everyone's prefixes\n"
            "(per-tenant quotas, ARC/2Q); use a collision-resistant hash (SHA-256) when\n"
            "keys are hashes rather than exact tokens.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="prefix-cache",
        name="prefix_cache",
        title="Prefix cache with reference counts",
        difficulty="medium",
        tags=["serving", "kv-cache", "prefix-caching", "lru", "challenge"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Replay the log",
                "Arguments arrive as a JSON array `[num_blocks, block_size, ops]`; return the object.\n",
                SAMPLES,
                _hidden(),
            )
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS},
        follow_ups=FOLLOW_UPS,
        languages=["python", "javascript"],
        io="function",
        entrypoint="run",
    )
