"""kv-block-allocator: a paged KV-cache block allocator (vLLM's block manager in miniature):
sequences over fixed-size blocks, lowest-numbered blocks first, recompute-style
pre-emption of the youngest sequences when an append runs out of blocks."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
A serving engine keeps the KV cache of every running sequence in fixed-size **blocks**
of GPU memory (paged attention): a sequence of `n` tokens holds `ceil(n / block_size)`
blocks, listed in its *block table*. Implement the block allocator and replay an
operation log against it.

Implement `run(num_blocks, block_size, ops)`. The blocks are numbered `0 …
num_blocks − 1` and all start free. A sequence is *live* from a successful `alloc` until
it is freed or pre-empted. Each operation is a list:

| operation | effect | result |
|---|---|---|
| `["alloc", seq, n]` | admit a new sequence with `n` tokens (its prompt) | `true`, or `false` if refused |
| `["append", seq, n]` | add `n` tokens to live sequence `seq` | the number of sequences pre-empted, or `-1` |
| `["free", seq]` | the sequence finished: release its blocks | the number of blocks released |
| `["table", seq]` | — | its block table, a list of block ids |
| `["stats"]` | — | `[free_blocks, live_sequences, wasted_slots]` |

**Rules.**

1. **Blocks.** A sequence of `n` tokens holds exactly `ceil(n / block_size)` blocks.
   Whenever blocks are handed out they are the **lowest-numbered free** blocks, in
   increasing order, appended to the end of the block table (an append first fills the
   free slots of the sequence's last block and takes new blocks only for the rest).
2. **Admission.** `alloc` takes its blocks if enough are free; otherwise it is refused
   (`false`) and nothing changes. `alloc` never pre-empts.
3. **Out of blocks on append.** If an `append` needs more new blocks than are free, live
   sequences other than `seq` are **pre-empted**, the most recently admitted first, one
   at a time until enough blocks are free: a pre-empted sequence releases all its
   blocks and stops being live (the engine will recompute it later). The result is the
   number pre-empted by this operation (`0` if none was needed).
4. **Impossible append.** If the append could not fit even with every other live
   sequence pre-empted, the result is `-1` and nothing changes (nothing is pre-empted).
5. **Not live.** `alloc` of a sequence that is live, and `append`, `free` or `table` of
   one that is not (never admitted, freed, or pre-empted), return `null` and change
   nothing. A freed or pre-empted sequence may be admitted again (a new admission).
6. **Stats.** `wasted_slots` is the internal fragmentation: the sum over live sequences
   of `blocks held × block_size − tokens`.

Return `{"results": [...], "preemptions": p}`: one result per operation, in order, and
the total number of sequences pre-empted.

`0 ≤ num_blocks ≤ 10^5`, `1 ≤ block_size ≤ 256`, up to `10^4` operations,
`0 ≤ seq < 10^9`, `1 ≤ n ≤ 10^6`; over the whole log at most `10^6` blocks are handed
out and the `table` results hold at most `10^6` block ids in total.

### Example

```
run(6, 4, [["alloc", 1, 6], ["alloc", 2, 4], ["append", 1, 2], ["append", 1, 1],
           ["table", 1], ["stats"], ["append", 1, 12], ["stats"]])
```

```
{"results": [true, true, 0, 0, [0, 1, 3], [2, 2, 3], 1, [0, 1, 3]],
 "preemptions": 1}
```

Sequence 1 takes blocks 0 and 1 (6 tokens, 2 slots wasted) and sequence 2 takes block
2. Appending 2 tokens fills block 1; one more token needs block 3. Sequence 1 then holds
9 tokens in 3 blocks (3 slots wasted) and 2 blocks are free. Appending 12 tokens needs
3 more blocks (21 tokens in 6): sequence 2 is pre-empted, and sequence 1 takes blocks
2, 4 and 5.

**Limits.** 2 s CPU per test. Scanning all blocks for a free one, or recounting the
stats over every block, is too slow for the largest tests.
"""

SAMPLES = [
    Case(
        [
            6,
            4,
            [
                ["alloc", 1, 6],
                ["alloc", 2, 4],
                ["append", 1, 2],
                ["append", 1, 1],
                ["table", 1],
                ["stats"],
                ["append", 1, 12],
                ["stats"],
            ],
        ],
        expect={
            "results": [True, True, 0, 0, [0, 1, 3], [2, 2, 3], 1, [0, 1, 3]],
            "preemptions": 1,
        },
    ),
    # a refused alloc changes nothing; an impossible append pre-empts nobody
    Case(
        [
            3,
            2,
            [
                ["alloc", 7, 4],
                ["alloc", 8, 3],
                ["append", 7, 3],
                ["table", 7],
                ["free", 7],
                ["alloc", 8, 3],
                ["table", 8],
            ],
        ],
        expect={
            "results": [True, False, -1, [0, 1], 2, True, [0, 1]],
            "preemptions": 0,
        },
    ),
    # operations on sequences that are not live
    Case(
        [
            2,
            8,
            [
                ["free", 5],
                ["alloc", 5, 8],
                ["alloc", 5, 1],
                ["free", 5],
                ["table", 5],
                ["append", 5, 1],
                ["stats"],
            ],
        ],
        expect={
            "results": [None, True, None, 1, None, None, [2, 0, 0]],
            "preemptions": 0,
        },
    ),
]


def _ops(rng, n, *, seqs, tokens=(1, 20), grow=(1, 8), weights=(4, 6, 2, 1, 1)):
    ops = []
    recent = []  # mostly name sequences admitted lately, so most operations find them live
    for _ in range(n):
        kind = rng.choices(["alloc", "append", "free", "table", "stats"], weights)[0]
        seq = rng.choice(recent) if recent and rng.random() < 0.8 else rng.choice(seqs)
        if kind == "alloc":
            seq = rng.choice(seqs)
            recent = [*recent[-20:], seq]
            ops.append(["alloc", seq, rng.randint(*tokens)])
        elif kind == "append":
            ops.append(["append", seq, rng.randint(*grow)])
        elif kind == "stats":
            ops.append(["stats"])
        else:
            ops.append([kind, seq])
    return ops


def _hidden():
    rng = random.Random(1901)
    cases = [
        # an append fills the last block's free slots before taking a new block
        Case(
            [
                4,
                4,
                [
                    ["alloc", 0, 3],
                    ["append", 0, 1],
                    ["table", 0],
                    ["stats"],
                    ["append", 0, 1],
                    ["table", 0],
                    ["stats"],
                ],
            ],
            expect={"results": [True, 0, [0], [3, 1, 0], 0, [0, 1], [2, 1, 3]], "preemptions": 0},
        ),
        # exactly a multiple of the block size: no extra block
        Case(
            [3, 5, [["alloc", 1, 5], ["alloc", 2, 10], ["stats"], ["append", 1, 5], ["stats"]]],
            expect={"results": [True, True, [0, 2, 0], 1, [1, 1, 0]], "preemptions": 1},
        ),
        # the most recently admitted other sequence goes first, and only as many as needed
        Case(
            [
                4,
                1,
                [
                    ["alloc", 10, 1],
                    ["alloc", 11, 1],
                    ["alloc", 12, 1],
                    ["append", 10, 1],
                    ["append", 10, 1],
                    ["table", 10],
                    ["table", 11],
                    ["table", 12],
                ],
            ],
            expect={"results": [True, True, True, 0, 1, [0, 3, 2], [1], None], "preemptions": 1},
        ),
        # the appending sequence is the youngest: it is never its own victim
        Case(
            [
                3,
                2,
                [
                    ["alloc", 1, 2],
                    ["alloc", 2, 2],
                    ["alloc", 3, 2],
                    ["append", 3, 2],
                    ["stats"],
                    ["table", 3],
                    ["table", 2],
                ],
            ],
            expect={"results": [True, True, True, 1, [0, 2, 0], [2, 1], None], "preemptions": 1},
        ),
        # several pre-empted by one append; an append that fits exactly after all of them
        Case(
            [
                5,
                1,
                [
                    ["alloc", 1, 1],
                    ["alloc", 2, 1],
                    ["alloc", 3, 2],
                    ["append", 2, 4],
                    ["stats"],
                    ["table", 2],
                    ["free", 1],
                    ["free", 3],
                ],
            ],
            expect={
                "results": [True, True, True, 2, [0, 1, 0], [1, 0, 2, 3, 4], None, None],
                "preemptions": 2,
            },
        ),
        # freed blocks are reused lowest-numbered first, not last-freed first
        Case(
            [
                6,
                1,
                [
                    ["alloc", 1, 2],
                    ["alloc", 2, 2],
                    ["alloc", 3, 2],
                    ["free", 1],
                    ["free", 3],
                    ["alloc", 4, 3],
                    ["table", 4],
                    ["free", 2],
                    ["append", 4, 2],
                    ["table", 4],
                ],
            ],
            expect={
                "results": [True, True, True, 2, 2, True, [0, 1, 4], 2, 0, [0, 1, 4, 2, 3]],
                "preemptions": 0,
            },
        ),
        # a pre-empted sequence is not live, and may be admitted again (as the youngest)
        Case(
            [
                2,
                4,
                [
                    ["alloc", 1, 4],
                    ["alloc", 2, 4],
                    ["append", 1, 1],
                    ["append", 2, 1],
                    ["free", 2],
                    ["alloc", 2, 3],
                    ["append", 1, 3],
                    ["table", 2],
                    ["stats"],
                ],
            ],
            expect={
                "results": [True, True, 1, None, None, False, 0, None, [0, 1, 0]],
                "preemptions": 1,
            },
        ),
        # an impossible append leaves every other sequence live
        Case(
            [3, 1, [["alloc", 1, 1], ["alloc", 2, 1], ["append", 1, 3], ["table", 2], ["stats"]]],
            expect={"results": [True, True, -1, [1], [1, 2, 0]], "preemptions": 0},
        ),
        # no blocks at all
        Case(
            [0, 16, [["alloc", 1, 1], ["stats"], ["table", 1]]],
            expect={"results": [False, [0, 0, 0], None], "preemptions": 0},
        ),
        # a refused alloc pre-empts nobody
        Case(
            [2, 1, [["alloc", 1, 2], ["alloc", 2, 1], ["table", 1]]],
            expect={"results": [True, False, [0, 1]], "preemptions": 0},
        ),
        Case([1, 1, []], expect={"results": [], "preemptions": 0}),
        Case([8, 4, _ops(rng, 40, seqs=list(range(4)))]),
        Case([16, 2, _ops(rng, 120, seqs=list(range(8)), tokens=(1, 9), grow=(1, 5))]),
        Case([32, 8, _ops(rng, 300, seqs=list(range(12)), tokens=(1, 60), grow=(1, 40))]),
        Case([64, 3, _ops(rng, 600, seqs=list(range(30)), weights=(5, 8, 1, 1, 1))]),
        Case(
            [
                100,
                16,
                _ops(
                    rng,
                    1200,
                    seqs=[rng.randrange(10**9) for _ in range(40)],
                    tokens=(1, 200),
                    grow=(1, 64),
                ),
            ]
        ),
        Case([5, 256, _ops(rng, 400, seqs=list(range(6)), tokens=(1, 700), grow=(1, 300))]),
    ]
    big = random.Random(1902)
    ops = []
    seqs = [big.randrange(10**9) for _ in range(3000)]
    recent = []
    for _ in range(10**4):
        x = big.random()
        seq = big.choice(recent) if recent and big.random() < 0.85 else big.choice(seqs)
        if x < 0.30:
            seq = big.choice(seqs)
            recent = [*recent[-200:], seq]
            ops.append(["alloc", seq, big.randint(1, 2000)])
        elif x < 0.80:
            ops.append(["append", seq, big.randint(1, 400)])
        elif x < 0.92:
            ops.append(["free", seq])
        elif x < 0.96:
            ops.append(["table", seq])
        else:
            ops.append(["stats"])
    cases.append(Case([10**5, 16, ops], large=True))
    return cases


STARTER_PY = """\
def run(num_blocks: int, block_size: int, ops: list) -> dict:
    results = []
    preemptions = 0
    for op in ops:
        kind = op[0]
        # apply the rules
    return {"results": results, "preemptions": preemptions}
"""

STARTER_JS = """\
function run(numBlocks, blockSize, ops) {
  const results = [];
  let preemptions = 0;
  for (const op of ops) {
    const kind = op[0];
    // apply the rules (a Map iterates in insertion order: useful for admission order)
  }
  return { results, preemptions };
}

module.exports = { run };
"""

FOLLOW_UPS = [
    {
        "prompt": "What does each operation cost in your allocator, and what dominates?",
        "trigger": "after_minutes",
        "after_minutes": 20,
        "coach_notes": (
            "Model answer: a min-heap of free block ids makes each block handed out or\n"
            "released O(log B); admission order in an insertion-ordered map gives the\n"
            "youngest victim in O(1); keep free count, live count and wasted slots as\n"
            "running totals so stats is O(1). The feasibility check is O(1): the others hold\n"
            "num_blocks - free - held. Wrong patterns the hidden tests target: taking\n"
            "ceil(n / block_size) new blocks on append (ignores the last block's slack),\n"
            "off-by-one ceil (n // size + 1), pre-empting before checking the append can\n"
            "fit at all, pre-empting the oldest instead of the youngest, reusing the\n"
            "last-freed block (a stack) instead of the lowest-numbered, scanning every block\n"
            "per request (times out on the largest test).\n"
        ),
    },
    {
        "prompt": (
            "Two requests share a 2,000-token system prompt. How would the allocator let\n"
            "them share its blocks, and what happens when one of them appends?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Reference-counted blocks: both tables point at the same physical blocks (hash of\n"
            "the block's tokens and its prefix), ref count 2; only full blocks are shared.\n"
            "Appending into a shared partially filled block needs copy-on-write. Freeing\n"
            "decrements; a block returns to the free pool (or an evictable LRU cache of\n"
            "unreferenced blocks) at zero. Pre-emption: recompute (drop the blocks) versus\n"
            "swap to host memory (PCIe bandwidth vs recompute FLOPs); vLLM pre-empts the\n"
            "most recently arrived request so the oldest keep making progress.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="kv-block-allocator",
        name="kv_block_allocator",
        title="Paged KV-block allocator",
        difficulty="medium",
        tags=["serving", "kv-cache", "paged-attention", "heap", "challenge"],
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
